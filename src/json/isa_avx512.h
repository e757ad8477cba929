// SPDX-License-Identifier: MIT
// AVX-512 (F + BW + VL + VBMI2) block primitives: one 64-byte register per block, compares
// straight into mask registers. Compile with -mavx512f -mavx512bw -mavx512vl -mavx512vbmi2
// -mpclmul -mbmi -mbmi2 -mpopcnt (src/json/CMakeLists.txt).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "common/simd_avx512.h"

namespace keel::json::detail {

struct isa_avx512 : keel::detail::simd_avx512 {
  struct block {
    __m512i v;
  };
  static block load(const std::uint8_t* p) noexcept { return {_mm512_loadu_si512(p)}; }
  static std::uint64_t eq(const block& b, std::uint8_t c) noexcept {
    return _mm512_cmpeq_epi8_mask(b.v, _mm512_set1_epi8(static_cast<char>(c)));
  }
  static std::uint64_t control(const block& b) noexcept {
    return _mm512_cmple_epu8_mask(b.v, _mm512_set1_epi8(0x1f));
  }
  static std::uint64_t high(const block& b) noexcept { return _mm512_movepi8_mask(b.v); }
  // Whitespace and operators (see stage1_scalar.h) by table lookup on the low nibble: the four
  // whitespace bytes have distinct low nibbles, and so do { } , : (after OR 0x20).
  static void classify(const block& b, std::uint64_t& ws, std::uint64_t& ops) noexcept {
    ws = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(_mm512_load_si512(kWsTable), b.v), b.v);
    const __m512i x = _mm512_or_si512(b.v, _mm512_set1_epi8(0x20));
    ops = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(_mm512_load_si512(kOpTable), x), x);
  }
  // The 16-entry tables, once per 128-bit lane.
#define KEEL_JSON_LANE(...) __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__
  alignas(64) static constexpr std::uint8_t kWsTable[64] = {
      KEEL_JSON_LANE(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0)};
  alignas(64) static constexpr std::uint8_t kOpTable[64] = {
      KEEL_JSON_LANE(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0)};
#undef KEEL_JSON_LANE
  static std::uint64_t prefix_xor(std::uint64_t x) noexcept {
    const __m128i v = _mm_set_epi64x(0, static_cast<long long>(x));
    return static_cast<std::uint64_t>(
        _mm_cvtsi128_si64(_mm_clmulepi64_si128(v, _mm_set1_epi8(-1), 0)));
  }
  // The UTF-8 check (common/utf8_check.h) runs on the vector primitives of simd_avx512, one
  // register per block.
  static constexpr bool kVectorUtf8 = true;
  static constexpr bool kSimdDigits = true;  // digits_sse.h
  static constexpr int kVecs = 1;
  static vec part(const block& b, int) noexcept { return b.v; }
  // Bytes 16K..16K+15 of packed, widened to 32 bits plus b, stored at o + 16K.
  template <int K>
  static void widen(std::uint32_t* o, __m512i packed, __m512i b) noexcept {
    // maskz forms: the plain intrinsics trip GCC 12 -Wmaybe-uninitialized (_mm512_undefined).
    const __m128i bytes = _mm512_maskz_extracti32x4_epi32(0xf, packed, K);
    _mm512_storeu_si512(o + std::ptrdiff_t{16} * K,
                        _mm512_add_epi32(b, _mm512_maskz_cvtepu8_epi32(0xffff, bytes)));
  }

  // Structural positions as 32-bit offsets: one byte compress (VBMI2) packs the positions within
  // the block, then 16 at a time are widened to 32 bits and offset by the block's base. Blocks
  // with more than 16 positions are rare, so the extra stores sit behind a branch. Stores whole
  // 64-byte registers (room: kIndexSlack).
  static void flatten(std::uint32_t*& out, std::uint32_t base, std::uint64_t m) noexcept {
    const __m512i iota = _mm512_set_epi8(
        63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
        40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
        17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i packed = _mm512_maskz_compress_epi8(m, iota);
    const __m512i b = _mm512_set1_epi32(static_cast<int>(base));
    const int cnt = __builtin_popcountll(m);
    std::uint32_t* o = out;
    widen<0>(o, packed, b);
    if (cnt > 16) [[unlikely]] {
      widen<1>(o, packed, b);
      if (cnt > 32) {
        widen<2>(o, packed, b);
        widen<3>(o, packed, b);
      }
    }
    out = o + cnt;
  }

  // Short strings: 32 bytes from src to dst; one bit per byte that is a backslash. (32 rather
  // than the chunk's 64: most keys and many values fit, and the 64-byte step measured slower.)
  // Stage 2's step for a member's short string value (parse_kernels.h) is left out: with it, this
  // kernel set's number-only documents parsed 12-17 % slower (mesh.json, numbers.json: the same
  // number code, placed and allocated differently), while the AVX2 set's did not change.
  static constexpr bool kMemberStringStep = false;
  static constexpr std::size_t kShort = 32;
  static std::uint64_t copy_short(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), v);
    return _mm256_cmpeq_epi8_mask(v, _mm256_set1_epi8('\\'));
  }

  static constexpr std::size_t kChunk = 64;
  static std::uint64_t copy_chunk(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    const __m512i v = _mm512_loadu_si512(src);
    _mm512_storeu_si512(dst, v);
    return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
  }
};

}  // namespace keel::json::detail
