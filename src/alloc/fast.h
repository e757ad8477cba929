// SPDX-License-Identifier: MIT
// The fast paths, inlined into every entry point (prefixed API, malloc override, operator new):
// one initial-exec TLS load, a class lookup, a pop from the current page's free list; free finds
// the page by address arithmetic and pushes onto its list when the caller owns the page.
#pragma once

#include <bit>

#include "alloc/internal.h"

namespace keel::alloc::detail {

inline std::size_t size_class(std::size_t size) {
  return size <= kTinyMax ? kClassTable.of[(size + 15) >> 4] : class_of_large(size);
}

inline void* malloc_fast(std::size_t size) {
  heap* h = t_heap;
  page* pg;
  if (KEEL_LIKELY(size <= kTinyMax)) {
    pg = h->direct[(size + 15) >> 4];
  } else if (size <= kSmallMax) {
    pg = h->current[class_of_large(size)];
  } else {
    return malloc_slow(size, false);
  }
  const std::uintptr_t b = pg->free;
  // A hardened page's list is in `hfree` (its `free` stays 0): it pops on the checking slow path.
  if (KEEL_LIKELY(b != 0)) {
    block* blk = reinterpret_cast<block*>(b);
    const std::uintptr_t next = encode(blk->next, b, pg);
    // Same 64 KiB slice and 16-byte aligned (one-slice pages), else the full check (the end of
    // the list, bigger pages): a link a program overwrote does not pass.
    if (KEEL_UNLIKELY(((next ^ b) & pg->lmask) != 0) && !link_ok(pg, next)) page_corrupt(pg, next);
    pg->free = next;
    blk->freed = 0;
    ++pg->used;
#ifdef KEEL_ALLOC_WITH_STATS
    ++h->stat_alloc[pg->cls];
#endif
    return blk;
  }
  return malloc_slow(size, false);
}

inline void free_fast(void* p) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  // The chunk index with the address's low 4 bits rotated to the top: one bound check rejects
  // pointers above the address space and pointers not 16-byte aligned (never a block start).
  const std::uintptr_t chunk = std::rotr(a, 4) >> (kSegmentShift - 4);
  // NULL, misaligned pointers, pointers keel did not allocate and huge blocks take the slow path.
  // (A relaxed atomic load is a plain load; the map changes when other threads map or unmap.)
  if (KEEL_UNLIKELY(chunk >= kChunks || __atomic_load_n(&g_segmap[chunk], __ATOMIC_RELAXED) != 1)) {
    return free_slow(p);
  }
  segment* s = reinterpret_cast<segment*>(a & ~kSegmentMask);
  // Never NULL: a slice outside any page maps to g_no_page, whose owner sends us to the slow path
  // (as do over-aligned and hardened pages) before the block is read.
  page* pg = s->slice_page[(a & kSegmentMask) >> kSliceShift];
  block* b = static_cast<block*>(p);
  if (KEEL_LIKELY(pg->owner.load(std::memory_order_relaxed) ==
                  reinterpret_cast<std::uintptr_t>(t_heap))) {
    const std::uintptr_t mark = free_mark(pg);
    // A double free? (A pointer into the middle of a block is not caught here: see
    // docs/alloc.md, "Misuse checks".)
    if (KEEL_UNLIKELY(b->freed == mark)) return free_slow(p);
    // Not hardened (a hardened page's owner has kSlowFree): the list is in `free`.
    b->next = encode(pg->free, a, pg);
    // (A relaxed atomic store is a plain store; it keeps gcc from pairing the two stores through
    // a vector register, which took four instructions for three.)
    __atomic_store_n(&b->freed, mark, __ATOMIC_RELAXED);
    pg->free = a;
#ifdef KEEL_ALLOC_WITH_STATS
    ++t_heap->stat_free;
#endif
    // A malloc/free ping-pong empties the current page at every free: the common case (a
    // one-slice current page stays as it is, see page_became_empty) is decided here, without a
    // call (A/B in the same binary: -20% time on a malloc/free loop, neutral on random-mixed).
    if (KEEL_UNLIKELY(--pg->used == 0) &&
        (pg->slice_count != 1 || t_heap->current[pg->cls] != pg)) {
      page_became_empty(pg);
    }
    return;
  }
  free_remote(pg, b);
}

}  // namespace keel::alloc::detail
