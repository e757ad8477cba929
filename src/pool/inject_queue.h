// Internal: the shared FIFO queue outside threads submit into (one per priority). An intrusive
// list under a small spin lock; `size` lets the common "is it empty?" check skip the lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

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
    link(first, last, n);
    lock_.unlock();
    return true;
  }
  // From a worker (counted by the worker).
  void push_chain(task_node* first, task_node* last, std::size_t n) noexcept {
    last->next = nullptr;
    lock_.lock();
    link(first, last, n);
    lock_.unlock();
  }
  void push(task_node* t) noexcept { push_chain(t, t, 1); }

  // Up to `max` tasks, oldest first, linked through next; n receives the count.
  task_node* pop_chain(std::size_t max, std::size_t& n) noexcept {
    n = 0;
    if (size_.load(std::memory_order_seq_cst) == 0) {
      return nullptr;
    }
    lock_.lock();
    task_node* first = head_;
    task_node* last = nullptr;
    for (task_node* t = head_; t && n < max; t = t->next) {
      last = t;
      ++n;
    }
    if (n) {
      head_ = last->next;
      if (!head_) {
        tail_ = nullptr;
      }
      last->next = nullptr;
      size_.fetch_sub(n, std::memory_order_relaxed);
    }
    lock_.unlock();
    return n ? first : nullptr;
  }
  task_node* pop() noexcept {
    std::size_t n;
    return pop_chain(1, n);
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
  // Tasks accepted by push_external so far.
  std::uint64_t submitted() const noexcept { return submitted_.load(std::memory_order_acquire); }

 private:
  void link(task_node* first, task_node* last, std::size_t n) noexcept {
    if (tail_) {
      tail_->next = first;
    } else {
      head_ = first;
    }
    tail_ = last;
    if (light_) {  // sleepers fence for us (see set_light)
      size_.store(size_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    } else {
      size_.fetch_add(n, std::memory_order_seq_cst);  // ordered before the submitter's wake check
    }
  }

  alignas(64) std::atomic<std::size_t> size_{0};
  std::atomic<std::uint64_t> submitted_{0};
  spin_lock lock_;
  task_node* head_ = nullptr;
  task_node* tail_ = nullptr;
  bool light_ = false;
};

}  // namespace keel::pool::detail
