// SPDX-License-Identifier: MIT
// The scalar kernel set's parser: one pass over the text. Without vector registers, stage 1 of
// the other sets (positions of every structural byte, then stage 2 walking them) reads every
// byte twice and writes and reads back a position per token; here the grammar reads the tokens
// straight from a copy of the text made in the document's string area, with the same explicit
// stack and DOM nodes as stage 2, and stage 2's readers for numbers, literals and escapes
// (parse_kernels.h). Strings stay where they are in the copy (docs/json-dom.md), as yyjson leaves
// them in its copy of the input: a string without escapes costs a scan, no copy.
//
// - After the copy: a quote, then zeros. It ends every scan without a bound check: whitespace,
//   tokens (not token bytes) and strings (a string opened there stops at the zero after it).
// - Between tokens: whitespace skipped (a newline's indentation sixteen bytes at a time).
// - Strings: scanned sixteen bytes at a time with stage 1's checks (quote, backslash, control
//   character, non-ASCII byte: scalar_stage1::string_stops, seven operations a word); the first
//   stop in a word located by branches in a key (advance8), by countr_zero in a value; non-ASCII
//   runs validated as UTF-8 (unless allowed). From a string's first backslash on, escaped_string()
//   reads the text and writes the unescaped bytes over the copy, then restores the copy after the
//   string.
// - Numbers and literals: stage 2's scalar_at in the copy (kPad <= kStringSlack).
//
// Errors, offsets and consumed() are those of the two passes: a stage-1 error (control
// character, invalid UTF-8, unterminated string) wins over a grammar error at or after its
// offset. The pass has checked every byte before the token it stands at, so a grammar error there
// only needs the stage-1 scan from that token on (settle(), over the text); a bad escape is
// reported only once the rest of its string passed stage 1's checks (slow_string()).
//
// Not here: parsing from positions already found (NDJSON batches, struct mapping's direct read:
// stage 1 and stage 2 of parse_kernels.h, positions_scalar), and documents nested deeper than
// kMaxLevels or with a raw number (big_integers_as_raw): those start over with the two passes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "json/isa_scalar.h"
#include "json/parse_kernels.h"
#include "json/stage1_scalar.h"

namespace keel::json::detail {
namespace {

// The parser's position buffer, which parser::run leaves to the scalar set to ask for: the one
// pass needs it only to fall back to the two passes and to settle an error. False when out of
// memory.
KEEL_INLINE bool take_positions(parse_state& st) noexcept {
  if (st.idx == nullptr) st.idx = st.positions(st.len + kIndexSlack);
  return st.idx != nullptr;
}

// The two passes (parse_document_as), after the one pass left the document to them.
template <stage2_mode M>
void two_passes(parse_state& st) noexcept {
  if (!take_positions(st)) {
    st.code = error_code::out_of_memory;
    st.offset = 0;
    return;
  }
  parse_document_as<isa_scalar, M>(st);
}

// Check: UTF-8 validated (not allow_invalid_utf8), a template argument so that the string loop's
// test for the bytes that end a run of contents folds to fewer operations.
template <stage2_mode M, bool Check>
struct one_pass : stage2<isa_scalar, M> {
  using base = stage2<isa_scalar, M>;
  using base::buf;
  using base::Build;
  using base::fail;
  using base::InPlace;
  using base::len;
  using base::out;
  using base::recycle;
  using base::sbase;
  using base::sout;
  using base::src_off;
  using base::st;

  static constexpr std::size_t kMaxLevels = 4096;  // deeper documents: the two passes

  // The grammar reads a copy of the text in the string area (cbuf; base::buf is the text
  // itself), followed by a quote and zero bytes (kStringSlack in all): the quote ends every scan
  // (whitespace, token, string) without a bound check and fails every grammar test but the one
  // for a string, whose scan then stops at a zero; an offset then tells the end of the input.
  std::uint8_t* cbuf;
  const std::uint8_t* end;  // cbuf + len
  bool start_over = false;  // set when the two passes must parse the document instead

