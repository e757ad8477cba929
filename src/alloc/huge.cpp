// SPDX-License-Identifier: MIT
// Huge blocks (above the largest class, 1 MiB, or alignment above 16 KiB): one mapping each,
// 4 MiB aligned, the segment header at its start and the block behind it. Every 4 MiB chunk of
// the mapping is in the segment map, so free and realloc find the header by address. A freed
// mapping waits in a small cache (reused by a request it fits, unmapped after the decay time);
// realloc moves pages with mremap instead of copying.
#include <errno.h>

#include <cstring>

#include "alloc/fast.h"

namespace keel::alloc::detail {

namespace {

constexpr std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) & ~(a - 1); }

void account(std::ptrdiff_t bytes, int count) {
  g_stats.huge_mapped.fetch_add(static_cast<std::size_t>(bytes), std::memory_order_relaxed);
  g_stats.huge_count.fetch_add(static_cast<std::size_t>(count), std::memory_order_relaxed);
}

// Freed huge mappings kept for reuse: at most 8, at most 256 MiB in all, each for decay_ms.
constexpr std::size_t kCacheSlots = 8;
constexpr std::size_t kCacheBytes = std::size_t{256} << 20;
spinlock g_huge_lock;
segment* g_huge_cache[kCacheSlots];
std::uint64_t g_huge_cached_at[kCacheSlots];
std::size_t g_huge_cached_bytes = 0;

void unmap_huge(segment* s) {
  segmap_set(s, s->mapped, false);
  os_unmap(s, s->mapped);
}

// Unmaps cached mappings older than the decay time (all with force). Caller holds the lock;
// returns how many it took out into `out`.
std::size_t take_expired(std::uint64_t now, bool force, segment** out) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < kCacheSlots; ++i) {
    segment* s = g_huge_cache[i];
    if (s &&
        (force || g_huge_cached_at[i] + static_cast<std::uint64_t>(g_options.decay_ms) <= now)) {
      g_huge_cache[i] = nullptr;
      g_huge_cached_bytes -= s->mapped;
      out[n++] = s;
    }
  }
  return n;
}

void release_expired(bool force) {
  segment* out[kCacheSlots];
  const std::uint64_t now = os_now_ms();
  g_huge_lock.lock();
  const std::size_t n = take_expired(now, force, out);
  g_huge_lock.unlock();
  for (std::size_t i = 0; i < n; ++i) unmap_huge(out[i]);
}

// A cached mapping with the same block offset that `total` bytes fit without wasting half.
segment* take_cached(std::size_t offset, std::size_t total) {
  segment* found = nullptr;
  g_huge_lock.lock();
  for (std::size_t i = 0; i < kCacheSlots; ++i) {
    segment* s = g_huge_cache[i];
    if (s && s->huge_offset == offset && s->mapped >= total && total >= s->mapped / 2) {
      g_huge_cache[i] = nullptr;
      g_huge_cached_bytes -= s->mapped;
      found = s;
      break;
    }
  }
  g_huge_lock.unlock();
  return found;
}

}  // namespace

void huge_cache_release_all() { release_expired(true); }

// Fork support (heap.cpp): hold or release the huge-cache lock.
void huge_locks(int op) {
  if (op == 0)
    g_huge_lock.lock();
  else
    g_huge_lock.unlock();
}

void* huge_alloc(std::size_t size, std::size_t align, bool zero) {
  process_init();
  if (align < kOsPage) align = kOsPage;
  const std::size_t offset = align_up(sizeof(segment), align);
  if (size > (std::size_t{1} << kAddressBits) - offset) {
    errno = ENOMEM;
    return nullptr;
  }
  const std::size_t total = align_up(offset + size, kOsPage);
  // A cached mapping holds old data: not for calloc (a fresh mapping is zero for free).
  if (segment* c = zero ? nullptr : take_cached(offset, total)) {
    c->huge_size = c->mapped - offset;
    c->used_pages = 1;
    account(static_cast<std::ptrdiff_t>(c->mapped), 1);
    return reinterpret_cast<std::uint8_t*>(c) + offset;
  }
  const std::size_t map_align = align > kSegmentSize ? align : kSegmentSize;
  auto* s = static_cast<segment*>(os_map_aligned(total, map_align));
  if (!s) {
    release_expired(true);  // give cached mappings back and try once more
    s = static_cast<segment*>(os_map_aligned(total, map_align));
  }
  if (!s) {
    errno = ENOMEM;
    return nullptr;
  }
  s->magic = kSegmentMagic ^ reinterpret_cast<std::uintptr_t>(s);
  s->kind = segment_kind::huge;
  s->mapped = total;
  s->used_pages = 1;  // 0 while cached: a second free of the block is a double free
  s->huge_offset = offset;
  s->huge_size = total - offset;
  for (page*& sp : s->slice_page) sp = &g_no_page;  // the free fast path reads it
  segmap_set(s, total, true);
  account(static_cast<std::ptrdiff_t>(total), 1);
  return reinterpret_cast<std::uint8_t*>(s) + offset;
}

