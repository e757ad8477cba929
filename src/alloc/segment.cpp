// SPDX-License-Identifier: MIT
// Segments: 4 MiB-aligned mappings whose first 64 KiB slice holds the header (page metadata) and
// whose other 63 slices are handed out as pages. The segment map, page allocation inside a
// segment, decay (madvise of free slices after KEEL_ALLOC_DECAY_MS), the process-wide cache of
// empty segments and the list of segments abandoned by exited threads.
#include <cstring>

#include "alloc/internal.h"

namespace keel::alloc::detail {

alignas(64) std::uint8_t g_segmap[kChunks];
page g_no_page{.free = 0,
               .used = 0,
               .block_size = 0,
               .lkey = 0,
               .lmask = ~std::uintptr_t{0},
               .start = nullptr,
               .span16 = 0,
               .capacity{0},
               .key = 0,
               .owner{kSlowFree},
               .remote{0},
               .reserved = 0,
               .next = nullptr,
               .prev = nullptr,
               .slice_index = 0,
               .slice_count = 0,
               .cls = 0,
               .in_use = 0,
               .aligned = 1,
               .retire = 0,
               .hfree = 0};

namespace {

spinlock g_abandoned_lock;
segment* g_abandoned = nullptr;
spinlock g_cache_lock;
segment* g_cache = nullptr;
std::size_t g_cache_count = 0;

constexpr std::uint64_t kAllSlices = ~std::uint64_t{0} << 1;  // slice 0 is the header

std::uint64_t run_mask(std::size_t first, std::size_t n) {
  const std::uint64_t bits = n >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << n) - 1);
  return bits << first;
}

// Bit i set: bits i .. i+n-1 of mask are all set (a run of n starts at i).
std::uint64_t run_starts(std::uint64_t mask, std::size_t n) {
  std::uint64_t m = mask;
  for (std::size_t k = 1; k < n && m; ++k) m &= mask >> k;
  return m;
}

// Where a page of n slices goes among the free slices `mask` of a segment (64: nowhere): a
// one-slice page at the lowest run, a longer page at the highest. With `room` (a one-block page,
// classes above 64 KiB: the pages realloc grows in place) only where n more free slices lie
// behind it (n below the top of the highest run of at least 2n): at the very top of a run it
// could never grow, and a lone growing buffer would move at every step.
std::size_t place_run(std::uint64_t mask, std::uint64_t free, std::size_t n, bool room) {
  std::uint64_t m = run_starts(mask, n);
  if (room) m &= run_starts(free, 2 * n);
  if (m == 0) return 64;
  return n == 1 ? static_cast<std::size_t>(__builtin_ctzll(m))
                : 63 - static_cast<std::size_t>(__builtin_clzll(m));
}

// The segment of h (and the run in it) for a page of n slices among the free slices
// `pick(segment)` gives: one-slice pages fill the newest segments from the bottom, longer pages
// the oldest from the top, so the long-lived big pages and the churning small ones fragment each
// other's runs less.
template <class Pick>
segment* place_page(heap* h, std::size_t n, bool room, Pick pick, std::size_t& first) {
  segment* found = nullptr;
  for (segment* s = h->segments; s; s = s->next) {
    const std::size_t i = place_run(pick(s), s->free_slices, n, room);
    if (i == 64) continue;
    found = s;
    first = i;
    if (n == 1) break;  // the newest; longer pages keep looking for the oldest
  }
  return found;
}

// place_page among the slices still resident first, then among any free slices.
segment* place_page_resident_first(heap* h, std::size_t n, bool room, std::size_t& first) {
  if (segment* s = place_page(
          h, n, room, [](const segment* t) { return t->free_slices & t->dirty_slices; }, first))
    return s;
  return place_page(
      h, n, room, [](const segment* t) { return t->free_slices; }, first);
}

std::uint8_t* slice_addr(segment* s, std::size_t i) {
  return reinterpret_cast<std::uint8_t*>(s) + i * kSliceSize;
}

