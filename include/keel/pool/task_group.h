// SPDX-License-Identifier: MIT
// keel::pool::task_group: fork-join over a thread_pool.
//
//   keel::pool::task_group g(pool);
//   g.run([&] { left(); });
//   g.run([&] { right(); });
//   g.wait();   // runs queued tasks meanwhile; rethrows the first exception any task threw
//
// run() may be called from any thread, including from the group's own tasks (nested fork-join);
// wait() must not run at the same time as run() calls made by the thread that created the group
// (its owner). wait() runs tasks while it waits: on a pool worker any of the pool's tasks (so
// nested waits cannot deadlock; a task must therefore not block across a wait on something an
// unrelated task could be waiting for), on any other thread only this group's own tasks. No task
// may block until an outside thread's wait() returned: a worker may hold some of that group's
// tasks on its deque behind it (with one worker this always deadlocks; docs/pool.md). cancel()
// makes every task of the group that has not started yet be skipped; running tasks see
// is_cancelled() and may stop early. After wait() returns the group is reusable (not cancelled, no
// exceptions pending).
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "keel/pool/detail/task.h"
#include "keel/pool/thread_pool.h"

namespace keel::pool {

enum class group_status : std::uint8_t { complete, cancelled };

class task_group;

namespace detail {

struct group_access;

inline bool group_done(std::uint32_t w) noexcept { return (w & ~kWaiterBit) == 0; }

struct group_state {
  std::atomic<std::uint32_t> pending{0};  // queued + running tasks; kWaiterBit when a waiter sleeps
  scheduler* sched = nullptr;
  std::atomic<bool> cancelled{false};  // tasks that have not started are skipped
  std::atomic<bool> has_errors{false};
  std::mutex mu;
  std::vector<std::exception_ptr> errors;

  void add_error(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mu);
    errors.push_back(std::move(e));
    has_errors.store(true, std::memory_order_release);
  }
  // Counts n tasks as finished.
  void finish(std::uint32_t n) noexcept {
    scheduler* s = sched;  // the group may be gone once pending reaches zero
    std::uint32_t old = pending.fetch_sub(n, std::memory_order_acq_rel);
    if ((old & ~kWaiterBit) == n && (old & kWaiterBit)) {
      notify_waiters(s);
    }
  }
};

// Subtracts the calling thread's deferred completions (see group_defer).
inline void flush_group_defer(group_defer& d) noexcept {
  if (d.n != 0) {
    group_state* g = d.g;
    const std::uint32_t n = d.n;
    d.n = 0;
    d.g = nullptr;
    g->finish(n);
  }
}

// A task of group g finished: counted at once, or deferred inside scheduler::run_task (the
// group cannot complete while the thread that holds deferred completions runs one of its
// tasks, and run_task flushes before it runs anything else).
inline void finish_group_task(group_state* g, task_fn fn) noexcept {
  group_defer& d = tls_group_defer;
  if (!d.armed) {
    g->finish(1);
    return;
  }
  if (d.g != g) {
    flush_group_defer(d);
    d.g = g;
  }
  d.fn = fn;
  ++d.n;
}

struct group_task_base : task_node {
  group_state* g;
  explicit group_task_base(group_state* gs) : g(gs) {}
};

// True when t is a task of the group whose completions d defers (same execute function, so the
// same group_task type, and the same group).
inline bool same_group(const group_defer& d, const task_node* t) noexcept {
  return t->fn == d.fn && static_cast<const group_task_base*>(t)->g == d.g;
}

template <class F>
struct group_task final : group_task_base {
  F f;
  template <class G>
  group_task(group_state* gs, G&& body) : group_task_base(gs), f(static_cast<G&&>(body)) {
    this->fn = &execute;
  }
  static bool execute(task_node* n, run_mode m) {
    auto* self = static_cast<group_task*>(n);
    group_state* g = self->g;
    const bool skip = m == run_mode::cancel || g->cancelled.load(std::memory_order_acquire);
    if (!skip) {
      try {
        std::move(self->f)();
      } catch (...) {
        try {
          g->add_error(std::current_exception());
        } catch (...) {  // no memory to record it: the group still completes
        }
      }
    }
    destroy_task(self);  // captures die before the group can complete
    finish_group_task(g, &execute);
    return !skip;
  }
};

}  // namespace detail

class task_group {
 public:
  explicit task_group(thread_pool& p) : pool_(&p) { g_.sched = p.scheduler(); }
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;
  // Waits for the group's tasks; their exceptions are discarded.
  ~task_group() {
    try {
      wait();
    } catch (...) {
    }
  }

  // Queues f as a task of this group. error_code::shut_down when the pool refuses it (f is not
  // run). With 2^31 - 1 tasks of the group outstanding, f runs inline on the calling thread.
  template <class F>
  error_code run(F&& f) {
    if ((g_.pending.load(std::memory_order_relaxed) & ~detail::kWaiterBit) >= kMaxPending) {
      std::forward<F>(f)();
      return error_code::ok;
    }
    auto* t = detail::make_task<detail::group_task<std::decay_t<F>>>(&g_, std::forward<F>(f));
    const bool owner = std::this_thread::get_id() == owner_;
    count_one(owner);
    error_code e;
    if (owner && !in_wait_ && slot_ == kNoSlotYet) {
      slot_ = detail::on_worker_of(g_.sched) ? kNoSlot : detail::claim_slot(g_.sched);
    }
    if (owner && slot_ >= 0) {
      e = detail::push_slot(g_.sched, slot_, t);
    } else {
      e = detail::push(g_.sched, t, priority::normal);
    }
    if (e != error_code::ok) {
      t->fn(t, detail::run_mode::cancel);  // frees it and balances pending
    }
    return e;
  }