  // Skips whitespace from p; returns the first other byte, or end. No whitespace and a single
  // space (after a colon) are tested first, without a loop.
  KEEL_INLINE const std::uint8_t* skip_ws(const std::uint8_t* p) const noexcept {
    if (*p > ' ') return p;
    if (*p == ' ' && p[1] > ' ') return p + 1;
    return skip_ws_run(p);
  }
  KEEL_INLINE const std::uint8_t* skip_ws_run(const std::uint8_t* p) const noexcept {
    using scalar_stage1::kOnes;
    using scalar_stage1::load8;
    for (;;) {
      const std::uint8_t c = *p;
      if (c > ' ') return p;
      if (c == '\n') {
        ++p;
        if (*p > ' ') return p;  // no indentation
        // Indentation: up to 16 spaces in one step (two 8-byte words), then eight at a time
        // (the quote after the text ends every run).
        const std::uint64_t o0 = load8(p) ^ (kOnes * ' ');
        const std::uint64_t o1 = load8(p + 8) ^ (kOnes * ' ');
        const int bits = o0 != 0 ? std::countr_zero(o0) : 64 + std::countr_zero(o1);
        p += bits >> 3;
        if (bits < 128) continue;
        for (;;) {
          const std::uint64_t o = load8(p) ^ (kOnes * ' ');
          if (o != 0) {
            p += std::countr_zero(o) >> 3;
            break;
          }
          p += 8;
        }
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++p;
      } else {
        // A control byte: a token (or 0x0c / 0x1a) that the grammar rejects, or the end.
        return p;
      }
    }
  }

  // A stage-2 error (code, x) at the token at x, all bytes before it checked: a stage-1 error at
  // x itself (a token of invalid UTF-8, a string left open there) wins, as in the two passes.
  KEEL_NOINLINE static bool settle(parse_state& st, error_code code, std::size_t x) noexcept {
    if (!take_positions(st)) {
      st.code = error_code::out_of_memory;
      st.offset = 0;
      return false;
    }
    scalar_stage1::scanner s{st.buf + x, st.buf + st.len, st.idx, !st.opt->allow_invalid_utf8};
    std::size_t at = 0;
    const std::uint8_t* open = nullptr;
    const error_code e = s.run(at, open);
    if (e != error_code::ok && at == 0) {
      code = e;
    } else if (e == error_code::ok && open == st.buf + x) {
      code = error_code::unterminated_string;
    }
    st.code = code;
    st.offset = x;
    return false;
  }
  KEEL_INLINE std::size_t offset(const std::uint8_t* p) const noexcept {
    return static_cast<std::size_t>(p - cbuf);
  }
  KEEL_INLINE bool bad(const std::uint8_t* p) noexcept {
    if (p == end) return fail(error_code::unexpected_end, len);
    return settle(st, error_code::unexpected_character, offset(p));
  }

  // The copy's bytes after a closing quote at offset q - 1 back from the text: the 16-byte stores
  // of a string whose escapes were decoded (shorter than their source) may have overwritten them.
  KEEL_INLINE static void restore(const std::uint8_t* buf, std::size_t len, std::uint8_t* cbuf,
                                  std::size_t q) noexcept {
    if (len - q >= 16) {
      std::memcpy(cbuf + q, buf + q, 16);
    } else {
      std::memcpy(cbuf + q, buf + q, len - q);
    }
  }

  // The string whose opening quote is at offset `open` of the text, from its start: its end found
  // with stage 1's rules (and its errors, which win over a bad escape), then unescaped into the
  // copy by stage 2's long_string. next: the offset after its closing quote.
  KEEL_NOINLINE static bool slow_string(parse_state& st, const std::uint8_t* buf, std::size_t len,
                                        std::uint8_t* cbuf, std::size_t open, node*& out,
                                        std::size_t& next) noexcept {
    const std::uint8_t* const end = buf + len;
    const bool check = !st.opt->allow_invalid_utf8;
    const std::uint8_t* q = buf + open + 1;
    auto error = [&](error_code c, const std::uint8_t* at) {
      st.code = c;
      st.offset = static_cast<std::size_t>(at - buf);
      return false;
    };
    for (;;) {
      if (q == end) return error(error_code::unterminated_string, buf + open);
      const std::uint8_t c = *q;
      if (c == '"') break;
      if (c == '\\') {
        q += (q + 1 < end && q[1] >= 0x20 && q[1] < 0x80) ? 2 : 1;
      } else if (c < 0x20) {
        return error(error_code::control_character, q);
      } else if (c >= 0x80 && check) {
        const std::size_t n = utf8_sequence(q, end);
        if (n == 0) return error(error_code::invalid_utf8, q);
        q += n;
      } else {
        ++q;
      }
    }
    base s{st, buf, len, nullptr, 0, nullptr, out, cbuf, cbuf, nullptr};
    s.src_off = open + 1;
    std::uint8_t* const start = cbuf + open + 1;
    std::uint8_t* dst = start;
    if (!s.long_string(buf + open + 1, q, dst)) return false;
    const auto close = static_cast<std::size_t>(q - buf);
    // Every escape is longer than what it decodes to: as long as its source, it had none.
    s.string_node(start, dst,
                  static_cast<std::size_t>(dst - start) == close - open - 1 ? kNoEscape : 0);
    restore(buf, len, cbuf, close + 1);
    out = s.out;
    next = close + 1;
    return true;
  }