// Returns dirty slices freed at least decay ms before `now` (all with force) to the OS, in runs.
void purge_segment(segment* s, std::uint64_t now, bool force) {
  const auto decay = static_cast<std::uint64_t>(g_options.decay_ms);
  std::uint64_t due = 0, next_deadline = 0;
  for (std::uint64_t d = s->dirty_slices; d; d &= d - 1) {
    const auto i = static_cast<std::size_t>(__builtin_ctzll(d));
    if (force || s->freed_at[i] + decay <= now) {
      due |= std::uint64_t{1} << i;
    } else if (next_deadline == 0 || s->freed_at[i] + decay < next_deadline) {
      next_deadline = s->freed_at[i] + decay;
    }
  }
  for (std::uint64_t d = due; d;) {
    const auto first = static_cast<std::size_t>(__builtin_ctzll(d));
    std::size_t n = 0;
    while (first + n < 64 && (d >> (first + n) & 1)) ++n;
    os_purge(slice_addr(s, first), n * kSliceSize);
    d &= ~run_mask(first, n);
  }
  s->dirty_slices &= ~due;
  s->purge_at = next_deadline;
}

void segment_unmap(segment* s) {
  segmap_set(s, kSegmentSize, false);
  g_stats.mapped.fetch_sub(kSegmentSize, std::memory_order_relaxed);
  g_stats.segments.fetch_sub(1, std::memory_order_relaxed);
  os_unmap(s, kSegmentSize);
}

segment* segment_new() {
  {
    g_cache_lock.lock();
    segment* s = g_cache;
    if (s) {
      __atomic_store_n(&g_cache, s->next, __ATOMIC_RELAXED);
      --g_cache_count;
    }
    g_cache_lock.unlock();
    if (s) return s;
  }
  auto* s = static_cast<segment*>(os_map_aligned(kSegmentSize, kSegmentSize));
  if (!s) return nullptr;
  s->magic = kSegmentMagic ^ reinterpret_cast<std::uintptr_t>(s);
  s->kind = segment_kind::normal;
  s->mapped = kSegmentSize;
  s->free_slices = kAllSlices;
  for (page*& sp : s->slice_page) sp = &g_no_page;
  if (g_options.hardened) {
    // Guard page at the end of the header slice: a run off the metadata faults.
    os_protect(slice_addr(s, 1) - kOsPage, kOsPage, false);
  }
  segmap_set(s, kSegmentSize, true);
  const std::size_t m =
      g_stats.mapped.fetch_add(kSegmentSize, std::memory_order_relaxed) + kSegmentSize;
  std::size_t peak = g_stats.peak_mapped.load(std::memory_order_relaxed);
  while (m > peak && !g_stats.peak_mapped.compare_exchange_weak(peak, m)) {
  }
  g_stats.segments.fetch_add(1, std::memory_order_relaxed);
  return s;
}

void segment_link(heap* h, segment* s) {
  s->owner = h;
  s->prev = nullptr;
  s->next = h->segments;
  if (h->segments) h->segments->prev = s;
  h->segments = s;
}

}  // namespace

// An empty segment leaves its heap (h; nullptr when not linked): into the process-wide cache (it
// keeps its dirty slices until they decay) or, when the cache is full, back to the OS.
void segment_release(heap* h, segment* s) {
  if (h) {
    if (s->prev)
      s->prev->next = s->next;
    else
      h->segments = s->next;
    if (s->next) s->next->prev = s->prev;
  }
  s->owner = nullptr;
  s->prev = nullptr;
  g_cache_lock.lock();
  if (g_cache_count < static_cast<std::size_t>(g_options.segment_cache)) {
    s->next = g_cache;
    __atomic_store_n(&g_cache, s, __ATOMIC_RELAXED);
    ++g_cache_count;
    s = nullptr;
  }
  g_cache_lock.unlock();
  if (s) segment_unmap(s);
  segment_cache_trim(false);
}

void segmap_set(segment* s, std::size_t bytes, bool on) {
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(s) >> kSegmentShift;
  const std::size_t chunks = (bytes + kSegmentSize - 1) >> kSegmentShift;
  for (std::size_t i = 0; i < chunks && first + i < kChunks; ++i) {
    const std::uint8_t v = on ? static_cast<std::uint8_t>(i + 1 > 255 ? 255 : i + 1) : 0;
    __atomic_store_n(&g_segmap[first + i], v, __ATOMIC_RELEASE);
  }
}

segment* segment_lookup(const void* p) {
  std::uintptr_t chunk = reinterpret_cast<std::uintptr_t>(p) >> kSegmentShift;
  if (chunk >= kChunks) return nullptr;
  for (;;) {
    const std::uint8_t v = __atomic_load_n(&g_segmap[chunk], __ATOMIC_ACQUIRE);
    if (v == 0) return nullptr;
    if (v == 1) break;
    const std::uintptr_t back = v - 1u;
    if (back > chunk) return nullptr;
    chunk -= back;
  }
  auto* s = reinterpret_cast<segment*>(chunk << kSegmentShift);
  if (s->magic != (kSegmentMagic ^ reinterpret_cast<std::uintptr_t>(s))) return nullptr;
  return s;
}

