// SPDX-License-Identifier: MIT
// The vector UTF-8 validator compiled for avx2 (flags in src/common/CMakeLists.txt).
#include "common/simd_avx2.h"
#include "common/utf8_kernel.h"

namespace keel::detail {

bool utf8_valid_avx2(const std::uint8_t* p, std::size_t n) noexcept {
  return utf8_valid_vec<simd_avx2>(p, n);
}

}  // namespace keel::detail
