// SPDX-License-Identifier: MIT
// Free slow paths: NULL, huge blocks, pointers into over-aligned pages, frees from other threads
// (one atomic push onto the page's remote list) and the misuse checks: a pointer keel did not
// allocate, a pointer into the middle of a block, a double free.
#include <cstring>

#include "alloc/fast.h"

namespace keel::alloc::detail {

namespace {

[[noreturn]] KEEL_NOINLINE void double_free(const void* p) {
  os_fatal("double free detected (free of a block that is already free)", p);
}

}  // namespace

// b is a validated block start; the caller may own the page or not.
void free_block(page* pg, block* b) {
  const auto a = reinterpret_cast<std::uintptr_t>(b);
  const std::uintptr_t mark = free_mark(pg);
  heap* h = t_heap;
  const bool mine = (pg->owner.load(std::memory_order_relaxed) & ~kSlowFree) ==
                    reinterpret_cast<std::uintptr_t>(h);
  if (b->freed == mark) {
    // The free mark is only written by free and cleared by every allocation, so a match means a
    // double free; the owner confirms it on its lists (guarding against a user value that happens
    // to equal the mark).
    if (!mine || page_list_contains(pg, b)) double_free(b);
  }
  b->freed = mark;
  if (mine) {
    std::uintptr_t& head = free_list(pg);
    b->next = encode(head, a, pg);
    head = a;
    if (--pg->used == 0) page_became_empty(pg);
    return;
  }
  std::uintptr_t head = pg->remote.load(std::memory_order_relaxed);
  do {
    b->next = encode(head, a, pg);
  } while (!pg->remote.compare_exchange_weak(head, a, std::memory_order_release,
                                             std::memory_order_relaxed));
}

// From the fast path: a page the caller does not own, or one whose frees all take the slow path
// (over-aligned, hardened, g_no_page).
void free_remote(page* pg, block* b) {
  const std::uintptr_t owner = pg->owner.load(std::memory_order_relaxed);
  const auto a = reinterpret_cast<std::uintptr_t>(b);
  if (KEEL_UNLIKELY((owner & kSlowFree) != 0)) {
    // A hardened page (not over-aligned, so no interior pointers; g_no_page counts as
    // over-aligned): the start of a carved block goes straight to free_block, which checks for a
    // double free and encodes; anything else (the middle of a block, the uncarved tail) gets
    // free_slow's diagnostics.
    if (!pg->aligned && page_block_start(pg, b) == reinterpret_cast<std::uint8_t*>(b)) {
      return free_block(pg, b);
    }
    return free_slow(b);
  }
  const std::uintptr_t mark = free_mark(pg);
  if (KEEL_UNLIKELY(b->freed == mark || !is_block_start(pg, a))) return free_slow(b);
  b->freed = mark;
  std::uintptr_t head = pg->remote.load(std::memory_order_relaxed);
  do {
    b->next = encode(head, a, pg);
  } while (!pg->remote.compare_exchange_weak(head, a, std::memory_order_release,
                                             std::memory_order_relaxed));
}

void free_slow(void* p) {
  if (p == nullptr) return;
  segment* s = segment_lookup(p);
  if (!s) os_fatal("free(): pointer not allocated by keel", p);
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (s->kind == segment_kind::huge) {
    if (a != reinterpret_cast<std::uintptr_t>(s) + s->huge_offset) {
      os_fatal("free(): pointer not allocated by keel (inside a huge block)", p);
    }
    if (s->used_pages == 0) double_free(p);  // the mapping is in the huge cache
    huge_free(s);
    return;
  }
  page* pg = s->slice_page[(a & kSegmentMask) >> kSliceShift];
  if (!pg->in_use) os_fatal("free(): pointer not allocated by keel (free page) or double free", p);
  std::uint8_t* start = page_block_start(pg, p);
  if (!start) os_fatal("free(): pointer not allocated by keel (outside the page's blocks)", p);
  if (start != p && !pg->aligned) os_fatal("free(): pointer into the middle of a block", p);
  free_block(pg, reinterpret_cast<block*>(start));
}

}  // namespace keel::alloc::detail
