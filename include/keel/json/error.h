// SPDX-License-Identifier: MIT
// keel::json errors: every failure is a value carrying a code, a message and, for parse errors,
// the byte offset, line and column (both 1-based; the column counts bytes) where it was found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "keel/error.h"

namespace keel::json {

enum class error_code : std::uint8_t {
  ok = 0,
  empty_document,        // no value (empty input or whitespace only)
  unexpected_end,        // the input ended inside a value
  unexpected_character,  // a character the grammar does not allow here
  invalid_literal,       // not true, false or null (or NaN/Infinity when enabled)
  invalid_number,        // outside the RFC 8259 number grammar
  number_out_of_range,   // a number too large for a double
  invalid_escape,        // an unknown escape or a malformed \uXXXX
  invalid_surrogate,     // a lone or misordered UTF-16 surrogate in \u escapes
  control_character,     // an unescaped byte below 0x20 inside a string
  unterminated_string,   // no closing quote
  invalid_utf8,          // overlong, surrogate, > U+10FFFF, truncated or stray byte
  depth_exceeded,        // nesting deeper than parse_options::max_depth
  trailing_content,      // something after the document's value
  unterminated_comment,  // a /* comment without */ (comments enabled)
  document_too_large,    // an input of 4 GiB or more (offsets are 32-bit in the index)
  isa_unavailable,       // a forced instruction set this CPU lacks
  type_mismatch,         // get<T>() on a value of another type, or out of T's range
  not_found,             // no such key / index / pointer target
  invalid_pointer,       // malformed JSON Pointer (RFC 6901)
  nonfinite_number,      // NaN or Infinity written under nonfinite_policy::error
  io_error,              // reading a file failed
  out_of_memory,         // the DOM or the parser's buffers could not be allocated
  invalid_patch,         // a JSON Patch that is not an array of well-formed operations
  test_failed,           // a JSON Patch `test` operation found a different value
  not_representable,     // a merge patch cannot set an object member to null (diff)
  record_too_long,       // an NDJSON record longer than ndjson_options::max_record_size
  unknown_key,           // struct mapping: a key no field has (read_options::reject_unknown_keys)
  missing_field,         // struct mapping: a field that is not optional is absent
  padding_too_small,     // parse_in_place: capacity below size + in_place_padding
};

// A short English description of the code ("invalid UTF-8", ...).
const char* message(error_code code) noexcept;

class exception;

struct error {
  using exception_type = json::exception;
  error_code code = error_code::ok;
  std::size_t offset = 0;  // byte offset in the input (parse errors)
  std::size_t line = 0;    // 1-based line (parse errors; 0 otherwise)
  std::size_t column = 0;  // 1-based column, in bytes
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return json::message(code); }
  keel::position position() const noexcept { return {offset, line, column}; }
  // "line:column: message" for parse errors, the message otherwise.
  std::string to_string() const;
  friend bool operator==(const error&, const error&) = default;
};

// Thrown by the checked accessors of a failed result (value(), operator*, operator->) and by the
// throwing convenience calls.
class exception : public keel::exception {
 public:
  explicit exception(const json::error& e) : keel::exception(e.to_string()), error_(e) {}
  const char* component() const noexcept override { return "json"; }
  const json::error& error() const noexcept { return error_; }
  error_code code() const noexcept { return error_.code; }
  [[deprecated("use error()")]] const json::error& err() const noexcept { return error_; }

 private:
  json::error error_;
};

// A value or an error (keel/error.h): ok(), error(), code(), value(), checked operator* and ->.
template <class T>
using result = keel::result<T, error>;

}  // namespace keel::json

namespace keel {
// Every json::result keeps the pre-1.0 spelling err() for one release.
template <class D, class T>
struct result_extension<D, T, json::error> {
  [[deprecated("use error()")]] const json::error& err() const noexcept {
    return static_cast<const D*>(this)->error();
  }
};
}  // namespace keel
