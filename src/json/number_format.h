// SPDX-License-Identifier: MIT
// Number to text for the writer. Integers and the significands of doubles are turned into 16
// ASCII digits at once in one SSE2 register (x86-64's baseline; no table, no division chain; a
// NEON register filled from two SWAR halves on AArch64),
// scaled first so that the first significant digit is the register's first byte: the digits are
// then written with whole-register stores at their final place, never copied through memory.
// Doubles are the shortest text that reads back to the same double (a branch-free Schubfach-style
// test on one 128-bit product, Dragonbox where it cannot decide), always with a '.' or an exponent
// so that a double stays a double when parsed again.
#pragma once

#if defined(__x86_64__)
#include <emmintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>

#include "common/simd_neon.h"
#endif

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

// Dragonbox's shorter-interval path returns a result whose sign field its caller fills in after
// the return; with the trailing-zero policy used here gcc 12 (-O2, sanitizers) reports that copy as
// maybe-uninitialized. The field is always set before use.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <dragonbox/dragonbox.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include "json/pow10.h"

namespace keel::json::detail {
// Internal linkage: the writer's kernels include this file in translation units compiled with
// different instruction-set flags, and each must keep its own copy.
namespace {

inline constexpr char kDigitPairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Number of decimal digits of v (1 for 0), without a loop: log10 from the bit length, then one
// compare.
inline int decimal_length(std::uint64_t v) noexcept {
  const int t = ((64 - std::countl_zero(v | 1)) * 1233) >> 12;  // floor(log10(2^bits)) approx
  return t + (v >= kPow10U64[t]) + (v == 0);
}

#if defined(__x86_64__)
using digit_reg = __m128i;  // 16 ASCII digits, the first at byte 0

// The 16 decimal digits of v < 10^16, most significant first (leading zeros kept), as ASCII bytes.
// v splits into four 4-digit groups (scalar multiply-shift divisions); in 16-bit lanes each group
// splits into two 2-digit halves (x / 100 = x * 5243 >> 19 for x < 10^4) and each half into tens
// and ones (y / 10 = y * 6554 >> 16 for y < 100); the ones go into the high byte of each lane.
inline __m128i digits16(std::uint64_t v) noexcept {
  const std::uint64_t hi = v / 100000000, lo = v % 100000000;
  // hi and lo in the two 64-bit lanes, each split into [x / 10^4, x % 10^4] 32-bit halves
  // (x / 10^4 = x * 109951163 >> 40 for x < 10^8).
  const __m128i h = _mm_set_epi64x(static_cast<long long>(lo), static_cast<long long>(hi));
  const __m128i q4 = _mm_srli_epi64(_mm_mul_epu32(h, _mm_set1_epi32(109951163)), 40);
  const __m128i r4 = _mm_sub_epi32(h, _mm_mul_epu32(q4, _mm_set1_epi32(10000)));
  __m128i x = _mm_or_si128(q4, _mm_slli_epi64(r4, 32));
  x = _mm_or_si128(x, _mm_slli_epi32(x, 16));  // each group in both 16-bit halves of its lane
  // The multipliers are hidden from the optimiser: one multiply beats its shift-and-add
  // expansion here (measured).
  __m128i k100 = _mm_set1_epi16(100), k10 = _mm_set1_epi16(10);
  __asm__("" : "+x"(k100), "+x"(k10));
  const __m128i q = _mm_srli_epi16(_mm_mulhi_epu16(x, _mm_set1_epi16(5243)), 3);
  const __m128i r = _mm_sub_epi16(x, _mm_mullo_epi16(q, k100));
  const __m128i even = _mm_set1_epi32(0xffff);
  const __m128i y = _mm_or_si128(_mm_and_si128(even, q), _mm_andnot_si128(even, r));
  const __m128i t = _mm_mulhi_epu16(y, _mm_set1_epi16(6554));
  const __m128i o = _mm_sub_epi16(y, _mm_mullo_epi16(t, k10));
  return _mm_or_si128(_mm_or_si128(t, _mm_slli_epi16(o, 8)), _mm_set1_epi8('0'));
}

inline void store16(char* out, __m128i v) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
}

// digits (16 ASCII digits) with a '.' inserted before digit `point` (0 <= point <= 15): the 17
// bytes are written at out (two overlapping stores, no loads of written bytes). At point 16 the
// 16 digits are followed by digit 15 again, for the caller to overwrite.
inline void store_with_point(char* out, __m128i digits, int point) noexcept {
  // Sliding windows: kLow + 16 - point is `point` bytes of 0xff then zeros; kDot + 16 - point is
  // zeros with '.' at byte `point`.
  alignas(16) static constexpr unsigned char kLow[32] = {
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0,    0,    0,    0,    0,    0,
      0,    0,    0,    0,    0,    0,    0,    0,    0,    0};
  alignas(16) static constexpr char kDot[33] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '.',
                                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const auto idx = static_cast<std::size_t>(16 - point);
  const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLow + idx));
  const __m128i dot = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kDot + idx));
  const __m128i shifted = _mm_slli_si128(digits, 1);  // digit i moves to byte i + 1
  const __m128i keep = _mm_and_si128(low, digits);
  // Bytes after the point: shifted digits; the point byte itself: shifted has digit point - 1
  // there, so clear it by the dot mask before OR-ing the '.' in.
  const __m128i is_dot = _mm_cmpeq_epi8(dot, _mm_set1_epi8('.'));
  const __m128i tail = _mm_andnot_si128(_mm_or_si128(low, is_dot), shifted);
  store16(out + 1, digits);  // byte 16 = digit 15 (the rest is overwritten next)
  store16(out, _mm_or_si128(_mm_or_si128(keep, tail), dot));
}

