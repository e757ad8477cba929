// SPDX-License-Identifier: MIT
// The scheduler's worker loop: the task search order, stealing, the lent external slots, running
// a task, and the searching/sleeping protocol with its wake-ups (docs/pool.md, "Scheduler" and
// "Sleeping and waking", explains why it loses no wake-up).
#include <algorithm>
#include <cstdint>
#include <string>

#include "keel/pool/task_group.h"
#include "pool/os.h"
#include "pool/scheduler.h"

namespace keel::pool::detail {

namespace {

std::uint64_t next_random(std::uint64_t& s) noexcept {
  if (s == 0) {
    s = reinterpret_cast<std::uintptr_t>(&s) | 1;
  }
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

}  // namespace

bool make_room(ws_deque& d, std::size_t n) noexcept {
  try {
    d.reserve(n);
    return true;
  } catch (...) {
    return false;
  }
}

void scheduler::worker_main(worker* w) {
  tls_worker = w;
  os::set_thread_name(opts_.name + "-" + std::to_string(w->index));
  if (opts_.on_worker_start) {
    try {
      opts_.on_worker_start(w->index);
    } catch (...) {
    }
  }
  for (;;) {
    if (task_node* t = find_task(w)) {
      run_task(t, &w->stats);
      continue;
    }
    if (!search_and_park(w)) {
      break;
    }
  }
  if (opts_.on_worker_exit) {
    try {
      opts_.on_worker_exit(w->index);
    } catch (...) {
    }
  }
  tls_worker = nullptr;
}

// Search order: a queued high task first, then our own deque (newest first), the shared normal
// queue and the submitter lanes (taking turns at going first), other workers' deques (oldest
// first), then the lent slots, and low tasks last.
task_node* scheduler::find_task(worker* w) noexcept {
  if (paused_.load(std::memory_order_acquire) &&
      state_.load(std::memory_order_acquire) < stopping) {
    return nullptr;
  }
  if (inject_[0].maybe_nonempty()) {
    if (task_node* t = inject_[0].pop()) {
      return t;
    }
  }
  if (task_node* t = w->deque.pop()) {
    return t;
  }
  // The shared queue and the lanes take turns at going first: a steady stream into either cannot
  // keep the other's tasks waiting.
  const bool lanes_first = (++w->turn & 1) != 0;
  if (lanes_first) {
    if (task_node* t = take_lanes(w)) {
      return t;
    }
  }
  if (task_node* t = take_injected(w)) {
    return t;
  }
  if (!lanes_first) {
    if (task_node* t = take_lanes(w)) {
      return t;
    }
  }
  if (task_node* t = steal(w)) {
    return t;
  }
  return inject_[2].pop();
}

// A thread outside the pool waiting for its group runs only the tasks of its own slot (all of
// them tasks of that group): running an unrelated task there could block the waiter on something
// that happens only after its wait returns. Like the thieves, it takes half of what its slot holds
// (at most kMaxTake) with one CAS into `mine`, private to its wait, and runs those first.
task_node* scheduler::find_own_slot(int slot, own_batch& mine) noexcept {
  if (slot < 0 || (paused_.load(std::memory_order_acquire) &&
                   state_.load(std::memory_order_acquire) < stopping)) {
    return nullptr;
  }
  if (mine.next < mine.n) {
    return mine.t[mine.next++];
  }
  // Tasks in `mine` wait for the owner even if a worker is idle: take several only from a slot
  // that holds more than the threads could start at once.
  const std::size_t max =
      slots_[slot].deque.size_local() > 2 * (workers_.size() + 1) ? kMaxTake : 1;
  for (;;) {
    mine.next = mine.n = 0;
    switch (slots_[slot].deque.steal_batch(mine.t, max, mine.n)) {
      case ws_deque::steal_result::taken:
        mine.next = 1;
        return mine.t[0];
      case ws_deque::steal_result::lost_race:
        continue;
      case ws_deque::steal_result::empty:
        return nullptr;
    }
  }
}

// A worker takes a share of the shared normal queue at once: it runs the oldest and keeps the
// rest on its own deque, where it pops them without the queue's lock and others can steal them.
task_node* scheduler::take_injected(worker* w) noexcept {
  const std::size_t queued = inject_[1].size();
  if (queued == 0) {
    return nullptr;
  }
  const std::size_t want = std::min<std::size_t>(kMaxTake, queued / workers_.size() + 1);
  task_node* got[kMaxTake];
  const std::size_t n = inject_[1].pop_batch(got, want);
  if (n == 0) {
    return nullptr;
  }
  keep_rest(w, got, n);
  return got[0];
}

// Pushes got[1..n) onto w's deque so that got[1] is popped first. Callers take batches only when
// their own deque came back empty (find_task pops it first) and a ring holds at least 256 tasks,
// so these at most kMaxTake - 1 pushes never grow the ring (never allocate).
void scheduler::keep_rest(worker* w, task_node* const* got, std::size_t n) noexcept {
  if (n <= 1) {
    return;
  }
  for (std::size_t k = n - 1; k >= 1; --k) {
    w->deque.push(got[k]);
  }
  notify_local_work();
}

// Each look starts at the next lane, so a lane that is never empty cannot hide the others.
task_node* scheduler::take_lanes(worker* w) noexcept {
  return scan(lanes_used_, (w->turn >> 1) % kLanes, lanes_, [this, w](ws_deque& d, task_node*& t) {
    std::size_t n = 0;
    return take_half(w, d, t, n);
  });
}

task_node* scheduler::steal(worker* w) noexcept {
  const std::size_t n = workers_.size();
  if (n == 1) {
    return steal_slots_counted(w);
  }
  const std::size_t start = static_cast<std::size_t>(next_random(w->rng) % n);
  for (;;) {
    bool lost = false;
    for (std::size_t k = 0; k < n; ++k) {
      worker* v = workers_[(start + k) % n].get();
      if (v == w) {
        continue;
      }
      task_node* t = nullptr;
      switch (v->deque.steal(t)) {
        case ws_deque::steal_result::taken:
          bump(w->stats.stolen);
          return t;
        case ws_deque::steal_result::lost_race:
          lost = true;
          break;
        case ws_deque::steal_result::empty:
          break;
      }
    }
    if (!lost) {
      return steal_slots_counted(w);
    }
  }
}

template <class Owner, std::size_t Width, class Take>
task_node* scheduler::scan(const std::atomic<std::uint32_t>& mask_word, std::size_t start,
                           Owner (&owners)[Width], Take take) noexcept {
  for (;;) {
    const std::uint32_t mask = mask_word.load(std::memory_order_acquire);
    if (mask == 0) {
      return nullptr;
    }
    bool lost = false;
    for (std::size_t k = 0; k < Width; ++k) {
      const std::size_t i = (start + k) % Width;
      if (!((mask >> i) & 1)) {
        continue;
      }
      task_node* t = nullptr;
      switch (take(owners[i].deque, t)) {
        case ws_deque::steal_result::taken:
          return t;
        case ws_deque::steal_result::lost_race:
          lost = true;
          break;
        case ws_deque::steal_result::empty:
          break;
      }
    }
    if (!lost) {
      return nullptr;
    }
  }
}

// A worker takes half of a lent slot's tasks (at most kMaxTake) with one CAS, runs the oldest
// and pushes the rest onto its own deque, where it pops them without touching the slot and other
// workers can steal them. (Slot deques are never popped, which makes taking several safe.) The
// slot's owner cannot take those back: if every worker holding some is blocked in a task that
// waits for the owner's wait() to return, the group never completes (docs/pool.md, "Scheduler",
// external slots).
task_node* scheduler::steal_slots_counted(worker* w) noexcept {
  return scan(slots_claimed_, 0, slots_, [this, w](ws_deque& d, task_node*& t) {
    std::size_t n = 0;
    const auto r = take_half(w, d, t, n);
    if (r == ws_deque::steal_result::taken) {
      bump(w->stats.stolen, n);
    }
    return r;
  });
}

ws_deque::steal_result scheduler::take_half(worker* w, ws_deque& d, task_node*& t,
                                            std::size_t& n) noexcept {
  task_node* got[kMaxTake];
  const auto r = d.steal_batch(got, kMaxTake, n);
  if (r == ws_deque::steal_result::taken) {
    keep_rest(w, got, n);
    t = got[0];
  }
  return r;
}

task_node* scheduler::steal_slots() noexcept {
  const auto one = [](ws_deque& d, task_node*& t) { return d.steal(t); };
  if (task_node* t = scan(slots_claimed_, 0, slots_, one)) {
    return t;
  }
  return scan(lanes_used_, 0, lanes_, one);
}

int scheduler::claim_slot() noexcept {
  for (int i = 0; i < kSlots; ++i) {
    bool expect = false;
    if (!slots_[i].claimed.load(std::memory_order_relaxed) &&
        slots_[i].claimed.compare_exchange_strong(expect, true, std::memory_order_acquire)) {
      slots_claimed_.fetch_or(1u << i, std::memory_order_seq_cst);
      return i;
    }
  }
  return -1;
}

void scheduler::release_slot(int slot) noexcept {
  slots_claimed_.fetch_and(~(1u << slot), std::memory_order_seq_cst);
  slots_[slot].claimed.store(false, std::memory_order_release);
}

// Like a worker's local push: the holder waits for its group and pops its own deque there, so a
// task cannot be lost if a sleeping worker misses it for a moment.
error_code scheduler::push_slot(int slot, task_node* t) noexcept {
  if (state_.load(std::memory_order_acquire) != running) {
    return error_code::shut_down;
  }
  if (!make_room(slots_[slot].deque, 1)) {  // no memory for a larger ring: the workers take it
    if (!enqueue_external(t, t, 1, priority::normal)) {  // from the shared queue
      return error_code::shut_down;
    }
    notify_new_work();
    return error_code::ok;
  }
  bump(slots_[slot].stats.submitted);
  slots_[slot].deque.push(t);
  notify_local_work();
  return error_code::ok;
}

void scheduler::run_task(task_node* t, counters* c) noexcept {
  group_defer& d = tls_group_defer;
  if (d.n != 0 && !same_group(d, t)) {
    flush_group_defer(d);
  }
  const bool drop = state_.load(std::memory_order_acquire) >= stopping;
  const bool armed = d.armed;
  d.armed = true;
  const bool ran = t->fn(t, drop ? run_mode::cancel : run_mode::run);
  d.armed = armed;
  if (c) {
    bump(ran ? c->executed : c->cancelled);
    bump(c->finished);
  } else {
    (ran ? ext_executed_ : ext_cancelled_).fetch_add(1, std::memory_order_relaxed);
    ext_finished_.fetch_add(1, std::memory_order_seq_cst);
  }
  if (idle_waiters_.load(std::memory_order_relaxed) != 0) {
    signal_idle_waiters();
  }
}

// Called when find_task came back empty. The worker counts itself as searching and keeps looking
// for spin_ns_ (and kMinSpinRounds looks); then it puts itself on the idle list, stops counting as
// searching, looks once more and sleeps. Whoever wakes it takes it off the list and counts it as
// searching again. Returns false when the worker must exit (stopping and nothing left to drop).
bool scheduler::search_and_park(worker* w) noexcept {
  flush_group_defer(tls_group_defer);
  searching_.fetch_add(1, std::memory_order_seq_cst);
  for (;;) {
    std::uint64_t deadline = 0;  // the clock is read only once the first kClockEvery looks failed
    for (unsigned round = 1;; ++round) {
      if (task_node* t = find_task(w)) {
        // The last searcher to find work wakes another, so that a burst is spread out.
        if (searching_.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
            sleepers_.load(std::memory_order_seq_cst) != 0 && work_visible()) {
          wake_one();
        }
        run_task(t, &w->stats);
        return true;
      }
      if (state_.load(std::memory_order_acquire) >= stopping) {
        searching_.fetch_sub(1, std::memory_order_seq_cst);
        return false;
      }
      if (round % kClockEvery == 0) {
        const std::uint64_t now = os::now_ns();
        if (deadline == 0) {
          deadline = now + spin_ns_;
        } else if (now >= deadline && round >= kMinSpinRounds) {
          break;
        }
        os::yield();
      } else {
        os::cpu_relax();
      }
    }
    {
      std::lock_guard<std::mutex> lock(sleep_mu_);
      idle_.push_back({&w->park, w});
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
    }
    searching_.fetch_sub(1, std::memory_order_seq_cst);
    if (light_push_) {
      os::heavy_fence();  // a submitter's plain store of the queue size is visible after this
    }
    if (work_visible() || state_.load(std::memory_order_seq_cst) >= stopping) {
      bool removed;
      {
        std::lock_guard<std::mutex> lock(sleep_mu_);
        removed = erase_parker(idle_, &w->park);
        if (removed) {
          sleepers_.fetch_sub(1, std::memory_order_seq_cst);
        }
      }
      if (removed) {
        searching_.fetch_add(1, std::memory_order_seq_cst);
      } else {
        w->park.park();  // a waker already took us off the list: take its token
      }
      continue;
    }
    if (idle_waiters_.load(std::memory_order_seq_cst) != 0) {
      signal_idle_waiters();
    }
    bump(w->stats.parked);
    w->park.park();  // the waker counted us as searching
  }
}

bool scheduler::work_visible() const noexcept {
  if (paused_.load(std::memory_order_seq_cst) &&
      state_.load(std::memory_order_seq_cst) < stopping) {
    return false;
  }
  for (const inject_queue& q : inject_) {
    if (q.maybe_nonempty()) {
      return true;
    }
  }
  for (const auto& w : workers_) {
    if (w->deque.maybe_nonempty()) {
      return true;
    }
  }
  for (const ext_slot& e : slots_) {
    if (e.deque.maybe_nonempty()) {
      return true;
    }
  }
  // A lane's bit is set (seq_cst) before its first task: a sleeper that reads the mask before that
  // came first in the total order, and the submitter's wake-up check then sees it asleep.
  std::uint32_t mask = lanes_used_.load(std::memory_order_seq_cst);
  for (unsigned i = 0; mask; ++i, mask >>= 1) {
    if ((mask & 1) && lanes_[i].deque.maybe_nonempty()) {
      return true;
    }
  }
  return false;
}

// After a task became visible (by a seq_cst store): wake a sleeper unless someone is searching.
void scheduler::notify_new_work() noexcept {
  if (searching_.load(std::memory_order_seq_cst) == 0 &&
      sleepers_.load(std::memory_order_seq_cst) != 0) {
    wake_one();
  }
}

// After a push onto the calling worker's own deque. No fence: if a worker falling asleep misses
// this task, the owner still runs it (only parallelism is lost until the next push).
void scheduler::notify_local_work() noexcept {
  if (sleepers_.load(std::memory_order_relaxed) != 0 &&
      searching_.load(std::memory_order_relaxed) == 0) {
    wake_one();
  }
}

void scheduler::wake_one() noexcept {
  sleeper s{nullptr, nullptr};
  {
    std::lock_guard<std::mutex> lock(sleep_mu_);
    if (!idle_.empty()) {
      s = idle_.back();
      idle_.pop_back();
      searching_.fetch_add(1, std::memory_order_seq_cst);
    } else if (!helpers_.empty()) {
      s = helpers_.back();
      helpers_.pop_back();
    } else {
      return;
    }
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
  }
  s.park->unpark();
}

void scheduler::wake_all() noexcept {
  {
    std::lock_guard<std::mutex> lock(sleep_mu_);
    searching_.fetch_add(static_cast<std::uint32_t>(idle_.size()), std::memory_order_seq_cst);
    sleepers_.fetch_sub(static_cast<std::uint32_t>(idle_.size() + helpers_.size()),
                        std::memory_order_seq_cst);
    for (const sleeper& s : idle_) {
      s.park->unpark();
    }
    for (const sleeper& s : helpers_) {
      s.park->unpark();
    }
    for (const sleeper& s : blocked_) {
      s.park->unpark();
    }
    idle_.clear();
    helpers_.clear();
    blocked_.clear();
  }
}

void scheduler::notify_waiters() noexcept {
  std::lock_guard<std::mutex> lock(sleep_mu_);
  sleepers_.fetch_sub(static_cast<std::uint32_t>(helpers_.size()), std::memory_order_seq_cst);
  for (const sleeper& s : helpers_) {
    s.park->unpark();
  }
  for (const sleeper& s : blocked_) {
    s.park->unpark();
  }
  helpers_.clear();
  blocked_.clear();
}

// Entry points for the header templates (keel/pool/detail/task.h).

int claim_slot(scheduler* s) noexcept { return s->claim_slot(); }
void release_slot(scheduler* s, int slot) noexcept { s->release_slot(slot); }
error_code push_slot(scheduler* s, int slot, task_node* t) noexcept {
  return s->push_slot(slot, t);
}
void notify_waiters(scheduler* s) noexcept { s->notify_waiters(); }

}  // namespace keel::pool::detail
