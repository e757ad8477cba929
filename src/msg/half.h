// SPDX-License-Identifier: MIT
// IEEE 754 binary16 ("half") conversions for CBOR: exact widening, and narrowing only when the
// double is exactly a half (NaN payloads included).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace keel::msg::detail {

inline double half_to_double(std::uint16_t h) noexcept {
  const int sign = h >> 15;
  const int exp = (h >> 10) & 0x1f;
  const std::uint64_t mant = h & 0x3ff;
  std::uint64_t bits = std::uint64_t(sign) << 63;
  if (exp == 0) {
    const double v = std::ldexp(static_cast<double>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) {
    bits |= (std::uint64_t{0x7ff} << 52) | (mant << 42);
  } else {
    bits |= (std::uint64_t(exp - 15 + 1023) << 52) | (mant << 42);
  }
  return std::bit_cast<double>(bits);
}

// The half with exactly the value (and NaN payload) of d, or false.
inline bool double_to_half(double d, std::uint16_t& h) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(d);
  const auto sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000);
  const int exp = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t mant = bits & ((std::uint64_t{1} << 52) - 1);
  if (exp == 0x7ff) {  // infinity or NaN
    if ((mant & ((std::uint64_t{1} << 42) - 1)) != 0) return false;
    h = static_cast<std::uint16_t>(sign | 0x7c00 | (mant >> 42));
    return true;
  }
  if (exp == 0 && mant == 0) {
    h = sign;
    return true;
  }
  const int e = exp - 1023;  // d = 1.mant * 2^e (doubles below 2^-1022 are far below any half)
  if (e > 15 || e < -24) return false;
  if (e >= -14) {  // a normal half: 10 mantissa bits
    if ((mant & ((std::uint64_t{1} << 42) - 1)) != 0) return false;
    h = static_cast<std::uint16_t>(sign | ((e + 15) << 10) | (mant >> 42));
    return true;
  }
  // A subnormal half: the value must be a multiple of 2^-24.
  const std::uint64_t full = mant | (std::uint64_t{1} << 52);  // 1.mant scaled by 2^52
  const int shift = 52 - (e + 24);                             // value / 2^-24 = full >> shift
  if ((full & ((std::uint64_t{1} << shift) - 1)) != 0) return false;
  h = static_cast<std::uint16_t>(sign | (full >> shift));
  return true;
}

}  // namespace keel::msg::detail
