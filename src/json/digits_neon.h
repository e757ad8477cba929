// SPDX-License-Identifier: MIT
// Up to 16 consecutive ASCII digits to an integer with NEON (AArch64): the digits right-aligned
// in one register (leading lanes zero, by a table lookup) and combined pairwise with widening
// multiply-adds: 1 -> 2 -> 4 -> 8 digits per lane; and a 32-byte digit mask that gives a number's
// integer and fraction lengths at once. The same functions as digits_sse.h, for the neon kernel
// set; 16 bytes at p (32 for the mask) must be readable.
#pragma once

#include <arm_neon.h>

#include <bit>
#include <cstdint>

#include "common/simd_neon.h"
#include "keel/detail/attributes.h"

namespace keel::json::detail {

// The value of 16 digit lanes (values 0-9, the first the most significant): even lanes times 10
// (100, 10000) plus odd lanes, widening each step.
KEEL_INLINE std::uint64_t aligned_value(uint8x16_t aligned) noexcept {
  const uint16x8_t p1 = vreinterpretq_u16_u8(aligned);
  const uint16x8_t two = vmlal_u8(vmovl_u8(vshrn_n_u16(p1, 8)), vmovn_u16(p1), vdup_n_u8(10));
  const uint32x4_t p2 = vreinterpretq_u32_u16(two);
  const uint32x4_t four = vmlal_u16(vmovl_u16(vshrn_n_u32(p2, 16)), vmovn_u32(p2), vdup_n_u16(100));
  const uint64x2_t p4 = vreinterpretq_u64_u32(four);
  const uint64x2_t eight =
      vmlal_u32(vmovl_u32(vshrn_n_u64(p4, 32)), vmovn_u64(p4), vdup_n_u32(10000));
  return vgetq_lane_u64(eight, 0) * 100000000U + vgetq_lane_u64(eight, 1);
}

// The value of the first k (0 to 16) lanes of d (digit values 0-9): the k lanes right-aligned
// (output lane j takes input lane j + k - 16; TBL gives 0 for an index out of range), then
// combined by aligned_value().
KEEL_INLINE std::uint64_t lanes_value(uint8x16_t d, int k) noexcept {
  static constexpr std::uint8_t kIota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  return aligned_value(
      vqtbl1q_u8(d, vaddq_u8(vld1q_u8(kIota), vdupq_n_u8(static_cast<std::uint8_t>(k - 16)))));
}

// The 16 bytes at p minus '0'.
KEEL_INLINE uint8x16_t digit_lanes(const std::uint8_t* p) noexcept {
  return vsubq_u8(vld1q_u8(p), vdupq_n_u8('0'));
}

// Returns the number of leading digits at p (0 to 16) and their value in `value`.
KEEL_INLINE int digits16(const std::uint8_t* p, std::uint64_t& value) noexcept {
  const uint8x16_t d = digit_lanes(p);
  const std::uint32_t is_digit = keel::detail::simd_neon::bits(vcleq_u8(d, vdupq_n_u8(9)));
  const int c = std::countr_zero(~is_digit);  // bits 16-31 of ~is_digit are set: c <= 16
  value = lanes_value(d, c);
  return c;
}

// One bit per byte of the 32 at p that is an ASCII digit.
KEEL_INLINE std::uint32_t digit_mask32(const std::uint8_t* p) noexcept {
  const uint8x16_t nine = vdupq_n_u8(9);
  return keel::detail::simd_neon::bits(vcleq_u8(digit_lanes(p), nine),
                                       vcleq_u8(digit_lanes(p + 16), nine));
}

// The value of the k (1 to 16) digits at p, known to be digits: digits16() without the count.
KEEL_INLINE std::uint64_t digits_value(const std::uint8_t* p, int k) noexcept {
  return lanes_value(digit_lanes(p), k);
}

// The value of the il integer digits at p and the fl fraction digits after the '.' at p[il], as
// one integer of il + fl <= 15 digits (the dot dropped): one lookup right-aligns the digits of
// both parts, output lane j taking input lane j + il + fl - 16, plus one from lane 16 - fl on.
KEEL_INLINE std::uint64_t decimal_value(const std::uint8_t* p, int il, int fl) noexcept {
  static constexpr std::uint8_t kIota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const uint8x16_t iota = vld1q_u8(kIota);
  const uint8x16_t after_dot = vcgtq_u8(iota, vdupq_n_u8(static_cast<std::uint8_t>(15 - fl)));
  const uint8x16_t index =
      vsubq_u8(vaddq_u8(iota, vdupq_n_u8(static_cast<std::uint8_t>(il + fl - 16))), after_dot);
  return aligned_value(vqtbl1q_u8(digit_lanes(p), index));
}

}  // namespace keel::json::detail
