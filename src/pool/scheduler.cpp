// SPDX-License-Identifier: MIT
// The scheduler: worker loop, task search order, the searching/sleeping protocol, helping waits,
// wait_idle and shutdown. docs/pool.md explains the protocol and why it loses no wake-up.
#include "pool/scheduler.h"

#include "keel/pool/task_group.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

#include "pool/env_options.h"
#include "pool/os.h"

namespace keel::pool::detail {

namespace {

thread_local parker tls_parker;  // for waits on threads that are not workers of the pool

// Which lane this thread pushes onto (in every pool): threads take lanes round robin as they first
// submit from outside, so kLanes submitters that start together get one each; threads whose
// numbers are equal modulo kLanes share one.
std::atomic<unsigned> next_lane{0};
thread_local unsigned tls_lane = UINT_MAX;

constexpr std::size_t kMaxWorkers = 4096;
// Spinning: one `pause` between looks for work (about 50 ns on current x86); every kClockEvery
// looks the clock is read and the spinner calls sched_yield, so that a thread sharing its core
// (the submitter, when there are more runnable threads than cores) gets to run.
constexpr unsigned kClockEvery = 128;
// A spin lasts spin_ns_ of wall time and at least this many looks: on a loaded machine a spinner
// that was preempted for most of its wall-time budget would otherwise park at once.
constexpr unsigned kMinSpinRounds = 1024;

std::uint64_t next_random(std::uint64_t& s) noexcept {
  if (s == 0) {
    s = reinterpret_cast<std::uintptr_t>(&s) | 1;
  }
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

// Room for n more pushes onto a deque this thread owns; false when there is no memory for a larger
// ring (the caller then takes or pushes fewer tasks, or uses the shared queue).
bool make_room(ws_deque& d, std::size_t n) noexcept {
  try {
    d.reserve(n);
    return true;
  } catch (...) {
    return false;
  }
}

bool erase_parker(std::vector<sleeper>& list, const parker* p) noexcept {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].park == p) {
      list[i] = list.back();
      list.pop_back();
      return true;
    }
  }
  return false;
}

}  // namespace

scheduler::scheduler(const pool_options& o) : opts_(o), spin_ns_(env().spin_ns) {
  light_push_ = os::enable_heavy_fence();
  for (inject_queue& q : inject_) {
    q.set_light(light_push_);
  }
  std::size_t n = o.threads ? o.threads : (env().threads ? env().threads : os::affinity_cpus());
  if (n > kMaxWorkers) {
    throw std::invalid_argument("keel::pool: at most 4096 workers");
  }
  workers_.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto w = std::make_unique<worker>();
    w->sched = this;
    w->index = i;
    w->rng = 0x9e3779b97f4a7c15ull * (i + 1);
    workers_.push_back(std::move(w));
  }
  // Idle and sleep lists never grow past these, so registering to sleep does not allocate.
  idle_.reserve(n);
  // Each new worker first moves to the least used CPU (of keel's workers), starting after the
  // creating thread's: threads made back to back otherwise often start on one CPU and share it
  // for 10-20 ms until the kernel's load balancer separates them (a two-worker loop ran at
  // one-worker speed meanwhile).
  const bool place = o.place_workers;
  const int creator_cpu = place ? os::current_cpu() : -1;
  try {
    for (auto& w : workers_) {
      worker* wp = w.get();
      w->thread = std::thread([this, wp, place, creator_cpu] {
        const int cpu = place ? os::place_thread(creator_cpu) : -1;
        worker_main(wp);
        os::unplace_thread(cpu);
      });
    }
  } catch (...) {
    shutdown(true);
    throw;
  }
}

scheduler::~scheduler() = default;

// ---- the worker loop -------------------------------------------------------------------------

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
// waits for the owner's wait() to return, the group never completes (docs/pool.md, "Blocking").
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

// ---- waiting for a future or a group ---------------------------------------------------------

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

// ---- submitting ------------------------------------------------------------------------------

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

// ---- idle, pause, shutdown, statistics -------------------------------------------------------

bool scheduler::is_idle() const noexcept {
  // Finished counts first, then submitted ones: both only grow, so equal sums mean that at the
  // moment between the two passes every submitted task had finished.
  std::uint64_t fin = ext_finished_.load(std::memory_order_seq_cst);
  for (const auto& w : workers_) {
    fin += w->stats.finished.load(std::memory_order_acquire);
  }
  for (const ext_slot& e : slots_) {
    fin += e.stats.finished.load(std::memory_order_acquire);
  }
  std::uint64_t sub = 0;
  for (const inject_queue& q : inject_) {
    sub += q.submitted();
  }
  for (const ext_slot& e : slots_) {
    sub += e.stats.submitted.load(std::memory_order_acquire);
  }
  for (const lane& l : lanes_) {
    sub += l.submitted.load(std::memory_order_acquire);
  }
  for (const auto& w : workers_) {
    sub += w->stats.submitted.load(std::memory_order_acquire);
  }
  return sub == fin;
}

void scheduler::signal_idle_waiters() noexcept {
  if (!is_idle()) {
    return;
  }
  idle_epoch_.fetch_add(1, std::memory_order_seq_cst);
  os::futex_wake(idle_epoch_, INT_MAX);
}