page* segment_page_alloc(heap* h, std::size_t cls) {
  // A new page is needed: retired empty pages give their (resident) slices back first.
  if (h->retired_count) heap_retire_tick(h, true);
  std::size_t n = class_slices(cls);
  // Hardened: the page's last 4 KiB is a guard; a one-block page needs room for its block.
  if (g_options.hardened && n * kSliceSize - kOsPage < class_size(cls)) ++n;
  const bool one_block = cls >= kOneBlockClass;
  // Segments abandoned by exited threads first: their blocks are being freed by the threads that
  // inherited them (remote frees nobody collects until a heap adopts the segment), so until then
  // their pages hold memory that serves no one. Adopting collects those frees and puts the
  // pages back in use before this heap takes more of its own free slices or maps more.
  while (segment* a = segment_take_abandoned()) heap_adopt(h, a);
  segment* s = nullptr;
  std::size_t first = 64;
  for (int attempt = 0; attempt < 4 && first == 64; ++attempt) {
    // A one-block page first looks for a run with room to grow behind it, in any segment.
    if (one_block) s = place_page_resident_first(h, n, true, first);
    if (!s) s = place_page_resident_first(h, n, false, first);
    if (s) break;
    first = 64;
    if (attempt == 0) {
      // Memory other threads gave back may free whole pages: collect before mapping more — at
      // most once per pages/4 new pages, so a growing heap does not rescan all its pages.
      if (h->new_pages >= 16 + h->pages / 4) {
        h->new_pages = 0;
        heap_collect(h, false, false);
      }
    } else if (attempt == 1) {
      if (segment* a = segment_take_abandoned()) heap_adopt(h, a);
    } else if (attempt == 2) {
      // The footprint grows: map a new segment. (Purging the fragmented free runs that could not
      // serve this request first was slower in an A/B and did not lower the peak RSS.)
      segment* fresh = segment_new();
      if (!fresh) return nullptr;
      segment_link(h, fresh);
    }
  }
  if (first == 64 || s == nullptr) return nullptr;

  const std::uint64_t run = run_mask(first, n);
  s->free_slices &= ~run;
  s->dirty_slices &= ~run;
  page* pg = &s->pages[first];
  for (std::size_t i = 0; i < n; ++i) s->slice_page[first + i] = pg;
  pg->slice_index = static_cast<std::uint16_t>(first);
  pg->slice_count = static_cast<std::uint16_t>(n);
  std::size_t bytes = n * kSliceSize;
  if (g_options.hardened) {
    bytes -= kOsPage;  // guard page at the end of every page
    os_protect(slice_addr(s, first) + bytes, kOsPage, false);
  }
  page_init(pg, cls, slice_addr(s, first), bytes);
  pg->owner.store(owner_word(h, pg), std::memory_order_relaxed);
  ++s->used_pages;
  ++h->pages;
  ++h->new_pages;
  g_stats.pages_bytes.fetch_add(n * kSliceSize, std::memory_order_relaxed);
  return pg;
}

// realloc of a one-block page: takes the free slices right behind it, if there are enough.
bool segment_page_grow(page* pg, std::size_t bytes) {
  segment* s = segment_of(pg);
  const std::size_t first = pg->slice_index, n = pg->slice_count;
  const std::size_t want = (bytes + kSliceSize - 1) / kSliceSize;
  if (want <= n || first + want > kSlices || g_options.hardened) return false;
  const std::uint64_t extra = run_mask(first + n, want - n);
  if ((s->free_slices & extra) != extra) return false;
  s->free_slices &= ~extra;
  s->dirty_slices &= ~extra;
  for (std::size_t i = first + n; i < first + want; ++i) s->slice_page[i] = pg;
  pg->slice_count = static_cast<std::uint16_t>(want);
  pg->block_size = static_cast<std::uint32_t>(want * kSliceSize);
  pg->span16 = pg->block_size / 16;
  pg->lmask = ~std::uintptr_t{0};  // no longer one slice
  g_stats.pages_bytes.fetch_add((want - n) * kSliceSize, std::memory_order_relaxed);
  return true;
}

