// SPDX-License-Identifier: MIT
// UTF-8 checks for every keel::msg reader: the shared validator (keel/utf8.h, SIMD-dispatched).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "keel/utf8.h"

namespace keel::msg::detail {

// Names and most strings are short ASCII: up to 32 bytes are recognised inline by overlapping
// 8-byte (or 4-byte) loads, no loop and no call; anything else goes to the shared validator.
inline bool utf8_ok(const void* data, std::size_t n) noexcept {
  const auto* p = static_cast<const std::uint8_t*>(data);
  const auto word = [p](std::size_t at) {
    std::uint64_t w;
    std::memcpy(&w, p + at, 8);
    return w;
  };
  const auto half = [p](std::size_t at) {
    std::uint32_t w;
    std::memcpy(&w, p + at, 4);
    return w;
  };
  std::uint64_t high = 0;
  if (n >= 8) {
    if (n > 32) return keel::utf8_valid(p, n);
    high = word(0) | word(n - 8);
    if (n > 16) high |= word(8) | word(n - 16);
  } else if (n >= 4) {
    high = half(0) | half(n - 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) high |= p[i];
  }
  return (high & 0x8080808080808080ull) == 0 || keel::utf8_valid(p, n);
}

}  // namespace keel::msg::detail
