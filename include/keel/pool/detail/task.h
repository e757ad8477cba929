// SPDX-License-Identifier: MIT
// Internal: the task node every queued unit of work is, and the few out-of-line scheduler entry
// points the header templates call. Not part of the API; may change without notice.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>

#include "keel/pool/cancel.h"
#include "keel/pool/error.h"
#include "keel/pool/options.h"

namespace keel::pool::detail {

class scheduler;
struct task_node;

enum class run_mode : std::uint8_t { run, cancel };

// Runs (run_mode::run) or drops (run_mode::cancel) the task, completes whatever waits on it and
// frees the node. Returns true when the task's function ran.
using task_fn = bool (*)(task_node*, run_mode);

struct task_node {
  task_fn fn = nullptr;
  task_node* next = nullptr;      // link in the shared queues
  cancel_state* token = nullptr;  // owned reference, or nullptr; released by fn
};

// Completions of group tasks that the calling thread has not subtracted from the group's pending
// count yet: a thread that runs several tasks of one group in a row (scheduler::run_task arms
// this) subtracts them at once when it turns to anything else. See docs/pool.md.
struct group_state;
struct group_defer {
  task_fn fn = nullptr;  // the execute function of the last counted task
  group_state* g = nullptr;
  std::uint32_t n = 0;  // completions not yet subtracted from g
  bool armed = false;   // inside scheduler::run_task
};
inline thread_local group_defer tls_group_defer;

// Task memory: small per-thread caches in front of operator new (see docs/pool.md). Their blocks
// have operator new's default alignment; a task type that needs more (a callable or result
// declared alignas(32) or wider) gets aligned operator new instead.
void* task_alloc(std::size_t bytes);
void task_free(void* p, std::size_t bytes) noexcept;

template <class T>
inline constexpr bool over_aligned = alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__;

template <class T>
void* alloc_task_memory() {
  if constexpr (over_aligned<T>) {
    return ::operator new (sizeof(T), std::align_val_t{alignof(T)});
  } else {
    return task_alloc(sizeof(T));
  }
}

template <class T>
void free_task_memory(void* p) noexcept {
  if constexpr (over_aligned<T>) {
    ::operator delete (p, std::align_val_t{alignof(T)});
  } else {
    task_free(p, sizeof(T));
  }
}

template <class T, class... A>
T* make_task(A&&... a) {
  void* p = alloc_task_memory<T>();
  try {
    return ::new (p) T(static_cast<A&&>(a)...);
  } catch (...) {
    free_task_memory<T>(p);
    throw;
  }
}
template <class T>
void destroy_task(T* t) noexcept {
  t->~T();
  free_task_memory<T>(t);
}

// True when the task's token was cancelled; releases the token reference either way.
inline bool take_token_cancelled(task_node* t) noexcept {
  cancel_state* s = t->token;
  if (!s) {
    return false;
  }
  t->token = nullptr;
  bool c = s->cancelled.load(std::memory_order_acquire);
  s->release();
  return c;
}

// Queues one task (or `n` tasks) at priority `p`. On error_code::shut_down nothing was queued and
// the caller still owns the nodes.
error_code push(scheduler* s, task_node* t, priority p) noexcept;
error_code push_bulk(scheduler* s, task_node* const* ts, std::size_t n, priority p) noexcept;

// Waiting on a 32-bit state word. kWaiterBit is set in the word by a sleeping waiter; whoever
// changes the word so that `done(word)` becomes true and sees the bit calls notify_waiters().
inline constexpr std::uint32_t kWaiterBit = 0x80000000u;
using done_fn = bool (*)(std::uint32_t word) noexcept;
// Blocks until done(word). On the pool's own workers the calling thread runs any of the pool's
// tasks meanwhile (so nested waits cannot deadlock). On other threads, with `help`, it runs the
// tasks of its external slot `slot` (see claim_slot; -1 for none), which hold only the awaited
// group's tasks, and nothing else; without `help` (future::get off the pool) it sleeps at once
// instead of spinning first: it could only take a core from the workers running what it awaits.
void wait_word(scheduler* s, std::atomic<std::uint32_t>& word, done_fn done, bool help,
               int slot = -1) noexcept;
void notify_waiters(scheduler* s) noexcept;

// External slots: a thread outside the pool that runs a burst of tasks (a task_group's owner)
// borrows a deque of the pool for it, so its pushes cost what a worker's do and workers steal from
// it. claim_slot returns -1 when all are taken; push_slot returns error_code::shut_down once the
// pool refuses outside work; the slot's deque must be empty when it is released.
int claim_slot(scheduler* s) noexcept;
void release_slot(scheduler* s, int slot) noexcept;
error_code push_slot(scheduler* s, int slot, task_node* t) noexcept;

// True when the queue the calling thread's next group task would go to holds nothing: its own
// deque on a worker, external slot `slot` (or -1), else its submitter lane and the shared normal
// queue. A hint for the parallel loops, which split their range only then (lazy binary splitting).
bool local_queue_empty(const scheduler* s, int slot) noexcept;

void report_detached_exception(scheduler* s, const std::exception_ptr& e) noexcept;
// True when the calling thread is one of `s`'s workers.
bool on_worker_of(const scheduler* s) noexcept;

}  // namespace keel::pool::detail
