// SPDX-License-Identifier: MIT
// keel::msg::map: named values in insertion order with O(1) amortised lookup by name. Names are
// UTF-8 strings; a name may appear more than once (add appends, lookups find the first), so any
// MessagePack, CBOR or JSON map with string keys is kept as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keel/msg/error.h"
#include "keel/msg/value.h"

namespace keel::msg {

class map {
 public:
  struct entry {
    std::string name;
    msg::value value;
    friend bool operator==(const entry&, const entry&) = default;
  };
  using const_iterator = std::vector<entry>::const_iterator;

  map() = default;
  map(std::initializer_list<entry> entries);
  map(const map&) = default;
  map(map&&) noexcept = default;
  map& operator=(const map&) = default;
  map& operator=(map&&) noexcept = default;

  // Replaces the value of the first entry named `name`, or appends one.
  value& set(std::string_view name, value v);
  // Appends an entry, even if the name is already there.
  value& add(std::string_view name, value v);
  // The first value named `name`, or nullptr.
  const value* find(std::string_view name) const noexcept;
  value* find(std::string_view name) noexcept;
  bool contains(std::string_view name) const noexcept { return find(name) != nullptr; }
  // Removes every entry named `name`; returns how many there were.
  std::size_t remove(std::string_view name);
  // The first value named `name` as T (value::get<T>); not_found if there is none.
  template <class T>
  result<T> get(std::string_view name) const noexcept {
    const value* v = find(name);
    if (v == nullptr) return error_code::not_found;
    return v->get<T>();
  }

  // A value inside nested maps and arrays: a JSON Pointer (RFC 6901) such as "/a/b/0", where a
  // segment names a map entry (first of that name) or an array index; "~1" stands for '/' and
  // "~0" for '~' in names. "" is not a value (nullptr).
  const value* find_path(std::string_view path) const noexcept;
  value* find_path(std::string_view path) noexcept;
  template <class T>
  result<T> get_path(std::string_view path) const noexcept {
    const value* v = find_path(path);
    if (v == nullptr) return error_code::not_found;
    return v->get<T>();
  }

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }
  void clear() noexcept;
  void reserve(std::size_t n);
  const_iterator begin() const noexcept { return entries_.begin(); }
  const_iterator end() const noexcept { return entries_.end(); }
  const entry& operator[](std::size_t i) const noexcept { return entries_[i]; }
  // The value of the i-th entry, writable (the names are fixed once added).
  value& value_at(std::size_t i) noexcept { return entries_[i].value; }

  // Same names and values in the same order.
  bool operator==(const map& o) const noexcept { return entries_ == o.entries_; }

 private:
  std::size_t slot_of(std::string_view name, std::uint64_t h) const noexcept;
  void index_insert(std::size_t i, std::uint64_t h);
  void rebuild_index();
  std::vector<entry> entries_;
  // Open addressing, linear probing, built once there are more than kScanMax entries: each slot
  // holds (hash >> 32) << 32 | (entry index + 1), 0 when empty; the first entry of a name only.
  std::vector<std::uint64_t> index_;
  static constexpr std::size_t kScanMax = 8;
};

}  // namespace keel::msg
