// SPDX-License-Identifier: MIT
// Up to 16 consecutive ASCII digits to an integer with SSSE3/SSE4.1 multiply-adds: the digits are
// right-aligned in one register (leading lanes zero) and combined pairwise: 1 -> 2 -> 4 -> 8
// digits per lane; and a 32-byte digit mask (AVX2) that gives a number's integer and fraction
// lengths at once. Used by the vector kernels (their flags imply SSE4.1 and AVX2); 16 bytes at
// p (32 for the mask, digits_value and decimal_value) must be readable.
#pragma once

#include <immintrin.h>

#include <bit>
#include <cstdint>
#include "keel/detail/attributes.h"

namespace keel::json::detail {

// The multipliers of aligned_value's three steps. Its multiply-adds read them from memory
// (asm): from _mm_setr_* GCC loaded each into a register first, three more instructions a number.
alignas(16) static constexpr std::uint8_t kTensOnes[16] = {10, 1, 10, 1, 10, 1, 10, 1,
                                                           10, 1, 10, 1, 10, 1, 10, 1};
alignas(16) static constexpr std::int16_t kHundredsOnes[8] = {100, 1, 100, 1, 100, 1, 100, 1};
alignas(16) static constexpr std::int16_t kTenThousandsOnes[8] = {10000, 1, 10000, 1,
                                                                  10000, 1, 10000, 1};

// The value of 16 digit lanes (values 0-9, the first the most significant), combined pairwise.
KEEL_INLINE std::uint64_t aligned_value(__m128i aligned) noexcept {
  __m128i two, four, eight;
  asm("vpmaddubsw %[k], %[v], %[r]" : [r] "=x"(two) : [k] "m"(kTensOnes), [v] "x"(aligned));
  asm("vpmaddwd %[k], %[v], %[r]" : [r] "=x"(four) : [k] "m"(kHundredsOnes), [v] "x"(two));
  const __m128i packed = _mm_packus_epi32(four, four);
  asm("vpmaddwd %[k], %[v], %[r]" : [r] "=x"(eight) : [k] "m"(kTenThousandsOnes), [v] "x"(packed));
  const auto r = static_cast<std::uint64_t>(_mm_cvtsi128_si64(eight));
  return (r & 0xffffffffU) * 100000000U + (r >> 32);
}

// Shuffle indices that right-align k lanes, read at offset k: sixteen 0x80 (a lane of zeros),
// then 0 to 15.
alignas(32) static constexpr std::uint8_t kRightAlign[32] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15};

// The value of the first k (0 to 16) lanes of d (digit values 0-9): the k lanes right-aligned
// by a shuffle (output lane j takes input lane j + k - 16, or 0 when that is negative: its
// indices loaded from kRightAlign + k, rather than built from k with a broadcast and an add),
// then combined pairwise.
KEEL_INLINE std::uint64_t lanes_value(__m128i d, int k) noexcept {
  return aligned_value(
      _mm_shuffle_epi8(d, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRightAlign + k))));
}

// '0' and 9 in every byte, for the digit masks: their subtracts and compares read them from
// memory (asm), one instruction each. From _mm_set1_epi8 / _mm256_set1_epi8 GCC rebuilt the
// vectors (up to three instructions each) for every number. Internal linkage: addressed relative to
// the code.
alignas(32) static constexpr std::uint8_t kAsciiZeros32[32] = {
    '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0',
    '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'};
alignas(32) static constexpr std::uint8_t kNines32[32] = {
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

// The 16 bytes at p minus '0' (the VEX form: the vector kernels' flags include AVX2).
KEEL_INLINE __m128i digit_lanes(const std::uint8_t* p) noexcept {
  const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  __m128i d;
  asm("vpsubb %[z], %[v], %[r]" : [r] "=x"(d) : [z] "m"(kAsciiZeros32), [v] "x"(raw));
  return d;
}

// Returns the number of leading digits at p (0 to 16) and their value in `value`.
KEEL_INLINE int digits16(const std::uint8_t* p, std::uint64_t& value) noexcept {
  const __m128i d = digit_lanes(p);
  __m128i low;
  asm("vpminub %[n], %[v], %[r]" : [r] "=x"(low) : [n] "m"(kNines32), [v] "x"(d));
  const auto is_digit = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(low, d)));
  const int c = std::countr_zero(~is_digit);  // bits 16-31 of ~is_digit are set: c <= 16
  value = lanes_value(d, c);
  return c;
}

// d = the 32 bytes at p minus '0' (AVX2; the vector kernels' flags). A macro, not a function: a
// function returning __m256i changes the ABI in files built without AVX that include this one.
// (The result in a register of its own: with one register for both, GCC copied the loaded bytes
// first, to keep them for the second subtract of digit_lanes_lo.)
#define KEEL_DIGIT_LANES32(p, d)                                                   \
  const __m256i d##_raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); \
  __m256i d;                                                                       \
  asm("vpsubb %[z], %[v], %[r]" : [r] "=x"(d) : [z] "m"(kAsciiZeros32), [v] "x"(d##_raw))

// The two functions over 32 bytes carry the avx2 target themselves: clang checks an asm operand's
// size against the function's target, and files built without AVX include this one.

// The first 16 of those lanes: the same 32-byte load, which the compiler then shares with
// digit_mask32(p) (one load and subtract fewer per number than a 16-byte load of its own).
__attribute__((target("avx2"))) KEEL_INLINE __m128i digit_lanes_lo(const std::uint8_t* p) noexcept {
  KEEL_DIGIT_LANES32(p, d);
  return _mm256_castsi256_si128(d);
}

// One bit per byte of the 32 at p that is an ASCII digit.
__attribute__((target("avx2"))) KEEL_INLINE std::uint32_t digit_mask32(
    const std::uint8_t* p) noexcept {
  KEEL_DIGIT_LANES32(p, d);
  __m256i low;
  asm("vpminub %[n], %[v], %[r]" : [r] "=x"(low) : [n] "m"(kNines32), [v] "x"(d));
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, d)));
}
#undef KEEL_DIGIT_LANES32

// The value of the k (1 to 16) digits at p, known to be digits: digits16() without the count.
KEEL_INLINE std::uint64_t digits_value(const std::uint8_t* p, int k) noexcept {
  return lanes_value(digit_lanes_lo(p), k);
}

// The value of the il integer digits at p and the fl fraction digits after the '.' at p[il], as
// one integer of il + fl <= 15 digits (the dot dropped): one shuffle right-aligns the digits of
// both parts, output lane j taking input lane j + il + fl - 16, plus one from lane 16 - fl on.
KEEL_INLINE std::uint64_t decimal_value(const std::uint8_t* p, int il, int fl) noexcept {
  const __m128i iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m128i after_dot = _mm_cmpgt_epi8(iota, _mm_set1_epi8(static_cast<char>(15 - fl)));
  const __m128i index =
      _mm_sub_epi8(_mm_add_epi8(iota, _mm_set1_epi8(static_cast<char>(il + fl - 16))), after_dot);
  return aligned_value(_mm_shuffle_epi8(digit_lanes_lo(p), index));
}

}  // namespace keel::json::detail
