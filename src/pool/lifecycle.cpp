// SPDX-License-Identifier: MIT
// The scheduler's lifecycle: starting the workers, idle detection and wait_idle, pause and resume,
// shutdown, and the statistics (docs/pool.md, "Shutdown semantics" and "Statistics").
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <thread>

#include "keel/pool/task_group.h"
#include "pool/env_options.h"
#include "pool/os.h"
#include "pool/scheduler.h"

namespace keel::pool::detail {

namespace {

constexpr std::size_t kMaxWorkers = 4096;

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

// Entry points for the header templates (keel/pool/detail/task.h).

bool on_worker_of(const scheduler* s) noexcept { return s->current_worker() != nullptr; }

}  // namespace keel::pool::detail
