// SPDX-License-Identifier: MIT
// The scheduler's waits for a future or a group: a worker (or a group's owner) runs tasks while it
// waits, others sleep until a completion wakes them (docs/pool.md, "Waiting: futures and groups").
#include <cstdint>
#include <mutex>
#include <vector>

#include "keel/pool/task_group.h"
#include "pool/os.h"
#include "pool/scheduler.h"

namespace keel::pool::detail {

namespace {

thread_local parker tls_parker;  // for waits on threads that are not workers of the pool

}  // namespace

void scheduler::wait_word(std::atomic<std::uint32_t>& word, done_fn done, bool help,
                          int slot) noexcept {
  worker* w = current_worker();
  parker* p = w ? &w->park : &tls_parker;
  counters* c = w ? &w->stats : (slot >= 0 ? &slots_[slot].stats : nullptr);
  if (w) {
    help = true;  // a worker that only slept here could starve the pool
  }
  // Only workers are woken by new work: a thread outside the pool runs its own slot's tasks.
  const bool wake_on_work = w != nullptr;
  own_batch mine;  // tasks an outside waiter took from its slot at once
  std::uint64_t deadline = 0;
  for (unsigned round = 1;; ++round) {
    std::uint32_t now_word = word.load(std::memory_order_acquire);
    if (tls_group_defer.n != 0 && &tls_group_defer.g->pending == &word) {
      now_word -= tls_group_defer.n;  // the awaited group's tasks this thread ran have finished
    }
    if (done(now_word)) {
      flush_group_defer(tls_group_defer);  // the caller goes on with other things
      return;
    }
    if (help) {
      if (task_node* t = w ? find_task(w) : find_own_slot(slot, mine)) {
        run_task(t, c);
        round = 0;
        deadline = 0;
        continue;
      }
      if (tls_group_defer.n != 0) {  // nothing to run: what this thread deferred may be awaited
        flush_group_defer(tls_group_defer);
        continue;
      }
    }
    if (help) {  // a thread that cannot help (future::get off the pool) goes to sleep at once
      if (round % kClockEvery != 0) {
        os::cpu_relax();
        continue;
      }
      const std::uint64_t now = os::now_ns();
      if (deadline == 0) {
        deadline = now + spin_ns_;
      }
      if (now < deadline || round < kMinSpinRounds) {
        os::yield();
        continue;
      }
      deadline = 0;
    }
    std::vector<sleeper>& list = wake_on_work ? helpers_ : blocked_;
    bool registered = true;
    {
      std::lock_guard<std::mutex> lock(sleep_mu_);
      try {
        list.push_back({p, w});
      } catch (...) {
        registered = false;  // no memory for the list entry: keep polling instead of sleeping
      }
      if (registered && wake_on_work) {
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
      }
    }
    if (!registered) {
      os::yield();
      continue;
    }
    const std::uint32_t v = word.fetch_or(kWaiterBit, std::memory_order_seq_cst);
    if (wake_on_work && light_push_) {
      os::heavy_fence();  // as in search_and_park: new work from outside is visible after this
    }
    // An outside waiter may go to sleep holding tasks in `mine` only while the pool is paused.
    // resume() (and shutdown) clear the flag before waking the sleep lists: a waiter that
    // registered after that wake sees the flag cleared here and runs its tasks.
    const bool holding = mine.next < mine.n && !(paused_.load(std::memory_order_seq_cst) &&
                                                 state_.load(std::memory_order_seq_cst) < stopping);
    if (done(v) || holding || (wake_on_work && work_visible())) {
      bool removed;
      {
        std::lock_guard<std::mutex> lock(sleep_mu_);
        removed = erase_parker(list, p);
        if (removed && wake_on_work) {
          sleepers_.fetch_sub(1, std::memory_order_seq_cst);
        }
      }
      if (!removed) {
        p->park();  // a waker took us off the list: take its token
      }
      continue;
    }
    if (w) {
      bump(w->stats.parked);
    }
    p->park();
  }
}

// Entry points for the header templates (keel/pool/detail/task.h).

void wait_word(scheduler* s, std::atomic<std::uint32_t>& word, done_fn done, bool help,
               int slot) noexcept {
  s->wait_word(word, done, help, slot);
}

}  // namespace keel::pool::detail