  // The rest of the string whose opening quote is at offset `open`, from offset `at` (a
  // backslash, a control character or the end of the input, the first stop that is not a run of
  // valid non-ASCII bytes): read from the text and unescaped into the copy, at the string's own
  // offsets there. next: the offset after its closing quote.
  KEEL_INLINE static bool escaped_string(parse_state& st, const std::uint8_t* buf, std::size_t len,
                                         std::uint8_t* cbuf, std::size_t open, std::size_t at,
                                         node*& out, std::size_t& next) noexcept {
    using scalar_stage1::load8;
    base s{st, buf, len, nullptr, 0, nullptr, out, cbuf, cbuf, nullptr};
    s.src_off = open + 1;
    const std::uint8_t* const end = buf + len;
    const std::uint8_t* src = buf + at;
    std::uint8_t* const start = cbuf + open + 1;
    std::uint8_t* dst = cbuf + at;
    std::uint64_t flags = kNoEscape;
    for (;;) {
      if (end - src >= 16) [[likely]] {
        const std::uint64_t w0 = load8(src);
        const std::uint64_t w1 = load8(src + 8);
        std::memcpy(dst, src, 16);
        const std::uint64_t m0 = scalar_stage1::string_stops<Check>(w0);
        const std::uint64_t m1 = scalar_stage1::string_stops<Check>(w1);
        const int bit = m0 != 0 ? std::countr_zero(m0) : 64 + std::countr_zero(m1);
        src += bit >> 3;
        dst += bit >> 3;
        if (bit == 128) continue;
      } else {
        while (src < end && *src >= 0x20 && *src != '"' && *src != '\\' && (*src < 0x80 || !Check))
          *dst++ = *src++;
        if (src == end) return s.fail(error_code::unterminated_string, open);
      }
      const std::uint8_t c = *src;
      if (c == '"') break;
      if (c == '\\') {
        flags = 0;
        // A one-character escape, or a \u escape (a pair of them for a surrogate) through stage
        // 2's escape() with the string's end taken 12 bytes on: the escape reads no further, and
        // one that succeeds so holds no quote, so the real end is further still. Else the string
        // from its start.
        if (end - src >= 12) [[likely]] {
          if (src[1] != 'u') {
            if (const std::uint8_t e = kEscapeChar.v[src[1]]) {
              *dst++ = e;
              src += 2;
              continue;
            }
          } else if (s.escape(src, src + 12, dst)) {
            continue;
          }
        }
        return slow_string(st, buf, len, cbuf, open, out, next);
      }
      if (c < 0x20)
        return s.fail(error_code::control_character, static_cast<std::size_t>(src - buf));
      // A run of non-ASCII bytes: validated, then copied.
      const std::uint8_t* from = src;
      const std::uint8_t* to = scalar_stage1::scanner{buf, end, nullptr, true}.utf8_run<true>(from);
      if (to == nullptr)
        return s.fail(error_code::invalid_utf8, static_cast<std::size_t>(from - buf));
      const auto run_len = static_cast<std::size_t>(to - src);
      if (end - to >= 16) {
        // Sixteen bytes at a time, reading at most 15 past the run.
        for (std::size_t k = 0; k < run_len; k += 16) std::memcpy(dst + k, src + k, 16);
      } else {
        std::memcpy(dst, src, run_len);
      }
      src = to;
      dst += run_len;
    }
    const auto close = static_cast<std::size_t>(src - buf);
    s.string_node(start, dst, flags);
    restore(buf, len, cbuf, close + 1);
    out = s.out;
    next = close + 1;
    return true;
  }

