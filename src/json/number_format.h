// Number to text for the writer: integers with a two-digits-at-a-time table, doubles as the
// shortest text that reads back to the same double (Dragonbox), always with a '.' or an exponent
// so that a double stays a double when parsed again.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include <dragonbox/dragonbox.h>

namespace keel::json::detail {

inline constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

inline int decimal_length(std::uint64_t v) noexcept {
  int n = 1;
  for (;;) {
    if (v < 10) return n;
    if (v < 100) return n + 1;
    if (v < 1000) return n + 2;
    if (v < 10000) return n + 3;
    v /= 10000;
    n += 4;
  }
}

// Writes v's decimal digits (exactly len of them) ending at out + len.
inline void write_digits(std::uint64_t v, char* out, int len) noexcept {
  char* p = out + len;
  while (v >= 100) {
    const unsigned r = static_cast<unsigned>(v % 100);
    v /= 100;
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * r, 2);
  }
  if (v >= 10) {
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * v, 2);
  } else {
    *--p = static_cast<char>('0' + v);
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

// A finite double; at most 25 bytes.
inline char* write_double(double d, char* out) noexcept {
  if (d == 0) {
    if (std::signbit(d)) *out++ = '-';
    std::memcpy(out, "0.0", 3);
    return out + 3;
  }
  const auto r = jkj::dragonbox::to_decimal(d);
  if (r.is_negative) *out++ = '-';
  char digits[20];
  const int k = decimal_length(r.significand);
  write_digits(r.significand, digits, k);
  const int point = k + r.exponent;  // position of the decimal point after the first digit
  if (point > 0 && point <= 21) {
    if (r.exponent >= 0) {
      std::memcpy(out, digits, static_cast<std::size_t>(k));
      out += k;
      std::memset(out, '0', static_cast<std::size_t>(r.exponent));
      out += r.exponent;
      std::memcpy(out, ".0", 2);
      return out + 2;
    }
    std::memcpy(out, digits, static_cast<std::size_t>(point));
    out += point;
    *out++ = '.';
    std::memcpy(out, digits + point, static_cast<std::size_t>(k - point));
    return out + (k - point);
  }
  if (point <= 0 && point > -6) {
    std::memcpy(out, "0.", 2);
    out += 2;
    std::memset(out, '0', static_cast<std::size_t>(-point));
    out += -point;
    std::memcpy(out, digits, static_cast<std::size_t>(k));
    return out + k;
  }
  *out++ = digits[0];
  if (k > 1) {
    *out++ = '.';
    std::memcpy(out, digits + 1, static_cast<std::size_t>(k - 1));
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
