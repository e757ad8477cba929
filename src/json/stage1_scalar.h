// SPDX-License-Identifier: MIT
// Stage 1 for the scalar kernels: one pass over the input that finds the same structural
// positions as the block stage 1 of parse_kernels.h, with the same errors at the same offsets,
// but by walking tokens instead of building 64-byte bit masks. Without vector registers the masks
// cost one SWAR classification per character class per 8 bytes; walking the input instead costs
// a table lookup per byte outside strings and one 8-byte step (SWAR) per 8 bytes of string.
//
// The positions (see stage1<I> in parse_kernels.h): every { } [ ] , : outside strings (and the
// control bytes 0x0c and 0x1a, which the vector kernels fold onto , and :), both quotes of each
// string, and the first byte of each other run of bytes outside strings (a bare token). A quote
// preceded by an odd run of backslashes does not open or close a string, outside strings too.
// Errors: a control character inside a string, invalid UTF-8 anywhere (unless allowed), and a
// string left open at the end (reported at its opening quote); positions from the error on are
// dropped.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/utf8.h"
#include "json/parse_state.h"
#include "keel/detail/attributes.h"

namespace keel::json::detail {

namespace scalar_stage1 {

enum : std::uint8_t { kWs, kNewline, kOp, kQuote, kToken, kBackslash, kHigh };

// The class of each byte outside strings. Whitespace: space, \t, \r, and \n (a class of its own:
// indentation follows it, a single space most other whitespace). Operators: the bytes
// whose value OR 0x20 is one of { } , : -- that is { } [ ] , : and also the control bytes 0x0c
// and 0x1a, which are errors wherever they occur outside strings either way (the vector kernels
// classify by that fold; every ISA classifies alike).
struct class_table {
  std::uint8_t t[256];
  constexpr class_table() : t() {
    for (int c = 0; c < 256; ++c) t[c] = c >= 0x80 ? kHigh : kToken;
    for (unsigned char c : {' ', '\t', '\r'}) t[c] = kWs;
    t[static_cast<unsigned char>('\n')] = kNewline;
    for (unsigned char c : {'{', '}', '[', ']', ',', ':', '\x0c', '\x1a'}) t[c] = kOp;
    t[static_cast<unsigned char>('"')] = kQuote;
    t[static_cast<unsigned char>('\\')] = kBackslash;
  }
};
inline constexpr class_table kClass{};

inline constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
inline constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// Eight bytes at p, the first in the low byte.
KEEL_INLINE std::uint64_t load8(const std::uint8_t* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}

// Bit 7 set in the first byte of w (and possibly later ones) that ends a run of string
// contents: a quote, a backslash, a control character, or (with `high` = kHighBits) a non-ASCII
// byte. Zero when there is none. (x - 1 borrows into bit 7 only at a zero byte or after one.)
KEEL_INLINE std::uint64_t string_stops(std::uint64_t w, std::uint64_t high) noexcept {
  const std::uint64_t below =
      ((w ^ (kOnes * '"')) - kOnes) | ((w ^ (kOnes * '\\')) - kOnes) | (w - kOnes * 0x20);
  return (below & ~w & kHighBits) | (w & high);
}

// string_stops with `high` known: kHighBits when Check (bytes with bit 7 set are stops whatever
// the borrows say), else 0. The first stop in seven operations instead of nine: XOR 2 maps the
// quote (0x22) to 0x20, the control characters 0x00-0x1f onto themselves and space and '!' to
// 0x22 and 0x23, so one subtraction of 0x21 borrows in exactly the control characters and the
// quote. A borrow only starts in a byte that ends the run, so the first bit set is right.
template <bool Check>
KEEL_INLINE std::uint64_t string_stops(std::uint64_t w) noexcept {
  const std::uint64_t below =
      ((w ^ (kOnes * 0x02)) - kOnes * 0x21) | ((w ^ (kOnes * '\\')) - kOnes);
  if constexpr (Check) return (below | w) & kHighBits;
  return below & ~w & kHighBits;
}

// Bit 7 set in each byte of w that is not one of - . / 0-9 (the bytes of most of a number, all
// of them token bytes). Bytes below 0x80 add without a carry out of the byte.
KEEL_INLINE std::uint64_t not_number_bytes(std::uint64_t w) noexcept {
  const std::uint64_t at_least_lo = w + kOnes * (0x80 - '-');  // bit 7: byte >= '-'
  const std::uint64_t above_hi = w + kOnes * (0x80 - ':');     // bit 7: byte > '9'
  return ~(at_least_lo & ~above_hi & ~w) & kHighBits;
}

struct scanner {
  const std::uint8_t* const buf;
  const std::uint8_t* const end;
  std::uint32_t* out;
  bool check_utf8;
  bool newlines = false;  // each '\n' outside strings is a position too (NDJSON batches)

