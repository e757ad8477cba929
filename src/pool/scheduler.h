// SPDX-License-Identifier: MIT
// Internal: the scheduler behind thread_pool — workers, their deques, the shared queues, the
// sleep/wake protocol and shutdown. docs/pool.md describes the design. Its code is in
// worker_loop.cpp (search, steal, run, sleep and wake), wait.cpp (waits for a future or a group),
// submit.cpp (pushes) and lifecycle.cpp (start, idle, pause, shutdown, statistics).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "keel/pool/detail/task.h"
#include "keel/pool/options.h"
#include "pool/deque.h"
#include "pool/inject_queue.h"
#include "pool/parker.h"

namespace keel::pool::detail {

// Counters one thread writes (load + store, no read-modify-write) and any thread reads.
struct alignas(64) counters {
  std::atomic<std::uint64_t> submitted{0}, finished{0}, executed{0}, cancelled{0}, stolen{0},
      parked{0};
};
inline void bump(std::atomic<std::uint64_t>& c, std::uint64_t n = 1) noexcept {
  c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_release);
}

// Spinning: one `pause` between looks for work (about 50 ns on current x86); every kClockEvery
// looks the clock is read and the spinner calls sched_yield, so that a thread sharing its core
// (the submitter, when there are more runnable threads than cores) gets to run.
inline constexpr unsigned kClockEvery = 128;
// A spin lasts spin_ns_ of wall time and at least this many looks: on a loaded machine a spinner
// that was preempted for most of its wall-time budget would otherwise park at once.
inline constexpr unsigned kMinSpinRounds = 1024;

// Room for n more pushes onto a deque this thread owns; false when there is no memory for a larger
// ring (the caller then takes or pushes fewer tasks, or uses the shared queue). Out of line, as
// it was before the scheduler was split into several files (worker_loop.cpp).
bool make_room(ws_deque& d, std::size_t n) noexcept;

class scheduler;

struct worker {
  scheduler* sched = nullptr;
  std::size_t index = 0;
  ws_deque deque;
  parker park;
  counters stats;
  std::uint64_t rng = 0;
  unsigned turn = 0;  // alternates the shared queue and the lanes, rotates the first lane looked at
  std::thread thread;
};

// A deque lent to a thread outside the pool (see claim_slot in keel/pool/detail/task.h).
struct ext_slot {
  ws_deque deque;
  counters stats;  // written by the current holder only (claim/release order the holders)
  std::atomic<bool> claimed{false};
};

// A deque that threads outside the pool push their normal-priority tasks onto (docs/pool.md,
// "Submitter lanes"). A push holds `lock`, so the deque's owner side has one thread at a time;
// workers take from the top like thieves. Nobody pops it.
struct lane {
  spin_lock lock;
  std::atomic<std::uint64_t> submitted{0};  // written under lock
  ws_deque deque;
};

// One sleeping thread on a sleep list.
struct sleeper {
  parker* park;
  worker* w;  // the worker, or nullptr for a thread outside the pool
};

// Takes p off a sleep list; false when it was not on it (a waker took it off).
inline bool erase_parker(std::vector<sleeper>& list, const parker* p) noexcept {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].park == p) {
      list[i] = list.back();
      list.pop_back();
      return true;
    }
  }
  return false;
}

// The worker running on this thread (of whichever pool), or nullptr.
inline thread_local worker* tls_worker = nullptr;

class scheduler {
 public:
  explicit scheduler(const pool_options& o);
  ~scheduler();  // requires stop() first

  std::size_t size() const noexcept { return workers_.size(); }

  error_code push(task_node* t, priority p) noexcept;
  error_code push_bulk(task_node* const* ts, std::size_t n, priority p) noexcept;
  void wait_word(std::atomic<std::uint32_t>& word, done_fn done, bool help, int slot) noexcept;
  int claim_slot() noexcept;
  void release_slot(int slot) noexcept;
  error_code push_slot(int slot, task_node* t) noexcept;
  void notify_waiters() noexcept;
  bool local_queue_empty(int slot) const noexcept;
  void report_detached_exception(const std::exception_ptr& e) noexcept;

  error_code wait_idle() noexcept;
  void pause() noexcept;
  void resume() noexcept;
  bool paused() const noexcept { return paused_.load(std::memory_order_acquire); }
  error_code shutdown(bool now) noexcept;
  pool_stats stats() const noexcept;
  // The calling thread's worker if it is one of ours, else nullptr.
  worker* current_worker() const noexcept {
    worker* w = tls_worker;
    return w && w->sched == this ? w : nullptr;
  }

