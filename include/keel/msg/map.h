// SPDX-License-Identifier: MIT
// keel::msg::map: named values in insertion order with O(1) amortised lookup by name. Names are
// UTF-8 strings; a name may appear more than once (add appends, lookups find the first), so any
// MessagePack, CBOR or JSON map with string keys is kept as it was.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keel/msg/error.h"
#include "keel/msg/value.h"

namespace keel::msg {

namespace detail {
struct map_access;
}

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
  map(const map& o) : entries_(o.entries_) {}
  map(map&& o) noexcept
      : entries_(std::move(o.entries_)),
        index_(std::move(o.index_)),
        index_state_(o.index_state_.load(std::memory_order_relaxed)) {
    o.index_state_.store(kIndexStale, std::memory_order_relaxed);
  }
  map& operator=(const map& o) {
    if (this != &o) {
      entries_ = o.entries_;
      index_state_.store(kIndexStale, std::memory_order_relaxed);
    }
    return *this;
  }
  map& operator=(map&& o) noexcept {
    if (this != &o) {
      entries_ = std::move(o.entries_);
      index_ = std::move(o.index_);
      index_state_.store(o.index_state_.load(std::memory_order_relaxed), std::memory_order_relaxed);
      o.index_state_.store(kIndexStale, std::memory_order_relaxed);
    }
    return *this;
  }
  ~map() = default;

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
  friend struct detail::map_access;
  enum : std::uint8_t { kIndexStale = 0, kIndexBuilding = 1, kIndexValid = 2 };
  std::size_t slot_of(std::string_view name, std::uint64_t h) const noexcept;
  void index_insert(std::size_t i, std::uint64_t h) const noexcept;
  bool build_index() const noexcept;
  const value* scan(std::string_view name) const noexcept;
  void index_stale() noexcept { index_state_.store(kIndexStale, std::memory_order_relaxed); }

  std::vector<entry> entries_;
  // Open addressing, linear probing, over maps of more than kScanMax entries: each slot holds
  // (hash >> 32) << 32 | (entry index + 1), 0 when empty; the first entry of a name only. Built
  // by the first lookup that needs it (readers never build it), kept up to date by add() while
  // it has room, and marked stale by other changes (its storage is kept for the next build).
  // Concurrent const lookups are safe: one of them claims the build (kIndexBuilding) while the
  // others scan, and publishes it with kIndexValid (release).
  mutable std::vector<std::uint64_t> index_;
  mutable std::atomic<std::uint8_t> index_state_{kIndexStale};
  static constexpr std::size_t kScanMax = 8;
};

}  // namespace keel::msg