  // src + n, the sum hidden from the optimizer so that the branches of advance8 stay branches.
  KEEL_INLINE static const std::uint8_t* step(const std::uint8_t* src, int n) noexcept {
    src += n;
    __asm__("" : "+r"(src));
    return src;
  }
  // src + the index of the first byte flagged in m (string_stops of the word at src, not zero),
  // found by three predicted branches instead of countr_zero: where a string ends then depends on
  // the branch predictor (the lengths of a document's keys and values repeat) rather than on the
  // chain load -> mask -> count -> address, which bounded the scan by its latency. Measured
  // (AMD EPYC Zen 5 class, KEEL_JSON_ISA=scalar): apache_builds 0.64 -> 0.72 of yyjson's speed.
  KEEL_INLINE static const std::uint8_t* advance8(const std::uint8_t* src,
                                                  std::uint64_t m) noexcept {
    if (m & 0x80808080u) {
      if (m & 0x8080u) return (m & 0x80u) ? src : step(src, 1);
      return (m & 0x800000u) ? step(src, 2) : step(src, 3);
    }
    if (m & 0x808000000000ULL) return (m & 0x8000000000ULL) ? step(src, 4) : step(src, 5);
    return (m & 0x80000000000000ULL) ? step(src, 6) : step(src, 7);
  }

  // The string whose opening quote is at p; p moves past its closing quote. Scanned in the copy
  // sixteen bytes at a time with stage 1's checks (string_stops), non-ASCII runs validated; a
  // string without escapes stays where it is, a NUL over its closing quote. Key: the first stop in
  // a word located by advance8's branches (a document's keys repeat, and so do their lengths); a
  // value's by countr_zero, whose lengths the branches mispredicted (update-center.json, URLs and
  // descriptions of every length after the same keys: 15-22 % of its time).
  template <bool Key>
  KEEL_INLINE bool string(const std::uint8_t*& p) noexcept {
    using scalar_stage1::load8;
    const std::uint8_t* src = p + 1;
    for (;;) {
      const std::uint64_t m0 = scalar_stage1::string_stops<Check>(load8(src));
      const std::uint64_t m1 = scalar_stage1::string_stops<Check>(load8(src + 8));
      if (m0 != 0) {
        if constexpr (Key) {
          src = advance8(src, m0);
        } else {
          src += std::countr_zero(m0) >> 3;
        }
      } else if (m1 != 0) {
        if constexpr (Key) {
          src = advance8(src + 8, m1);
        } else {
          src += 8 + (std::countr_zero(m1) >> 3);
        }
      } else {
        src += 16;
        continue;
      }
      const std::uint8_t c = *src;
      if (c == '"') break;
      if (!Check || c < 0x80) [[unlikely]] {
        if (p == end) return fail(error_code::unexpected_end, len);  // a value or key expected
        std::size_t next = 0;
        node* o = out;  // a local: slow_string takes its address, not that of *this
        if (!escaped_string(st, buf, len, cbuf, offset(p), offset(src), o, next)) return false;
        out = o;
        p = cbuf + next;
        return true;
      }
      const std::uint8_t* from = src;
      src = scalar_stage1::scanner{cbuf, end, nullptr, true}.utf8_run<true>(from);
      if (src == nullptr) return fail(error_code::invalid_utf8, offset(from));
    }
    if (src == end) [[unlikely]]
      return fail(error_code::unterminated_string, offset(p));
    const std::size_t close = offset(src);
    cbuf[close] = 0;
    out->tag = tag_of(type::string, static_cast<std::uint64_t>(src - p - 1)) | kNoEscape;
    out->data = offset(p) + 1;
    ++out;
    p = src + 1;
    return true;
  }

  // The end of a number or NaN / Infinity token that parsed: its first byte that cannot
  // continue a token.
  KEEL_INLINE const std::uint8_t* token_end(const std::uint8_t* p) const noexcept {
    while (end - p >= 8) {
      const std::uint64_t o = scalar_stage1::not_number_bytes(scalar_stage1::load8(p));
      if (o != 0) {
        p += std::countr_zero(o) >> 3;
        break;
      }
      p += 8;
    }
    while (p < end && kTokenChar.t[*p]) ++p;
    return p;
  }

  // The common numbers, -?int with up to 18 digits and -?int.frac with up to 19, read with stage
  // 2's digit reader and conversion so that their end comes with them. nullptr for any other
  // token (stage 2's scalar_at then reads it, its errors included). Reads as scalar_at does.
  KEEL_INLINE const std::uint8_t* plain_number(const std::uint8_t* s, std::size_t off) noexcept {
    const std::uint8_t* q = s;
    const bool neg = *q == '-';
    q += neg;
    const std::uint8_t* const int_start = q;
    std::uint64_t m = 0;
    if (*q == '0') {
      ++q;
    } else if (is_digit(*q)) {
      q = base::digits(q, m);
    } else {
      return nullptr;
    }
    const auto int_digits = q - int_start;
    if (*q == '.') {
      const std::uint8_t* const frac = ++q;
      if (!is_digit(*q)) return nullptr;
      q = base::digits(q, m);
      const auto frac_digits = q - frac;
      if (int_digits + frac_digits > 19 || kTokenChar.t[*q]) return nullptr;
      return base::to_double(neg, m, -frac_digits, s, q, off) ? q : nullptr;
    }
    if (int_digits > 18 || kTokenChar.t[*q]) return nullptr;
    *out++ = {tag_of(type::int64, 0), neg ? ~m + 1 : m};
    return q;
  }

