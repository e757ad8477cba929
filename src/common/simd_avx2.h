// SPDX-License-Identifier: MIT
// AVX2 byte-vector primitives (32-byte registers) for kernels written once over a vector type:
// the shared UTF-8 check, json's stage 1. Compile with -mavx2 (the component's per-ISA sources).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace keel::detail {

struct simd_avx2 {
  using vec = __m256i;
  static vec zero() noexcept { return _mm256_setzero_si256(); }
  static vec splat(std::uint8_t c) noexcept { return _mm256_set1_epi8(static_cast<char>(c)); }
  static vec table(const std::uint8_t (&t)[16]) noexcept {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
  }
  static vec lookup(vec table16, vec nibbles) noexcept {
    return _mm256_shuffle_epi8(table16, nibbles);
  }
  static vec shr4(vec v) noexcept { return _mm256_srli_epi16(v, 4); }  // then mask the nibble
  static vec and_(vec a, vec b) noexcept { return _mm256_and_si256(a, b); }
  static vec or_(vec a, vec b) noexcept { return _mm256_or_si256(a, b); }
  static vec xor_(vec a, vec b) noexcept { return _mm256_xor_si256(a, b); }
  static vec subs(vec a, vec b) noexcept { return _mm256_subs_epu8(a, b); }
  static bool any(vec v) noexcept { return !_mm256_testz_si256(v, v); }
  template <int N>
  static vec prev(vec cur, vec prv) noexcept {
    return _mm256_alignr_epi8(cur, _mm256_permute2x128_si256(prv, cur, 0x21), 16 - N);
  }

  static vec loadu(const std::uint8_t* p) noexcept {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
};

}  // namespace keel::detail
