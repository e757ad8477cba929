// SPDX-License-Identifier: MIT
// keel::msg error messages.
#include "keel/msg/error.h"

namespace keel::msg {

const char* error_message(error_code code) noexcept {
  switch (code) {
    case error_code::ok:
      return "ok";
    case error_code::not_found:
      return "not found";
    case error_code::type_mismatch:
      return "type mismatch";
    case error_code::out_of_range:
      return "integer out of range for the requested type";
    case error_code::truncated:
      return "truncated input";
    case error_code::bad_magic:
      return "not a keel binary message (bad magic)";
    case error_code::bad_version:
      return "unsupported binary form version";
    case error_code::bad_tag:
      return "unknown type tag or unexpected byte";
    case error_code::bad_varint:
      return "malformed varint";
    case error_code::bad_length:
      return "length or count larger than the input left";
    case error_code::invalid_utf8:
      return "invalid UTF-8";
    case error_code::depth_exceeded:
      return "nesting too deep";
    case error_code::too_large:
      return "input too large";
    case error_code::trailing_bytes:
      return "trailing bytes after the message";
    case error_code::bad_value:
      return "value not allowed here";
    case error_code::syntax_error:
      return "syntax error";
    case error_code::unknown_form:
      return "unknown form";
    case error_code::io_error:
      return "I/O error";
  }
  return "unknown error";
}

std::string error::to_string() const {
  if (code == error_code::ok) return "ok";
  if (line != 0) {
    return std::to_string(line) + ":" + std::to_string(column) + ": " + message() + " (offset " +
           std::to_string(offset) + ")";
  }
  switch (code) {
    case error_code::not_found:
    case error_code::type_mismatch:
    case error_code::out_of_range:
    case error_code::unknown_form:
    case error_code::io_error:
      return message();
    default:
      return "offset " + std::to_string(offset) + ": " + message();
  }
}

}  // namespace keel::msg
