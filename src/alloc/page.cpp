// SPDX-License-Identifier: MIT
// Pages: a run of slices holding blocks of one size class. Carving blocks lazily, collecting the
// frees other threads left on the page's remote list, the heap's per-class page queues.
#include <cstring>

#include "alloc/internal.h"
#include "common/cpu_hints.h"

namespace keel::alloc::detail {

void page_init(page* pg, std::size_t cls, std::uint8_t* start, std::size_t bytes) {
  pg->free = 0;
  pg->hfree = 0;
  pg->used = 0;
  // Classes above 64 KiB have one block per page: the block takes the whole page (the tail is
  // only touched if used), so realloc can grow it in place up to the page size.
  const std::size_t bs = class_size(cls) > 65536 ? bytes : class_size(cls);
  pg->block_size = static_cast<std::uint32_t>(bs);
  // A fresh link key for every use of the page: the process secret, the page and the time stamp
  // counter, mixed (a page reused for another class gets another key).
  std::uint64_t k =
      g_link_secret ^ reinterpret_cast<std::uintptr_t>(start) ^ keel::detail::cycle_counter();
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  pg->lkey = k;
  pg->key = g_options.hardened ? os_random() : 0;
  pg->remote.store(0, std::memory_order_relaxed);
  pg->start = start;
  pg->capacity.store(0, std::memory_order_relaxed);
  pg->reserved = static_cast<std::uint32_t>(bytes / pg->block_size);
  pg->span16 = static_cast<std::uint32_t>(std::size_t{pg->reserved} * pg->block_size / 16);
  pg->lmask = bytes <= kSliceSize ? ~(kSliceSize - 1) | 15 : ~std::uintptr_t{0};
  pg->next = pg->prev = nullptr;
  pg->cls = static_cast<std::uint8_t>(cls);
  pg->in_use = 1;
  pg->aligned = 0;
  pg->retire = 0;
}

// Carves up to 4 KiB (at least one block) of fresh blocks into the (empty) free list, in
// address order. Touching memory lazily keeps the resident set small for big pages.
bool page_extend(page* pg) {
  const std::uint32_t capacity = pg->capacity.load(std::memory_order_relaxed);
  if (capacity >= pg->reserved) return false;
  const std::size_t bs = pg->block_size;
  std::size_t n = (std::size_t{4} << 10) / bs;
  if (n == 0) n = 1;
  if (n > pg->reserved - capacity) n = pg->reserved - capacity;
  std::uint8_t* first = pg->start + std::size_t{capacity} * bs;
  std::uint8_t* p = first;
  for (std::size_t i = 0; i + 1 < n; ++i, p += bs) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    reinterpret_cast<block*>(p)->next = encode(at + bs, at, pg);
  }
  std::uintptr_t& head = free_list(pg);
  reinterpret_cast<block*>(p)->next = encode(head, reinterpret_cast<std::uintptr_t>(p), pg);
  head = reinterpret_cast<std::uintptr_t>(first);
  pg->capacity.store(capacity + static_cast<std::uint32_t>(n), std::memory_order_relaxed);
  return true;
}

// Takes the whole remote list with one exchange, appends it to the free list and returns how many
// blocks came back (the owner's `used` drops by that much).
std::uint32_t page_collect_remote(page* pg) {
  if (pg->remote.load(std::memory_order_relaxed) == 0) return 0;
  std::uintptr_t head = pg->remote.exchange(0, std::memory_order_acquire);
  std::uint32_t count = 0;
  const std::uint32_t limit = pg->reserved;
  std::uintptr_t& list = free_list(pg);
  while (head != 0) {
    if (KEEL_UNLIKELY(++count > limit || !link_ok(pg, head))) page_corrupt(pg, head);
    block* b = reinterpret_cast<block*>(head);
    head = encode(b->next, reinterpret_cast<std::uintptr_t>(b), pg);
    b->next = encode(list, reinterpret_cast<std::uintptr_t>(b), pg);
    list = reinterpret_cast<std::uintptr_t>(b);
  }
  pg->used -= count;
  return count;
}

