// SPDX-License-Identifier: MIT
// keel::json errors: every failure is a value carrying a code, a message and, for parse errors,
// the byte offset, line and column (both 1-based; the column counts bytes) where it was found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

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
};

// A short English description of the code ("invalid UTF-8", ...).
const char* message(error_code code) noexcept;

struct error {
  error_code code = error_code::ok;
  std::size_t offset = 0;  // byte offset in the input (parse errors)
  std::size_t line = 0;    // 1-based line (parse errors; 0 otherwise)
  std::size_t column = 0;  // 1-based column, in bytes
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return json::message(code); }
  // "line:column: message" for parse errors, the message otherwise.
  std::string to_string() const;
};

// Thrown only by the convenience wrappers (result<T>::value()).
class exception : public std::runtime_error {
 public:
  explicit exception(const error& e) : std::runtime_error(e.to_string()), error_(e) {}
  const json::error& err() const noexcept { return error_; }

 private:
  json::error error_;
};

// A value or an error. T must be default-constructible.
template <class T>
class result {
 public:
  result(T v) : value_(std::move(v)) {}      // NOLINT: implicit by design
  result(error e) : error_(e) {}             // NOLINT
  result(error_code c) { error_.code = c; }  // NOLINT

  bool ok() const noexcept { return !error_; }
  explicit operator bool() const noexcept { return ok(); }
  const json::error& err() const noexcept { return error_; }
  error_code code() const noexcept { return error_.code; }
  // Unchecked access (call ok() first) ...
  T& operator*() & noexcept { return value_; }
  const T& operator*() const& noexcept { return value_; }
  T&& operator*() && noexcept { return std::move(value_); }
  const T* operator->() const noexcept { return &value_; }
  T* operator->() noexcept { return &value_; }
  // ... or checked access that throws json::exception.
  const T& value() const& {
    if (error_) throw exception(error_);
    return value_;
  }
  T&& value() && {
    if (error_) throw exception(error_);
    return std::move(value_);
  }
  T value_or(T fallback) const { return ok() ? value_ : fallback; }

 private:
  T value_{};
  json::error error_{};
};

}  // namespace keel::json
