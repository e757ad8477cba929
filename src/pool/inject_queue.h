// SPDX-License-Identifier: MIT
// Internal: the shared FIFO queue outside threads submit into (one per priority): a growing ring
// of task pointers under a small spin lock; `size` lets the common "is it empty?" check skip the
// lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

#include "keel/pool/detail/task.h"
#include "pool/os.h"

namespace keel::pool::detail {

class spin_lock {
 public:
  void lock() noexcept {
    for (unsigned spins = 0; locked_.exchange(true, std::memory_order_acquire);) {
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins < 64) {
          os::cpu_relax();
        } else {
          os::yield();  // the holder may have been descheduled (more threads than cores)
        }
      }
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

class inject_queue {
 public:
  // max_ring: the largest ring (in tasks) the queue grows to before it queues behind it in the
  // overflow list; tests use a small one, the scheduler none.
  explicit inject_queue(std::size_t max_ring = SIZE_MAX) noexcept : max_ring_(max_ring) {}
  inject_queue(const inject_queue&) = delete;
  inject_queue& operator=(const inject_queue&) = delete;
  ~inject_queue() { delete[] ring_; }

  // From a thread outside the pool: appends the chain first..last (linked through next) of n
  // tasks unless `state` says the pool refuses work. The check and the count happen under the
  // lock, so shutdown can wait out every submitter that got past the check (see flush()).
  bool push_external(task_node* first, task_node* last, std::size_t n,
                     const std::atomic<std::uint32_t>& state) noexcept {
    last->next = nullptr;
    lock_.lock();
    if (state.load(std::memory_order_acquire) != 0) {
      lock_.unlock();
      return false;
    }
    submitted_.store(submitted_.load(std::memory_order_relaxed) + n, std::memory_order_release);
    link(first, n);
    lock_.unlock();
    return true;
  }
  // From a worker (counted by the worker).
  void push_chain(task_node* first, task_node* last, std::size_t n) noexcept {
    last->next = nullptr;
    lock_.lock();
    link(first, n);
    lock_.unlock();
  }
  void push(task_node* t) noexcept { push_chain(t, t, 1); }

  // Up to `max` tasks, oldest first, into out[0..n); returns n.
  std::size_t pop_batch(task_node** out, std::size_t max) noexcept {
    if (size_.load(std::memory_order_seq_cst) == 0) {
      return 0;
    }
    std::size_t n = 0;
    lock_.lock();
    for (; n < max && count_ != 0; ++n) {
      out[n] = ring_[head_];
      head_ = (head_ + 1) & mask_;
      --count_;
    }
    for (; n < max && over_head_; ++n) {  // only after the ring is empty: the overflow is newer
      out[n] = over_head_;
      over_head_ = over_head_->next;
    }
    if (!over_head_) {
      over_tail_ = nullptr;
    }
    if (n) {
      size_.fetch_sub(n, std::memory_order_relaxed);
    }
    task_node** spare = nullptr;
    if (count_ == 0 && capacity() > kKeepRing) {  // a burst's large ring goes once it is empty
      spare = ring_;
      ring_ = nullptr;
      mask_ = head_ = 0;
    }
    lock_.unlock();
    delete[] spare;
    return n;
  }
  task_node* pop() noexcept {
    task_node* t = nullptr;
    return pop_batch(&t, 1) ? t : nullptr;
  }

  // Waits until no submitter is inside push_external (after a state change).
  void flush() noexcept {
    lock_.lock();
    lock_.unlock();
  }

  // light: a push publishes the new size with a plain store (size_ only changes under the lock);
  // the scheduler then makes every thread that goes to sleep issue os::heavy_fence() before its
  // last look, which orders this store before the submitter's wake check. Set before any push.
  void set_light(bool light) noexcept { light_ = light; }

  std::size_t size() const noexcept { return size_.load(std::memory_order_seq_cst); }
  bool maybe_nonempty() const noexcept { return size() != 0; }
  // The ring's capacity in tasks (0: none allocated); for tests.
  std::size_t ring_capacity() noexcept {
    lock_.lock();
    const std::size_t c = capacity();
    lock_.unlock();
    return c;
  }
  // Tasks accepted by push_external so far.
  std::uint64_t submitted() const noexcept { return submitted_.load(std::memory_order_acquire); }

 private:
  static constexpr std::size_t kFirstRing = 256;
  static constexpr std::size_t kKeepRing = 65536;  // larger rings are freed when they empty

  // Queued tasks sit in a ring of pointers, so that a taker reads consecutive slots instead of
  // following links through task nodes that the submitter's core last wrote (one cache miss per
  // task, all under the lock, before). The ring doubles when full; when there is no memory for a
  // larger one, tasks wait in an intrusive overflow list behind it.
  void link(task_node* first, std::size_t n) noexcept {
    for (task_node* t = first; t;) {
      task_node* next = t->next;
      if (over_head_ || (count_ == capacity() && !grow())) {
        t->next = nullptr;
        (over_tail_ ? over_tail_->next : over_head_) = t;
        over_tail_ = t;
      } else {
        ring_[(head_ + count_) & mask_] = t;
        ++count_;
      }
      t = next;
    }
    if (light_) {  // sleepers fence for us (see set_light)
      size_.store(size_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    } else {
      size_.fetch_add(n, std::memory_order_seq_cst);  // ordered before the submitter's wake check
    }
  }
  std::size_t capacity() const noexcept { return ring_ ? mask_ + 1 : 0; }
  bool grow() noexcept {
    const std::size_t cap = capacity() ? 2 * capacity() : kFirstRing;
    if (cap > max_ring_) {
      return false;
    }
    auto** bigger = new (std::nothrow) task_node*[cap];
    if (!bigger) {
      return false;
    }
    for (std::size_t i = 0; i < count_; ++i) {
      bigger[i] = ring_[(head_ + i) & mask_];
    }
    delete[] ring_;
    ring_ = bigger;
    mask_ = cap - 1;
    head_ = 0;
    return true;
  }

  alignas(64) std::atomic<std::size_t> size_{0};
  std::atomic<std::uint64_t> submitted_{0};
  spin_lock lock_;
  bool light_ = false;
  std::size_t max_ring_;
  task_node** ring_ = nullptr;
  std::size_t mask_ = 0;
  std::size_t head_ = 0;   // oldest slot
  std::size_t count_ = 0;  // tasks in the ring
  task_node* over_head_ = nullptr;
  task_node* over_tail_ = nullptr;
};

}  // namespace keel::pool::detail