inline digit_reg zero_digits() noexcept { return _mm_set1_epi8('0'); }

// One bit per byte of digits that is not '0'.
inline unsigned nonzero_digits(digit_reg digits) noexcept {
  return ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(digits, zero_digits()))) & 0xffffu;
}
#endif

// The 8 decimal digits of v < 10^8 as ASCII bytes in a uint64_t, most significant digit in the
// lowest byte (SWAR: the two 4-digit halves in 32-bit lanes, split into 2-digit halves in 16-bit
// lanes, x / 100 = x * 10486 >> 20 for x < 10^4, then into digits in bytes, y / 10 = y * 103 >> 10
// for y < 100; each product stays inside its lane).
inline std::uint64_t digits8(std::uint32_t v) noexcept {
  const std::uint64_t w = (v / 10000) | (static_cast<std::uint64_t>(v % 10000) << 32);
  const std::uint64_t q2 = ((w * 10486) >> 20) & 0x0000007f0000007fULL;
  const std::uint64_t w2 = q2 | ((w - q2 * 100) << 16);
  const std::uint64_t q1 = ((w2 * 103) >> 10) & 0x000f000f000f000fULL;
  return (q1 | ((w2 - q1 * 10) << 8)) | 0x3030303030303030ULL;
}

#if defined(__aarch64__)
using digit_reg = uint8x16_t;  // 16 ASCII digits, the first at byte 0

// The 16 decimal digits of v < 10^16 (as the x86-64 form above): two halves of eight by SWAR.
inline digit_reg digits16(std::uint64_t v) noexcept {
  return vcombine_u8(vcreate_u8(digits8(static_cast<std::uint32_t>(v / 100000000))),
                     vcreate_u8(digits8(static_cast<std::uint32_t>(v % 100000000))));
}

inline void store16(char* out, digit_reg v) noexcept {
  vst1q_u8(reinterpret_cast<std::uint8_t*>(out), v);
}

// digits with a '.' inserted before digit `point` (as the x86-64 form above).
inline void store_with_point(char* out, digit_reg digits, int point) noexcept {
  alignas(16) static constexpr std::uint8_t kLow[32] = {
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0xff, 0xff, 0xff, 0xff, 0xff, 0,    0,    0,    0,    0,    0,
      0,    0,    0,    0,    0,    0,    0,    0,    0,    0};
  alignas(16) static constexpr std::uint8_t kDot[32] = {0, 0, 0, 0, 0, 0,   0, 0, 0, 0, 0,
                                                        0, 0, 0, 0, 0, '.', 0, 0, 0, 0, 0,
                                                        0, 0, 0, 0, 0, 0,   0, 0, 0, 0};
  const auto idx = static_cast<std::size_t>(16 - point);
  const uint8x16_t low = vld1q_u8(kLow + idx);
  const uint8x16_t dot = vld1q_u8(kDot + idx);
  const uint8x16_t shifted = vextq_u8(vdupq_n_u8(0), digits, 15);  // digit i at byte i + 1
  const uint8x16_t keep = vandq_u8(low, digits);
  const uint8x16_t tail = vbicq_u8(shifted, vorrq_u8(low, vceqq_u8(dot, vdupq_n_u8('.'))));
  store16(out + 1, digits);
  store16(out, vorrq_u8(vorrq_u8(keep, tail), dot));
}

