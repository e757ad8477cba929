// SPDX-License-Identifier: MIT
// UTF-8 checks for every keel::msg reader: the shared validator (keel/utf8.h, SIMD-dispatched).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "keel/utf8.h"

namespace keel::msg::detail {

// Names and most strings are short ASCII: those are recognised inline (no call); anything else
// goes to the shared validator.
inline bool utf8_ok(const void* data, std::size_t n) noexcept {
  const auto* p = static_cast<const std::uint8_t*>(data);
  if (n <= 32) {
    std::uint64_t high = 0;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      high |= w;
    }
    for (; i < n; ++i) high |= p[i];
    if ((high & 0x8080808080808080ull) == 0) return true;
  }
  return keel::utf8_valid(p, n);
}

}  // namespace keel::msg::detail
