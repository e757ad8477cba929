// SPDX-License-Identifier: MIT
// Internal: a one-token parking spot for one thread. unpark() leaves a token (or wakes the thread
// parked here); park() consumes the token, sleeping on a futex until there is one.
#pragma once

#include <atomic>
#include <cstdint>

#include "pool/os.h"

namespace keel::pool::detail {

class parker {
 public:
  void park() noexcept {
    // notified -> empty (return at once) or empty -> parked.
    if (state_.fetch_sub(1, std::memory_order_acquire) == kNotified) {
      return;
    }
    for (;;) {
      os::futex_wait(state_, kParked);
      std::uint32_t expect = kNotified;
      if (state_.compare_exchange_strong(expect, kEmpty, std::memory_order_acquire)) {
        return;
      }
    }
  }
  void unpark() noexcept {
    if (state_.exchange(kNotified, std::memory_order_release) == kParked) {
      os::futex_wake(state_, 1);
    }
  }

 private:
  static constexpr std::uint32_t kEmpty = 0, kNotified = 1, kParked = 0xffffffffu;
  std::atomic<std::uint32_t> state_{kEmpty};
};

}  // namespace keel::pool::detail
