// SPDX-License-Identifier: MIT
// copy_kernel with 64-byte AVX-512 vectors (compiled with -mavx512f; called only where the CPU
// has it).
#include <immintrin.h>

#include "bincode/copy_kernel.h"

namespace keel::bincode::detail {
namespace {
struct avx512_vec {
  static constexpr std::size_t width = 64;
  static __m512i loadu(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
  static void storeu(std::uint8_t* p, __m512i r) noexcept { _mm512_storeu_si512(p, r); }
  static void store_aligned(std::uint8_t* p, __m512i r) noexcept { _mm512_store_si512(p, r); }
  // Lane 0 (bytes 0..7) x, lanes 1..7 lanes 0..6 of r. (The masked form with every lane set:
  // GCC 12 warns that the unmasked one's `_mm512_undefined_epi32` is used uninitialized.)
  static __m512i shift_in8(__m512i r, std::uint64_t x) noexcept {
    return _mm512_maskz_alignr_epi64(0xFF, r, _mm512_set1_epi64(static_cast<long long>(x)), 7);
  }
};
}  // namespace

const copy_kernels copy_kernels_avx512 = {copy_kernel<avx512_vec>,
                                          copy_prefixed_kernel<avx512_vec>};

}  // namespace keel::bincode::detail
