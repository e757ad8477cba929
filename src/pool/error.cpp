// SPDX-License-Identifier: MIT
// Descriptions of keel::pool::error_code values.
#include "keel/pool/error.h"

namespace keel::pool {

const char* message(error_code e) noexcept {
  switch (e) {
    case error_code::ok:
      return "ok";
    case error_code::cancelled:
      return "cancelled";
    case error_code::shut_down:
      return "shut down";
    case error_code::would_deadlock:
      return "would deadlock";
    case error_code::no_state:
      return "no state";
  }
  return "unknown";
}

}  // namespace keel::pool
