// SPDX-License-Identifier: MIT
// Allocation slow paths: the first allocation of a thread, refilling the current page of a class
// (remote frees, fresh blocks, another page of the queue, a new page), over-aligned requests,
// realloc and the usable size. The fast path itself is in fast.h.
#include <errno.h>

#include <cstring>

#include "alloc/fast.h"

namespace keel::alloc::detail {

namespace {

inline void* pop(page* pg) {
  std::uintptr_t& head = free_list(pg);
  block* blk = reinterpret_cast<block*>(head);
  const std::uintptr_t next = encode(blk->next, head, pg);
  if (KEEL_UNLIKELY(!link_ok(pg, next))) page_corrupt(pg, next);
  head = next;
  blk->freed = 0;
  ++pg->used;
  return blk;
}

// Makes pg's free list non-empty if it can: remote frees first, then fresh blocks.
inline bool refill(page* pg) {
  if (free_list(pg)) return true;
  page_collect_remote(pg);
  if (free_list(pg)) return true;
  return page_extend(pg);
}

// A page of class cls with a free block, as the class's current page, or nullptr (out of memory).
page* find_page(heap* h, std::size_t cls) {
  page* cur = h->current[cls];
  if (cur != &g_empty_page && refill(cur)) return cur;
  // The current page is full: it moves to the back; look at a few others.
  page* head = h->queue[cls];
  if (head && head->next) {
    page_queue_remove(h, head);
    page* tail = h->queue[cls];
    while (tail->next) tail = tail->next;
    tail->next = head;
    head->prev = tail;
    int looked = 0;
    for (page* pg = h->queue[cls]; pg && looked < 8; pg = pg->next, ++looked) {
      if (refill(pg)) {
        page_queue_remove(h, pg);
        page_queue_push(h, pg);
        return pg;
      }
    }
  } else if (head && cur == &g_empty_page && refill(head)) {
    set_current(h, cls, head);
    return head;
  }
  page* pg = segment_page_alloc(h, cls);
  if (!pg) return nullptr;
  page_queue_push(h, pg);
  page_extend(pg);
  return pg;
}

// realloc of a block of a checked page (hardened, over-aligned) that carries the free mark: a
// use after free, refused like a double free (the owner confirms the mark on its lists).
void reject_freed(segment* s, const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const page* pg = s->slice_page[(a & kSegmentMask) >> kSliceShift];
  const auto* b = reinterpret_cast<const block*>(page_block_start(pg, p));
  if (b == nullptr || b->freed != free_mark(pg)) return;  // (usable_size refused no block)
  const bool mine = (pg->owner.load(std::memory_order_relaxed) & ~kSlowFree) ==
                    reinterpret_cast<std::uintptr_t>(t_heap);
  if (!mine || page_list_contains(pg, b)) {
    os_fatal("realloc(): pointer to a freed block (use after free or double free)", p);
  }
}

}  // namespace

void* malloc_slow(std::size_t size, bool zero) {
  if (size > kSmallMax) return huge_alloc(size, 16, zero);
  {
    // A hardened current page with free blocks (its list is in `hfree`, so the fast path missed):
    // pop with the checks, nothing else to do. (The empty heap's pages have no blocks.)
    page* cur = t_heap->current[size_class(size)];
    if (cur->hfree != 0) {
      void* p = pop(cur);
#ifdef KEEL_ALLOC_WITH_STATS
      ++t_heap->stat_alloc[cur->cls];
#endif
      if (zero) std::memset(p, 0, size);
      return p;
    }
  }
  heap* h = heap_get_or_init();
  if (!h) {
    errno = ENOMEM;
    return nullptr;
  }
  if (h->retired_count) heap_retire_tick(h, false);
  const std::size_t cls = size_class(size);
  page* pg = find_page(h, cls);
  if (!pg) {
    errno = ENOMEM;
    return nullptr;
  }
  void* p = pop(pg);
#ifdef KEEL_ALLOC_WITH_STATS
  ++h->stat_alloc[cls];
#endif
  if (zero) std::memset(p, 0, size);
  return p;
}

// Alignments up to 16 are the normal path. Larger ones: a class whose blocks are a multiple of the
// alignment, placed on alignment boundaries, when the page start is suitably aligned; otherwise a
// block large enough to hold an aligned pointer inside it (the page is marked so free and
// usable_size find the block start).
void* alloc_aligned(std::size_t size, std::size_t align, bool zero) {
  if (align <= 16) {
    void* p = zero ? nullptr : malloc_fast(size);
    return p ? p : malloc_slow(size, zero);
  }
  if (size == 0) size = 1;
  if (size > kSmallMax || align > kSliceSize / 4) {
    if (size > (std::size_t{1} << kAddressBits)) {
      errno = ENOMEM;
      return nullptr;
    }
    return huge_alloc(size < kSmallMax + 1 ? kSmallMax + 1 : size, align, zero);
  }
  // Power-of-two sizes of at least `align` that are classes: blocks at page start + k*size are
  // aligned because pages start on 64 KiB boundaries.
  const std::size_t rounded = (size + align - 1) & ~(align - 1);
  if (rounded <= kSmallMax && class_size(size_class(rounded)) % align == 0) {
    void* p = malloc_fast(rounded);
    if (!p) p = malloc_slow(rounded, false);
    if (p && (reinterpret_cast<std::uintptr_t>(p) & (align - 1)) == 0) {
      if (zero) std::memset(p, 0, size);
      return p;
    }
    if (p) {
      // Should not happen (pages are 64 KiB aligned); fall through to over-allocation.
      free_fast(p);
    }
  }
  const std::size_t total = size + align - 1;
  if (total > kSmallMax)
    return huge_alloc(kSmallMax + 1 > total ? kSmallMax + 1 : total, align, zero);
  heap* h = heap_get_or_init();
  if (!h) {
    errno = ENOMEM;
    return nullptr;
  }
  void* raw = malloc_fast(total);
  if (!raw) raw = malloc_slow(total, false);
  if (!raw) return nullptr;
  segment* s = segment_of(raw);
  page* pg = s->slice_page[(reinterpret_cast<std::uintptr_t>(raw) & kSegmentMask) >> kSliceShift];
  if (!pg->aligned) {
    pg->aligned = 1;
    pg->owner.store(pg->owner.load(std::memory_order_relaxed) | kSlowFree,
                    std::memory_order_relaxed);
  }
  const std::uintptr_t a = (reinterpret_cast<std::uintptr_t>(raw) + align - 1) & ~(align - 1);
  void* p = reinterpret_cast<void*>(a);
  if (zero) std::memset(p, 0, size);
  return p;
}

std::size_t usable_size(const void* p) {
  segment* s = segment_lookup(p);
  if (!s) os_fatal("malloc_usable_size/realloc: pointer not allocated by keel", p);
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (s->kind == segment_kind::huge) {
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(s) + s->huge_offset;
    if (s->used_pages == 0) os_fatal("pointer to a freed huge block", p);
    if (a < base || a >= base + s->huge_size) os_fatal("pointer not allocated by keel", p);
    return base + s->huge_size - a;
  }
  const page* pg = s->slice_page[(a & kSegmentMask) >> kSliceShift];
  if (!pg->in_use) os_fatal("pointer not allocated by keel (free page)", p);
  const std::uint8_t* start = page_block_start(pg, p);
  if (!start) os_fatal("pointer not allocated by keel (outside the page's blocks)", p);
  if (start != p && !pg->aligned) os_fatal("pointer into the middle of a block", p);
  return static_cast<std::size_t>(start + pg->block_size - static_cast<const std::uint8_t*>(p));
}

void* realloc_impl(void* p, std::size_t size) {
  if (!p) return malloc_fast(size);
  if (size == 0) {  // glibc: realloc(p, 0) frees p and returns NULL
    free_fast(p);
    return nullptr;
  }
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t chunk = a >> kSegmentShift;
  std::size_t avail;
  page* pg = nullptr;
  if (KEEL_LIKELY(chunk < kChunks && __atomic_load_n(&g_segmap[chunk], __ATOMIC_RELAXED) == 1)) {
    pg = segment_of(p)->slice_page[(a & kSegmentMask) >> kSliceShift];
  }
  // Neither over-aligned nor hardened (the pages whose owner word has kSlowFree while owned; the
  // fields themselves also cover an abandoned page): the block start is checked by the free below
  // if the block moves. Every other pointer is checked before anything is returned.
  if (KEEL_LIKELY(pg && (pg->aligned | pg->key) == 0 && (a & 15) == 0)) {
    avail = pg->block_size;  // a block start of a normal page (the free below checks it)
    // A one-block page (classes above 64 KiB) owned by this thread grows into the free slices
    // behind it: no copy.
    if (size > avail && size <= kSmallMax && pg->reserved == 1 && pg->start == p &&
        pg->owner.load(std::memory_order_relaxed) == reinterpret_cast<std::uintptr_t>(t_heap) &&
        segment_page_grow(pg, size)) {
      return p;
    }
  } else {
    segment* s = segment_lookup(p);
    if (!s) os_fatal("realloc(): pointer not allocated by keel", p);
    if (s->kind == segment_kind::huge && size > kSmallMax) return huge_realloc(s, p, size);
    avail = usable_size(p);  // aborts unless p is in a carved block (at its start if not aligned)
    if (s->kind == segment_kind::normal) reject_freed(s, p);
  }
  if (size <= avail && (size >= avail / 2 || avail <= 64)) return p;  // fits, not too wasteful
  // Growing past 64 KiB: ask for half as much again. Such blocks have pages of their own whose
  // untouched tail is never resident, and a growing buffer moves (and fragments) far less often.
  std::size_t request = size;
  if (size > avail && size > 65536 && size <= kSmallMax) {
    request = size + size / 2 > kSmallMax ? kSmallMax : size + size / 2;
  }
  void* q = malloc_fast(request);
  if (!q) return nullptr;  // errno is ENOMEM; p is untouched
  std::memcpy(q, p, size < avail ? size : avail);
  free_fast(p);
  return q;
}

}  // namespace keel::alloc::detail
