// SPDX-License-Identifier: MIT
// Names of keel::pool::errc values.
#include "keel/pool/error.h"

namespace keel::pool {

const char* to_string(errc e) noexcept {
  switch (e) {
    case errc::ok:
      return "ok";
    case errc::cancelled:
      return "cancelled";
    case errc::shut_down:
      return "shut down";
    case errc::would_deadlock:
      return "would deadlock";
    case errc::no_state:
      return "no state";
  }
  return "unknown";
}

}  // namespace keel::pool
