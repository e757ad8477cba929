// SPDX-License-Identifier: MIT
// keel::pool errors: an `errc` value for every failure the pool reports, and the exception that
// carries one when a throwing API (future::get, task_group::wait) has to report it.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace keel::pool {

enum class errc : std::uint8_t {
  ok = 0,
  cancelled,  // the task was skipped: its token or group was cancelled, or shutdown_now dropped it
  shut_down,  // the pool no longer accepts work (shutdown began); nothing was queued
  would_deadlock,  // a blocking pool call was made from one of the pool's own workers
  no_state,        // the future is empty (default-constructed or already consumed by get())
};

// A short English name for the code ("ok", "cancelled", ...).
const char* to_string(errc e) noexcept;

// Thrown by future::get() for cancelled and rejected tasks and by calls on an empty future.
class pool_error : public std::runtime_error {
 public:
  explicit pool_error(errc code) : std::runtime_error(to_string(code)), code_(code) {}
  errc code() const noexcept { return code_; }

 private:
  errc code_;
};

}  // namespace keel::pool
