// SPDX-License-Identifier: MIT
// keel::pool::thread_pool: a work-stealing pool (see docs/pool.md for the scheduler).
//
//   keel::pool::thread_pool p;                       // one worker per CPU we may run on
//   auto f = p.submit([](int x) { return x * 2; }, 21);
//   int v = f.get();                                  // 42; exceptions propagate to get()
//   p.detach([] { ... });                             // fire and forget
//
// Thread safety: every member may be called from any thread, including from tasks running on the
// pool, except the blocking shutdown calls and wait_idle, which return error_code::would_deadlock
// when called on one of the pool's own workers. A pool destroyed by one of its own tasks is
// drained, joined and freed by a thread the destructor starts, once that task has returned.
//
// Shutdown: ~thread_pool() and shutdown() drain: every queued task runs, tasks may still submit
// more work while the drain lasts, then the workers exit. Threads outside the pool are refused
// from the moment shutdown begins. shutdown_now() refuses all new work at once, drops every
// queued task (futures report error_code::cancelled, groups count them done) and lets running tasks
// finish. A refused submit returns a future whose get() throws exception(error_code::shut_down);
// detach() and task_group::run() return error_code::shut_down.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <ranges>
#include <type_traits>
#include <utility>
#include <vector>

#include "keel/pool/detail/task.h"
#include "keel/pool/error.h"
#include "keel/pool/future.h"
#include "keel/pool/options.h"

namespace keel::pool {

namespace detail {
template <class F>
struct detached_task final : task_node {
  scheduler* sched;
  F f;
  template <class G>
  detached_task(scheduler* s, G&& g) : sched(s), f(static_cast<G&&>(g)) {
    this->fn = &execute;
  }
  static bool execute(task_node* n, run_mode m) {
    auto* self = static_cast<detached_task*>(n);
    const bool skip = take_token_cancelled(n) || m == run_mode::cancel;
    if (!skip) {
      try {
        std::move(self->f)();
      } catch (...) {
        report_detached_exception(self->sched, std::current_exception());
      }
    }
    destroy_task(self);
    return !skip;
  }
};

// Binds f and copies of args into one nullary callable.
template <class F, class... A>
auto bind_call(F&& f, A&&... a) {
  return [fn = std::forward<F>(f), ... args = std::forward<A>(a)]() mutable -> decltype(auto) {
    return std::invoke(std::move(fn), std::move(args)...);
  };
}
}  // namespace detail

class thread_pool {
 public:
  // n workers; n = 0: one per CPU in the process's affinity mask.
  explicit thread_pool(std::size_t n = 0);
  explicit thread_pool(const pool_options& options);
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  // Number of workers.
  std::size_t size() const noexcept;
  // One worker per CPU in this process's affinity mask (at least 1), or KEEL_POOL_THREADS.
  static std::size_t default_threads() noexcept;

  // Runs f(args...) on the pool. The future reports the result, the exception, or cancellation.
  template <class F, class... A>
  requires(!std::is_same_v<std::decay_t<F>, submit_options> &&
           !std::is_same_v<std::decay_t<F>, priority>) auto submit(F&& f, A&&... args) {
    return submit(submit_options{}, std::forward<F>(f), std::forward<A>(args)...);
  }
  template <class F, class... A>
  auto submit(priority p, F&& f, A&&... args) {
    return submit(submit_options{p, {}}, std::forward<F>(f), std::forward<A>(args)...);
  }
  template <class F, class... A>
  auto submit(const submit_options& o, F&& f, A&&... args) {
    auto call = detail::bind_call(std::forward<F>(f), std::forward<A>(args)...);
    using R = std::invoke_result_t<decltype(call)&&>;
    static_assert(!std::is_reference_v<R>, "submit: return a value, not a reference");
    auto* t = make_future_task<R>(std::move(call), o);
    if (error_code e = detail::push(sched_, t, o.prio); e != error_code::ok) {
      discard(t);
      return detail::make_future<R>(nullptr, e);
    }
    return detail::make_future<R>(t, error_code::ok);
  }

