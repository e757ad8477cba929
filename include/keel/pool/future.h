// SPDX-License-Identifier: MIT
// keel::pool::future<T>: the result of thread_pool::submit. Move-only, single consumer.
//
// get() waits, then returns the value, rethrows the task's exception, or throws exception with
// error_code::cancelled (skipped before it started) or error_code::shut_down (rejected at submit).
// Waiting on one of the pool's own workers runs other tasks meanwhile, so nested waits cannot
// deadlock; other threads sleep until the result is ready.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include "keel/pool/detail/task.h"
#include "keel/pool/error.h"

namespace keel::pool {

template <class T>
class future;

namespace detail {

inline constexpr std::uint32_t kPending = 0, kValue = 1, kError = 2, kCancelled = 3;

inline bool future_done(std::uint32_t w) noexcept { return (w & ~kWaiterBit) != kPending; }

struct void_value {};

template <class T>
struct future_state : task_node {
  using stored = std::conditional_t<std::is_void_v<T>, void_value, T>;

  std::atomic<std::uint32_t> state{kPending};
  std::atomic<std::uint32_t> refs{2};  // the task and the future
  scheduler* sched = nullptr;
  void (*destroy)(future_state*) noexcept = nullptr;
  std::exception_ptr error;
  std::optional<stored> value;

  void release() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      destroy(this);
    }
  }
  void complete(std::uint32_t st) noexcept {
    scheduler* s = sched;
    if (state.exchange(st, std::memory_order_acq_rel) & kWaiterBit) {
      notify_waiters(s);
    }
  }
};

template <class T, class F>
struct future_task final : future_state<T> {
  std::optional<F> f;

  template <class G>
  future_task(std::in_place_t, G&& g) : f(std::in_place, static_cast<G&&>(g)) {
    this->fn = &execute;
    this->destroy = &destroy_self;
  }

  static void destroy_self(future_state<T>* s) noexcept {
    destroy_task(static_cast<future_task*>(s));
  }

  static bool execute(task_node* n, run_mode m) {
    auto* self = static_cast<future_task*>(n);
    const bool skip = take_token_cancelled(n) || m == run_mode::cancel;
    std::uint32_t st = kCancelled;
    if (!skip) {
      try {
        if constexpr (std::is_void_v<T>) {
          std::move (*self->f)();
          self->value.emplace();
        } else {
          self->value.emplace(std::move(*self->f)());
        }
        st = kValue;
      } catch (...) {
        self->error = std::current_exception();
        st = kError;
      }
    }
    self->f.reset();  // captured state dies with the run, not with the future
    self->complete(st);
    self->release();
    return !skip;
  }
};

template <class T>
future<T> make_future(future_state<T>* s, error_code e) noexcept;

}  // namespace detail

template <class T>
class future {
 public:
  future() noexcept = default;
  future(future&& o) noexcept
      : s_(std::exchange(o.s_, nullptr)), err_(std::exchange(o.err_, error_code::no_state)) {}
  future& operator=(future&& o) noexcept {
    if (this != &o) {
      reset();
      s_ = std::exchange(o.s_, nullptr);
      err_ = std::exchange(o.err_, error_code::no_state);
    }
    return *this;
  }
  future(const future&) = delete;
  future& operator=(const future&) = delete;
  ~future() { reset(); }

  // False for a default-constructed future and after get().
  bool valid() const noexcept { return s_ != nullptr || err_ != error_code::no_state; }

  // True when get() would not block.
  bool ready() const noexcept {
    return s_ ? detail::future_done(s_->state.load(std::memory_order_acquire))
              : err_ != error_code::no_state;
  }

  // Blocks until ready (helping on the pool's workers). No effect on an invalid future.
  void wait() const noexcept {
    if (s_ && !ready()) {
      detail::wait_word(s_->sched, s_->state, &detail::future_done,
                        detail::on_worker_of(s_->sched));
    }
  }

  // Waits, then: error_code::ok when the task ran (returned or threw), error_code::cancelled,
  // error_code::shut_down, or error_code::no_state for an invalid future.
  error_code status() const noexcept {
    if (!s_) {
      return err_;
    }
    wait();
    return (s_->state.load(std::memory_order_acquire) & ~detail::kWaiterBit) == detail::kCancelled
               ? error_code::cancelled
               : error_code::ok;
  }

  // Waits and consumes the result (the future becomes invalid).
  T get() {
    if (!s_) {
      error_code e = std::exchange(err_, error_code::no_state);
      throw exception(e == error_code::ok ? error_code::no_state : e);
    }
    wait();
    detail::future_state<T>* s = std::exchange(s_, nullptr);
    err_ = error_code::no_state;
    struct releaser {
      detail::future_state<T>* s;
      ~releaser() { s->release(); }
    } r{s};
    switch (s->state.load(std::memory_order_acquire) & ~detail::kWaiterBit) {
      case detail::kValue:
        if constexpr (std::is_void_v<T>) {
          return;
        } else {
          return std::move(*s->value);
        }
      case detail::kError:
        std::rethrow_exception(s->error);
      default:
        throw exception(error_code::cancelled);
    }
  }

 private:
  template <class U>
  friend future<U> detail::make_future(detail::future_state<U>*, error_code) noexcept;
  void reset() noexcept {
    if (s_) {
      s_->release();
    }
    s_ = nullptr;
    err_ = error_code::no_state;
  }
  detail::future_state<T>* s_ = nullptr;
  error_code err_ = error_code::no_state;  // with s_ == nullptr: why there is no state
};

namespace detail {
template <class T>
future<T> make_future(future_state<T>* s, error_code e) noexcept {
  future<T> f;
  f.s_ = s;
  f.err_ = e;
  return f;
}
}  // namespace detail

}  // namespace keel::pool