  // At least 19 digits, after a minus sign or not.
  KEEL_INLINE static bool long_integer(const std::uint8_t* p) noexcept {
    p += *p == '-';
    const std::uint8_t* q = p;
    while (is_digit(*q)) ++q;
    return q - p >= 19;
  }

  // A bare token (number or literal) at p; p moves past it.
  // Read in the copy, whose quote after the text ends every token (kPad <= kStringSlack).
  KEEL_INLINE bool token(const std::uint8_t*& p) noexcept {
    static_assert(kPad <= kStringSlack);
    const auto off = offset(p);
    if (const std::uint8_t* e = plain_number(p, off)) {
      p = e;
      return true;
    }
    if constexpr (!InPlace) {
      // An integer that may be too big for 64 bits, kept as text (big_integers_as_raw): scalar_at
      // would copy it to the string area, which holds the copy here. The two passes take it.
      if (st.opt->big_integers_as_raw && long_integer(p)) return over();
    }
    if (!base::scalar_at(p, off, len - off)) [[unlikely]]
      return settle(st, st.code, st.offset);
    const std::uint8_t c = *p;
    p = c == 't' || c == 'n' ? p + 4 : c == 'f' ? p + 5 : token_end(p + 1);
    return true;
  }

  // The grammar, as stage2::run, over the text. The innermost open container (its first node,
  // kind and element count) lives in locals; the stack keeps the enclosing ones.
  bool run() noexcept {
    const parse_options& opt = *st.opt;
    const std::size_t max_depth = opt.max_depth;
    const std::size_t levels = max_depth < kMaxLevels ? max_depth : kMaxLevels;
    std::uint64_t* const stack = st.stack(2 * levels + 2);
    if (stack == nullptr) return fail(error_code::out_of_memory, 0);
    const std::uint8_t* p = cbuf;
    // The enclosing containers, two words each, sp past the innermost (as stage2::run); the
    // innermost container's first node (nullptr at the top level) and its element count times
    // two plus one for an object.
    std::uint64_t* sp = stack;
    const std::uint64_t* const sp_limit = stack + 2 * levels;
    node* cur_start = nullptr;
    std::uint64_t cur_count = 0;

    p = skip_ws(p);
    if (p == end) return fail(error_code::empty_document, len);
  value:
    recycle();
    p = skip_ws(p);
    switch (*p) {
      case '{':
      case '[': {
        if (sp >= sp_limit) [[unlikely]] {
          if (levels < max_depth) return over();
          return fail(error_code::depth_exceeded, offset(p));
        }
        open_container(sp, cur_start, cur_count, out, *p == '{');
        ++out;
        p = skip_ws(p + 1);
        if (cur_count) {
          if (*p == '}') {
            ++p;
            goto close;
          }
          goto key;
        }
        if (*p == ']') {
          ++p;
          goto close;
        }
        goto value;
      }
      case '"':
        if (!string<false>(p)) return false;
        goto after_value;
      case ']':
        // A value expected after a comma: a trailing comma, when allowed.
        if (opt.allow_trailing_commas && cur_start != nullptr && !(cur_count & 1)) {
          ++p;
          goto close;
        }
        return bad(p);
      case '}':
      case ',':
      case ':':
        return bad(p);
      default:
        if (!token(p)) return false;
        goto after_value;
    }
  key:
    recycle();
    p = skip_ws(p);
    if (*p != '"') [[unlikely]] {
      if (*p == '}' && opt.allow_trailing_commas) {
        ++p;
        goto close;
      }
      return bad(p);
    }
    if (!string<true>(p)) return false;
    p = skip_ws(p);
    if (*p != ':') return bad(p);
    ++p;
    goto value;
  after_value:
    if (cur_start == nullptr) goto done;
    cur_count += 2;
    p = skip_ws(p);  // the end: c below is the quote after it, a bad byte
    if (cur_count & 1) {
      const std::uint8_t c = *p++;
      if (c == ',') goto key;
      if (c == '}') goto close;
      return bad(p - 1);
    } else {
      const std::uint8_t c = *p++;
      if (c == ',') goto value;
      if (c == ']') goto close;
      return bad(p - 1);
    }
  close:
    close_container(sp, cur_start, cur_count, out);
    goto after_value;
  done:
    if (opt.stop_after_first) {
      st.consumed = offset(p);  // after the value's last byte
      return true;
    }
    p = skip_ws(p);
    if (p != end) return settle(st, error_code::trailing_content, offset(p));
    st.consumed = len;
    return true;
  }