  // Runs f() on the pool with no result; an exception goes to pool_options::on_detached_exception.
  template <class F>
  requires(!std::is_same_v<std::decay_t<F>, submit_options>) error_code detach(F&& f) {
    return detach(submit_options{}, std::forward<F>(f));
  }
  template <class F>
  error_code detach(const submit_options& o, F&& f) {
    auto* t = make_detached(std::forward<F>(f), o);
    error_code e = detail::push(sched_, t, o.prio);
    if (e != error_code::ok) {
      t->fn(t, detail::run_mode::cancel);  // frees the refused task
    }
    return e;
  }

  // Submits every callable of `fns` at once (one queue operation, one wake-up decision). If making
  // a task throws (a callable's copy, bad_alloc), nothing is queued, the tasks made so far are
  // dropped and the exception propagates.
  template <std::ranges::input_range R>
  auto submit_bulk(R&& fns, const submit_options& o = {}) {
    using F = std::ranges::range_value_t<R>;
    using T = std::invoke_result_t<F&&>;
    const auto state = [](detail::task_node* n) {
      return static_cast<detail::future_state<T>*>(n);
    };
    std::vector<detail::task_node*> nodes;
    std::vector<future<T>> out;
    try {
      for (auto&& f : fns) {
        nodes.push_back(nullptr);  // the slot first: once the task exists, keeping it cannot throw
        nodes.back() = make_future_task<T>(F(std::forward<decltype(f)>(f)), o);
      }
      out.reserve(nodes.size());
    } catch (...) {
      for (auto* n : nodes) {
        if (n) {
          discard(state(n));
        }
      }
      throw;
    }
    const error_code e = detail::push_bulk(sched_, nodes.data(), nodes.size(), o.prio);
    for (auto* n : nodes) {
      if (e != error_code::ok) {
        discard(state(n));
        out.push_back(detail::make_future<T>(nullptr, e));
      } else {
        out.push_back(detail::make_future<T>(state(n), error_code::ok));
      }
    }
    return out;
  }

  // Detaches f(i) for every i in [0, count) as `count` tasks queued at once. If making a task
  // throws, nothing is queued, the tasks made so far are dropped and the exception propagates.
  template <class F>
  error_code detach_bulk(std::size_t count, F f, const submit_options& o = {}) {
    std::vector<detail::task_node*> nodes;
    nodes.reserve(count);
    const auto drop = [&nodes] {
      for (auto* n : nodes) {
        n->fn(n, detail::run_mode::cancel);
      }
    };
    try {
      for (std::size_t i = 0; i < count; ++i) {
        nodes.push_back(make_detached([f, i] { f(i); }, o));  // reserved: cannot throw
      }
    } catch (...) {
      drop();
      throw;
    }
    const error_code e = detail::push_bulk(sched_, nodes.data(), nodes.size(), o.prio);
    if (e != error_code::ok) {
      drop();
    }
    return e;
  }

  // Blocks until no task is queued or running (a paused pool with queued work never becomes
  // idle: resume it first). error_code::would_deadlock on a worker of this pool.
  error_code wait_idle() noexcept;

  // While paused, no thread starts a task of this pool (queued work waits; running tasks finish;
  // waits on this pool's futures or groups block instead of helping).
  void pause() noexcept;
  void resume() noexcept;
  bool paused() const noexcept;

  // See the header comment. Both return error_code::would_deadlock on a worker of this pool;
  // calling them again (or after each other) is harmless.
  error_code shutdown() noexcept;
  error_code shutdown_now() noexcept;

  pool_stats stats() const noexcept;
  // True when the calling thread is one of this pool's workers.
  bool on_worker() const noexcept;

  detail::scheduler* scheduler() const noexcept { return sched_; }

 private:
  template <class R, class C>
  auto* make_future_task(C&& call, const submit_options& o) {
    auto* t = detail::make_task<detail::future_task<R, std::decay_t<C>>>(std::in_place,
                                                                         std::forward<C>(call));
    t->sched = sched_;
    t->token = o.token.share();
    return t;
  }
  template <class F>
  auto* make_detached(F&& f, const submit_options& o) {
    auto* t = detail::make_task<detail::detached_task<std::decay_t<F>>>(sched_, std::forward<F>(f));
    t->token = o.token.share();
    return t;
  }
  // A refused task: completes it as cancelled and drops the pool's reference.
  template <class T>
  static void discard(detail::future_state<T>* t) noexcept {
    t->fn(t, detail::run_mode::cancel);
    t->release();
  }

  detail::scheduler* sched_;
};

}  // namespace keel::pool
