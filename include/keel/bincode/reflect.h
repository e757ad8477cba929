// SPDX-License-Identifier: MIT
// Struct fields for the codec: the shared field list (KEEL_FIELDS, keel/fields.h;
// KEEL_BINCODE_FIELDS is the same list under its older name), or, without one, aggregate reflection
// (aggregates of up to 16 fields, none of them a C array).
//
//   struct trade { std::uint64_t id; std::string symbol; std::vector<double> fills; };
//   KEEL_FIELDS(trade, id, symbol, fills)           // at namespace scope, in trade's namespace
//
// Field-less enums (Rust `enum Side { Buy, Sell }`) need their variant count:
//   enum class side : std::uint8_t { buy, sell };
//   KEEL_BINCODE_ENUM(side, 2)                       // enumerator values must be 0 .. count-1
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "keel/fields.h"

// The field list under its older name (the same list: names included).
#define KEEL_BINCODE_FIELDS(Type, ...) KEEL_FIELDS(Type, __VA_ARGS__)

// Declares a field-less enum with `count` variants (values 0 .. count-1).
#define KEEL_BINCODE_ENUM(Enum, count) \
  [[maybe_unused]] constexpr std::uint32_t keel_bincode_enum_count(const Enum*) { return (count); }

namespace keel::bincode::detail {

using keel::fields_of;
using keel::detail::field_count;
using keel::detail::has_field_list;
using keel::detail::reflectable_aggregate;
using keel::detail::tie_aggregate;

template <class E>
concept counted_enum = std::is_enum_v<E> && requires(const E* e) {
  { keel_bincode_enum_count(e) } -> std::convertible_to<std::uint32_t>;
};

}  // namespace keel::bincode::detail