void page_queue_push(heap* h, page* pg) {
  page*& head = h->queue[pg->cls];
  pg->prev = nullptr;
  pg->next = head;
  if (head) head->prev = pg;
  head = pg;
  set_current(h, pg->cls, pg);
}

void page_queue_add(heap* h, page* pg) {
  page* head = h->queue[pg->cls];
  if (!head) return page_queue_push(h, pg);
  pg->prev = head;
  pg->next = head->next;
  if (head->next) head->next->prev = pg;
  head->next = pg;
}

void page_queue_remove(heap* h, page* pg) {
  if (pg->prev)
    pg->prev->next = pg->next;
  else
    h->queue[pg->cls] = pg->next;
  if (pg->next) pg->next->prev = pg->prev;
  pg->next = pg->prev = nullptr;
  if (h->current[pg->cls] == pg) set_current(h, pg->cls, &g_empty_page);
}

// The owner freed the page's last block. A small (one-slice) current page stays: it will be
// refilled soon and costs at most 64 KiB. A bigger current page is retired: kept for the next 16
// slow paths of the heap (a malloc/free loop keeps reusing it), then freed if still empty. Any
// other page goes back to its segment at once, so the resident memory of big pages follows use.
void page_became_empty(page* pg) {
  heap* h = t_heap;
  if (h->current[pg->cls] == pg) {
    if (pg->slice_count == 1 || pg->retire) return;
    // A one-block page that realloc grew is not kept: its class would hand the grown block to a
    // smaller request, which realloc then moves as too wasteful.
    const bool grown =
        pg->block_size > ((class_size(pg->cls) + kSliceSize - 1) & ~(kSliceSize - 1));
    if (!grown && h->retired_count < sizeof h->retired / sizeof h->retired[0]) {
      pg->retire = pg->slice_count <= 2 ? 16 : 4;
      h->retired[h->retired_count++] = pg;
      return;
    }
  }
  page_queue_remove(h, pg);
  segment_page_free(h, pg);
}

void page_unretire(heap* h, page* pg) {
  for (std::uint32_t i = 0; i < h->retired_count; ++i) {
    if (h->retired[i] == pg) {
      h->retired[i] = h->retired[--h->retired_count];
      break;
    }
  }
  pg->retire = 0;
}

void heap_retire_tick(heap* h, bool release_all) {
  for (std::uint32_t i = 0; i < h->retired_count;) {
    page* pg = h->retired[i];
    if (pg->used != 0) {  // in use again: no longer retired
      pg->retire = 0;
      h->retired[i] = h->retired[--h->retired_count];
      continue;
    }
    if (release_all || --pg->retire == 0) {
      h->retired[i] = h->retired[--h->retired_count];
      page_queue_remove(h, pg);
      segment_page_free(h, pg);
      continue;
    }
    ++i;
  }
}

bool page_list_contains(const page* pg, const void* b) {
  const auto target = reinterpret_cast<std::uintptr_t>(b);
  std::uint32_t steps = 0;
  for (std::uintptr_t q = free_list(pg); q != 0;
       q = encode(reinterpret_cast<const block*>(q)->next, q, pg)) {
    if (q == target) return true;
    if (++steps > pg->reserved || !link_ok(pg, q)) page_corrupt(pg, q);
  }
  steps = 0;
  for (std::uintptr_t q = pg->remote.load(std::memory_order_acquire); q != 0;
       q = encode(reinterpret_cast<const block*>(q)->next, q, pg)) {
    if (q == target) return true;
    if (++steps > pg->reserved || !link_ok(pg, q)) page_corrupt(pg, q);
  }
  return false;
}

void page_corrupt(const page* pg, std::uintptr_t next) {
  (void)pg;
  os_fatal("heap corruption: a free-list link was overwritten (write after free or overflow?)",
           reinterpret_cast<const void*>(next));
}

}  // namespace keel::alloc::detail
