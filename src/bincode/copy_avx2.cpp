// SPDX-License-Identifier: MIT
// copy_kernel with 32-byte AVX2 vectors (compiled with -mavx2; called only where the CPU has it).
#include <immintrin.h>

#include "bincode/copy_kernel.h"

namespace keel::bincode::detail {
namespace {
struct avx2_vec {
  static constexpr std::size_t width = 32;
  static __m256i loadu(const std::uint8_t* p) noexcept {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static void storeu(std::uint8_t* p, __m256i r) noexcept {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), r);
  }
  static void store_aligned(std::uint8_t* p, __m256i r) noexcept {
    _mm256_store_si256(reinterpret_cast<__m256i*>(p), r);
  }
};
}  // namespace

const copy_fn copy_kernel_avx2 = copy_kernel<avx2_vec>;

}  // namespace keel::bincode::detail
