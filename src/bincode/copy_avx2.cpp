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
  // Lane 0 (bytes 0..7) x, lanes 1..3 lanes 0..2 of r.
  static __m256i shift_in8(__m256i r, std::uint64_t x) noexcept {
    return _mm256_blend_epi32(_mm256_permute4x64_epi64(r, 0x90),
                              _mm256_set1_epi64x(static_cast<long long>(x)), 0x03);
  }
};
}  // namespace

const copy_kernels copy_kernels_avx2 = {copy_kernel<avx2_vec>, copy_prefixed_kernel<avx2_vec>};

}  // namespace keel::bincode::detail