inline digit_reg zero_digits() noexcept { return vdupq_n_u8('0'); }

// One bit per byte of digits that is not '0'.
inline unsigned nonzero_digits(digit_reg digits) noexcept {
  return ~keel::detail::simd_neon::bits(vceqq_u8(digits, zero_digits())) & 0xffffu;
}
#endif

// Writes v < 10^8, decimal_length(v) == len <= 8: one 8-byte store (the text's len bytes first).
inline void store_small(char* out, std::uint32_t v, int len) noexcept {
  const std::uint64_t w = digits8(v) >> (8 * (8 - len));
  std::memcpy(out, &w, 8);
}

// Exactly eight digits of v (< 10^8): two independent halves of four, two digits per table load.
inline void write8(std::uint32_t v, char* out) noexcept {
  const std::uint32_t a = v / 10000, b = v % 10000;
  std::memcpy(out, kDigitPairs + 2 * static_cast<std::size_t>(a / 100), 2);
  std::memcpy(out + 2, kDigitPairs + 2 * static_cast<std::size_t>(a % 100), 2);
  std::memcpy(out + 4, kDigitPairs + 2 * static_cast<std::size_t>(b / 100), 2);
  std::memcpy(out + 6, kDigitPairs + 2 * static_cast<std::size_t>(b % 100), 2);
}

// The leading 1-8 digits of a number (v < 10^8, len digits): a table pair below 100, else SWAR
// with the leading zeros shifted out. Stores up to 8 bytes.
inline char* write_head(std::uint32_t v, int len, char* out) noexcept {
  if (v < 100) {
    std::memcpy(out, kDigitPairs + 2 * static_cast<std::size_t>(v) + (v < 10), 2);
    return out + len;
  }
  store_small(out, v, len);
  return out + len;
}

// Writes v; may store up to 16 bytes past the text (callers keep 32 bytes of room).
// Exactly nine digits (10^8 <= x < 10^9, common for ids): x / 10^8 as a fixed-point number with
// 57 fraction bits; its integer part is the first digit, and each multiplication of the fraction
// by 100 brings the next two digits into the integer part (exact for every 9-digit x: the
// rounding error of the constant stays below one unit of the last step, checked exhaustively).
inline char* write9(std::uint32_t x, char* out) noexcept {
  constexpr std::uint64_t kFraction = (std::uint64_t{1} << 57) - 1;
  std::uint64_t f = static_cast<std::uint64_t>(x) * 1441151881ULL;  // ceil(2^57 / 10^8)
  *out = static_cast<char>('0' + (f >> 57));
  for (int i = 0; i < 4; ++i) {
    f = (f & kFraction) * 100;
    std::memcpy(out + 1 + 2 * static_cast<std::ptrdiff_t>(i), kDigitPairs + 2 * (f >> 57), 2);
  }
  return out + 9;
}

// The text of every v < 10^4 in a 32-bit word: the digits from byte 0 (little-endian), zero bytes
// after them (40 KB; a document's small integers touch a few of its lines).
inline constexpr auto kSmallInts = [] {
  struct table {
    std::uint32_t w[10000] = {};
  } t;
  for (std::uint32_t v = 0; v < 10000; ++v) {
    const std::uint32_t len = 1 + (v >= 10) + (v >= 100) + (v >= 1000);
    std::uint32_t w = 0;
    std::uint32_t x = v;
    for (std::uint32_t i = len; i-- > 0; x /= 10) w |= ('0' + x % 10) << (8 * i);
    t.w[v] = w;
  }
  return t;
}();

// Writes v < 10^4 (indices, counts, coordinates: the commonest integers) without a branch: one
// table word, one 4-byte store; the length is the word's count of nonzero bytes.
inline char* write4(std::uint32_t v, char* out) noexcept {
  const std::uint32_t w = kSmallInts.w[v];
  std::memcpy(out, &w, 4);
  return out + ((std::bit_width(w) + 7) >> 3);
}

inline char* write_u64(std::uint64_t v, char* out) noexcept {
  if (v < 10000) return write4(static_cast<std::uint32_t>(v), out);
  if (v >= 100000000 && v < 1000000000) return write9(static_cast<std::uint32_t>(v), out);
  const int len = decimal_length(v);
  if (len <= 8) return write_head(static_cast<std::uint32_t>(v), len, out);
  std::uint64_t hi = v / 100000000;
  const auto lo = static_cast<std::uint32_t>(v % 100000000);
  if (len > 16) {
    out = write_head(static_cast<std::uint32_t>(hi / 100000000), len - 16, out);
    hi %= 100000000;
    write8(static_cast<std::uint32_t>(hi), out);
    out += 8;
  } else {
    out = write_head(static_cast<std::uint32_t>(hi), len - 8, out);
  }
  write8(lo, out);
  return out + 8;
}

