// SPDX-License-Identifier: MIT
// keel::json mutable documents: build and edit JSON, then write it with the same writer as a
// parsed document (docs/json-mutable.md).
//
//   keel::json::mutable_document d(parsed.root());   // deep copy of an immutable value
//   auto root = d.root();
//   root.assign("name", "keel");                        // replace or add a member
//   root.find("tags")->push_back(3);
//   d.add_at_pointer("/tags/-", keel::json::empty_object);
//   auto text = keel::json::write(d.root());
#pragma once

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "keel/json/document.h"
#include "keel/json/error.h"
#include "keel/json/value.h"

namespace keel::json {

class mutable_value;
class mutable_document;

namespace detail {
struct mutable_arena;  // the storage of one mutable document (src/json/mutable.cpp)
}  // namespace detail

// Tags that create an empty container.
struct empty_array_t {};
struct empty_object_t {};
inline constexpr empty_array_t empty_array{};
inline constexpr empty_object_t empty_object{};

// What set/insert/push_back accept: null, bool, integers, floating point, strings (copied),
// an empty array or object, or a value of a document, immutable or mutable (deep copied).
class mutable_input {
 public:
  enum class kind : std::uint8_t { scalar, string, immutable, mutable_ };
  mutable_input(std::nullptr_t) noexcept {}  // NOLINT: implicit by design
  mutable_input(bool b) noexcept             // NOLINT
      : tag_(static_cast<std::uint64_t>(type::boolean)), data_(b ? 1 : 0) {}
  template <std::integral I>
  requires(!std::same_as<I, bool>) mutable_input(I i)
  noexcept {  // NOLINT
    if constexpr (std::is_signed_v<I>) {
      tag_ = static_cast<std::uint64_t>(type::int64);
      data_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(i));
    } else {
      const auto u = static_cast<std::uint64_t>(i);
      // An integer that fits int64 is stored as int64, as the parser does.
      tag_ = static_cast<std::uint64_t>(u > static_cast<std::uint64_t>(INT64_MAX) ? type::uint64
                                                                                  : type::int64);
      data_ = u;
    }
  }
  mutable_input(double d) noexcept  // NOLINT
      : tag_(static_cast<std::uint64_t>(type::double_)), data_(std::bit_cast<std::uint64_t>(d)) {}
  mutable_input(float f) noexcept : mutable_input(static_cast<double>(f)) {}            // NOLINT
  mutable_input(std::string_view s) noexcept : kind_(kind::string), str_(s) {}          // NOLINT
  mutable_input(const char* s) noexcept : mutable_input(std::string_view(s)) {}         // NOLINT
  mutable_input(const std::string& s) noexcept : mutable_input(std::string_view(s)) {}  // NOLINT
  mutable_input(empty_array_t) noexcept                                                 // NOLINT
      : tag_(static_cast<std::uint64_t>(type::array)) {}
  mutable_input(empty_object_t) noexcept  // NOLINT
      : tag_(static_cast<std::uint64_t>(type::object)) {}
  mutable_input(const value& v) noexcept : kind_(kind::immutable), imm_(v) {}  // NOLINT
  mutable_input(const mutable_value& v) noexcept;                              // NOLINT

 private:
  friend struct detail::mutable_arena;
  kind kind_ = kind::scalar;
  std::uint64_t tag_ = 0, data_ = 0;  // kind::scalar: the node (null by default)
  std::string_view str_;
  value imm_;
  const detail::node* mut_ = nullptr;
};

struct mutable_member;

// A handle to one value of a mutable document: cheap to copy, valid while the document lives
// and the value stays in place. Like iterators of std::vector, handles to the elements or
// members of a container are invalidated by inserting into or erasing from that container
// (the container's own handle stays valid), and handles inside a value by set() on it.
class mutable_value {
 public:
  mutable_value() = default;

  bool valid() const noexcept { return n_ != nullptr; }
  json::type type() const noexcept { return static_cast<json::type>(n_->tag & detail::kTypeMask); }
  bool is_null() const noexcept { return type() == json::type::null; }
  bool is_bool() const noexcept { return type() == json::type::boolean; }
  bool is_int64() const noexcept { return type() == json::type::int64; }
  bool is_uint64() const noexcept { return type() == json::type::uint64; }
  bool is_double() const noexcept { return type() == json::type::double_; }
  bool is_integer() const noexcept { return is_int64() || is_uint64(); }
  bool is_number() const noexcept { return is_integer() || is_double() || is_raw_number(); }
  bool is_string() const noexcept { return type() == json::type::string; }
  bool is_raw_number() const noexcept { return type() == json::type::raw_number; }
  bool is_array() const noexcept { return type() == json::type::array; }
  bool is_object() const noexcept { return type() == json::type::object; }
  bool is_container() const noexcept { return is_array() || is_object(); }

