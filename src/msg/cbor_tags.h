// SPDX-License-Identifier: MIT
// The CBOR tags keel reads as its own types (docs/msg-format.md), shared by the reader, which
// turns them into those types, and the writer, which writes a tagged value that would be read as
// something else in keel's escape tag instead. Private to keel::msg.
//
// Standard tags: 1 (integer seconds) and 1001 ({1: seconds, -9: nanoseconds}) timestamps; RFC
// 8746 typed arrays 78, 79, 85, 86 (sint32, sint64, float32, float64, little-endian).
// keel's tags (first-come-first-served range, not registered), kKeelTag = 0x4B4D5300 ("KMS"):
//   kKeelTag + t, t the type number of int8 .. uint64 (2-9), on an integer: that width (exact
//     mode only; the standard mode reads them as tagged values);
//   kKeelTag + 22 on [tag number, value]: the tagged value (the escape);
//   kKeelExtTag + c, c the type code as a byte (0-255), on a byte string: an extension.
#pragma once

#include <cstdint>
#include <utility>

#include "keel/msg/value.h"
#include "shape.h"
#include "wire.h"

namespace keel::msg::detail {

inline constexpr std::uint64_t kKeelTag = 0x4B4D5300;
inline constexpr std::uint64_t kEscapeTag = kKeelTag + static_cast<std::uint64_t>(type::tagged);
inline constexpr std::uint64_t kKeelExtTag = kKeelTag + 0x100;

// The typed array of an RFC 8746 tag, or null.
inline type cbor_typed_array(std::uint64_t tag) noexcept {
  switch (tag) {
    case 78:
      return type::int32_array;
    case 79:
      return type::int64_array;
    case 85:
      return type::float32_array;
    case 86:
      return type::float64_array;
    default:
      return type::null;
  }
}

// The integer width of a keel width tag on `inner` (an integer as CBOR reads it: int64, or uint64
// above INT64_MAX) when the value fits it, else null.
inline type cbor_width(std::uint64_t tag, const value& inner) noexcept {
  if (tag < kKeelTag + static_cast<std::uint64_t>(type::int8) ||
      tag > kKeelTag + static_cast<std::uint64_t>(type::uint64))
    return type::null;
  const auto t = static_cast<type>(tag - kKeelTag);
  if (inner.type() != type::int64 && inner.type() != type::uint64) return type::null;
  const bool neg = inner.type() == type::int64 && inner.as_int() < 0;
  const std::uint64_t u = inner.as_uint();
  const auto i = inner.as_int();
  switch (t) {
    case type::int8:
      return neg ? (i >= INT8_MIN ? t : type::null) : (u <= INT8_MAX ? t : type::null);
    case type::int16:
      return neg ? (i >= INT16_MIN ? t : type::null) : (u <= INT16_MAX ? t : type::null);
    case type::int32:
      return neg ? (i >= INT32_MIN ? t : type::null) : (u <= INT32_MAX ? t : type::null);
    case type::int64:
      return inner.type() == type::int64 ? t : type::null;
    case type::uint8:
      return !neg && u <= UINT8_MAX ? t : type::null;
    case type::uint16:
      return !neg && u <= UINT16_MAX ? t : type::null;
    case type::uint32:
      return !neg && u <= UINT32_MAX ? t : type::null;
    default:  // uint64
      return !neg ? t : type::null;
  }
}

// The content of a tag 1001 timestamp, {1: seconds, -9: nanoseconds} (read as pairs), or false.
inline bool cbor_timestamp_1001(const value& inner, std::int64_t& seconds,
                                std::uint32_t& nanoseconds) {
  const array* pairs = any_key_pairs(inner);
  if (pairs == nullptr || pairs->size() != 2) return false;
  const array* s = (*pairs)[0].as_array();
  const array* n = (*pairs)[1].as_array();
  if (s == nullptr || n == nullptr || (*s)[0] != value(std::int64_t{1}) || !(*s)[1].is_signed() ||
      (*n)[0] != value(std::int64_t{-9}) || !(*n)[1].is_signed() || (*n)[1].as_int() <= 0 ||
      (*n)[1].as_int() >= 1000000000)
    return false;
  seconds = (*s)[1].as_int();
  nanoseconds = static_cast<std::uint32_t>((*n)[1].as_int());
  return true;
}

// The content of keel's escape tag, [tag number, value], or nullptr.
inline const array* cbor_escape(const value& inner) noexcept {
  const array* a = inner.as_array();
  if (a == nullptr || a->size() != 2) return nullptr;
  const value& t = (*a)[0];
  if (!(t.type() == type::uint64 || (t.type() == type::int64 && t.as_int() >= 0))) return nullptr;
  return a;
}

// True if the reader (in the mode `exact` or not) reads tag + inner as another keel value than
// tagged(tag, inner).
inline bool cbor_tag_has_meaning(std::uint64_t tag, const value& inner, bool exact) {
  if (tag == 1) return inner.is_signed();
  if (tag == 1001) {
    std::int64_t s = 0;
    std::uint32_t ns = 0;
    return cbor_timestamp_1001(inner, s, ns);
  }
  if (const type t = cbor_typed_array(tag); t != type::null)
    return inner.type() == type::bytes && inner.as_text().size() % element_size(t) == 0;
  if (tag >= kKeelExtTag && tag <= kKeelExtTag + 0xff) return inner.type() == type::bytes;
  if (tag == kEscapeTag) return cbor_escape(inner) != nullptr;
  return exact && cbor_width(tag, inner) != type::null;
}

}  // namespace keel::msg::detail
