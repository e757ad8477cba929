// SPDX-License-Identifier: MIT
// The error shape every keel component shares.
//
// Errors are values. Each component has an `enum class error_code` (0 is `ok`), a struct `error`
// (`code`, position fields where its input has them, `message()`: the short description,
// `to_string()`: the full text with the position, `explicit operator bool`: true when it is an
// error), a free `const char* message(error_code)` and `class exception : public keel::exception`
// with `error()` and `code()`. Fallible calls return `keel::result<T, E>` (each component names it
// `<component>::result<T>`): it holds a T or an E and never hands out an invalid T — reading the
// value of a failed result throws the component's exception.
#pragma once

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace keel {

// Where in its input an error was found: a 0-based byte offset and, for text inputs, a 1-based line
// and column (the column counts bytes). Line and column are 0 where the input has no lines.
struct position {
  std::size_t offset = 0;
  std::size_t line = 0;
  std::size_t column = 0;
  friend bool operator==(const position&, const position&) = default;
};

// Base of every exception keel throws; `what()` is the error's full text.
class exception : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // The component that threw: "json", "bincode", "pool", "msg", ...
  virtual const char* component() const noexcept = 0;
};

// Optional members that a component adds to its results of one value type (json adds chained
// lookups to result<json::value>). Specialise it with the CRTP base `Derived`.
template <class Derived, class T, class E>
struct result_extension {};

// A T or an E. E is a component's `error` struct: its `code` member is an enum whose value 0
// means success, and `typename E::exception_type` is what the throwing accessors throw.
template <class T, class E>
class result : public result_extension<result<T, E>, T, E> {
  static_assert(!std::is_reference_v<T>, "result holds values");

 public:
  using value_type = T;
  using error_type = E;
  using error_code_type = decltype(E{}.code);

  result(const T& v) : has_(true) { ::new (&value_) T(v); }        // NOLINT: implicit
  result(T&& v) : has_(true) { ::new (&value_) T(std::move(v)); }  // NOLINT
  result(const E& e) : error_(e), has_(false) {}                   // NOLINT
  result(error_code_type c) : has_(false) { error_.code = c; }     // NOLINT
  result(const result& o) : error_(o.error_), has_(o.has_) {
    if (has_) ::new (&value_) T(o.value_);
  }
  result(result&& o) noexcept(std::is_nothrow_move_constructible_v<T>)
      : error_(o.error_), has_(o.has_) {
    if (has_) ::new (&value_) T(std::move(o.value_));
  }
  result& operator=(const result& o) {
    if (this != &o) assign(o);
    return *this;
  }
  result& operator=(result&& o) noexcept(
      std::is_nothrow_move_constructible_v<T>&& std::is_nothrow_move_assignable_v<T>) {
    if (this != &o) assign(std::move(o));
    return *this;
  }
  ~result() {
    if (has_) value_.~T();
  }

  bool ok() const noexcept { return has_; }
  explicit operator bool() const noexcept { return has_; }
  // The error; a value-initialised E (code ok) on success.
  const E& error() const noexcept { return error_; }
  error_code_type code() const noexcept { return error_.code; }

  // The value, or the component's exception when this holds an error. operator* and operator->
  // check too: a failed result never yields an invalid value.
  T& value() & {
    check();
    return value_;
  }
  const T& value() const& {
    check();
    return value_;
  }
  T&& value() && {
    check();
    return std::move(value_);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  template <class U>
  T value_or(U&& fallback) const& {
    return has_ ? value_ : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  void check() const {
    if (!has_) [[unlikely]]
      throw typename E::exception_type(error_);
  }
  template <class R>
  void assign(R&& o) {
    if (has_ && o.has_) {
      value_ = std::forward<R>(o).value_;
    } else {
      if (has_) value_.~T();
      has_ = false;
      if (o.has_) {
        ::new (&value_) T(std::forward<R>(o).value_);
        has_ = true;
      }
    }
    error_ = o.error_;
  }

  union {
    T value_;
  };
  E error_{};
  bool has_;
};

}  // namespace keel
