// SPDX-License-Identifier: MIT
// Filling maps and values in place, for the readers: reading into a message that already holds
// one reuses its storage (entry names, heap strings, nested maps, arrays and typed arrays keep
// their capacity), so reading the same shape again allocates nothing. Private to keel::msg.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "keel/msg/map.h"
#include "keel/msg/value.h"
#include "wire.h"

namespace keel::msg::detail {

struct value_access {
  // A null, bool, integer or float value: the 8 payload bytes as the constructors store them
  // (integers sign- or zero-extended to 64 bits, floats as their bits in the low bytes).
  static void set_bits(value& v, type t, std::uint64_t bits) noexcept {
    v.release();
    v.type_ = t;
    v.small_ = 0;
    std::memcpy(v.raw_, &bits, sizeof bits);
  }
  static void set_timestamp(value& v, std::int64_t seconds, std::uint32_t nanoseconds) noexcept {
    set_bits(v, type::timestamp, static_cast<std::uint64_t>(seconds));
    std::memcpy(v.raw_ + 8, &nanoseconds, sizeof nanoseconds);
  }
  // A string or bytes value (t), reusing a heap string the value already holds.
  static void set_text(value& v, type t, const char* p, std::size_t n) {
    if (n <= value::kInlineBytes) {
      v.release();
      v.type_ = t;
      v.small_ = static_cast<std::uint8_t>(n);
      copy_short(v.raw_, p, n);
    } else if ((v.type_ == type::string || v.type_ == type::bytes) && v.small_ == value::kHeap) {
      static_cast<std::string*>(v.ptr())->assign(p, n);
      v.type_ = t;
    } else {
      v.release();
      v.type_ = type::null;  // valid if the allocation below throws
      v.small_ = 0;
      v.set_text(t, p, n);
    }
  }
  // The map, array or typed array a value holds, made empty-or-reused: the value's own object
  // if it already has that type (its contents are then overwritten by the caller), else a new one.
  static map& reuse_map(value& v) {
    if (v.type_ != type::map) v = value(map());
    return v.heap<map>();
  }
  static array& reuse_array(value& v) {
    if (v.type_ != type::array) v = value(array());
    return v.heap<array>();
  }
  template <numeric_element T>
  static std::vector<T>& reuse_numeric(value& v) {
    if (v.type_ != array_type_of<T>()) v = value(std::vector<T>());
    return v.heap<std::vector<T>>();
  }
};

struct map_access {
  static std::vector<map::entry>& entries(map& m) noexcept {
    m.index_stale();
    return m.entries_;
  }
};

// Refills a map with entries read in order: the i-th entry reuses the storage of the map's i-th
// entry (its name, or its name's capacity, and its value); finish() drops the entries left over.
class map_filler {
 public:
  map_filler(map& m, std::size_t n) : es_(map_access::entries(m)), old_(es_.size()) {
    if (n > es_.capacity()) es_.reserve(n);
  }
  // The value of the next entry if the map's entry at that place already has this name (then
  // nothing is written and the name needs no new check), else nullptr.
  value* same(std::string_view name) noexcept {
    if (i_ >= old_) return nullptr;
    map::entry& e = es_[i_];
    if (e.name.size() != name.size() || !same_short(e.name.data(), name.data(), name.size()))
      return nullptr;
    ++i_;
    return &e.value;
  }
  // The value of the next entry, named `name`.
  value& next(std::string_view name) {
    map::entry& e = i_ < old_ ? es_[i_] : es_.emplace_back();
    ++i_;
    e.name.assign(name.data(), name.size());
    return e.value;
  }
  void finish() {
    if (i_ < es_.size()) es_.erase(es_.begin() + static_cast<std::ptrdiff_t>(i_), es_.end());
  }

 private:
  std::vector<map::entry>& es_;
  std::size_t old_;
  std::size_t i_ = 0;
};

}  // namespace keel::msg::detail