inline char* write_i64(std::int64_t v, char* out) noexcept {
  std::uint64_t u = static_cast<std::uint64_t>(v);
  if (v < 0) {
    *out++ = '-';
    u = ~u + 1;
  }
  return write_u64(u, out);
}

// The shortest decimal of a double: (10 * (top + carry) + last) * 10^exp10, top < 10^16, carry
// 0 or 1, last 0 to 9 (trailing zeros left in: the writer drops them from its digit register).
// The carry is apart so that the writer can scale top while it is being decided.
struct decimal {
  std::uint64_t top;
  std::uint64_t carry;
  std::uint64_t last;
  int exp10;
};

// The shortest decimal of a finite double whose exponent field and fraction field are not 0 (so
// the doubles next to it are equally far away), without a branch on the digits; false when it
// cannot decide (the shortest candidate lies within a rounding error of an edge of the interval
// that reads back to the double, or the double within one of halfway between two candidates:
// almost never), and the caller asks Dragonbox.
//
// v = c * 2^q is scaled by 10^-k, k = floor(q log10 2), so that x = v * 10^-k lies in
// [2^52, 10 * 2^53): 16 or 17 digits before the point, and the doubles next to v are
// 2^q * 10^-k (between 1 and 10) away. Every decimal closer to x than half that reads back to v.
// At most one multiple of 10 fits in that interval, and when one does it is the shortest;
// otherwise the shortest have x's digit count and the nearest to x is x rounded. 10^-k comes from
// Dragonbox's table of 128-bit powers of ten (rounded up), so x is known to within 2^-63 and half
// the spacing to within 2^-60: a comparison closer than 4 * 2^-60 is not trusted.
inline bool shortest_decimal(std::uint64_t bits, decimal& out) noexcept {
  __extension__ using u128 = unsigned __int128;
  namespace db = jkj::dragonbox;
  const std::uint64_t c = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  const int q = static_cast<int>((bits >> 52) & 0x7ff) - 1075;
  const int k = db::detail::log::floor_log10_pow2(q);
  // 10^-k = T * 2^(g - 127), g = floor(-k log2 10); h = q + g is 0 to 3.
  const int h = q + db::detail::log::floor_log2_pow10(-k);
  const auto t = db::policy::cache::full.get_cache<db::ieee754_binary64>(-k);
  // x * 2^64 = c * 2^(h+1) * T / 2^64: the integer part in the high word, the fraction in the low.
  const std::uint64_t u = c << (h + 1);
  const u128 x = static_cast<u128>(u) * t.high() +
                 static_cast<std::uint64_t>((static_cast<u128>(u) * t.low()) >> 64);
  const auto s = static_cast<std::uint64_t>(x >> 64);
  const auto frac = static_cast<std::uint64_t>(x);
  const std::uint64_t top = s / 10;
  const std::uint64_t mod = s - top * 10;
  // In units of 2^-60 (values up to 16 fit): x - 10 * top, and half the spacing of doubles at x.
  const std::uint64_t r = (mod << 60) | (frac >> 4);
  const std::uint64_t half = t.high() >> (4 - h);
  constexpr std::uint64_t kTen = std::uint64_t{10} << 60;
  constexpr std::uint64_t kHalf = std::uint64_t{1} << 63;
  // |a - b| <= 4, without a branch: a - b + 4 <= 8 in wrapping arithmetic.
  auto near = [](std::uint64_t a, std::uint64_t b) {
    return static_cast<unsigned>(a - b + 4 <= 8);
  };
  if (near(r, half) | near(kTen - r, half) | near(frac, kHalf)) [[unlikely]]
    return false;
  // 10 * top, 10 * (top + 1), or x rounded (its last digit `rounded`, 10 a carry into top), by
  // arithmetic: gcc turns a conditional expression into a branch, which mispredicts on random
  // digits.
  const std::uint64_t up = kTen - r < half;
  const std::uint64_t trim = static_cast<std::uint64_t>(r < half) | up;
  const std::uint64_t rounded = mod + (frac >> 63);
  const std::uint64_t carry = rounded == 10;
  out.top = top;
  out.carry = up | (carry & (trim ^ 1));
  out.last = rounded & (0 - ((trim | carry) ^ 1));
  out.exp10 = k;
  return true;
}

