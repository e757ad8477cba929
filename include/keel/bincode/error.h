// SPDX-License-Identifier: MIT
// Errors are values (the shared shape, keel/error.h): every decode and encode returns a result<T>
// holding either the value or an `error` {code, offset}. The codes mirror the Rust crates' errors
// (docs/bincode.md, "Errors").
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "keel/error.h"

namespace keel::bincode {

enum class error_code : std::uint8_t {
  ok = 0,
  unexpected_end,        // the input ended inside a value (Rust: UnexpectedEnd / Io(UnexpectedEof))
  invalid_bool,          // a bool byte other than 0 or 1
  invalid_char,          // a char that is not one valid UTF-8 scalar (also: encoding one)
  invalid_utf8,          // a string that is not valid UTF-8
  unexpected_variant,    // Option tag not 0/1, enum or variant index out of range
  invalid_integer_type,  // varint tag 255, a tag too wide for the type, or a value out of range
  limit_exceeded,        // the configured byte limit would be exceeded
  trailing_bytes,        // bytes left after the value (configs that reject them)
  invalid_duration,      // Duration overflow, or not representable in the C++ duration
  buffer_too_small,      // encode: the fixed output buffer cannot hold the value
  stream_error,          // encode: the std::ostream went bad
  out_of_memory,         // decode: allocating the value's storage failed (std::bad_alloc)
};

// A short English description of a code ("unexpected end of input", ...).
const char* message(error_code c) noexcept;
[[deprecated("use message(error_code)")]] inline const char* to_string(error_code c) noexcept {
  return message(c);
}

class exception;

struct error {
  using exception_type = bincode::exception;
  error_code code = error_code::ok;
  std::size_t offset =
      0;  // input byte where the bad item starts (decode), or bytes needed (encode)
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return bincode::message(code); }
  keel::position position() const noexcept { return {offset, 0, 0}; }
  std::string to_string() const;  // e.g. "invalid bool at byte 12"
  friend bool operator==(const error&, const error&) = default;
};

// Thrown by the checked accessors of a failed result (value(), operator*, operator->).
class exception : public keel::exception {
 public:
  explicit exception(const error& e) : keel::exception(e.to_string()), error_(e) {}
  const char* component() const noexcept override { return "bincode"; }
  const bincode::error& error() const noexcept { return error_; }
  error_code code() const noexcept { return error_.code; }
  [[deprecated("use error()")]] const bincode::error& get() const noexcept { return error_; }

 private:
  bincode::error error_;
};
using bincode_error [[deprecated("use keel::bincode::exception")]] = exception;

namespace detail {
// result<T>'s storage: the error code (error_code::ok on success) and a union of the value and
// the error's offset. For a trivially copyable T every special member is trivial, so a
// successful result<size_t> is 16 bytes, returned in two registers.
template <class T, bool = std::is_trivially_copyable_v<T>>
class result_base {
 protected:
  struct value_tag {};
  result_base(value_tag, T v) : code_(error_code::ok), value_(std::move(v)) {}
  explicit result_base(error e) : code_(e.code), offset_(e.offset) {}

  error_code code_;
  union {
    std::size_t offset_;  // when code_ != ok
    T value_;             // when code_ == ok
  };
};

template <class T>
class result_base<T, false> {
 protected:
  struct value_tag {};
  result_base(value_tag, T v) : code_(error_code::ok) { ::new (&value_) T(std::move(v)); }
  explicit result_base(error e) : code_(e.code), offset_(e.offset) {}
  result_base(const result_base& o) : code_(o.code_), offset_(0) {
    if (code_ == error_code::ok)
      ::new (&value_) T(o.value_);
    else
      offset_ = o.offset_;
  }
  result_base(result_base&& o) noexcept(std::is_nothrow_move_constructible_v<T>)
      : code_(o.code_), offset_(0) {
    if (code_ == error_code::ok)
      ::new (&value_) T(std::move(o.value_));
    else
      offset_ = o.offset_;
  }
  result_base& operator=(const result_base& o) {
    if (this != &o) {
      this->~result_base();
      ::new (this) result_base(o);
    }
    return *this;
  }
  result_base& operator=(result_base&& o) noexcept(std::is_nothrow_move_constructible_v<T>) {
    if (this != &o) {
      this->~result_base();
      ::new (this) result_base(std::move(o));
    }
    return *this;
  }
  ~result_base() {
    if (code_ == error_code::ok) value_.~T();
  }

  error_code code_;
  union {
    std::size_t offset_;  // when code_ != ok
    T value_;             // when code_ == ok
  };
};
}  // namespace detail

// Either a T or an error, with the members of keel::result (ok(), error(), code(), value(),
// checked operator* and ->) in a smaller layout: the code and a union of the value and the offset.
template <class T>
class result : detail::result_base<T> {
  using base = detail::result_base<T>;
  using base::code_;
  using base::offset_;
  using base::value_;

 public:
  result(T v) : base(typename base::value_tag{}, std::move(v)) {}  // NOLINT: implicit on purpose
  result(bincode::error e) : base(e) {}                            // NOLINT

  bool ok() const noexcept { return code_ == error_code::ok; }
  explicit operator bool() const noexcept { return ok(); }
  // The error; {error_code::ok, 0} on success.
  bincode::error error() const noexcept { return {code_, ok() ? 0 : offset_}; }
  error_code code() const noexcept { return code_; }
  // operator* and operator-> check like value(): a failed result never yields an invalid value.
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& value() & {
    if (!ok()) throw exception(error());
    return value_;
  }
  const T& value() const& {
    if (!ok()) throw exception(error());
    return value_;
  }
  T&& value() && {
    if (!ok()) throw exception(error());
    return std::move(value_);
  }
};

// size_result (what encode and decode_into return: a byte count) is one 64-bit word: the error
// code in the top 4 bits, the byte count or the error offset in the other 60. It is its own type,
// not a result<size_t>: result<std::uint64_t> (decode of a u64 or usize value) holds all 64 bits. A
// caller keeps it in one register (the 16-byte form went through memory wherever a caller stored
// it, e.g. a benchmark's DoNotOptimize: +0.3 ns on a 1.3 ns 64-byte decode; docs/bincode.md, "Fast
// paths"). Byte counts and offsets are sizes of memory, below 2^57 on x86-64, so 60 bits hold them
// all.
class size_result {
  static constexpr int code_shift = 60;
  static constexpr std::uint64_t payload_mask = (std::uint64_t{1} << code_shift) - 1;
  static_assert(static_cast<unsigned>(error_code::out_of_memory) < 16, "codes must fit 4 bits");

 public:
  size_result(std::size_t v) noexcept : bits_(v) {}  // NOLINT: implicit on purpose
  size_result(bincode::error e) noexcept             // NOLINT
      : bits_(static_cast<std::uint64_t>(e.code) << code_shift | (e.offset & payload_mask)) {}

  bool ok() const noexcept { return bits_ >> code_shift == 0; }
  explicit operator bool() const noexcept { return ok(); }
  // The error; {error_code::ok, 0} on success.
  bincode::error error() const noexcept {
    if (ok()) return {};
    return {static_cast<error_code>(bits_ >> code_shift), bits_ & payload_mask};
  }
  error_code code() const noexcept { return static_cast<error_code>(bits_ >> code_shift); }
  std::size_t operator*() const { return value(); }
  std::size_t value() const {
    if (!ok()) throw exception(error());
    return bits_;
  }

 private:
  std::uint64_t bits_;
};

}  // namespace keel::bincode
