// SPDX-License-Identifier: MIT
// Statistics. Process figures (mapped, purged, segments, ...) are counted on slow paths and always
// available (keel_alloc_info_get, mallinfo2). Per-class allocation counts cost a fast-path
// increment and are compiled in only with the CMake option KEEL_ALLOC_COUNTERS (macro
// KEEL_ALLOC_WITH_STATS). KEEL_ALLOC_STATS=1 in the environment prints what is available at exit.
#include <cstdio>

#include "alloc/internal.h"
#include "keel/alloc/api.h"

namespace keel::alloc::detail {

os_stats g_stats;

namespace {

void put_line(const char* label, std::size_t v) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "keel::alloc: %-22s %zu\n", label, v);
  os_write(buf);
}

}  // namespace

void stats_print() {
  const keel_alloc_info i = keel_alloc_info_get();
  put_line("segment bytes mapped", i.mapped);
  put_line("peak segment bytes", i.peak_mapped);
  put_line("bytes in pages", i.in_pages);
  put_line("huge bytes mapped", i.huge_mapped);
  put_line("huge blocks", i.huge_count);
  put_line("bytes purged (madvise)", i.purged);
  put_line("segments", i.segments);
  put_line("abandoned segments", i.abandoned);
  put_line("thread heaps", i.heaps);
#ifdef KEEL_ALLOC_WITH_STATS
  // The exiting thread's counters (other threads' heaps have been handed back).
  const heap* h = t_heap;
  std::size_t total = 0;
  for (std::size_t c = 0; c < kClasses; ++c) total += h->stat_alloc[c];
  put_line("allocations (this thread)", total);
  put_line("fast frees (this thread)", h->stat_free);
  for (std::size_t c = 0; c < kClasses; ++c) {
    if (h->stat_alloc[c] == 0) continue;
    char label[32];
    std::snprintf(label, sizeof label, "  class %zu (%zu B)", c, class_size(c));
    put_line(label, h->stat_alloc[c]);
  }
#else
  os_write("keel::alloc: (per-class counts: build with -DKEEL_ALLOC_COUNTERS=ON)\n");
#endif
}

namespace {
__attribute__((destructor)) void print_at_exit() {
  if (g_options.stats) stats_print();
}
}  // namespace

}  // namespace keel::alloc::detail
