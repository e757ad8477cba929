// SPDX-License-Identifier: MIT
// Pool configuration, per-submit options and statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>

#include "keel/pool/cancel.h"

namespace keel::pool {

// Scheduling class. A worker about to start a task always takes a queued high task first, then
// normal work (its own deque, the shared queue, stealing), and a low task only when no normal
// or high task is queued anywhere it can see. Running tasks are never preempted.
enum class priority : std::uint8_t { high = 0, normal = 1, low = 2 };

struct pool_options {
  // Number of workers; 0: one per CPU in the constructing thread's affinity mask (KEEL_POOL_THREADS
  // overrides).
  std::size_t threads = 0;
  // Worker thread names are "<name>-<index>", cut to the 15 characters Linux keeps.
  std::string name = "keel-pool";
  // Start each worker on its own CPU: a new worker moves once to the CPU of its affinity mask
  // with the fewest keel workers started on it, then gets its whole mask back (docs/pool.md,
  // "Scheduler"). false: the kernel alone places workers (e.g. when a CPU may be monopolised by
  // a real-time thread, which could keep a worker from running while it is held to that CPU).
  bool place_workers = true;
  // Called on each worker thread when it starts and just before it exits (with its index).
  std::function<void(std::size_t)> on_worker_start;
  std::function<void(std::size_t)> on_worker_exit;
  // Receives the exception of a detached task (detach()). Default: one line on stderr. Never
  // terminates; an exception thrown by the handler itself is swallowed.
  std::function<void(std::exception_ptr)> on_detached_exception;
};

struct submit_options {
  priority prio = priority::normal;
  cancel_token token;  // skipped (and reported cancelled) when cancelled before it starts
};

// Counters since the pool was made. Read without stopping the pool: each is exact, the set is
// not a snapshot of one instant.
struct pool_stats {
  std::uint64_t submitted =
      0;  // tasks accepted (submit, detach, task_group::run, parallel_for chunks)
  std::uint64_t executed = 0;   // tasks whose function ran
  std::uint64_t cancelled = 0;  // tasks skipped (token/group cancelled or dropped by shutdown_now)
  std::uint64_t stolen = 0;     // tasks taken from another worker's deque
  std::uint64_t parked = 0;     // times a worker went to sleep
  std::uint64_t detached_exceptions = 0;  // exceptions passed to on_detached_exception
};

}  // namespace keel::pool
