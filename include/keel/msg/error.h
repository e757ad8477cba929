// SPDX-License-Identifier: MIT
// keel::msg errors: every failure is a value with a code, and for readers the byte offset where it
// was found (plus line and column for the text forms).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "keel/error.h"

namespace keel::msg {

enum class error_code : std::uint8_t {
  ok = 0,
  not_found,       // no value with that name / index / path
  type_mismatch,   // get<T>() on a value of another type
  out_of_range,    // an integer that does not fit the requested type
  truncated,       // the input ended inside a value
  bad_magic,       // not keel's binary form (magic bytes)
  bad_version,     // a binary form version this reader does not know
  bad_tag,         // an unknown type tag or a byte no form allows there
  bad_varint,      // a varint longer than 10 bytes, overflowing 64 bits or not minimal
  bad_length,      // a length or count larger than the input that is left or the limits
  invalid_utf8,    // a string or name that is not valid UTF-8
  depth_exceeded,  // nesting deeper than read_options::max_depth
  too_large,       // input or output beyond read_options::max_size or a form's limit
  trailing_bytes,  // something after the message
  bad_value,       // a value the form cannot hold (e.g. a bad timestamp, a map key type)
  syntax_error,    // malformed text (JSON / XML)
  unknown_form,    // auto-detection found no form
  io_error,        // reading or writing a file failed
};

// A short English description of the code ("truncated input", ...). Other components name this
// free function `message`; in keel::msg that name is the message type.
const char* error_message(error_code code) noexcept;

class exception;

struct error {
  using exception_type = msg::exception;
  error_code code = error_code::ok;
  std::size_t offset = 0;  // byte offset in the input (readers)
  std::size_t line = 0;    // 1-based line for text forms, 0 otherwise
  std::size_t column = 0;  // 1-based column in bytes for text forms, 0 otherwise
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return error_message(code); }
  keel::position position() const noexcept { return {offset, line, column}; }
  // "offset N: message" for binary readers, "line:column: message" for text forms, else message.
  std::string to_string() const;
  friend bool operator==(const error&, const error&) = default;
};

// Thrown by the checked accessors of a failed result (value(), operator*, operator->) and by the
// writers when a value is beyond a form's limits.
class exception : public keel::exception {
 public:
  explicit exception(const msg::error& e) : keel::exception(e.to_string()), error_(e) {}
  const char* component() const noexcept override { return "msg"; }
  const msg::error& error() const noexcept { return error_; }
  error_code code() const noexcept { return error_.code; }

 private:
  msg::error error_;
};

// A value or an error (keel/error.h): ok(), error(), code(), value(), checked operator* and ->.
template <class T>
using result = keel::result<T, error>;

}  // namespace keel::msg