  KEEL_INLINE void emit(const std::uint8_t* p) noexcept {
    *out++ = static_cast<std::uint32_t>(p - buf);
  }

  // Advances p over a run of bytes eight at a time while at least eight remain; other(w) is zero
  // in the bytes of w that continue the run (and nonzero in the first that does not).
  template <class F>
  KEEL_INLINE void skip_run(const std::uint8_t*& p, F other) const noexcept {
    while (end - p >= 8) {
      const std::uint64_t o = other(load8(p));
      if (o != 0) {
        p += std::countr_zero(o) >> 3;
        return;
      }
      p += 8;
    }
  }

  // Validates the non-ASCII sequences from p on; returns the first byte after them, or nullptr
  // (with p at the bad sequence) on an invalid one. InString: inside a string, the run goes on
  // over up to seven ASCII bytes of contents (no quote, backslash or control character) that are
  // followed by another non-ASCII byte (the spaces and punctuation of non-Latin text).
  template <bool InString = false>
  KEEL_INLINE const std::uint8_t* utf8_run(const std::uint8_t*& p) noexcept {
    const std::uint8_t* q = p;
    do {
      if (end - q >= 8) {
        // Two three-byte sequences at once (most CJK text): both patterns, and neither lead
        // overlong nor a surrogate (the tests below, on bytes 0-1 and 3-4).
        const std::uint64_t w = load8(q);
        const std::uint64_t t0 = w & 0x200f, t1 = (w >> 24) & 0x200f;
        if ((w & 0xc0c0f0c0c0f0ULL) == 0x8080e08080e0ULL && t0 != 0 && t0 != 0x200d && t1 != 0 &&
            t1 != 0x200d) {
          q += 6;
          continue;
        }
        // Four two-byte sequences (Cyrillic, Greek, ...), each lead >= 0xc2.
        if ((w & 0xc0e0c0e0c0e0c0e0ULL) == 0x80c080c080c080c0ULL &&
            (((w & 0x001e001e001e001eULL) + 0x007f007f007f007fULL) & 0x0080008000800080ULL) ==
                0x0080008000800080ULL) {
          q += 8;
          continue;
        }
      }
      if (end - q >= 3) {
        // Two- and three-byte sequences (most non-ASCII text) from their bits at once; the rest
        // (four bytes, errors) through utf8_sequence.
        const std::uint32_t v = q[0] | (std::uint32_t{q[1]} << 8) | (std::uint32_t{q[2]} << 16);
        if ((v & 0xc0e0) == 0x80c0 && (v & 0x1e) != 0) {  // 110xxxxx 10xxxxxx, lead >= 0xc2
          q += 2;
          continue;
        }
        // 1110xxxx 10xxxxxx 10xxxxxx; the lead's low nibble and bit 5 of the second byte are 0
        // for an overlong form (E0 80..9F) and 0xd and 1 for a surrogate (ED A0..BF).
        if ((v & 0xc0c0f0) == 0x8080e0 && (v & 0x200f) != 0 && (v & 0x200f) != 0x200d) {
          q += 3;
          continue;
        }
      }
      const std::size_t n = keel::detail::utf8_sequence(q, end);
      if (n == 0) {
        p = q;
        return nullptr;
      }
      q += n;
    } while (q < end && (*q >= 0x80 || (InString && text_gap(q))));
    return q;
  }

  // Inside a string at an ASCII byte q: true, with q moved to it, when a non-ASCII byte follows
  // within eight bytes with only string contents (no quote, backslash or control) before it.
  KEEL_INLINE bool text_gap(const std::uint8_t*& q) const noexcept {
    if (end - q < 8) return false;
    const std::uint64_t w = load8(q);
    const std::uint64_t high = w & kHighBits;
    const std::uint64_t stops = string_stops<false>(w);
    const int first_high = std::countr_zero(high);  // 64: none
    if (first_high >= (stops != 0 ? std::countr_zero(stops) : 64)) return false;
    q += first_high >> 3;
    return true;
  }