bool segment_page_free(heap* h, page* pg) {
  segment* s = segment_of(pg);
  if (pg->retire && h) page_unretire(h, pg);
  const std::size_t first = pg->slice_index, n = pg->slice_count;
  if (g_options.hardened)
    os_protect(slice_addr(s, first) + n * kSliceSize - kOsPage, kOsPage, true);
  for (std::size_t i = 0; i < n; ++i) s->slice_page[first + i] = &g_no_page;
  pg->in_use = 0;
  pg->slice_count = 0;
  pg->owner.store(0, std::memory_order_relaxed);
  const std::uint64_t run = run_mask(first, n);
  s->free_slices |= run;
  s->dirty_slices |= run;
  const std::uint64_t now = os_now_ms();
  for (std::size_t i = 0; i < n; ++i) s->freed_at[first + i] = now;
  if (s->purge_at == 0) s->purge_at = now + static_cast<std::uint64_t>(g_options.decay_ms);
  if (h) {
    --h->pages;
    if (h->purge_at == 0 || s->purge_at < h->purge_at) h->purge_at = s->purge_at;
  }
  g_stats.pages_bytes.fetch_sub(n * kSliceSize, std::memory_order_relaxed);
  if (--s->used_pages == 0 && (s->prev || s->next || h == nullptr)) {
    // Empty and not the heap's only segment: it leaves the heap.
    segment_release(h, s);
    return true;
  }
  if (h) segment_purge_expired(h, now, false);
  return false;
}

void segment_purge_expired(heap* h, std::uint64_t now, bool force) {
  if (force || (h->purge_at != 0 && h->purge_at <= now)) {
    std::uint64_t next = 0;
    for (segment* s = h->segments; s; s = s->next) {
      if (s->dirty_slices && (force || (s->purge_at && s->purge_at <= now)))
        purge_segment(s, now, force);
      if (s->purge_at && (next == 0 || s->purge_at < next)) next = s->purge_at;
    }
    h->purge_at = next;
  }
  segment_cache_trim(force);
}

// Cached empty segments: purged once they decay; beyond the cache limit, unmapped.
void segment_cache_trim(bool force) {
  if (__atomic_load_n(&g_cache, __ATOMIC_RELAXED) == nullptr) return;
  const std::uint64_t now = os_now_ms();
  g_cache_lock.lock();
  for (segment* s = g_cache; s; s = s->next) {
    if (s->dirty_slices && (force || (s->purge_at && s->purge_at <= now)))
      purge_segment(s, now, force);
  }
  g_cache_lock.unlock();
}

void segment_abandon(segment* s) {
  s->owner = nullptr;
  s->prev = nullptr;
  g_abandoned_lock.lock();
  s->next = g_abandoned;
  __atomic_store_n(&g_abandoned, s, __ATOMIC_RELAXED);  // peeked at without the lock
  g_abandoned_lock.unlock();
  g_stats.abandoned.fetch_add(1, std::memory_order_relaxed);
}

segment* segment_take_abandoned() {
  if (__atomic_load_n(&g_abandoned, __ATOMIC_RELAXED) == nullptr) return nullptr;
  g_abandoned_lock.lock();
  segment* s = g_abandoned;
  if (s) __atomic_store_n(&g_abandoned, s->next, __ATOMIC_RELAXED);
  g_abandoned_lock.unlock();
  if (s) {
    s->next = nullptr;
    g_stats.abandoned.fetch_sub(1, std::memory_order_relaxed);
  }
  return s;
}

// Takes over an abandoned segment: its pages join h's queues, empty ones go back to the segment.
void heap_adopt(heap* h, segment* s) {
  segment_link(h, s);
  if (s->purge_at && (h->purge_at == 0 || s->purge_at < h->purge_at)) h->purge_at = s->purge_at;
  for (std::size_t i = 1; i < kSlices;) {
    page* pg = s->slice_page[i];
    if (pg == &g_no_page) {
      ++i;
      continue;
    }
    i += pg->slice_count;
    ++h->pages;
    pg->owner.store(owner_word(h, pg), std::memory_order_release);
    page_collect_remote(pg);
    if (pg->used == 0) {
      if (segment_page_free(h, pg)) return;  // the segment emptied and left the heap
    } else {
      page_queue_add(h, pg);
    }
  }
}

// Fork support (heap.cpp): hold or reset the process-wide locks.
void segment_locks(int op) {
  if (op == 0) {
    g_abandoned_lock.lock();
    g_cache_lock.lock();
  } else {
    g_cache_lock.unlock();
    g_abandoned_lock.unlock();
  }
}

}  // namespace keel::alloc::detail
