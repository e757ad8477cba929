// SPDX-License-Identifier: MIT
// Error descriptions.
#include <string>

#include "keel/bincode/error.h"

namespace keel::bincode {

const char* message(error_code c) noexcept {
  switch (c) {
    case error_code::ok:
      return "ok";
    case error_code::unexpected_end:
      return "unexpected end of input";
    case error_code::invalid_bool:
      return "invalid bool (not 0 or 1)";
    case error_code::invalid_char:
      return "invalid char encoding";
    case error_code::invalid_utf8:
      return "string is not valid UTF-8";
    case error_code::unexpected_variant:
      return "unexpected variant (tag out of range)";
    case error_code::invalid_integer_type:
      return "invalid integer encoding";
    case error_code::limit_exceeded:
      return "size limit exceeded";
    case error_code::trailing_bytes:
      return "bytes remaining after the value";
    case error_code::invalid_duration:
      return "invalid duration";
    case error_code::buffer_too_small:
      return "output buffer too small";
    case error_code::stream_error:
      return "output stream error";
    case error_code::out_of_memory:
      return "out of memory";
  }
  return "unknown error";
}

std::string error::to_string() const {
  return std::string(message()) + " at byte " + std::to_string(offset);
}

}  // namespace keel::bincode
