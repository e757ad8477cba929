// Huge blocks (above the largest class, 1 MiB, or alignment above 16 KiB): one mapping each,
// 4 MiB aligned, the segment header at its start and the block behind it. Every 4 MiB chunk of
// the mapping is in the segment map, so free and realloc find the header by address. Freed with
// munmap; realloc moves pages with mremap instead of copying.
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

}  // namespace

void* huge_alloc(std::size_t size, std::size_t align, bool zero) {
  (void)zero;  // fresh mappings are zero
  process_init();
  if (align < kOsPage) align = kOsPage;
  const std::size_t offset = align_up(sizeof(segment), align);
  if (size > (std::size_t{1} << kAddressBits) - offset) {
    errno = ENOMEM;
    return nullptr;
  }
  const std::size_t total = align_up(offset + size, kOsPage);
  const std::size_t map_align = align > kSegmentSize ? align : kSegmentSize;
  auto* s = static_cast<segment*>(os_map_aligned(total, map_align));
  if (!s) {
    errno = ENOMEM;
    return nullptr;
  }
  s->magic = kSegmentMagic ^ reinterpret_cast<std::uintptr_t>(s);
  s->kind = segment_kind::huge;
  s->mapped = total;
  s->huge_offset = offset;
  s->huge_size = total - offset;
  segmap_set(s, total, true);
  account(static_cast<std::ptrdiff_t>(total), 1);
  return reinterpret_cast<std::uint8_t*>(s) + offset;
}

void huge_free(segment* s) {
  const std::size_t total = s->mapped;
  segmap_set(s, total, false);
  account(-static_cast<std::ptrdiff_t>(total), -1);
  os_unmap(s, total);
}

// p is the block of huge segment s (validated by the caller); size > kSmallMax.
void* huge_realloc(segment* s, void* p, std::size_t size) {
  if (p != reinterpret_cast<std::uint8_t*>(s) + s->huge_offset) {
    os_fatal("realloc(): pointer not allocated by keel (inside a huge block)", p);
  }
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
