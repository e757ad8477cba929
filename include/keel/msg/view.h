// SPDX-License-Identifier: MIT
// keel::msg::view: a read-only view over keel's binary form that finds values without building
// the message. It does not copy or own the bytes (they must outlive it) and checks only what it
// walks: opening checks the preamble and the header; a lookup checks the entries it passes (their
// lengths, skipped by the nested length prefixes) and the value it returns. A form the full
// reader rejects may still answer lookups that never reach the damaged part. A body of more than
// 8 entries is indexed when opened (one walk over its entries, which checks their framing, and a
// small hash table of the first entry of each name), so lookups by name in the body are O(1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "keel/msg/binary.h"
#include "keel/msg/error.h"
#include "keel/msg/value.h"

namespace keel::msg {

// One value inside the bytes.
class value_view {
 public:
  value_view() = default;
  msg::type type() const noexcept { return type_; }
  bool is_container() const noexcept {
    return type_ == msg::type::map || type_ == msg::type::array ||
           (type_ >= msg::type::int32_array && type_ <= msg::type::float64_array);
  }
  // As value::get<T> for bool, integers (checked), float, double, std::string_view, bytes_view,
  // timestamp and extension_view; strings are UTF-8 checked here.
  template <class T>
  result<T> get() const noexcept;
  // Entries of a map or elements of an array or typed numeric array.
  std::size_t size() const noexcept { return is_container() ? count_ : 0; }
  // The first entry of a map with that name.
  result<value_view> find(std::string_view name) const noexcept;
  // The i-th element of an array.
  result<value_view> at(std::size_t i) const noexcept;
  // The i-th element of a typed numeric array of E (type_mismatch for another type).
  template <numeric_element E>
  result<E> element(std::size_t i) const noexcept;
  // A tagged value's tag number and the value it tags.
  std::uint64_t tag_number() const noexcept { return type_ == msg::type::tagged ? count_ : 0; }
  result<value_view> inner() const noexcept;
  // A JSON Pointer (as map::find_path) below this value.
  result<value_view> find_path(std::string_view path) const noexcept;
  // The whole value, decoded and checked as the full reader does.
  result<value> decode(const read_options& options = {}) const;
  // Byte offset of the value's tag in the message.
  std::size_t offset() const noexcept { return static_cast<std::size_t>(tag_ - base_); }

 private:
  friend class view;
  friend struct view_access;
  const std::uint8_t* base_ = nullptr;  // start of the message (for offsets)
  const std::uint8_t* tag_ = nullptr;   // the value's tag
  const std::uint8_t* data_ = nullptr;  // its payload (map/array: first entry; typed: elements)
  const std::uint8_t* end_ = nullptr;   // end of the payload
  std::size_t count_ = 0;               // entries / elements / bytes / tag number
  msg::type type_ = msg::type::null;
  std::int8_t code_ = 0;  // an extension's type code
};

class view {
 public:
  view() = default;
  // Checks the magic, version and header of `in`, and indexes a body of more than 8 entries
  // (checking the framing of each entry: its name's length and its value's extent).
  static result<view> open(bytes_view in) noexcept;
  static result<view> open(std::string_view in) noexcept {
    return open(bytes_view(reinterpret_cast<const std::uint8_t*>(in.data()), in.size()));
  }
  std::string_view source_id() const noexcept { return head_[0]; }
  std::string_view source_sub_id() const noexcept { return head_[1]; }
  std::string_view target_id() const noexcept { return head_[2]; }
  std::string_view target_sub_id() const noexcept { return head_[3]; }
  std::string_view type() const noexcept { return head_[4]; }
  std::string_view version() const noexcept { return head_[5]; }
  // The body as a map view.
  const value_view& body() const noexcept { return body_; }
  std::size_t size() const noexcept { return body_.size(); }
  // The first body entry named `name` (through the index when the body has one).
  result<value_view> find(std::string_view name) const noexcept;
  result<value_view> find_path(std::string_view path) const noexcept;
  template <class T>
  result<T> get(std::string_view name) const noexcept {
    auto v = find(name);
    if (!v) return v.error();
    return v->get<T>();
  }

 private:
  friend struct view_access;
  std::string_view head_[6];
  value_view body_;
  // Open addressing over the body's entries, each slot (hash >> 32) << 32 | (offset of the
  // entry's name + 1), 0 when empty; empty for a body of up to 8 entries (those are scanned).
  std::vector<std::uint64_t> index_;
};

}  // namespace keel::msg
