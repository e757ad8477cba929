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

  // String copy: kChunk bytes from src to dst; returns one bit per byte that is a backslash.
  static constexpr std::size_t kShort = 8;  // short strings: the same 8-byte step
  static std::uint64_t copy_short(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    return copy_chunk(src, dst);
  }
  static constexpr std::size_t kChunk = 8;
  static std::uint64_t copy_chunk(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    std::uint64_t w;
    std::memcpy(&w, src, 8);
    std::memcpy(dst, &w, 8);
    // Bit 7 of each byte that is a backslash, then one bit per byte.
    constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
    const std::uint64_t x = scalar_stage1::load8(src) ^ 0x5c5c5c5c5c5c5c5cULL;  // first byte low
    const std::uint64_t hi = ~(((x & kLow7) + kLow7) | x | kLow7);
    return ((hi >> 7) * 0x0102040810204080ULL) >> 56;
  }
};

}  // namespace keel::json::detail
