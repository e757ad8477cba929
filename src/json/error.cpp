// SPDX-License-Identifier: MIT
// Error messages.
#include <string>

#include "keel/json/error.h"

namespace keel::json {

const char* message(error_code code) noexcept {
  switch (code) {
    case error_code::ok:
      return "no error";
    case error_code::empty_document:
      return "no JSON value (empty document)";
    case error_code::unexpected_end:
      return "unexpected end of input";
    case error_code::unexpected_character:
      return "unexpected character";
    case error_code::invalid_literal:
      return "invalid literal (expected true, false or null)";
    case error_code::invalid_number:
      return "invalid number";
    case error_code::number_out_of_range:
      return "number out of the range of a double";
    case error_code::invalid_escape:
      return "invalid escape sequence in string";
    case error_code::invalid_surrogate:
      return "invalid UTF-16 surrogate in \\u escape";
    case error_code::control_character:
      return "unescaped control character in string";
    case error_code::unterminated_string:
      return "unterminated string";
    case error_code::invalid_utf8:
      return "invalid UTF-8";
    case error_code::depth_exceeded:
      return "nesting too deep";
    case error_code::trailing_content:
      return "content after the JSON value";
    case error_code::unterminated_comment:
      return "unterminated comment";
    case error_code::document_too_large:
      return "document too large (4 GiB or more)";
    case error_code::isa_unavailable:
      return "instruction set not supported by this CPU";
    case error_code::type_mismatch:
      return "type mismatch";
    case error_code::not_found:
      return "not found";
    case error_code::invalid_pointer:
      return "invalid JSON Pointer";
    case error_code::nonfinite_number:
      return "NaN or Infinity cannot be written as JSON";
    case error_code::io_error:
      return "I/O error";
    case error_code::out_of_memory:
      return "out of memory";
    case error_code::invalid_patch:
      return "invalid JSON Patch operation";
    case error_code::test_failed:
      return "test operation failed: the values differ";
    case error_code::not_representable:
      return "a merge patch cannot set a member to null";
    case error_code::record_too_long:
      return "record longer than the maximum record size";
    case error_code::unknown_key:
      return "unknown key";
    case error_code::padding_too_small:
      return "buffer capacity below size + in_place_padding";
    case error_code::missing_field:
      return "missing field";
  }
  return "unknown error";
}

std::string error::to_string() const {
  if (line == 0) return message();
  return std::to_string(line) + ":" + std::to_string(column) + ": " + message();
}

}  // namespace keel::json
