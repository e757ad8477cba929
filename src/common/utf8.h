// SPDX-License-Identifier: MIT
// UTF-8 sequences, one at a time: validation (the exact offset of a bad byte), decoding and
// encoding. Shared by every component (json parser and writer, bincode, msg).
#pragma once

#include <cstddef>
#include <cstdint>

namespace keel::detail {

// Length of the valid UTF-8 sequence starting at p (p[0] >= 0x80, p < end), or 0 if it is not
// valid: overlong forms, surrogates (U+D800..DFFF), code points above U+10FFFF, stray or
// missing continuation bytes are all rejected.
inline std::size_t utf8_sequence(const std::uint8_t* p, const std::uint8_t* end) noexcept {
  const std::uint8_t c0 = p[0];
  const std::size_t avail = static_cast<std::size_t>(end - p);
  auto cont = [](std::uint8_t c) { return (c & 0xc0) == 0x80; };
  if (c0 < 0xc2) return 0;  // continuation byte, or overlong 2-byte form
  if (c0 < 0xe0) return avail >= 2 && cont(p[1]) ? 2 : 0;
  if (c0 < 0xf0) {
    if (avail < 3 || !cont(p[1]) || !cont(p[2])) return 0;
    if (c0 == 0xe0 && p[1] < 0xa0) return 0;   // overlong
    if (c0 == 0xed && p[1] >= 0xa0) return 0;  // surrogate
    return 3;
  }
  if (c0 < 0xf5) {
    if (avail < 4 || !cont(p[1]) || !cont(p[2]) || !cont(p[3])) return 0;
    if (c0 == 0xf0 && p[1] < 0x90) return 0;   // overlong
    if (c0 == 0xf4 && p[1] >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// Decodes the valid sequence of length n at p.
inline std::uint32_t utf8_decode(const std::uint8_t* p, std::size_t n) noexcept {
  switch (n) {
    case 2:
      return (std::uint32_t(p[0] & 0x1f) << 6) | (p[1] & 0x3f);
    case 3:
      return (std::uint32_t(p[0] & 0x0f) << 12) | (std::uint32_t(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
    default:
      return (std::uint32_t(p[0] & 0x07) << 18) | (std::uint32_t(p[1] & 0x3f) << 12) |
             (std::uint32_t(p[2] & 0x3f) << 6) | (p[3] & 0x3f);
  }
}

// Writes code point cp (<= 0x10FFFF) as UTF-8; returns the byte count.
inline std::size_t utf8_encode(std::uint32_t cp, std::uint8_t* out) noexcept {
  if (cp < 0x80) {
    out[0] = static_cast<std::uint8_t>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<std::uint8_t>(0xc0 | (cp >> 6));
    out[1] = static_cast<std::uint8_t>(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<std::uint8_t>(0xe0 | (cp >> 12));
    out[1] = static_cast<std::uint8_t>(0x80 | ((cp >> 6) & 0x3f));
    out[2] = static_cast<std::uint8_t>(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = static_cast<std::uint8_t>(0xf0 | (cp >> 18));
  out[1] = static_cast<std::uint8_t>(0x80 | ((cp >> 12) & 0x3f));
  out[2] = static_cast<std::uint8_t>(0x80 | ((cp >> 6) & 0x3f));
  out[3] = static_cast<std::uint8_t>(0x80 | (cp & 0x3f));
  return 4;
}

}  // namespace keel::detail
