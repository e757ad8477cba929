// SPDX-License-Identifier: MIT
// keel::pool::thread_pool: the public face of the scheduler.
#include "keel/pool/thread_pool.h"

#include <cstdio>
#include <thread>

#include "pool/env_options.h"
#include "pool/os.h"
#include "pool/scheduler.h"

namespace keel::pool {

namespace {
pool_options with_threads(std::size_t n) {
  pool_options o;
  o.threads = n;
  return o;
}
}  // namespace

thread_pool::thread_pool(std::size_t n) : thread_pool(with_threads(n)) {}

thread_pool::thread_pool(const pool_options& options) : sched_(new detail::scheduler(options)) {}

thread_pool::~thread_pool() {
  if (sched_->shutdown(false) == error_code::would_deadlock) {
    // Destroyed by one of its own tasks, which cannot wait for itself: a thread outside the pool
    // drains it, joins its workers (after this task has returned) and frees it.
    detail::scheduler* s = sched_;
    try {
      std::thread([s] {
        s->shutdown(false);
        delete s;
      }).detach();
    } catch (...) {
      // No thread to do it: the workers stay parked and the scheduler is leaked rather than
      // freed under them.
      std::fputs(
          "keel::pool: thread_pool destroyed on one of its own workers and no thread could be "
          "started to drain it; its scheduler is leaked\n",
          stderr);
    }
    return;
  }
  delete sched_;
}

std::size_t thread_pool::size() const noexcept { return sched_->size(); }

std::size_t thread_pool::default_threads() noexcept {
  const std::size_t env = detail::env().threads;
  return env ? env : detail::os::affinity_cpus();
}

error_code thread_pool::wait_idle() noexcept { return sched_->wait_idle(); }
void thread_pool::pause() noexcept { sched_->pause(); }
void thread_pool::resume() noexcept { sched_->resume(); }
bool thread_pool::paused() const noexcept { return sched_->paused(); }
error_code thread_pool::shutdown() noexcept { return sched_->shutdown(false); }
error_code thread_pool::shutdown_now() noexcept { return sched_->shutdown(true); }
pool_stats thread_pool::stats() const noexcept { return sched_->stats(); }
bool thread_pool::on_worker() const noexcept { return sched_->current_worker() != nullptr; }

}  // namespace keel::pool