error_code scheduler::wait_idle() noexcept {
  if (current_worker()) {
    return error_code::would_deadlock;
  }
  for (;;) {
    if (is_idle()) {
      return error_code::ok;
    }
    idle_waiters_.fetch_add(1, std::memory_order_seq_cst);
    const std::uint32_t epoch = idle_epoch_.load(std::memory_order_seq_cst);
    if (is_idle()) {
      idle_waiters_.fetch_sub(1, std::memory_order_seq_cst);
      return error_code::ok;
    }
    // The timeout bounds the delay if a finishing thread's signal raced with this check.
    os::futex_wait(idle_epoch_, epoch, 2000000);
    idle_waiters_.fetch_sub(1, std::memory_order_seq_cst);
  }
}

void scheduler::pause() noexcept { paused_.store(true, std::memory_order_seq_cst); }

void scheduler::resume() noexcept {
  paused_.store(false, std::memory_order_seq_cst);
  wake_all();
}

// Waits until no outside submitter is between its check of state_ and the end of its push.
void scheduler::flush_submitters() noexcept {
  for (inject_queue& q : inject_) {
    q.flush();
  }
  for (lane& l : lanes_) {
    l.lock.lock();
    l.lock.unlock();
  }
}

error_code scheduler::shutdown(bool now) noexcept {
  if (current_worker()) {
    return error_code::would_deadlock;
  }
  std::lock_guard<std::mutex> guard(shutdown_mu_);
  if (joined_) {
    return error_code::ok;
  }
  if (now) {
    std::uint32_t s = state_.load(std::memory_order_seq_cst);
    while (s < stopping && !state_.compare_exchange_weak(s, stopping, std::memory_order_seq_cst)) {
    }
    flush_submitters();
  } else {
    std::uint32_t s = running;
    state_.compare_exchange_strong(s, closing, std::memory_order_seq_cst);
    flush_submitters();  // submitters past the check are counted now
    resume();            // a paused pool would never drain
    wait_idle();
    s = state_.load(std::memory_order_seq_cst);
    while (s < stopped && !state_.compare_exchange_weak(s, stopped, std::memory_order_seq_cst)) {
    }
  }
  wake_all();
  for (auto& w : workers_) {
    if (w->thread.joinable()) {
      w->thread.join();
    }
  }
  // Tasks an outside thread was still queueing as the workers left are dropped here.
  for (;;) {
    for (inject_queue& q : inject_) {
      while (task_node* t = q.pop()) {
        run_task(t, nullptr);
      }
    }
    while (task_node* t = steal_slots()) {
      run_task(t, nullptr);
    }
    flush_group_defer(tls_group_defer);
    if (is_idle()) {
      break;
    }
    os::yield();
  }
  joined_ = true;
  return error_code::ok;
}

pool_stats scheduler::stats() const noexcept {
  pool_stats s;
  s.executed = ext_executed_.load(std::memory_order_acquire);
  s.cancelled = ext_cancelled_.load(std::memory_order_acquire);
  for (const inject_queue& q : inject_) {
    s.submitted += q.submitted();
  }
  for (const lane& l : lanes_) {
    s.submitted += l.submitted.load(std::memory_order_acquire);
  }
  for (const ext_slot& e : slots_) {
    s.submitted += e.stats.submitted.load(std::memory_order_acquire);
    s.executed += e.stats.executed.load(std::memory_order_acquire);
    s.cancelled += e.stats.cancelled.load(std::memory_order_acquire);
  }
  for (const auto& w : workers_) {
    s.submitted += w->stats.submitted.load(std::memory_order_acquire);
    s.executed += w->stats.executed.load(std::memory_order_acquire);
    s.cancelled += w->stats.cancelled.load(std::memory_order_acquire);
    s.stolen += w->stats.stolen.load(std::memory_order_acquire);
    s.parked += w->stats.parked.load(std::memory_order_acquire);
  }
  s.detached_exceptions = detached_exceptions_.load(std::memory_order_acquire);
  return s;
}

// ---- entry points for the header templates ---------------------------------------------------

error_code push(scheduler* s, task_node* t, priority p) noexcept { return s->push(t, p); }
error_code push_bulk(scheduler* s, task_node* const* ts, std::size_t n, priority p) noexcept {
  return s->push_bulk(ts, n, p);
}
void wait_word(scheduler* s, std::atomic<std::uint32_t>& word, done_fn done, bool help,
               int slot) noexcept {
  s->wait_word(word, done, help, slot);
}
int claim_slot(scheduler* s) noexcept { return s->claim_slot(); }
void release_slot(scheduler* s, int slot) noexcept { s->release_slot(slot); }
error_code push_slot(scheduler* s, int slot, task_node* t) noexcept {
  return s->push_slot(slot, t);
}
void notify_waiters(scheduler* s) noexcept { s->notify_waiters(); }
bool local_queue_empty(const scheduler* s, int slot) noexcept { return s->local_queue_empty(slot); }
void report_detached_exception(scheduler* s, const std::exception_ptr& e) noexcept {
  s->report_detached_exception(e);
}
bool on_worker_of(const scheduler* s) noexcept { return s->current_worker() != nullptr; }

}  // namespace keel::pool::detail
