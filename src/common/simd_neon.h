// SPDX-License-Identifier: MIT
// NEON byte-vector primitives (16-byte registers, AArch64) for kernels written once over a vector
// type: the shared UTF-8 check, json's stage 1. NEON is part of every AArch64 CPU: no flags.
#pragma once

#include <arm_neon.h>

#include <cstdint>

namespace keel::detail {

struct simd_neon {
  using vec = uint8x16_t;
  static vec zero() noexcept { return vdupq_n_u8(0); }
  static vec splat(std::uint8_t c) noexcept { return vdupq_n_u8(c); }
  static vec table(const std::uint8_t (&t)[16]) noexcept { return vld1q_u8(t); }
  // The callers' indices are nibbles (0..15); TBL gives 0 for an index above 15.
  static vec lookup(vec table16, vec nibbles) noexcept { return vqtbl1q_u8(table16, nibbles); }
  static vec shr4(vec v) noexcept { return vshrq_n_u8(v, 4); }
  static vec and_(vec a, vec b) noexcept { return vandq_u8(a, b); }
  static vec or_(vec a, vec b) noexcept { return vorrq_u8(a, b); }
  static vec xor_(vec a, vec b) noexcept { return veorq_u8(a, b); }
  static vec subs(vec a, vec b) noexcept { return vqsubq_u8(a, b); }
  static bool any(vec v) noexcept { return vmaxvq_u8(v) != 0; }
  // Bytes of the concatenation prv:cur shifted right so that byte i is cur[i - N].
  template <int N>
  static vec prev(vec cur, vec prv) noexcept {
    return vextq_u8(prv, cur, 16 - N);
  }

  static vec loadu(const std::uint8_t* p) noexcept { return vld1q_u8(p); }

  // One bit per byte of compare results (0x00 or 0xff each), the first register's byte 0 in
  // bit 0. NEON has no movemask: each byte keeps the bit of its position within 8, and pairwise
  // adds gather the bits of 8 neighbouring bytes into one byte.
  static vec weights() noexcept {
    static constexpr std::uint8_t kBit[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                              1, 2, 4, 8, 16, 32, 64, 128};
    return vld1q_u8(kBit);
  }
  static std::uint32_t bits(vec a) noexcept {
    const vec w = vandq_u8(a, weights());
    return vaddv_u8(vget_low_u8(w)) | (static_cast<std::uint32_t>(vaddv_u8(vget_high_u8(w))) << 8);
  }
  static std::uint32_t bits(vec a, vec b) noexcept {
    const vec w = weights();
    vec s = vpaddq_u8(vandq_u8(a, w), vandq_u8(b, w));
    s = vpaddq_u8(s, s);
    return vgetq_lane_u32(vreinterpretq_u32_u8(vpaddq_u8(s, s)), 0);
  }
  static std::uint64_t bits(vec a, vec b, vec c, vec d) noexcept {
    const vec w = weights();
    const vec ab = vpaddq_u8(vandq_u8(a, w), vandq_u8(b, w));
    const vec cd = vpaddq_u8(vandq_u8(c, w), vandq_u8(d, w));
    const vec abcd = vpaddq_u8(ab, cd);
    return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)), 0);
  }
};

}  // namespace keel::detail
