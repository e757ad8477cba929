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
};
}  // namespace

const copy_fn copy_kernel_avx512 = copy_kernel<avx512_vec>;

}  // namespace keel::bincode::detail
