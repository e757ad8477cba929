// SPDX-License-Identifier: MIT
// The prefixed API (include/keel/alloc/api.h): glibc's semantics on top of the fast paths.
#include <errno.h>

#include <cstring>

#include "alloc/fast.h"
#include "keel/alloc/api.h"

using namespace keel::alloc::detail;

namespace {

bool power_of_two(std::size_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

extern "C" {

void* keel_malloc(size_t size) { return malloc_fast(size); }

void keel_free(void* p) { free_fast(p); }

void* keel_calloc(size_t count, size_t size) {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  if (total <= kSmallMax) {
    void* p = malloc_fast(total);
    if (p) std::memset(p, 0, total);
    return p;
  }
  return malloc_slow(total, true);
}

void* keel_realloc(void* p, size_t size) { return realloc_impl(p, size); }

void* keel_reallocarray(void* p, size_t count, size_t size) {
  size_t total;
  if (__builtin_mul_overflow(count, size, &total)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc_impl(p, total);
}

void* keel_aligned_alloc(size_t alignment, size_t size) {
  if (!power_of_two(alignment)) {
    errno = EINVAL;
    return nullptr;
  }
  return alloc_aligned(size, alignment, false);
}

int keel_posix_memalign(void** out, size_t alignment, size_t size) {
  if (!power_of_two(alignment) || alignment % sizeof(void*) != 0) return EINVAL;
  const int saved = errno;
  void* p = alloc_aligned(size, alignment, false);
  errno = saved;
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

void* keel_memalign(size_t alignment, size_t size) {
  if (alignment > (static_cast<size_t>(-1) >> 1) + 1) {
    errno = EINVAL;
    return nullptr;
  }
  if (!power_of_two(alignment)) {  // glibc rounds up to the next power of two
    size_t a = 1;
    while (a < alignment) a <<= 1;
    alignment = a;
  }
  return alloc_aligned(size, alignment, false);
}

void* keel_valloc(size_t size) { return alloc_aligned(size, kOsPage, false); }

void* keel_pvalloc(size_t size) {
  size_t rounded;
  if (__builtin_add_overflow(size, kOsPage - 1, &rounded)) {
    errno = ENOMEM;
    return nullptr;
  }
  rounded &= ~(kOsPage - 1);
  return alloc_aligned(rounded ? rounded : kOsPage, kOsPage, false);
}

size_t keel_malloc_usable_size(const void* p) { return p ? usable_size(p) : 0; }

int keel_malloc_trim(size_t pad) {
  (void)
      pad;  // keel keeps no top-of-heap reserve; everything free beyond the segments' headers goes
  const size_t before = g_stats.purged.load(std::memory_order_relaxed);
  const size_t mapped = g_stats.mapped.load(std::memory_order_relaxed);
  heap_trim();
  return g_stats.purged.load(std::memory_order_relaxed) != before ||
                 g_stats.mapped.load(std::memory_order_relaxed) != mapped
             ? 1
             : 0;
}

struct keel_alloc_info keel_alloc_info_get(void) {
  keel_alloc_info i{};
  i.mapped = g_stats.mapped.load(std::memory_order_relaxed);
  i.peak_mapped = g_stats.peak_mapped.load(std::memory_order_relaxed);
  i.in_pages = g_stats.pages_bytes.load(std::memory_order_relaxed);
  i.huge_mapped = g_stats.huge_mapped.load(std::memory_order_relaxed);
  i.huge_count = g_stats.huge_count.load(std::memory_order_relaxed);
  i.purged = g_stats.purged.load(std::memory_order_relaxed);
  i.segments = g_stats.segments.load(std::memory_order_relaxed);
  i.abandoned = g_stats.abandoned.load(std::memory_order_relaxed);
  i.heaps = g_stats.heaps.load(std::memory_order_relaxed);
  return i;
}

}  // extern "C"
