// SPDX-License-Identifier: MIT
// Block primitives of the writer's string scan, one struct per kernel set: copy one block of a
// string to the output and say which of its bytes need an escape. Each struct is compiled only
// in the translation unit whose flags enable it (src/json/CMakeLists.txt). wisa_base is the
// architecture's baseline (SSE2 on x86-64, NEON on AArch64), the `scalar` kernel set's blocks.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include "common/simd_neon.h"
#endif

#include <cstddef>
#include <cstdint>

#include "keel/json/options.h"

namespace keel::json::detail {

// Which bytes to escape besides '"', '\' and the control characters (write_options, !Plain).
struct escape_extra {
  bool slash;
  bool unicode;
};

#if defined(__x86_64__)
// x86-64's baseline (SSE2): 16-byte blocks. The `scalar` kernel set of the writer.
struct wisa_sse2 {
  static constexpr std::size_t kBlock = 16;
  using mask = std::uint32_t;
  // One block copied, nothing checked.
  static void copy(const char* s, char* p) noexcept {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(s)));
  }
  template <bool Plain>
  static mask copy_block(const char* s, char* p, escape_extra x) noexcept {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
    __m128i special = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
        _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v));
    if constexpr (!Plain) {
      if (x.slash) special = _mm_or_si128(special, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
      if (x.unicode) special = _mm_or_si128(special, v);  // bit 7 set: movemask takes it
    }
    return static_cast<mask>(_mm_movemask_epi8(special));
  }
  // The bytes of a block above 0x7f (one bit each).
  static mask high_bytes(const char* s) noexcept {
    return static_cast<mask>(
        _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s))));
  }
};
using wisa_base = wisa_sse2;
#endif

#ifdef __AVX2__
struct wisa_avx2 {
  static constexpr std::size_t kBlock = 32;
  using mask = std::uint32_t;
  template <bool Plain>
  static mask copy_block(const char* s, char* p, escape_extra x) noexcept {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
    __m256i special =
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')),
                                        _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
                        _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v));
    if constexpr (!Plain) {
      if (x.slash) special = _mm256_or_si256(special, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('/')));
      if (x.unicode) special = _mm256_or_si256(special, v);
    }
    return static_cast<mask>(_mm256_movemask_epi8(special));
  }
};
#endif

#if defined(__aarch64__)
// AArch64's baseline (NEON): blocks of N 16-byte registers; N = 1 for the `scalar` kernel set,
// 2 for the neon set's long strings (write_neon.cpp).
template <std::size_t N>
struct wisa_neon {
  using S = keel::detail::simd_neon;
  static constexpr std::size_t kBlock = 16 * N;
  using mask = std::uint32_t;
  static void copy(const char* s, char* p) noexcept {
    const auto* src = reinterpret_cast<const std::uint8_t*>(s);
    auto* dst = reinterpret_cast<std::uint8_t*>(p);
    for (std::size_t k = 0; k < 16 * N; k += 16) vst1q_u8(dst + k, vld1q_u8(src + k));
  }
  template <bool Plain>
  static mask copy_block(const char* s, char* p, escape_extra x) noexcept {
    const auto* src = reinterpret_cast<const std::uint8_t*>(s);
    auto* dst = reinterpret_cast<std::uint8_t*>(p);
    uint8x16_t special[N];
    for (std::size_t k = 0; k < N; ++k) {
      const uint8x16_t v = vld1q_u8(src + 16 * k);
      vst1q_u8(dst + 16 * k, v);
      uint8x16_t m = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('"')), vceqq_u8(v, vdupq_n_u8('\\'))),
                              vcltq_u8(v, vdupq_n_u8(0x20)));
      if constexpr (!Plain) {
        if (x.slash) m = vorrq_u8(m, vceqq_u8(v, vdupq_n_u8('/')));
        if (x.unicode) m = vorrq_u8(m, vcgeq_u8(v, vdupq_n_u8(0x80)));
      }
      special[k] = m;
    }
    if constexpr (N == 1) {
      return S::bits(special[0]);
    } else {
      static_assert(N == 2);
      return S::bits(special[0], special[1]);
    }
  }
  // The bytes of a block above 0x7f (one bit each).
  static mask high_bytes(const char* s) noexcept requires(N == 1) {
    return S::bits(vcgeq_u8(vld1q_u8(reinterpret_cast<const std::uint8_t*>(s)), vdupq_n_u8(0x80)));
  }
};
using wisa_base = wisa_neon<1>;
#endif

}  // namespace keel::json::detail
