// SPDX-License-Identifier: MIT
// keel::json DOM: an immutable document of 16-byte nodes in document order (docs/json-dom.md)
// and `value`, a cheap read-only handle to one node.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>

#include "keel/json/error.h"

namespace keel::json {

enum class type : std::uint8_t {
  null = 0,
  boolean = 1,
  int64 = 2,    // an integer that fits int64_t
  uint64 = 3,   // a positive integer above INT64_MAX that fits uint64_t
  double_ = 4,  // any other number
  string = 5,
  raw_number = 6,  // an integer beyond 64 bits kept as text (parse_options::big_integers_as_raw)
  array = 7,
  object = 8,
};

namespace detail {
// One DOM node (docs/json-dom.md). tag: bits 0-6 the type, bit 7 on a string node: its bytes need
// no escape (kNoEscape), bits 8-63 the string length or the element/member count. data: the
// payload: bool, int64/uint64/double bits, a string's byte offset in the string area, or a
// container's subtree size in nodes (itself included).
struct node {
  std::uint64_t tag;
  std::uint64_t data;
};
inline constexpr std::uint64_t tag_of(type t, std::uint64_t len) {
  return static_cast<std::uint64_t>(t) | (len << 8);
}
// A node's data field as the address it holds (mutable documents) and back.
template <class T>
inline T* as_ptr(std::uint64_t bits) noexcept {
  return std::bit_cast<T*>(bits);
}
inline std::uint64_t as_bits(const void* p) noexcept { return std::bit_cast<std::uint64_t>(p); }
// The type bits of a tag.
inline constexpr std::uint64_t kTypeMask = 0x7f;
// On a string node (value or key): the parser found no backslash in its source text, so its bytes
// hold no '"', '\' or control character (those are rejected unescaped) and the writer copies them
// as they are unless its options escape more ('/', non-ASCII).
inline constexpr std::uint64_t kNoEscape = 0x80;
}  // namespace detail

class value;
struct member;
class array_iterator;
class object_iterator;

}  // namespace keel::json

namespace keel {
// A result<json::value> chains: a lookup on a failed result returns its error unchanged, so
// `doc.root().find("a").at_pointer("/b/0").get<double>()` reports the first failure, and reading
// the value of a failed result throws json::exception (never a null value).
template <class D>
struct result_extension<D, json::value, json::error> {
  D at(std::size_t i) const noexcept {
    return self().ok() ? self().value().at(i) : D(self().error());
  }
  D find(std::string_view key) const noexcept {
    return self().ok() ? self().value().find(key) : D(self().error());
  }
  D at_pointer(std::string_view pointer) const noexcept {
    return self().ok() ? self().value().at_pointer(pointer) : D(self().error());
  }
  D operator[](std::size_t i) const noexcept { return at(i); }
  D operator[](std::string_view key) const noexcept { return find(key); }
  template <class T>
  keel::result<T, json::error> get() const noexcept {
    return self().ok() ? self().value().template get<T>()
                       : keel::result<T, json::error>(self().error());
  }
  [[deprecated("use error()")]] const json::error& err() const noexcept { return self().error(); }

 private:
  const D& self() const noexcept { return *static_cast<const D*>(this); }
};
}  // namespace keel

namespace keel::json {

class value {
 public:
  value() = default;
  value(const detail::node* n, const char* strings) : n_(n), s_(strings) {}

  bool valid() const noexcept { return n_ != nullptr; }
  json::type type() const noexcept { return static_cast<json::type>(n_->tag & detail::kTypeMask); }
  bool is_null() const noexcept { return type() == json::type::null; }
  bool is_bool() const noexcept { return type() == json::type::boolean; }
  bool is_int64() const noexcept { return type() == json::type::int64; }
  bool is_uint64() const noexcept { return type() == json::type::uint64; }
  bool is_double() const noexcept { return type() == json::type::double_; }
  bool is_integer() const noexcept { return is_int64() || is_uint64(); }
  bool is_number() const noexcept {
    auto t = type();
    return t == json::type::int64 || t == json::type::uint64 || t == json::type::double_ ||
           t == json::type::raw_number;
  }
  bool is_string() const noexcept { return type() == json::type::string; }
  bool is_raw_number() const noexcept { return type() == json::type::raw_number; }
  bool is_array() const noexcept { return type() == json::type::array; }
  bool is_object() const noexcept { return type() == json::type::object; }
  bool is_container() const noexcept { return is_array() || is_object(); }

  // T is one of int64_t, uint64_t, double, bool, std::string_view. Integers convert to double;
  // int64/uint64 convert to each other when in range; anything else is type_mismatch.
  template <class T>
  result<T> get() const noexcept;

