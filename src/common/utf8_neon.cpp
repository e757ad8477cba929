// SPDX-License-Identifier: MIT
// The vector UTF-8 validator compiled for neon (AArch64; no extra flags).
#include "common/simd_neon.h"
#include "common/utf8_kernel.h"

namespace keel::detail {

bool utf8_valid_neon(const std::uint8_t* p, std::size_t n) noexcept {
  return utf8_valid_vec<simd_neon>(p, n);
}

}  // namespace keel::detail
