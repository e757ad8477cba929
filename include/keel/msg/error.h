// SPDX-License-Identifier: MIT
// keel::msg errors: every failure is a value with a code, and for readers the byte offset where it
// was found (plus line and column for the text forms).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

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

// A short English description of the code ("truncated input", ...). (Other components call this
// free function `message`; here that name is the message type.)
const char* error_message(error_code code) noexcept;

struct error {
  error_code code = error_code::ok;
  std::size_t offset = 0;  // byte offset in the input (readers)
  std::size_t line = 0;    // 1-based line for text forms, 0 otherwise
  std::size_t column = 0;  // 1-based column in bytes for text forms, 0 otherwise
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return error_message(code); }
  // "offset N: message" for binary readers, "line:column: message" for text forms, else message.
  std::string to_string() const;
};

class exception : public std::runtime_error {
 public:
  explicit exception(const msg::error& e) : std::runtime_error(e.to_string()), error_(e) {}
  const msg::error& error() const noexcept { return error_; }
  error_code code() const noexcept { return error_.code; }

 private:
  msg::error error_;
};

// A value or an error. T must be default-constructible.
template <class T>
class result {
 public:
  result(T v) : value_(std::move(v)) {}      // NOLINT: implicit by design
  result(msg::error e) : error_(e) {}        // NOLINT
  result(error_code c) { error_.code = c; }  // NOLINT

  bool ok() const noexcept { return !error_; }
  explicit operator bool() const noexcept { return ok(); }
  const msg::error& error() const noexcept { return error_; }
  error_code code() const noexcept { return error_.code; }
  const T& value() const& {
    check();
    return value_;
  }
  T&& value() && {
    check();
    return std::move(value_);
  }
  const T& operator*() const& { return value(); }
  T& operator*() & {
    check();
    return value_;
  }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() {
    check();
    return &value_;
  }
  T value_or(T fallback) const { return ok() ? value_ : std::move(fallback); }

 private:
  void check() const {
    if (error_) throw exception(error_);
  }
  T value_{};
  msg::error error_{};
};

}  // namespace keel::msg