  // Elements of an array, members of an object, bytes of a string or raw number; else 0.
  std::size_t size() const noexcept { return sized(); }
  // The text of a string or raw number (no check).
  std::string_view raw_string() const noexcept {
    return {s_ + n_->data, static_cast<std::size_t>(n_->tag >> 8)};
  }
  // Array element i (O(i) over siblings, each skipped in O(1)).
  result<value> at(std::size_t i) const noexcept;
  // First member of an object with this key.
  result<value> find(std::string_view key) const noexcept;
  result<value> operator[](std::size_t i) const noexcept { return at(i); }
  result<value> operator[](std::string_view key) const noexcept { return find(key); }
  // RFC 6901 JSON Pointer ("" is this value; "/a/0/b~1c").
  result<value> at_pointer(std::string_view pointer) const noexcept;

  // The node after this value and everything inside it: O(1).
  value next() const noexcept { return {n_ + (is_container() ? n_->data : 1), s_}; }
  // Nodes this value occupies (1 for scalars).
  std::size_t node_count() const noexcept { return is_container() ? n_->data : 1; }

  // Structural equality: same types and values, object members compared regardless of order.
  bool equals(const value& other) const noexcept;
  friend bool operator==(const value& a, const value& b) noexcept { return a.equals(b); }

  // Iteration in document order. Empty ranges for non-containers.
  struct array_range;
  struct object_range;
  array_range elements() const noexcept;
  object_range members() const noexcept;

  const detail::node* node_ptr() const noexcept { return n_; }
  const char* string_area() const noexcept { return s_; }

 private:
  std::size_t sized() const noexcept {
    auto t = type();
    if (t == json::type::string || t == json::type::raw_number || t == json::type::array ||
        t == json::type::object)
      return static_cast<std::size_t>(n_->tag >> 8);
    return 0;
  }
  const detail::node* n_ = nullptr;
  const char* s_ = nullptr;
};

struct member {
  std::string_view key;
  json::value value;
};

class array_iterator {
 public:
  array_iterator(const detail::node* n, const char* s) : v_(n, s) {}
  value operator*() const noexcept { return v_; }
  array_iterator& operator++() noexcept {
    v_ = v_.next();
    return *this;
  }
  bool operator==(const array_iterator& o) const noexcept {
    return v_.node_ptr() == o.v_.node_ptr();
  }
  bool operator!=(const array_iterator& o) const noexcept { return !(*this == o); }

 private:
  value v_;
};

class object_iterator {
 public:
  object_iterator(const detail::node* n, const char* s) : k_(n, s) {}
  member operator*() const noexcept {
    return {k_.raw_string(), value(k_.node_ptr() + 1, k_.string_area())};
  }
  object_iterator& operator++() noexcept {
    k_ = value(k_.node_ptr() + 1, k_.string_area()).next();
    return *this;
  }
  bool operator==(const object_iterator& o) const noexcept {
    return k_.node_ptr() == o.k_.node_ptr();
  }
  bool operator!=(const object_iterator& o) const noexcept { return !(*this == o); }

 private:
  value k_;
};

struct value::array_range {
  array_iterator b, e;
  array_iterator begin() const noexcept { return b; }
  array_iterator end() const noexcept { return e; }
};
struct value::object_range {
  object_iterator b, e;
  object_iterator begin() const noexcept { return b; }
  object_iterator end() const noexcept { return e; }
};

inline value::array_range value::elements() const noexcept {
  if (!is_array()) return {{n_, s_}, {n_, s_}};
  return {{n_ + 1, s_}, {n_ + n_->data, s_}};
}
inline value::object_range value::members() const noexcept {
  if (!is_object()) return {{n_, s_}, {n_, s_}};
  return {{n_ + 1, s_}, {n_ + n_->data, s_}};
}

namespace detail {
// get<T> of a bool or number node (shared by value and mutable_value).
template <class T>
inline result<T> get_scalar(const node* n) noexcept {
  const auto t = static_cast<type>(n->tag & kTypeMask);
  if constexpr (std::is_same_v<T, bool>) {
    if (t != type::boolean) return error_code::type_mismatch;
    return n->data != 0;
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    if (t == type::int64) return static_cast<std::int64_t>(n->data);
    return error_code::type_mismatch;  // uint64 nodes are above INT64_MAX by construction
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    if (t == type::uint64) return n->data;
    if (t == type::int64 && static_cast<std::int64_t>(n->data) >= 0) return n->data;
    return error_code::type_mismatch;
  } else {
    static_assert(std::is_same_v<T, double>,
                  "get<T>: int64_t, uint64_t, double, bool, string_view");
    switch (t) {
      case type::double_: {
        double d;
        std::memcpy(&d, &n->data, sizeof d);
        return d;
      }
      case type::int64:
        return static_cast<double>(static_cast<std::int64_t>(n->data));
      case type::uint64:
        return static_cast<double>(n->data);
      default:
        return error_code::type_mismatch;
    }
  }
}
}  // namespace detail

template <class T>
inline result<T> value::get() const noexcept {
  return detail::get_scalar<T>(n_);
}
template <>
inline result<std::string_view> value::get<std::string_view>() const noexcept {
  if (!is_string()) return error_code::type_mismatch;
  return raw_string();
}

}  // namespace keel::json