// Subnormals, powers of two (the double below is half as far away as the one above) and the
// doubles shortest_decimal cannot decide: Dragonbox (nonzero d, the sign ignored), as 17 digits
// with their trailing zeros. Rare: out of line.
[[gnu::noinline]] inline decimal dragonbox_decimal(double d) noexcept {
  const auto v = jkj::dragonbox::to_decimal(d, jkj::dragonbox::policy::sign::ignore,
                                            jkj::dragonbox::policy::trailing_zero::ignore);
  const int pad = 17 - decimal_length(v.significand);
  const std::uint64_t sig = v.significand * kPow10U64[pad];
  return {sig / 10, 0, sig % 10, v.exponent - pad};
}

// A finite double. Writes at most 25 bytes of text but may store up to 48 bytes past `out`
// (whole-register stores): callers keep 64 bytes of room. Not forced inline: inlined into the
// writer loop it made documents without doubles 5 % slower (instruments.json).
inline char* write_double(double d, char* out) noexcept {
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  // The sign without a branch: random signs (coordinates, deltas) mispredicted one in two.
  *out = '-';
  out += bits >> 63;
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const auto exponent = static_cast<int>((bits >> 52) & 0x7ff);
  // Integers below 2^53 (1.0, 100.0): the integer writer and ".0".
  if (exponent >= 1023 && exponent < 1075 && (fraction << (exponent - 1011)) == 0) {
    out = write_u64(((fraction | (std::uint64_t{1} << 52)) >> (1075 - exponent)), out);
    // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
    std::memcpy(out, ".0", 2);
    return out + 2;
  }
  decimal r;
  if (fraction == 0 || exponent == 0 || !shortest_decimal(bits, r)) [[unlikely]] {
    if ((bits << 1) == 0) {
      // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
      std::memcpy(out, "0.0", 3);
      return out + 3;
    }
    r = dragonbox_decimal(d);
  }
  // The first 16 digits in one register (top's 16, or top's 15 and the last digit: chosen by a
  // multiply, not a branch), zeros after the last significant one, and a 17th digit `extra`
  // ('0' when there is none); n = significant digits. The value is 0.DIGITS x 10^point.
  const std::uint64_t short15 = r.top < 1000000000000000ULL;
  const std::uint64_t scale = 1 + 9 * short15;
  std::uint64_t head = r.top * scale + (r.last & (0 - short15)) + r.carry * scale;
  const char extra = static_cast<char>('0' + (r.last & (short15 - 1)));
  int point = r.exp10 + 17 - static_cast<int>(short15);
  if (head == 10000000000000000ULL) [[unlikely]] {  // 999999999999999 and a carry
    head /= 10;
    ++point;
  }
  const digit_reg digits = digits16(head);
  const int n16 = 32 - std::countl_zero(nonzero_digits(digits));
  // n16, or 17 when there is a 17th digit, by masks (gcc branches on a conditional expression).
  const int with17 = -static_cast<int>(extra != '0');
  const int n = (n16 & ~with17) | (17 & with17);
  if (point > 0 && point <= 21) {
    if (point >= n) {
      // An integer: digits, zeros up to the point, ".0".
      store16(out, digits);
      store16(out + 16, zero_digits());
      out[16] = extra;
      // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
      std::memcpy(out + point, ".0", 2);
      return out + point + 2;
    }
    // point <= 16: store_with_point leaves digit 15 at byte 16 when point is 16.
    store_with_point(out, digits, point);
    out[point] = '.';
    out[17] = extra;
    return out + n + 1;
  }
  if (point <= 0 && point > -6) {
    // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
    std::memcpy(out, "0.000000", 8);
    out += 2 - point;
    store16(out, digits);
    out[16] = extra;
    return out + n;
  }
  // d.ddde[-]x, the '.' only when more digits follow.
  store_with_point(out, digits, 1);
  out[17] = extra;
  out += n + (n > 1);
  *out++ = 'e';
  int e = point - 1;
  if (e < 0) {
    *out++ = '-';
    e = -e;
  }
  // |e| <= 324
  if (e >= 100) {
    *out++ = static_cast<char>('0' + e / 100);
    e %= 100;
    std::memcpy(out, kDigitPairs + 2 * static_cast<std::size_t>(e), 2);
    return out + 2;
  }
  if (e >= 10) {
    std::memcpy(out, kDigitPairs + 2 * static_cast<std::size_t>(e), 2);
    return out + 2;
  }
  *out = static_cast<char>('0' + e);
  return out + 1;
}

}  // namespace
}  // namespace keel::json::detail
