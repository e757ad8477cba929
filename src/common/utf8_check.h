// SPDX-License-Identifier: MIT
// Vectorised UTF-8 validation for stage 1, written once over the ISA traits' vector primitives:
// the nibble-lookup method of Keiser and Lemire ("Validating UTF-8 In Less Than One Instruction
// Per Byte", 2021). Each byte is classified from the high nibble of the previous byte, its low
// nibble and the high nibble of the byte itself; the three 8-bit error classes are ANDed, and
// the third/fourth bytes of long sequences are checked against the bytes two and three back.
// It only says whether a block is valid; the exact offset comes from utf8_sequence() (utf8.h).
#pragma once

#include <cstdint>

namespace keel::detail {

template <class I>
struct utf8_check {
  using vec = typename I::vec;

  // Error classes (one bit each; the last two share a bit on purpose).
  static constexpr std::uint8_t kTooShort = 1
                                            << 0;  // lead byte not followed by enough continuations
  static constexpr std::uint8_t kTooLong = 1 << 1;    // ASCII followed by a continuation
  static constexpr std::uint8_t kOverlong3 = 1 << 2;  // E0 80..9F
  static constexpr std::uint8_t kTooLarge = 1 << 3;   // F4 90.. and F5..FF
  static constexpr std::uint8_t kSurrogate = 1 << 4;  // ED A0..BF
  static constexpr std::uint8_t kOverlong2 = 1 << 5;  // C0, C1
  static constexpr std::uint8_t kTooLarge1000 = 1 << 6;
  static constexpr std::uint8_t kOverlong4 = 1 << 6;  // F0 80..8F
  static constexpr std::uint8_t kTwoConts = 1 << 7;   // continuation after continuation
  static constexpr std::uint8_t kCarry = kTooShort | kTooLong | kTwoConts;

  static constexpr std::uint8_t kByte1High[16] = {
      kTooLong,
      kTooLong,
      kTooLong,
      kTooLong,
      kTooLong,
      kTooLong,
      kTooLong,
      kTooLong,
      kTwoConts,
      kTwoConts,
      kTwoConts,
      kTwoConts,
      kTooShort | kOverlong2,
      kTooShort,
      kTooShort | kOverlong3 | kSurrogate,
      kTooShort | kTooLarge | kTooLarge1000 | kOverlong4};
  static constexpr std::uint8_t kByte1Low[16] = {kCarry | kOverlong3 | kOverlong2 | kOverlong4,
                                                 kCarry | kOverlong2,
                                                 kCarry,
                                                 kCarry,
                                                 kCarry | kTooLarge,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000 | kSurrogate,
                                                 kCarry | kTooLarge | kTooLarge1000,
                                                 kCarry | kTooLarge | kTooLarge1000};
  static constexpr std::uint8_t kByte2High[16] = {
      kTooShort,
      kTooShort,
      kTooShort,
      kTooShort,
      kTooShort,
      kTooShort,
      kTooShort,
      kTooShort,
      kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge1000 | kOverlong4,
      kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge,
      kTooLong | kOverlong2 | kTwoConts | kSurrogate | kTooLarge,
      kTooLong | kOverlong2 | kTwoConts | kSurrogate | kTooLarge,
      kTooShort,
      kTooShort,
      kTooShort,
      kTooShort};
  // A lead byte this close to the end of a register needs bytes of the next one.
  static constexpr std::uint8_t kIncomplete[64] = {
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0xdf, 0xbf};

  vec error = I::zero();
  vec prev_input = I::zero();
  vec prev_incomplete = I::zero();

  // The check's constants, made once per scan and kept in registers: the empty asm hides their
  // value from GCC, which otherwise rebuilt each of them (a broadcast from a general register)
  // inside the check of every non-ASCII block. Measured: stage 1 -4 to -6 % on all four corpus
  // files, the parse -0.5 to -2.4 % (AVX-512) and -1 to -4 % (AVX2).
  static vec pin(vec v) noexcept {
#if defined(__aarch64__)
    asm("" : "+w"(v));  // a SIMD register
#else
    asm("" : "+v"(v));
#endif
    return v;
  }
  vec c0f = pin(I::splat(0x0f));
  vec c60 = pin(I::splat(0xe0 - 0x80));
  vec c70 = pin(I::splat(0xf0 - 0x80));
  vec c80 = pin(I::splat(0x80));
  vec climits = pin(incomplete_limits());

  void check(vec input) noexcept {
    const vec prev1 = I::template prev<1>(input, prev_input);
    const vec special =
        I::and_(I::and_(I::lookup(I::table(kByte1High), I::and_(I::shr4(prev1), c0f)),
                        I::lookup(I::table(kByte1Low), I::and_(prev1, c0f))),
                I::lookup(I::table(kByte2High), I::and_(I::shr4(input), c0f)));
    const vec prev2 = I::template prev<2>(input, prev_input);
    const vec prev3 = I::template prev<3>(input, prev_input);
    const vec must23 = I::or_(I::subs(prev2, c60), I::subs(prev3, c70));
    error = I::or_(error, I::xor_(I::and_(must23, c80), special));
    prev_incomplete = I::subs(input, climits);
    prev_input = input;
  }
  // A block of ASCII: only an unfinished sequence before it can be wrong.
  void ascii() noexcept {
    error = I::or_(error, prev_incomplete);
    prev_incomplete = I::zero();
    prev_input = I::zero();
  }
  static vec incomplete_limits() noexcept {
    vec v;
    static_assert(sizeof(vec) <= 64);
    __builtin_memcpy(&v, kIncomplete + 64 - sizeof(vec), sizeof(vec));
    return v;
  }
};

}  // namespace keel::detail