  // As value::get<T>: int64_t, uint64_t, double, bool, std::string_view.
  template <class T>
  result<T> get() const noexcept;
  // Elements of an array, members of an object, bytes of a string or raw number; else 0.
  std::size_t size() const noexcept {
    const auto t = type();
    if (t == json::type::string || t == json::type::raw_number || t == json::type::array ||
        t == json::type::object)
      return static_cast<std::size_t>(n_->tag >> 8);
    return 0;
  }
  // The text of a string or raw number (no check).
  std::string_view raw_string() const noexcept {
    return {detail::as_ptr<const char>(n_->data), static_cast<std::size_t>(n_->tag >> 8)};
  }
  // Array element i: O(1).
  result<mutable_value> at(std::size_t i) const noexcept;
  // First member of an object with this key.
  result<mutable_value> find(std::string_view key) const noexcept;
  result<mutable_value> operator[](std::size_t i) const noexcept { return at(i); }
  result<mutable_value> operator[](std::string_view key) const noexcept { return find(key); }
  // RFC 6901 JSON Pointer.
  result<mutable_value> at_pointer(std::string_view pointer) const noexcept;
  // Key of member i of an object (no check).
  std::string_view key_at(std::size_t i) const noexcept;
  // Member i's value of an object, element i of an array (no check).
  mutable_value child(std::size_t i) const noexcept;

  // Structural equality as value::equals (types must match, members in any order).
  bool equals(const mutable_value& other) const noexcept;
  bool equals(const value& other) const noexcept;

  // Replaces this value (anything it held is released).
  error set(const mutable_input& in) noexcept;
  // Objects: appends a member (even when the key exists, as a parsed document keeps duplicate
  // keys); returns the new member's value.
  result<mutable_value> insert(std::string_view key, const mutable_input& in) noexcept;
  // Objects: replaces the first member with this key, or appends one.
  result<mutable_value> assign(std::string_view key, const mutable_input& in) noexcept;
  // Objects: erases the first member with this key (not_found if none).
  error erase(std::string_view key) noexcept;
  // Arrays: appends an element.
  result<mutable_value> push_back(const mutable_input& in) noexcept;
  // Arrays: inserts before element i (i == size() appends; larger: not_found).
  result<mutable_value> insert(std::size_t i, const mutable_input& in) noexcept;
  // Arrays: erases element i; objects: erases member i (not_found when out of range).
  error erase(std::size_t i) noexcept;
  // Arrays and objects: erases every element or member.
  error clear() noexcept;

  // RFC 6901 pointers below this value (json::mutable_document has the same on its root):
  // set: replaces the target, or adds it when its parent exists (object member; array index
  //      size() or "-" appends);
  // add: RFC 6902 "add": an object member is replaced or added, an array element is inserted
  //      before index i (i <= size, "-" appends);
  // replace: the target must exist; remove: the target must exist, and is not this value.
  result<mutable_value> set_at_pointer(std::string_view pointer, const mutable_input& in) noexcept;
  result<mutable_value> add_at_pointer(std::string_view pointer, const mutable_input& in) noexcept;
  result<mutable_value> replace_at_pointer(std::string_view pointer,
                                           const mutable_input& in) noexcept;
  error remove_at_pointer(std::string_view pointer) noexcept;

  struct element_range;
  struct member_range;
  element_range elements() const noexcept;
  member_range members() const noexcept;

  detail::node* node_ptr() const noexcept { return n_; }
  detail::mutable_arena* arena() const noexcept { return a_; }
  mutable_value(detail::node* n, detail::mutable_arena* a) noexcept : n_(n), a_(a) {}

 private:
  detail::node* n_ = nullptr;
  detail::mutable_arena* a_ = nullptr;
};

struct mutable_member {
  std::string_view key;
  mutable_value value;
};

