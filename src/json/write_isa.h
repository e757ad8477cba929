// SPDX-License-Identifier: MIT
// Block primitives of the writer's string scan, one struct per kernel set: copy one block of a
// string to the output and say which of its bytes need an escape. Each struct is compiled only
// in the translation unit whose flags enable it (src/json/CMakeLists.txt).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "keel/json/options.h"

namespace keel::json::detail {

// Which bytes to escape besides '"', '\' and the control characters (write_options, !Plain).
struct escape_extra {
  bool slash;
  bool unicode;
};

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

}  // namespace keel::json::detail
