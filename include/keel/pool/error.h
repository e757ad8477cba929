// SPDX-License-Identifier: MIT
// keel::pool errors (the shared shape, keel/error.h): an `error_code` for every failure the pool
// reports, and the exception that carries one when a throwing API (future::get,
// task_group::wait) has to report it.
#pragma once

#include <cstdint>
#include <string>

#include "keel/error.h"

namespace keel::pool {

enum class error_code : std::uint8_t {
  ok = 0,
  cancelled,  // the task was skipped: its token or group was cancelled, or shutdown_now dropped it
  shut_down,  // the pool no longer accepts work (shutdown began); nothing was queued
  would_deadlock,  // a blocking pool call was made from one of the pool's own workers
  no_state,        // the future is empty (default-constructed or already consumed by get())
};
using errc [[deprecated("use keel::pool::error_code")]] = error_code;

// A short English description of the code ("ok", "cancelled", ...).
const char* message(error_code e) noexcept;
[[deprecated("use message(error_code)")]] inline const char* to_string(error_code e) noexcept {
  return message(e);
}

class exception;

struct error {
  using exception_type = pool::exception;
  error_code code = error_code::ok;
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return pool::message(code); }
  std::string to_string() const { return message(); }  // the pool's errors have no position
  friend bool operator==(const error&, const error&) = default;
};

// Thrown by future::get() for cancelled and rejected tasks and by calls on an empty future.
class exception : public keel::exception {
 public:
  explicit exception(error_code code) : keel::exception(message(code)), code_(code) {}
  explicit exception(const pool::error& e) : exception(e.code) {}
  const char* component() const noexcept override { return "pool"; }
  pool::error error() const noexcept { return {code_}; }
  error_code code() const noexcept { return code_; }

 private:
  error_code code_;
};
using pool_error [[deprecated("use keel::pool::exception")]] = exception;

}  // namespace keel::pool
