// SPDX-License-Identifier: MIT
// NEON block primitives (four 16-byte registers per 64-byte block) for the generic kernels;
// AArch64, where NEON is part of the base architecture (no extra flags).
#pragma once

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "common/simd_neon.h"

namespace keel::json::detail {

struct isa_neon : keel::detail::simd_neon {
  struct block {
    uint8x16_t v[4];
  };
  static block load(const std::uint8_t* p) noexcept {
    return {{vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48)}};
  }
  template <class F>
  static std::uint64_t map(const block& b, F f) noexcept {
    return bits(f(b.v[0]), f(b.v[1]), f(b.v[2]), f(b.v[3]));
  }
  static std::uint64_t eq(const block& b, std::uint8_t c) noexcept {
    const uint8x16_t k = vdupq_n_u8(c);
    return map(b, [k](uint8x16_t v) { return vceqq_u8(v, k); });
  }
  static std::uint64_t control(const block& b) noexcept {
    const uint8x16_t k = vdupq_n_u8(0x20);
    return map(b, [k](uint8x16_t v) { return vcltq_u8(v, k); });
  }
  static std::uint64_t high(const block& b) noexcept {
    const uint8x16_t k = vdupq_n_u8(0x80);
    return map(b, [k](uint8x16_t v) { return vcgeq_u8(v, k); });
  }
  // Whitespace and operators (see stage1_scalar.h) by table lookup on the low nibble: the four
  // whitespace bytes have distinct low nibbles, and so do { } , : (after OR 0x20).
  static void classify(const block& b, std::uint64_t& ws, std::uint64_t& ops) noexcept {
    static constexpr std::uint8_t kWs[16] = {' ', 0,    0,    0, 0, 0,    0, 0,
                                             0,   '\t', '\n', 0, 0, '\r', 0, 0};
    static constexpr std::uint8_t kOp[16] = {0, 0, 0,   0,   0,   0,   0, 0,
                                             0, 0, ':', '{', ',', '}', 0, 0};
    const uint8x16_t ws_table = vld1q_u8(kWs), op_table = vld1q_u8(kOp);
    const uint8x16_t low = vdupq_n_u8(0x0f), s = vdupq_n_u8(0x20);
    ws = map(b, [&](uint8x16_t v) { return vceqq_u8(vqtbl1q_u8(ws_table, vandq_u8(v, low)), v); });
    ops = map(b, [&](uint8x16_t v) {
      const uint8x16_t x = vorrq_u8(v, s);
      return vceqq_u8(vqtbl1q_u8(op_table, vandq_u8(x, low)), x);
    });
  }
  // Bit i = XOR of bits 0..i. The carry-less multiply (PMULL) that computes it at once is an
  // optional AArch64 extension: six shifts and XORs instead.
  static std::uint64_t prefix_xor(std::uint64_t x) noexcept {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
  }
  // The UTF-8 check (common/utf8_check.h) runs on the vector primitives of simd_neon, four
  // registers per block.
  static constexpr bool kVectorUtf8 = true;
  static constexpr bool kSimdDigits = true;  // digits_neon.h
  static constexpr int kVecs = 4;
  static vec part(const block& b, int k) noexcept { return b.v[k]; }

  // String copy: 32 bytes from src to dst; returns one bit per byte that is a backslash.
  static constexpr std::size_t kShort = 32;
  static std::uint64_t copy_short(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    return copy_chunk(src, dst);
  }
  static constexpr std::size_t kChunk = 32;
  static std::uint64_t copy_chunk(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    const uint8x16_t a = vld1q_u8(src), b = vld1q_u8(src + 16);
    vst1q_u8(dst, a);
    vst1q_u8(dst + 16, b);
    const uint8x16_t k = vdupq_n_u8('\\');
    return bits(vceqq_u8(a, k), vceqq_u8(b, k));
  }
};

}  // namespace keel::json::detail