  bool over() noexcept {
    start_over = true;
    return false;
  }

  // One pass on a local whose address never escapes (see stage2::go). Returns false when the
  // document needs the two passes (start_over); the result (or error) is left in st.
  KEEL_INLINE static bool go(parse_state& st, node* nodes, std::uint8_t* strings, node*& out_end,
                             std::uint8_t*& sout_end, bool& ok) noexcept {
    const std::uint8_t* const buf = st.buf;
    const std::size_t len = st.len;
    // The copy the grammar reads, in the string area (len + kStringSlack bytes): the document's
    // strings stay there, at their offsets in the text.
    std::memcpy(strings, buf, len);
    strings[len] = '"';
    std::memset(strings + len + 1, 0, kStringSlack - 1);
    one_pass s{{st, buf, len, nullptr, 0, nullptr, nodes, strings, strings, nodes},
               strings,
               strings + len};
    ok = s.run();
    out_end = s.out;
    sout_end = strings + len;
    return !s.start_over;
  }
};

// parse_document_as for the scalar set: the result (or error) is left in st.
template <stage2_mode M>
KEEL_NOINLINE void parse_one_pass_as(parse_state& st) noexcept {
  constexpr bool Build = M != stage2_mode::validate;
  // Nodes: a value of b bytes that is complete makes at most (b + 1) / 2 of them (a scalar one
  // node of at least a byte; a container one, plus its elements', each but the last followed by
  // a comma, the last by the closing bracket; a member's key two bytes and a colon); a container
  // still open lacks its closing byte, half a node more. So however the text goes on, valid or
  // not, the pass writes at most (len + open containers + 1) / 2 nodes, and no node is written
  // past the area without a check per value (at most kMaxLevels containers are open).
  const std::size_t max_depth = st.opt->max_depth;
  const std::size_t levels =
      max_depth < one_pass<M, true>::kMaxLevels ? max_depth : one_pass<M, true>::kMaxLevels;
  const std::size_t node_cap = Build ? st.len / 2 + levels / 2 + 4 : kValidateRing + 1;
  // No positions to move into the node area (parse_state::nodes): the position buffer, if the
  // parser has one, stays the parser's (settle() and the two passes use it).
  std::uint32_t* const idx = st.idx;
  st.idx = nullptr;
  node* nodes = st.nodes(node_cap);
  st.idx = idx;
  // The estimate (8 bytes a byte of input, little of it touched) refused: the two passes
  // allocate the nodes the positions call for.
  if (nodes == nullptr) return two_passes<M>(st);
  std::uint8_t* strings = reinterpret_cast<std::uint8_t*>(st.strings(st.len + kStringSlack));
  if (strings == nullptr) {
    st.code = error_code::out_of_memory;
    st.offset = 0;
    return;
  }
  node* out_end;
  std::uint8_t* sout_end;
  bool ok = false;
  const bool whole = st.opt->allow_invalid_utf8
                         ? one_pass<M, false>::go(st, nodes, strings, out_end, sout_end, ok)
                         : one_pass<M, true>::go(st, nodes, strings, out_end, sout_end, ok);
  if (!whole) return two_passes<M>(st);
  if (ok && Build) finish_document<M>(st, nodes, out_end, strings, sout_end);
}

}  // namespace

// The scalar set's parse entry: one pass, or the two passes on positions already found.
inline void parse_one_pass(parse_state& st) noexcept {
  if (st.positions_given) return parse_document<isa_scalar>(st);
  switch (st.mode) {
    case stage2_mode::build:
    case stage2_mode::one_value:
      return parse_one_pass_as<stage2_mode::build>(st);
    case stage2_mode::validate:
      return parse_one_pass_as<stage2_mode::validate>(st);
    case stage2_mode::in_place:
      return parse_one_pass_as<stage2_mode::in_place>(st);
  }
}

}  // namespace keel::json::detail
