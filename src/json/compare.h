// SPDX-License-Identifier: MIT
// Equality of two JSON values of either DOM (value, mutable_value): one algorithm for
// value::equals, mutable_value::equals and JSON Patch's `test`.
#pragma once

#include <cstdint>
#include <cstring>

#include "keel/json/value.h"

namespace keel::json::detail {

// Numbers of different types (int64, uint64, double) compared by value: an integer equals a
// double that holds exactly that integer.
inline bool numbers_equal(const node& a, const node& b) noexcept {
  const auto ta = static_cast<type>(a.tag & kTypeMask);
  const auto tb = static_cast<type>(b.tag & kTypeMask);
  if (ta == tb) {
    if (ta != type::double_) return a.data == b.data;
    double x, y;
    std::memcpy(&x, &a.data, sizeof x);
    std::memcpy(&y, &b.data, sizeof y);
    return x == y;
  }
  if (ta == type::double_ || tb == type::double_) {
    const node& d = ta == type::double_ ? a : b;
    const node& i = ta == type::double_ ? b : a;
    double x;
    std::memcpy(&x, &d.data, sizeof x);
    if (static_cast<type>(i.tag & kTypeMask) == type::int64) {
      if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return false;
      return static_cast<std::int64_t>(x) == static_cast<std::int64_t>(i.data) &&
             static_cast<double>(static_cast<std::int64_t>(x)) == x;
    }
    if (!(x >= 0 && x < 18446744073709551616.0)) return false;
    return static_cast<std::uint64_t>(x) == i.data &&
           static_cast<double>(static_cast<std::uint64_t>(x)) == x;
  }
  return false;  // int64 and uint64 never overlap
}

inline bool is_plain_number(type t) noexcept {
  return t == type::int64 || t == type::uint64 || t == type::double_;
}

// A and B: value or mutable_value. ByValue: numbers compare by value across types (RFC 6902
// `test`); otherwise types must match and NaN equals NaN (value::equals).
template <bool ByValue, class A, class B>
bool equal(const A& a, const B& b) noexcept {
  const type ta = a.type(), tb = b.type();
  if constexpr (ByValue) {
    if (ta != tb && is_plain_number(ta) && is_plain_number(tb))
      return numbers_equal(*a.node_ptr(), *b.node_ptr());
  }
  if (ta != tb) return false;
  switch (ta) {
    case type::null:
      return true;
    case type::boolean:
    case type::int64:
    case type::uint64:
      return a.node_ptr()->data == b.node_ptr()->data;
    case type::double_: {
      double x, y;
      std::memcpy(&x, &a.node_ptr()->data, sizeof x);
      std::memcpy(&y, &b.node_ptr()->data, sizeof y);
      if constexpr (ByValue) return x == y;
      return x == y || (x != x && y != y);  // NaN (allow_nan_inf) equals NaN here
    }
    case type::string:
    case type::raw_number:
      return a.raw_string() == b.raw_string();
    case type::array: {
      if (a.size() != b.size()) return false;
      auto it = b.elements().begin();
      for (const auto e : a.elements()) {
        if (!equal<ByValue>(e, *it)) return false;
        ++it;
      }
      return true;
    }
    case type::object: {
      if (a.size() != b.size()) return false;
      // Same order first (the common case), then by key.
      bool same_order = true;
      auto it = b.members().begin();
      for (const auto m : a.members()) {
        const auto mb = *it;
        if (m.key != mb.key || !equal<ByValue>(m.value, mb.value)) {
          same_order = false;
          break;
        }
        ++it;
      }
      if (same_order) return true;
      for (const auto m : a.members()) {
        auto r = b.find(m.key);
        if (!r || !equal<ByValue>(m.value, *r)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace keel::json::detail