  // Waits until every task of the group finished, running tasks meanwhile (see above). Returns
  // group_status::cancelled if cancel() was called; rethrows the first exception a task threw
  // (all of them are in exceptions() afterwards). Resets the group for reuse.
  group_status wait() {
    struct waiting {
      task_group* g;
      ~waiting() {
        g->in_wait_ = false;
        g->runs_ = 0;
      }
    } guard{this};
    in_wait_ = true;
    release_reserve();
    std::uint32_t v = g_.pending.load(std::memory_order_acquire);
    if (!detail::group_done(v)) {
      detail::wait_word(g_.sched, g_.pending, &detail::group_done, true, slot_);
      v = g_.pending.load(std::memory_order_acquire);
    }
    if (slot_ >= 0) {  // every task of the group finished, so the slot's deque is empty
      detail::release_slot(g_.sched, slot_);
    }
    slot_ = kNoSlotYet;
    if (v & detail::kWaiterBit) {
      g_.pending.fetch_and(~detail::kWaiterBit, std::memory_order_relaxed);
    }
    last_errors_.clear();
    if (g_.has_errors.load(std::memory_order_acquire)) {
      std::lock_guard<std::mutex> lock(g_.mu);
      last_errors_.swap(g_.errors);
      g_.has_errors.store(false, std::memory_order_relaxed);
    }
    group_status st = group_status::complete;
    if (g_.cancelled.load(std::memory_order_relaxed) &&
        g_.cancelled.exchange(false, std::memory_order_acq_rel)) {
      st = group_status::cancelled;
    }
    if (!last_errors_.empty()) {
      std::rethrow_exception(last_errors_.front());
    }
    return st;
  }

  void cancel() noexcept { g_.cancelled.store(true, std::memory_order_release); }
  bool is_cancelled() const noexcept { return g_.cancelled.load(std::memory_order_acquire); }

  // Exceptions collected by the last wait(), in the order the tasks threw them.
  const std::vector<std::exception_ptr>& exceptions() const noexcept { return last_errors_; }

  thread_pool& pool() const noexcept { return *pool_; }

 private:
  friend struct detail::group_access;

  // See detail::local_queue_empty: the slot counts only where run() would push onto it.
  bool local_queue_empty() const noexcept {
    // Only the owner reads slot_ and in_wait_ (its own state); other threads never use the slot.
    const bool own_slot = std::this_thread::get_id() == owner_ && slot_ >= 0;
    return detail::local_queue_empty(g_.sched, own_slot ? slot_ : -1);
  }

  static constexpr std::uint32_t kMaxPending = detail::kWaiterBit - 1;
  static constexpr std::uint32_t kReserve = 16;

  // Counts one more task in `pending`. The thread that made the group, outside wait(), adds to
  // `pending` in steps of kReserve from its second run() on and hands out the reservation without
  // touching `pending` (whose cache line the finishing workers own); wait() gives back what is
  // left. Other threads, and the owner inside wait() (helping runs tasks that may call run()),
  // add one at a time. So a burst of runs costs one shared atomic operation per kReserve tasks.
  // `owner`: the calling thread is the group's owner.
  void count_one(bool owner) noexcept {
    if (owner && !in_wait_) {
      if (reserve_ > 0) {
        --reserve_;
      } else if (++runs_ >= 2) {
        g_.pending.fetch_add(kReserve, std::memory_order_relaxed);
        reserve_ = kReserve - 1;
      } else {
        g_.pending.fetch_add(1, std::memory_order_relaxed);
      }
      return;
    }
    g_.pending.fetch_add(1, std::memory_order_relaxed);
  }
  void release_reserve() noexcept {
    if (reserve_ == 0) {
      return;
    }
    const std::uint32_t r = reserve_;
    reserve_ = 0;
    const std::uint32_t old = g_.pending.fetch_sub(r, std::memory_order_acq_rel);
    if ((old & ~detail::kWaiterBit) == r && (old & detail::kWaiterBit)) {
      detail::notify_waiters(g_.sched);
    }
  }

  const std::thread::id owner_ = std::this_thread::get_id();
  std::uint32_t reserve_ = 0;  // counted in pending, not yet used by a task (owner only)
  std::uint32_t runs_ = 0;     // owner's runs since the last wait
  bool in_wait_ = false;
  // The external slot an owner outside the pool holds between run() and wait(); kNoSlot when it
  // is a worker or all slots were taken (tried again after the next wait).
  static constexpr int kNoSlotYet = -2, kNoSlot = -1;
  int slot_ = kNoSlotYet;
  thread_pool* pool_;
  detail::group_state g_;
  std::vector<std::exception_ptr> last_errors_;
};

}  // namespace keel::pool
