// SPDX-License-Identifier: MIT
// UTF-8 checks for every keel::msg reader: the shared validator (keel/utf8.h, SIMD-dispatched).
#pragma once

#include <cstddef>
#include <cstdint>

#include "keel/utf8.h"

namespace keel::msg::detail {

inline bool utf8_ok(const void* data, std::size_t n) noexcept {
  return keel::utf8_valid(static_cast<const std::uint8_t*>(data), n);
}

}  // namespace keel::msg::detail