// Iterates nodes of a child block: a step of 1 (array) or 2 (object: key, value).
template <class Ref, int Step>
class mutable_iterator {
 public:
  mutable_iterator(detail::node* n, detail::mutable_arena* a) noexcept : n_(n), a_(a) {}
  Ref operator*() const noexcept {
    if constexpr (Step == 1) {
      return mutable_value(n_, a_);
    } else {
      return Ref{std::string_view(detail::as_ptr<const char>(n_->data),
                                  static_cast<std::size_t>(n_->tag >> 8)),
                 mutable_value(n_ + 1, a_)};
    }
  }
  mutable_iterator& operator++() noexcept {
    n_ += Step;
    return *this;
  }
  bool operator==(const mutable_iterator& o) const noexcept { return n_ == o.n_; }
  bool operator!=(const mutable_iterator& o) const noexcept { return n_ != o.n_; }

 private:
  detail::node* n_;
  detail::mutable_arena* a_;
};

struct mutable_value::element_range {
  mutable_iterator<mutable_value, 1> b, e;
  auto begin() const noexcept { return b; }
  auto end() const noexcept { return e; }
};
struct mutable_value::member_range {
  mutable_iterator<mutable_member, 2> b, e;
  auto begin() const noexcept { return b; }
  auto end() const noexcept { return e; }
};

inline mutable_value::element_range mutable_value::elements() const noexcept {
  auto* first = is_array() ? detail::as_ptr<detail::node>(n_->data) : nullptr;
  const std::size_t n = is_array() ? size() : 0;
  return {{first, a_}, {first + n, a_}};
}
inline mutable_value::member_range mutable_value::members() const noexcept {
  auto* first = is_object() ? detail::as_ptr<detail::node>(n_->data) : nullptr;
  const std::size_t n = is_object() ? 2 * size() : 0;
  return {{first, a_}, {first + n, a_}};
}
inline std::string_view mutable_value::key_at(std::size_t i) const noexcept {
  const auto* k = detail::as_ptr<const detail::node>(n_->data) + 2 * i;
  return {detail::as_ptr<const char>(k->data), static_cast<std::size_t>(k->tag >> 8)};
}
inline mutable_value mutable_value::child(std::size_t i) const noexcept {
  auto* first = detail::as_ptr<detail::node>(n_->data);
  return {is_object() ? first + 2 * i + 1 : first + i, a_};
}

template <class T>
result<T> mutable_value::get() const noexcept {
  if constexpr (std::is_same_v<T, std::string_view>) {
    if (!is_string()) return error_code::type_mismatch;
    return raw_string();
  } else {
    return detail::get_scalar<T>(n_);
  }
}

// A JSON document that can be edited. Its values live in storage the document owns (moving the
// document keeps handles valid); copying it copies every value.
class mutable_document {
 public:
  mutable_document();  // the root is null
  explicit mutable_document(const value& v);
  explicit mutable_document(const mutable_value& v);
  mutable_document(const mutable_document& other);
  mutable_document& operator=(const mutable_document& other);
  mutable_document(mutable_document&&) noexcept;
  mutable_document& operator=(mutable_document&&) noexcept;
  ~mutable_document();

  mutable_value root() const noexcept;
  // An immutable document with the same content (compact: 16 bytes a value).
  result<document> to_document() const noexcept;
  // Bytes of storage the document holds (values, strings and released blocks kept for reuse).
  std::size_t memory_bytes() const noexcept;

  result<mutable_value> set_at_pointer(std::string_view p, const mutable_input& in) noexcept {
    return root().set_at_pointer(p, in);
  }
  result<mutable_value> add_at_pointer(std::string_view p, const mutable_input& in) noexcept {
    return root().add_at_pointer(p, in);
  }
  result<mutable_value> replace_at_pointer(std::string_view p, const mutable_input& in) noexcept {
    return root().replace_at_pointer(p, in);
  }
  error remove_at_pointer(std::string_view p) noexcept { return root().remove_at_pointer(p); }
  result<mutable_value> at_pointer(std::string_view p) const noexcept {
    return root().at_pointer(p);
  }

 private:
  std::unique_ptr<detail::mutable_arena> arena_;
};

inline mutable_input::mutable_input(const mutable_value& v) noexcept
    : kind_(kind::mutable_), mut_(v.node_ptr()) {}

}  // namespace keel::json
