// SPDX-License-Identifier: MIT
// The scheduler's submitting side: a worker's own deque, the submitter lanes and the shared queues
// (docs/pool.md, "Scheduler"), and the report of a detached task's exception.
#include <climits>
#include <cstdio>
#include <exception>

#include "pool/scheduler.h"

namespace keel::pool::detail {

namespace {

// Which lane this thread pushes onto (in every pool): threads take lanes round robin as they first
// submit from outside, so kLanes submitters that start together get one each; threads whose
// numbers are equal modulo kLanes share one.
std::atomic<unsigned> next_lane{0};
thread_local unsigned tls_lane = UINT_MAX;

}  // namespace

bool scheduler::enqueue_external(task_node* first, task_node* last, std::size_t n,
                                 priority p) noexcept {
  return inject_[static_cast<int>(p)].push_external(first, last, n, state_);
}

error_code scheduler::push(task_node* t, priority p) noexcept {
  if (worker* w = current_worker()) {
    if (state_.load(std::memory_order_acquire) >= stopping) {
      return error_code::shut_down;
    }
    bump(w->stats.submitted);
    if (p == priority::normal) {
      try {
        w->deque.push(t);
        notify_local_work();
        return error_code::ok;
      } catch (...) {  // no memory for a larger ring: the shared queue needs none
      }
    }
    inject_[static_cast<int>(p)].push(t);
  } else {
    const lane_push l =
        p == priority::normal && light_push_ ? push_lane(&t, 1) : lane_push::unavailable;
    if (l == lane_push::refused || (l == lane_push::unavailable && !enqueue_external(t, t, 1, p))) {
      return error_code::shut_down;
    }
  }
  notify_new_work();
  return error_code::ok;
}

// The push is a plain store (no fence), which a sleeper's os::heavy_fence() orders before the
// submitter's wake-up check as for the shared queue: lanes are used only with light_push_.
// A thread sharing the lane holds the lock for a few stores at most; waiting for it keeps each
// submitter's tasks in one FIFO.
scheduler::lane_push scheduler::push_lane(task_node* const* ts, std::size_t n) noexcept {
  if (tls_lane == UINT_MAX) {
    tls_lane = next_lane.fetch_add(1, std::memory_order_relaxed) % kLanes;
  }
  lane& l = lanes_[tls_lane];
  l.lock.lock();
  // Checked under the lock: shutdown waits out every push past this check (flush_submitters).
  if (state_.load(std::memory_order_acquire) != running) {
    l.lock.unlock();
    return lane_push::refused;
  }
  const std::uint32_t bit = 1u << tls_lane;
  if (!(lanes_used_.load(std::memory_order_relaxed) & bit)) {
    lanes_used_.fetch_or(bit, std::memory_order_seq_cst);  // before the task: see work_visible
  }
  if (!make_room(l.deque, n)) {  // no memory for a larger ring: the shared queue takes them
    l.lock.unlock();
    return lane_push::unavailable;
  }
  bump(l.submitted, n);  // counted before anyone can finish one
  for (std::size_t i = 0; i < n; ++i) {
    l.deque.push(ts[i]);  // cannot allocate after reserve
  }
  l.lock.unlock();
  return lane_push::pushed;
}

error_code scheduler::push_bulk(task_node* const* ts, std::size_t n, priority p) noexcept {
  if (n == 0) {
    return state_.load(std::memory_order_acquire) == running ? error_code::ok
                                                             : error_code::shut_down;
  }
  worker* w = current_worker();
  if (w && p == priority::normal && make_room(w->deque, n)) {
    if (state_.load(std::memory_order_acquire) >= stopping) {
      return error_code::shut_down;
    }
    bump(w->stats.submitted, n);
    for (std::size_t i = 0; i < n; ++i) {
      w->deque.push(ts[i]);
    }
  } else {
    const lane_push l =
        !w && p == priority::normal && light_push_ ? push_lane(ts, n) : lane_push::unavailable;
    if (l == lane_push::refused) {
      return error_code::shut_down;
    }
    if (l == lane_push::unavailable) {
      for (std::size_t i = 0; i + 1 < n; ++i) {
        ts[i]->next = ts[i + 1];
      }
      if (w) {
        if (state_.load(std::memory_order_acquire) >= stopping) {
          return error_code::shut_down;
        }
        bump(w->stats.submitted, n);
        inject_[static_cast<int>(p)].push_chain(ts[0], ts[n - 1], n);
      } else if (!enqueue_external(ts[0], ts[n - 1], n, p)) {
        return error_code::shut_down;
      }
    }
  }
  // notify_new_work's decision, with searching_ read by a read-modify-write: the pushes above are
  // plain or release stores, and a plain load could see a searcher that is leaving the count at
  // that moment and has not yet seen the new tasks (its fetch_sub, then its queue check): neither
  // side would wake anyone and the bulk would run on fewer threads. With the RMW the two are
  // ordered on searching_: either this thread reads the count after the searcher left (and wakes a
  // sleeper itself), or the searcher's fetch_sub reads this RMW's value and then sees the tasks,
  // and as the last searcher wakes the next sleeper (search_and_park). A single submit keeps the
  // plain load: the searcher takes its one task anyway.
  if (searching_.fetch_add(0, std::memory_order_seq_cst) == 0 &&
      sleepers_.load(std::memory_order_seq_cst) != 0) {
    wake_one();
  }
  return error_code::ok;
}

void scheduler::report_detached_exception(const std::exception_ptr& e) noexcept {
  detached_exceptions_.fetch_add(1, std::memory_order_relaxed);
  if (opts_.on_detached_exception) {
    try {
      opts_.on_detached_exception(e);
    } catch (...) {
    }
    return;
  }
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "keel::pool: a detached task threw: %s\n", ex.what());
  } catch (...) {
    std::fprintf(stderr, "keel::pool: a detached task threw a non-std exception\n");
  }
}

// Whether the queue this thread's submits go to looks empty.
bool scheduler::local_queue_empty(int slot) const noexcept {
  if (worker* w = current_worker()) {
    return w->deque.empty_local();
  }
  if (slot >= 0) {
    return slots_[slot].deque.empty_local();
  }
  return !inject_[1].maybe_nonempty() &&
         (tls_lane == UINT_MAX || !lanes_[tls_lane].deque.maybe_nonempty());
}

// Entry points for the header templates (keel/pool/detail/task.h).

error_code push(scheduler* s, task_node* t, priority p) noexcept { return s->push(t, p); }
error_code push_bulk(scheduler* s, task_node* const* ts, std::size_t n, priority p) noexcept {
  return s->push_bulk(ts, n, p);
}
bool local_queue_empty(const scheduler* s, int slot) noexcept { return s->local_queue_empty(slot); }
void report_detached_exception(scheduler* s, const std::exception_ptr& e) noexcept {
  s->report_detached_exception(e);
}

}  // namespace keel::pool::detail
