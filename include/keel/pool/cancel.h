// SPDX-License-Identifier: MIT
// Cancellation tokens. A cancel_source owns the flag; tokens observe it. A task submitted with a
// token is skipped if the token is cancelled before the task starts (its future then reports
// error_code::cancelled once a thread reaches the task in its queue, not at cancel()); a running
// task polls `token.cancelled()` to stop early (cooperative).
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace keel::pool {

namespace detail {
// Shared, reference-counted cancellation flag.
struct cancel_state {
  std::atomic<std::uint32_t> refs{1};
  std::atomic<bool> cancelled{false};

  void retain() noexcept { refs.fetch_add(1, std::memory_order_relaxed); }
  void release() noexcept {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      delete this;
    }
  }
};
}  // namespace detail

class cancel_source;

// An observer of a cancel_source's flag; cheap to copy. A default token is never cancelled.
class cancel_token {
 public:
  cancel_token() noexcept = default;
  cancel_token(const cancel_token& o) noexcept : s_(o.s_) {
    if (s_) {
      s_->retain();
    }
  }
  cancel_token(cancel_token&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  cancel_token& operator=(cancel_token o) noexcept {
    std::swap(s_, o.s_);
    return *this;
  }
  ~cancel_token() {
    if (s_) {
      s_->release();
    }
  }

  bool cancelled() const noexcept { return s_ && s_->cancelled.load(std::memory_order_acquire); }
  // True when the token is attached to a source (it can be cancelled).
  bool can_be_cancelled() const noexcept { return s_ != nullptr; }

  // For the pool: the shared state, with one reference added (nullptr for a default token).
  detail::cancel_state* share() const noexcept {
    if (s_) {
      s_->retain();
    }
    return s_;
  }

 private:
  friend class cancel_source;
  explicit cancel_token(detail::cancel_state* s) noexcept : s_(s) {}
  detail::cancel_state* s_ = nullptr;
};

// Owns a cancellation flag. cancel() is idempotent and thread-safe.
class cancel_source {
 public:
  cancel_source() : s_(new detail::cancel_state) {}
  cancel_source(const cancel_source&) = delete;
  cancel_source& operator=(const cancel_source&) = delete;
  cancel_source(cancel_source&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  ~cancel_source() {
    if (s_) {
      s_->release();
    }
  }

  cancel_token token() const noexcept {
    if (!s_) {
      return cancel_token();
    }
    s_->retain();
    return cancel_token(s_);
  }
  void cancel() noexcept {
    if (s_) {
      s_->cancelled.store(true, std::memory_order_release);
    }
  }
  bool cancelled() const noexcept { return s_ && s_->cancelled.load(std::memory_order_acquire); }

 private:
  detail::cancel_state* s_;
};

}  // namespace keel::pool
