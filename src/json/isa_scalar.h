// SPDX-License-Identifier: MIT
// Scalar (SWAR, 8 bytes per step) block primitives for the generic kernels; any x86-64.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace keel::json::detail {

struct isa_scalar {
  struct block {
    std::uint64_t w[8];
  };
  static block load(const std::uint8_t* p) noexcept {
    block b;
    std::memcpy(b.w, p, 64);
    return b;
  }
  static constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
  static constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  // Bit 7 of each byte that is zero.
  static std::uint64_t zero_bytes(std::uint64_t w) noexcept {
    return ~(((w & kLow7) + kLow7) | w | kLow7);
  }
  // Bit 7 of each byte -> one bit per byte.
  static std::uint64_t pack(std::uint64_t hi) noexcept {
    return ((hi >> 7) * 0x0102040810204080ULL) >> 56;
  }
  template <class F>
  static std::uint64_t map(const block& b, F f) noexcept {
    std::uint64_t m = 0;
    for (int i = 0; i < 8; ++i) m |= pack(f(b.w[i])) << (8 * i);
    return m;
  }
  static std::uint64_t eq(const block& b, std::uint8_t c) noexcept {
    const std::uint64_t k = 0x0101010101010101ULL * c;
    return map(b, [k](std::uint64_t w) { return zero_bytes(w ^ k); });
  }
  // Bytes below 0x20.
  static std::uint64_t control(const block& b) noexcept {
    return map(b, [](std::uint64_t w) { return zero_bytes(w & 0xe0e0e0e0e0e0e0e0ULL); });
  }
  static std::uint64_t high(const block& b) noexcept {
    return map(b, [](std::uint64_t w) { return w & kHigh; });
  }
  // Bytes equal to c after OR-ing 0x20 (folds '[' onto '{' and ']' onto '}').
  static std::uint64_t eq_or20(const block& b, std::uint8_t c) noexcept {
    const std::uint64_t k = 0x0101010101010101ULL * c;
    return map(b, [k](std::uint64_t w) { return zero_bytes((w | 0x2020202020202020ULL) ^ k); });
  }
  // Whitespace (space, \t, \n, \r) and structural operators: bytes whose value OR 0x20 is one of
  // { } , : — that is { } [ ] , : and also the control bytes 0x0c and 0x1a, which are errors
  // wherever they occur outside strings either way (every ISA classifies them alike).
  static void classify(const block& b, std::uint64_t& ws, std::uint64_t& ops) noexcept {
    ws = eq(b, ' ') | eq(b, '\n') | eq(b, '\r') | eq(b, '\t');
    ops = eq_or20(b, '{') | eq_or20(b, '}') | eq_or20(b, ',') | eq_or20(b, ':');
  }
  static std::uint64_t prefix_xor(std::uint64_t x) noexcept {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
  }
  // No vector UTF-8 check: stage 1 validates each non-ASCII sequence with utf8_sequence().
  static constexpr bool kVectorUtf8 = false;
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
    return pack(zero_bytes(w ^ 0x5c5c5c5c5c5c5c5cULL));
  }
};

}  // namespace keel::json::detail
