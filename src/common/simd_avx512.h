// SPDX-License-Identifier: MIT
// AVX-512 byte-vector primitives (64-byte registers) for kernels written once over a vector type:
// the shared UTF-8 check, json's stage 1. Compile with -mavx512f -mavx512bw -mavx512vl.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace keel::detail {

struct simd_avx512 {
  using vec = __m512i;
  static vec zero() noexcept { return _mm512_setzero_si512(); }
  static vec splat(std::uint8_t c) noexcept { return _mm512_set1_epi8(static_cast<char>(c)); }
  static vec table(const std::uint8_t (&t)[16]) noexcept {
    // maskz forms: the plain intrinsics trip GCC 12 -Wmaybe-uninitialized (_mm512_undefined).
    return _mm512_maskz_broadcast_i32x4(0xffff,
                                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
  }
  static vec lookup(vec table16, vec nibbles) noexcept {
    return _mm512_shuffle_epi8(table16, nibbles);
  }
  static vec shr4(vec v) noexcept { return _mm512_srli_epi16(v, 4); }  // then mask the nibble
  static vec and_(vec a, vec b) noexcept { return _mm512_and_si512(a, b); }
  static vec or_(vec a, vec b) noexcept { return _mm512_or_si512(a, b); }
  static vec xor_(vec a, vec b) noexcept { return _mm512_xor_si512(a, b); }
  static vec subs(vec a, vec b) noexcept { return _mm512_subs_epu8(a, b); }
  static bool any(vec v) noexcept { return _mm512_test_epi8_mask(v, v) != 0; }
  // Bytes of the concatenation prev:cur shifted right so that byte i is cur[i - N].
  template <int N>
  static vec prev(vec cur, vec prv) noexcept {
    return _mm512_alignr_epi8(cur, _mm512_maskz_alignr_epi64(0xff, cur, prv, 6), 16 - N);
  }

  static vec loadu(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
};

}  // namespace keel::detail