void huge_free(segment* s) {
  const std::size_t total = s->mapped;
  account(-static_cast<std::ptrdiff_t>(total), -1);
  s->used_pages = 0;
  segment* expired[kCacheSlots];
  std::size_t n = 0;
  bool cached = false;
  const std::uint64_t now = os_now_ms();
  g_huge_lock.lock();
  n = take_expired(now, false, expired);
  if (g_options.decay_ms > 0 && total <= kCacheBytes / 4 &&
      g_huge_cached_bytes + total <= kCacheBytes) {
    for (std::size_t i = 0; i < kCacheSlots && !cached; ++i) {
      if (!g_huge_cache[i]) {
        g_huge_cache[i] = s;
        g_huge_cached_at[i] = now;
        g_huge_cached_bytes += total;
        cached = true;
      }
    }
  }
  g_huge_lock.unlock();
  for (std::size_t i = 0; i < n; ++i) unmap_huge(expired[i]);
  if (!cached) unmap_huge(s);
}

// p is the block of huge segment s (validated by the caller); size > kSmallMax.
void* huge_realloc(segment* s, void* p, std::size_t size) {
  if (p != reinterpret_cast<std::uint8_t*>(s) + s->huge_offset) {
    os_fatal("realloc(): pointer not allocated by keel (inside a huge block)", p);
  }
  if (s->used_pages == 0) os_fatal("realloc(): pointer to a freed huge block", p);
  if (size <= s->huge_size && size >= s->huge_size / 2) return p;
  const std::size_t offset = s->huge_offset;
  if (size > (std::size_t{1} << kAddressBits) - offset) {
    errno = ENOMEM;
    return nullptr;
  }
  const std::size_t old_total = s->mapped;
  // Grow the mapping: room for half as much again, so a growing buffer remaps rarely.
  std::size_t want = size > s->huge_size ? size + size / 2 : size;
  const std::size_t new_total = align_up(offset + want, kOsPage);
  if (os_remap(s, old_total, new_total, nullptr)) {  // in place
    if (new_total < old_total) segmap_set(s, old_total, false);
    s->mapped = new_total;
    s->huge_size = new_total - offset;
    segmap_set(s, new_total, true);
    account(static_cast<std::ptrdiff_t>(new_total) - static_cast<std::ptrdiff_t>(old_total), 0);
    return p;
  }
  // Move the pages to a new 4 MiB-aligned range without copying.
  void* dest = os_map_aligned(new_total, kSegmentSize);
  if (!dest) {
    errno = ENOMEM;
    return nullptr;
  }
  segmap_set(s, old_total, false);
  auto* moved = static_cast<segment*>(os_remap(s, old_total, new_total, dest));
  if (!moved) {
    segmap_set(s, old_total, true);
    os_unmap(dest, new_total);
    errno = ENOMEM;
    return nullptr;
  }
  moved->magic = kSegmentMagic ^ reinterpret_cast<std::uintptr_t>(moved);
  moved->mapped = new_total;
  moved->huge_size = new_total - offset;
  segmap_set(moved, new_total, true);
  account(static_cast<std::ptrdiff_t>(new_total) - static_cast<std::ptrdiff_t>(old_total), 0);
  return reinterpret_cast<std::uint8_t*>(moved) + offset;
}

}  // namespace keel::alloc::detail