  // Returns the error (ok at the end of the input, inside a string or not) and its offset;
  // `open` is the opening quote of a string still open at the end, or nullptr.
  error_code run(std::size_t& at, const std::uint8_t*& open) noexcept {
    const std::uint8_t* p = buf;
    const std::uint64_t high = check_utf8 ? kHighBits : 0;
    open = nullptr;
  outside:
    while (p < end) {
      switch (kClass.t[*p]) {
        case kWs:
          ++p;
          continue;
        case kNewline:
          if (newlines) emit(p);
          ++p;
          // Indentation: up to 16 spaces in one step (two 8-byte words), then eight at a time.
          if (end - p >= 16) {
            const std::uint64_t o0 = load8(p) ^ (kOnes * ' ');
            const std::uint64_t o1 = load8(p + 8) ^ (kOnes * ' ');
            const int n = o0 != 0 ? std::countr_zero(o0) : 64 + std::countr_zero(o1);
            p += n >> 3;
            if (n < 128) continue;
          }
          skip_run(p, [](std::uint64_t w) { return w ^ (kOnes * ' '); });
          continue;
        case kOp:
          emit(p++);
          continue;
        case kQuote:
          emit(p++);
          goto string;
        case kToken:
          emit(p++);
          goto token;
        default:  // a token starting with a backslash or a non-ASCII byte
          emit(p);
          goto token;
      }
    }
    return error_code::ok;

  token:
    // A bare token: bytes up to whitespace, an operator or an unescaped quote.
    while (p < end) {
      switch (kClass.t[*p]) {
        case kToken:
          ++p;
          // Digits, signs and points (most of a number) eight at a time.
          skip_run(p, not_number_bytes);
          continue;
        case kBackslash:
          // An escaped quote continues the token; an escaped backslash escapes nothing.
          if (p + 1 < end && (p[1] == '"' || p[1] == '\\')) {
            p += 2;
          } else {
            ++p;
          }
          continue;
        case kHigh:
          if (!check_utf8) {
            ++p;
            continue;
          }
          if (const std::uint8_t* q = utf8_run(p)) {
            p = q;
            continue;
          }
          at = static_cast<std::size_t>(p - buf);
          return error_code::invalid_utf8;
        default:
          goto outside;
      }
    }
    return error_code::ok;

  string:
    // Inside a string, after its opening quote (at p[-1] or earlier).
    open = p - 1;
    for (;;) {
      if (end - p >= 16) {
        // 16 bytes per step: two 8-byte words, the stop in the first or else the second.
        const std::uint64_t m0 = string_stops(load8(p), high);
        const std::uint64_t m1 = string_stops(load8(p + 8), high);
        const int n = m0 != 0 ? std::countr_zero(m0) : 64 + std::countr_zero(m1);
        p += n >> 3;
        if (n == 128) continue;
      } else if (end - p >= 8) {
        const std::uint64_t m = string_stops(load8(p), high);
        if (m == 0) {
          p += 8;
          continue;
        }
        p += std::countr_zero(m) >> 3;
      } else {
        while (p < end && *p >= 0x20 && *p != '"' && *p != '\\' && (*p < 0x80 || !check_utf8)) ++p;
        if (p == end) return error_code::ok;
      }
      const std::uint8_t c = *p;
      if (c == '"') {
        emit(p++);
        open = nullptr;
        goto outside;
      }
      if (c == '\\') {
        // A printable ASCII escaped byte (a quote or backslash among them) is skipped with the
        // backslash; any other is checked as string contents (a control or non-ASCII byte).
        p += (p + 1 < end && p[1] >= 0x20 && p[1] < 0x80) ? 2 : 1;
        continue;
      }
      if (c < 0x20) {
        at = static_cast<std::size_t>(p - buf);
        return error_code::control_character;
      }
      if (const std::uint8_t* q = utf8_run(p)) {
        p = q;
        continue;
      }
      at = static_cast<std::size_t>(p - buf);
      return error_code::invalid_utf8;
    }
  }
};

}  // namespace scalar_stage1

// Fills st.idx / st.n_idx and st.s1_error / st.s1_offset as stage1<I>::run does (with
// `newlines`, as stage1<I, 1>: each '\n' is a position too).
inline void stage1_scalar(parse_state& st, bool newlines = false) noexcept {
  scalar_stage1::scanner s{st.buf, st.buf + st.len, st.idx, !st.opt->allow_invalid_utf8, newlines};
  std::size_t at = 0;
  const std::uint8_t* open = nullptr;
  const error_code e = s.run(at, open);
  std::size_t n = static_cast<std::size_t>(s.out - st.idx);
  if (e != error_code::ok) {
    st.s1_error = e;
    st.s1_offset = at;
  } else if (open != nullptr) {
    // The unterminated string's opening quote is the last position: dropped with the error.
    st.s1_error = error_code::unterminated_string;
    st.s1_offset = static_cast<std::size_t>(open - st.buf);
    --n;
  }
  st.n_idx = n;
}

}  // namespace keel::json::detail
