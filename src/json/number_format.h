// Number to text for the writer: integers with a two-digits-at-a-time table, doubles as the
// shortest text that reads back to the same double (Dragonbox), always with a '.' or an exponent
// so that a double stays a double when parsed again.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <dragonbox/dragonbox.h>

#include "json/pow10.h"

namespace keel::json::detail {

inline constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Number of decimal digits of v, without a loop: log10 from the bit length, then one compare.
inline int decimal_length(std::uint64_t v) noexcept {
  const int t = ((64 - std::countl_zero(v | 1)) * 1233) >> 12;  // floor(log10(2^bits)) approx
  return t + (v >= kPow10U64[t]) + (v == 0);
}

// Writes v (< 10^len, len <= 8) as exactly len digits ending at out + len, two at a time.
inline void write_small(std::uint32_t v, char* out, int len) noexcept {
  char* p = out + len;
  while (p - out >= 2) {
    const std::uint32_t r = v % 100;
    v /= 100;
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * static_cast<std::size_t>(r), 2);
  }
  if (p > out) *--p = static_cast<char>('0' + v);
}

// Exactly eight digits of v (< 10^8): two independent halves of four.
inline void write8(std::uint32_t v, char* out) noexcept {
  const std::uint32_t a = v / 10000, b = v % 10000;
  std::memcpy(out, kDigitPairs + 2 * static_cast<std::size_t>(a / 100), 2);
  std::memcpy(out + 2, kDigitPairs + 2 * static_cast<std::size_t>(a % 100), 2);
  std::memcpy(out + 4, kDigitPairs + 2 * static_cast<std::size_t>(b / 100), 2);
  std::memcpy(out + 6, kDigitPairs + 2 * static_cast<std::size_t>(b % 100), 2);
}

// Writes v's decimal digits (exactly len of them, len = decimal_length(v)) at out, in blocks of
// eight so the divisions do not form one long chain.
inline void write_digits(std::uint64_t v, char* out, int len) noexcept {
  if (len <= 8) {
    write_small(static_cast<std::uint32_t>(v), out, len);
  } else if (len <= 16) {
    write_small(static_cast<std::uint32_t>(v / 100000000), out, len - 8);
    write8(static_cast<std::uint32_t>(v % 100000000), out + len - 8);
  } else {
    const std::uint64_t hi = v / 100000000;
    write_small(static_cast<std::uint32_t>(hi / 100000000), out, len - 16);
    write8(static_cast<std::uint32_t>(hi % 100000000), out + len - 16);
    write8(static_cast<std::uint32_t>(v % 100000000), out + len - 8);
  }
}

inline char* write_u64(std::uint64_t v, char* out) noexcept {
  const int len = decimal_length(v);
  write_digits(v, out, len);
  return out + len;
}

inline char* write_i64(std::int64_t v, char* out) noexcept {
  std::uint64_t u = static_cast<std::uint64_t>(v);
  if (v < 0) {
    *out++ = '-';
    u = ~u + 1;
  }
  return write_u64(u, out);
}

// A finite double. Writes at most 25 bytes of text but may store up to 64 bytes past `out`
// (fixed-size copies are cheaper than exact ones): callers reserve 64 bytes.
inline char* write_double(double d, char* out) noexcept {
  if (d == 0) {
    if (std::signbit(d)) *out++ = '-';
    // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
    std::memcpy(out, "0.0", 3);
    return out + 3;
  }
  const auto r = jkj::dragonbox::to_decimal(d);
  if (r.is_negative) *out++ = '-';
  // The significand (< 10^17) as 24 digits with leading zeros, followed by 48 '0' bytes: all
  // fixed-size stores. Its k significant digits start at digits.
  char buf[72];
  std::memset(buf + 24, '0', 48);
  const std::uint64_t hi = r.significand / 100000000;
  write8(static_cast<std::uint32_t>(hi / 100000000), buf);
  write8(static_cast<std::uint32_t>(hi % 100000000), buf + 8);
  write8(static_cast<std::uint32_t>(r.significand % 100000000), buf + 16);
  const int k = decimal_length(r.significand);
  const char* const digits = buf + 24 - k;
  const int point = k + r.exponent;  // position of the decimal point after the first digit
  if (point > 0 && point <= 21) {
    if (r.exponent >= 0) {
      // digits, then exponent zeros (already in the buffer up to 24 digits), then ".0"
      std::memcpy(out, digits, 24);
      out += point;
      // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
      std::memcpy(out, ".0", 2);
      return out + 2;
    }
    std::memcpy(out, digits, 24);
    out += point;
    *out++ = '.';
    std::memcpy(out, digits + point, 16);  // k - point <= 16
    return out + (k - point);
  }
  if (point <= 0 && point > -6) {
    // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
    std::memcpy(out, "0.000000", 8);
    out += 2 - point;
    std::memcpy(out, digits, 24);
    return out + k;
  }
  *out++ = digits[0];
  if (k > 1) {
    *out++ = '.';
    std::memcpy(out, digits + 1, 16);
    out += k - 1;
  }
  *out++ = 'e';
  int e = point - 1;
  if (e < 0) {
    *out++ = '-';
    e = -e;
  }
  return write_u64(static_cast<std::uint64_t>(e), out);
}

}  // namespace keel::json::detail
