// SPDX-License-Identifier: MIT
// Internal: the per-worker work-stealing deque (Chase & Lev, "Dynamic circular work-stealing
// deque", SPAA 2005, with the C11 orderings of Lê et al., PPoPP 2013). The owner pushes and pops
// at the bottom; thieves take from the top. The ring doubles when full; old rings stay alive until
// the deque dies because a thief may still read from one. See docs/pool.md.
//
// The orderings that the paper states as fences are carried by seq_cst operations here (the same
// instructions on x86-64, and ThreadSanitizer understands them).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "keel/pool/detail/task.h"

namespace keel::pool::detail {

class ws_deque {
 public:
  enum class steal_result { empty, lost_race, taken };

  explicit ws_deque(std::int64_t capacity = 256) {
    rings_.push_back(std::make_unique<ring>(capacity));
    ring_.store(rings_.back().get(), std::memory_order_relaxed);
  }

  // Owner only. A release store: the owner runs its own tasks eventually, so a thief that misses
  // this push for a moment loses no task (see docs/pool.md, "local pushes").
  void push(task_node* t) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    ring* r = ring_.load(std::memory_order_relaxed);
    // top only grows, so an old value understates the free room: reload it (a line the thieves
    // write) only when the ring looks full.
    if (b - top_cache_ > r->mask) {
      top_cache_ = top_.load(std::memory_order_acquire);
      if (b - top_cache_ > r->mask) {
        r = grow(r, top_cache_, b, 2 * (r->mask + 1));
      }
    }
    r->put(b, t);
    bottom_.store(b + 1, std::memory_order_release);
  }

  // Owner only: makes room for n more pushes, so that none of them allocates. Throws bad_alloc
  // (leaving the deque as it was) when there is no memory for the larger ring.
  void reserve(std::size_t n) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    ring* r = ring_.load(std::memory_order_relaxed);
    const auto need = [&] { return b - top_cache_ + static_cast<std::int64_t>(n); };
    if (need() > r->mask + 1) {
      top_cache_ = top_.load(std::memory_order_acquire);
      std::int64_t cap = r->mask + 1;
      while (need() > cap) {
        cap *= 2;
      }
      if (cap != r->mask + 1) {
        grow(r, top_cache_, b, cap);
      }
    }
  }

  // Owner only: the most recently pushed task, or nullptr.
  task_node* pop() {
    // Cheap empty test first: a stale top is never larger than the real one.
    if (top_.load(std::memory_order_relaxed) >= bottom_.load(std::memory_order_relaxed)) {
      return nullptr;
    }
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    ring* r = ring_.load(std::memory_order_relaxed);
    bottom_.store(b, std::memory_order_seq_cst);
    std::int64_t top = top_.load(std::memory_order_seq_cst);
    if (top > b) {  // empty
      bottom_.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    task_node* t = r->get(b);
    if (top == b) {  // last one: race the thieves for it
      if (!top_.compare_exchange_strong(top, top + 1, std::memory_order_seq_cst,
                                        std::memory_order_relaxed)) {
        t = nullptr;
      }
      bottom_.store(b + 1, std::memory_order_relaxed);
    }
    return t;
  }

  // Any thread: the oldest task.
  steal_result steal(task_node*& out) {
    std::int64_t top = top_.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_seq_cst);
    if (top >= b) {
      return steal_result::empty;
    }
    ring* r = ring_.load(std::memory_order_acquire);
    task_node* t = r->get(top);
    if (!top_.compare_exchange_strong(top, top + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed)) {
      return steal_result::lost_race;
    }
    out = t;
    return steal_result::taken;
  }

  // Any thread, on a deque whose owner never calls pop() (an external slot, a submitter lane):
  // takes up to `max` of the oldest tasks, half of those present rounded up, into out[0..n) with
  // one CAS. Safe only without pop(): pop takes from the bottom without a CAS while more than one
  // task is left, so a thief that read `bottom` before such pops could take the same tasks.
  steal_result steal_batch(task_node** out, std::size_t max, std::size_t& n) {
    std::int64_t top = top_.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_seq_cst);
    if (top >= b) {
      return steal_result::empty;
    }
    const std::int64_t k =
        std::min<std::int64_t>(static_cast<std::int64_t>(max), (b - top + 1) / 2);
    ring* r = ring_.load(std::memory_order_acquire);
    for (std::int64_t i = 0; i < k; ++i) {
      out[i] = r->get(top + i);
    }
    if (!top_.compare_exchange_strong(top, top + k, std::memory_order_seq_cst,
                                      std::memory_order_relaxed)) {
      return steal_result::lost_race;
    }
    n = static_cast<std::size_t>(k);
    return steal_result::taken;
  }

  // Owner only: true when no task is left (relaxed loads; a thief may be taking the last one).
  bool empty_local() const {
    return top_.load(std::memory_order_relaxed) >= bottom_.load(std::memory_order_relaxed);
  }

  // Owner only: the number of tasks left (relaxed loads; thieves may be taking some).
  std::size_t size_local() const {
    const std::int64_t n =
        bottom_.load(std::memory_order_relaxed) - top_.load(std::memory_order_relaxed);
    return n > 0 ? static_cast<std::size_t>(n) : 0;
  }

  // Owner only: the ring's size in tasks (for tests).
  std::size_t capacity() const {
    return static_cast<std::size_t>(ring_.load(std::memory_order_relaxed)->mask + 1);
  }

  // Any thread; approximate.
  bool maybe_nonempty() const {
    return bottom_.load(std::memory_order_seq_cst) > top_.load(std::memory_order_seq_cst);
  }

 private:
  struct ring {
    explicit ring(std::int64_t cap)
        : mask(cap - 1), slots(new std::atomic<task_node*>[static_cast<std::size_t>(cap)]) {}
    std::int64_t mask;
    std::unique_ptr<std::atomic<task_node*>[]> slots;
    task_node* get(std::int64_t i) const {
      return slots[static_cast<std::size_t>(i & mask)].load(std::memory_order_relaxed);
    }
    void put(std::int64_t i, task_node* t) {
      slots[static_cast<std::size_t>(i & mask)].store(t, std::memory_order_relaxed);
    }
  };

  ring* grow(ring* old, std::int64_t top, std::int64_t bottom, std::int64_t capacity) {
    auto bigger = std::make_unique<ring>(capacity);
    for (std::int64_t i = top; i < bottom; ++i) {
      bigger->put(i, old->get(i));
    }
    ring* r = bigger.get();
    rings_.push_back(std::move(bigger));
    ring_.store(r, std::memory_order_release);
    return r;
  }

  alignas(64) std::atomic<std::int64_t> top_{0};
  alignas(64) std::atomic<std::int64_t> bottom_{0};
  std::atomic<ring*> ring_{nullptr};
  std::int64_t top_cache_ = 0;                // owner only: a recent value of top_
  std::vector<std::unique_ptr<ring>> rings_;  // owner only; every ring ever used
};

}  // namespace keel::pool::detail
