// SPDX-License-Identifier: MIT
// UTF-8 checks for every keel::msg reader (one place, on the shared validator).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/utf8.h"

namespace keel::msg::detail {

inline bool utf8_ok(const void* data, std::size_t n) noexcept {
  const auto* p = static_cast<const std::uint8_t*>(data);
  const auto* end = p + n;
  while (p < end) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    const std::size_t len = keel::detail::utf8_sequence(p, end);
    if (len == 0) return false;
    p += len;
  }
  return true;
}

}  // namespace keel::msg::detail
