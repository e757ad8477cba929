// SPDX-License-Identifier: MIT
// Scalar kernels (plain 64-bit integer code, 8 bytes per step where bytes are tested in bulk):
// what CPUs without the vector kernels run, any x86-64 and every other architecture.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "json/stage1_scalar.h"

namespace keel::json::detail {

struct isa_scalar {
  // Stage 1 walks the tokens instead of building 64-byte block masks (stage1_scalar.h).
  static void stage1(parse_state& st) noexcept { stage1_scalar(st); }
  static constexpr bool kSimdDigits = false;

  // String copy: kChunk bytes from src to dst; returns a mask whose lowest set bit is the first
  // backslash (bit k for byte k; bits after the first backslash may be set spuriously).
  static constexpr std::size_t kShort = 8;  // short strings: one 8-byte step
  static std::uint64_t copy_short(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    std::memcpy(dst, src, 8);
    return backslashes(scalar_stage1::load8(src));
  }
  static constexpr std::size_t kChunk = 16;
  static std::uint64_t copy_chunk(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    std::memcpy(dst, src, 16);
    return backslashes(scalar_stage1::load8(src)) |
           (backslashes(scalar_stage1::load8(src + 8)) << 8);
  }
  // One bit per byte of w (first byte lowest): the first backslash, and maybe bytes after it.
  static std::uint64_t backslashes(std::uint64_t w) noexcept {
    using scalar_stage1::kHighBits;
    using scalar_stage1::kOnes;
    const std::uint64_t x = w ^ (kOnes * '\\');
    const std::uint64_t hi = (x - kOnes) & ~x & kHighBits;
    return ((hi >> 7) * 0x0102040810204080ULL) >> 56;
  }
};

}  // namespace keel::json::detail
