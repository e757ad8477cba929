// Internal: the shared FIFO queue outside threads submit into (one per priority). An intrusive
// list under a small spin lock; `size` lets the common "is it empty?" check skip the lock.
#pragma once

#include <atomic>
#include <cstddef>

#include "keel/pool/detail/task.h"
#include "pool/os.h"

namespace keel::pool::detail {

class spin_lock {
 public:
  void lock() noexcept {
    for (unsigned spins = 0; locked_.exchange(true, std::memory_order_acquire); ) {
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
  // Appends the chain first..last (linked through next) of n tasks.
  void push_chain(task_node* first, task_node* last, std::size_t n) noexcept {
    last->next = nullptr;
    lock_.lock();
    if (tail_) {
      tail_->next = first;
    } else {
      head_ = first;
    }
    tail_ = last;
    size_.fetch_add(n, std::memory_order_seq_cst);  // ordered before the submitter's wake check
    lock_.unlock();
  }
  void push(task_node* t) noexcept { push_chain(t, t, 1); }

  task_node* pop() noexcept {
    if (size_.load(std::memory_order_seq_cst) == 0) return nullptr;
    lock_.lock();
    task_node* t = head_;
    if (t) {
      head_ = t->next;
      if (!head_) tail_ = nullptr;
      size_.fetch_sub(1, std::memory_order_relaxed);
    }
    lock_.unlock();
    return t;
  }

  bool maybe_nonempty() const noexcept { return size_.load(std::memory_order_seq_cst) != 0; }

 private:
  alignas(64) std::atomic<std::size_t> size_{0};
  spin_lock lock_;
  task_node* head_ = nullptr;
  task_node* tail_ = nullptr;
};

}  // namespace keel::pool::detail
