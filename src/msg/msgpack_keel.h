// SPDX-License-Identifier: MIT
// The exact mode of the MessagePack form (docs/msg-format.md): what keel writes where MessagePack
// has no type of its own, shared by the writer and the reader. Private to keel::msg.
//
// - Integers: the format of the value's width (int 8/16/32/64 `d0`-`d3`, uint 8/16/32/64
//   `cc`-`cf`; an int64 from -32 to 127 as a fixint), read back as that width.
// - keel ext, MessagePack ext type 75 ('K'), whose data starts with a keel type number:
//     int32_array .. float64_array (18-21): the elements, little-endian;
//     extension (15): the type code (1 byte), then the extension's data; only for extensions of
//       type 75, or of type -1 with 4, 8 or 12 bytes (which would read as a timestamp);
//     tagged (22): the tag number, 8 bytes big-endian; only as the first element of an array of
//       two, [keel ext, value], which is the tagged value.
#pragma once

#include <cstddef>
#include <cstdint>

namespace keel::msg::detail {

inline constexpr std::int8_t kKeelExt = 75;
// The head of the keel ext of a tag number: ext 8, 9 bytes, type 75, kind 22.
inline constexpr std::uint8_t kTaggedHead[4] = {0xc7, 0x09, 0x4b, 0x16};

inline bool extension_needs_keel_ext(std::int8_t code, std::size_t size) noexcept {
  return code == kKeelExt || (code == -1 && (size == 4 || size == 8 || size == 12));
}

}  // namespace keel::msg::detail