 private:
  enum state : std::uint32_t { running = 0, closing = 1, stopping = 2, stopped = 3 };

  void worker_main(worker* w);
  task_node* find_task(worker* w) noexcept;
  task_node* steal(worker* w) noexcept;
  task_node* take_injected(worker* w) noexcept;
  task_node* take_lanes(worker* w) noexcept;
  void keep_rest(worker* w, task_node* const* got, std::size_t n) noexcept;
  // Takes half of d's n tasks (at most kMaxTake) with one CAS (d is never popped), keeps all but
  // the oldest on w's deque and returns the oldest in t.
  ws_deque::steal_result take_half(worker* w, ws_deque& d, task_node*& t, std::size_t& n) noexcept;
  enum class lane_push { pushed, refused, unavailable };
  lane_push push_lane(task_node* const* ts, std::size_t n) noexcept;
  static constexpr std::size_t kMaxTake = 32;
  struct own_batch {
    task_node* t[kMaxTake];
    std::size_t n = 0, next = 0;
  };
  task_node* find_own_slot(int slot, own_batch& mine) noexcept;
  // Offers owners[i].deque for each set bit i of `mask`, from bit `start` on and round, to
  // take(deque, task_node*&) -> steal_result until one yields a task; rescans while some take lost
  // a race.
  template <class Owner, std::size_t Width, class Take>
  static task_node* scan(const std::atomic<std::uint32_t>& mask, std::size_t start,
                         Owner (&owners)[Width], Take take) noexcept;
  task_node* steal_slots() noexcept;  // slots and lanes, one task (for shutdown)
  task_node* steal_slots_counted(worker* w) noexcept;
  // c: the calling thread's counters (a worker's, or the external slot it holds), or nullptr for
  // the shared ext_* counters.
  void run_task(task_node* t, counters* c) noexcept;
  bool search_and_park(worker* w) noexcept;
  bool work_visible() const noexcept;
  void notify_new_work() noexcept;
  void notify_local_work() noexcept;
  void wake_one() noexcept;
  void wake_all() noexcept;
  bool is_idle() const noexcept;
  void signal_idle_waiters() noexcept;
  void flush_submitters() noexcept;
  bool enqueue_external(task_node* first, task_node* last, std::size_t n, priority p) noexcept;

  pool_options opts_;
  std::uint64_t spin_ns_;
  // Outside submitters publish with plain stores; sleepers issue os::heavy_fence() (see
  // inject_queue::set_light). False where the kernel has no membarrier.
  bool light_push_ = false;
  std::vector<std::unique_ptr<worker>> workers_;
  inject_queue inject_[3];  // by priority: high, normal, low
  static constexpr int kSlots = 4;
  ext_slot slots_[kSlots];
  alignas(64) std::atomic<std::uint32_t> slots_claimed_{0};  // bit i: slots_[i] is lent out
  static constexpr unsigned kLanes = 8;
  lane lanes_[kLanes];
  alignas(64) std::atomic<std::uint32_t> lanes_used_{0};  // bit i: lanes_[i] had a push

  alignas(64) std::atomic<std::uint32_t> state_{running};
  std::atomic<bool> paused_{false};
  alignas(64) std::atomic<std::uint32_t> searching_{0};
  std::atomic<std::uint32_t> sleepers_{0};  // idle workers + helping waiters on the sleep lists

  std::mutex sleep_mu_;
  std::vector<sleeper> idle_;     // parked workers
  std::vector<sleeper> helpers_;  // waiters that run tasks when woken (woken by new work too)
  std::vector<sleeper> blocked_;  // waiters that only wait (woken by completions only)

  // Work done by threads outside the pool (tasks they submitted are counted by inject_).
  alignas(64) std::atomic<std::uint64_t> ext_finished_{0}, ext_executed_{0}, ext_cancelled_{0};
  std::atomic<std::uint64_t> detached_exceptions_{0};

  alignas(64) std::atomic<std::uint32_t> idle_waiters_{0};
  std::atomic<std::uint32_t> idle_epoch_{0};
  std::mutex shutdown_mu_;
  bool joined_ = false;
};

}  // namespace keel::pool::detail
