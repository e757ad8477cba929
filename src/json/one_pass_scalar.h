// SPDX-License-Identifier: MIT
// The scalar kernel set's parser: one pass over the text. Without vector registers, stage 1 of
// the other sets (positions of every structural byte, then stage 2 walking them) reads every
// byte twice and writes and reads back a position per token; here the grammar reads the tokens
// straight from the text, with the same explicit stack, the same DOM nodes and string area as
// stage 2 (docs/json-dom.md), and stage 2's readers for numbers, literals and escapes
// (parse_kernels.h).
//
// - Between tokens: whitespace skipped (a newline's indentation eight bytes at a time).
// - Strings: copied sixteen bytes at a time while stage 1's checks run on the same words (quote,
//   backslash, control character, non-ASCII byte: scalar_stage1::string_stops); escapes decoded
//   as they come, non-ASCII runs validated as UTF-8 (unless allowed) and copied.
// - Numbers and literals: stage 2's scalar_at, in the text when a byte that ends every token
//   follows at least kPad bytes before the end (tok_safe), else from a padded copy.
//
// Errors, offsets and consumed() are those of the two passes: a stage-1 error (control
// character, invalid UTF-8, unterminated string) wins over a grammar error at or after its
// offset. The pass has checked every byte before the token it stands at, so a grammar error there
// only needs the stage-1 scan from that token on (settle()); a bad escape is reported only once
// the rest of its string passed stage 1's checks (slow_string()).
//
// Not here: parsing from positions already found (NDJSON batches, struct mapping's direct read:
// stage 1 and stage 2 of parse_kernels.h, positions_scalar), and documents nested deeper than
// kMaxLevels or with more nodes than the first estimate (len / 2 + 2 nodes, enough for any valid
// document): those start over with the two passes.
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

  const std::uint8_t* end;
  const std::uint8_t* tok_safe;  // a token starting before it can be read in the text
  node* node_limit;              // Build: a node written here means the estimate was short
  bool start_over = false;       // set when the two passes must parse the document instead

  // Skips whitespace from p; returns the first other byte, or end. No whitespace and a single
  // space (after a colon) are tested first, without a loop.
  KEEL_INLINE const std::uint8_t* skip_ws(const std::uint8_t* p) const noexcept {
    if (p < end) [[likely]] {
      if (*p > ' ') return p;
      if (*p == ' ' && end - p > 1 && p[1] > ' ') return p + 1;
    }
    return skip_ws_run(p);
  }
  KEEL_INLINE const std::uint8_t* skip_ws_run(const std::uint8_t* p) const noexcept {
    using scalar_stage1::kOnes;
    using scalar_stage1::load8;
    while (p < end) {
      const std::uint8_t c = *p;
      if (c > ' ') return p;
      if (c == '\n') {
        ++p;
        if ((p < end) && *p > ' ') return p;  // no indentation
        // Indentation: up to 16 spaces in one step (two 8-byte words), then eight at a time.
        if (end - p >= 16) {
          const std::uint64_t o0 = load8(p) ^ (kOnes * ' ');
          const std::uint64_t o1 = load8(p + 8) ^ (kOnes * ' ');
          const int bits = o0 != 0 ? std::countr_zero(o0) : 64 + std::countr_zero(o1);
          p += bits >> 3;
          if (bits < 128) continue;
        }
        while (end - p >= 8) {
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
        return p;  // a control byte: a token (or 0x0c / 0x1a) that the grammar rejects
      }
    }
    return p;
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
  KEEL_INLINE bool bad(const std::uint8_t* p) noexcept {
    if (p == end) return fail(error_code::unexpected_end, len);
    return settle(st, error_code::unexpected_character, static_cast<std::size_t>(p - buf));
  }

  // A one-character escape, or a \u escape (a pair of them for a surrogate) through stage 2's
  // escape() with the string's end taken 12 bytes on: the escape reads no further, and one that
  // succeeds so holds no quote, so the real end is further still. False: src and dst unchanged
  // or not, slow_string() takes the string from its start.
  KEEL_INLINE bool fast_escape(const std::uint8_t*& src, std::uint8_t*& dst) noexcept {
    if (end - src < 12) return false;
    if (src[1] != 'u') {
      const std::uint8_t c = kEscapeChar.v[src[1]];
      if (c == 0) return false;
      *dst++ = c;
      src += 2;
      return true;
    }
    return base::escape(src, src + 12, dst);
  }

  // The string whose opening quote is at open, from its start: its end found with stage 1's
  // rules (and its errors, which win over a bad escape), then copied by stage 2's long_string.
  // Static (no `this` escapes the grammar loop); out / sout / next updated on success.
  KEEL_NOINLINE static bool slow_string(parse_state& st, const std::uint8_t* buf, std::size_t len,
                                        const std::uint8_t* open, node*& out, std::uint8_t* sbase,
                                        std::uint8_t*& sout, const std::uint8_t*& next) noexcept {
    const std::uint8_t* const end = buf + len;
    const bool check = !st.opt->allow_invalid_utf8;
    const std::uint8_t* q = open + 1;
    auto error = [&](error_code c, const std::uint8_t* at) {
      st.code = c;
      st.offset = static_cast<std::size_t>(at - buf);
      return false;
    };
    for (;;) {
      if (q == end) return error(error_code::unterminated_string, open);
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
    base s{st, buf, len, nullptr, 0, nullptr, out, sbase, sout, nullptr};
    if constexpr (InPlace) {
      s.sout = sbase;
      s.src_off = static_cast<std::uint64_t>(open + 1 - buf);
    }
    std::uint8_t* const start = s.sout;
    std::uint8_t* dst = start;
    if (!s.long_string(open + 1, q, dst)) return false;
    s.string_node(start, dst,
                  dst - start == q - open - 1 ? static_cast<std::uint64_t>(kNoEscape) : 0);
    out = s.out;
    sout = s.sout;
    next = q + 1;
    return true;
  }

  // The string whose opening quote is at p; p moves past its closing quote.
  KEEL_INLINE bool string(const std::uint8_t*& p) noexcept {
    using scalar_stage1::load8;
    using scalar_stage1::string_stops;
    const std::uint8_t* const open = p;
    const std::uint8_t* src = open + 1;
    if constexpr (InPlace) {
      sout = sbase;  // the copy is only checked: one buffer for every string
      src_off = static_cast<std::uint64_t>(src - buf);
    }
    std::uint8_t* const start = sout;
    std::uint8_t* dst = start;
    std::uint64_t flags = kNoEscape;
    for (;;) {
      if (end - src >= 16) [[likely]] {
        const std::uint64_t w0 = load8(src);
        const std::uint64_t w1 = load8(src + 8);
        std::memcpy(dst, src, 16);
        const std::uint64_t m0 = string_stops<Check>(w0);
        const std::uint64_t m1 = string_stops<Check>(w1);
        const int bit = m0 != 0 ? std::countr_zero(m0) : 64 + std::countr_zero(m1);
        src += bit >> 3;
        dst += bit >> 3;
        if (bit == 128) continue;
      } else {
        while (src < end && *src >= 0x20 && *src != '"' && *src != '\\' && (*src < 0x80 || !Check))
          *dst++ = *src++;
        if (src == end)
          return fail(error_code::unterminated_string, static_cast<std::size_t>(open - buf));
      }
      const std::uint8_t c = *src;
      if (c == '"') break;
      if (c == '\\') {
        flags = 0;
        if (!fast_escape(src, dst)) [[unlikely]] {
          node* o = out;
          std::uint8_t* so = sout;
          const std::uint8_t* next = nullptr;
          if (!slow_string(st, buf, len, open, o, sbase, so, next)) return false;
          out = o;
          sout = so;
          p = next;
          return true;
        }
        continue;
      }
      if (c < 0x20) return fail(error_code::control_character, static_cast<std::size_t>(src - buf));
      // A run of non-ASCII bytes: validated, then copied.
      const std::uint8_t* from = src;
      const std::uint8_t* to = scalar_stage1::scanner{buf, end, nullptr, true}.utf8_run<true>(from);
      if (to == nullptr)
        return fail(error_code::invalid_utf8, static_cast<std::size_t>(from - buf));
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
    base::string_node(start, dst, flags);
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

  // A bare token (number or literal) at p; p moves past it.
  KEEL_INLINE bool token(const std::uint8_t*& p) noexcept {
    const auto off = static_cast<std::size_t>(p - buf);
    bool ok;
    if (p < tok_safe) [[likely]] {
      if (const std::uint8_t* e = plain_number(p, off)) {
        p = e;
        return true;
      }
      ok = base::scalar_at(p, off, len - off);
    } else {
      const std::uint8_t* tmp = base::padded_copy(st, buf, off, len);
      if (tmp == nullptr) return fail(error_code::out_of_memory, 0);
      ok = base::scalar_at(tmp, off, len - off);
    }
    if (!ok) [[unlikely]]
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
    const std::uint8_t* p = buf;
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
    if constexpr (Build) {
      if (out >= node_limit) [[unlikely]]
        return over();
    }
    p = skip_ws(p);
    if (p == end) return fail(error_code::unexpected_end, len);
    switch (*p) {
      case '{':
      case '[': {
        if (sp >= sp_limit) [[unlikely]] {
          if (levels < max_depth) return over();
          return fail(error_code::depth_exceeded, static_cast<std::size_t>(p - buf));
        }
        open_container(sp, cur_start, cur_count, out, *p == '{');
        ++out;
        p = skip_ws(p + 1);
        if (cur_count) {
          if (p < end && *p == '}') {
            ++p;
            goto close;
          }
          goto key;
        }
        if (p < end && *p == ']') {
          ++p;
          goto close;
        }
        goto value;
      }
      case '"':
        if (!string(p)) return false;
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
    if constexpr (Build) {
      if (out >= node_limit) [[unlikely]]
        return over();
    }
    p = skip_ws(p);
    if (p == end || *p != '"') [[unlikely]] {
      if (p < end && *p == '}' && opt.allow_trailing_commas) {
        ++p;
        goto close;
      }
      return bad(p);
    }
    if (!string(p)) return false;
    p = skip_ws(p);
    if (p == end || *p != ':') return bad(p);
    ++p;
    goto value;
  after_value:
    if (cur_start == nullptr) goto done;
    cur_count += 2;
    p = skip_ws(p);
    if (p == end) return bad(p);
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
      st.consumed = static_cast<std::size_t>(p - buf);  // after the value's last byte
      return true;
    }
    p = skip_ws(p);
    if (p != end)
      return settle(st, error_code::trailing_content, static_cast<std::size_t>(p - buf));
    st.consumed = len;
    return true;
  }

  bool over() noexcept {
    start_over = true;
    return false;
  }

  // One pass on a local whose address never escapes (see stage2::go). Returns false when the
  // document needs the two passes (start_over); the result (or error) is left in st.
  KEEL_INLINE static bool go(parse_state& st, node* nodes, std::size_t node_cap,
                             std::uint8_t* strings, node*& out_end, std::uint8_t*& sout_end,
                             bool& ok) noexcept {
    const std::uint8_t* const buf = st.buf;
    const std::size_t len = st.len;
    // The last byte that ends every token with kPad bytes after it.
    const std::uint8_t* tok_safe = buf;
    if (len >= kPad) {
      for (const std::uint8_t* q = buf + (len - kPad); q > buf; --q) {
        if (!kTokenChar.t[*q]) {
          tok_safe = q;
          break;
        }
      }
    }
    one_pass s{{st, buf, len, nullptr, 0, nullptr, nodes, strings, strings, nodes},
               buf + len,
               tok_safe,
               nodes + node_cap};
    ok = s.run();
    out_end = s.out;
    sout_end = s.sout;
    return !s.start_over;
  }
};

// parse_document_as for the scalar set: the result (or error) is left in st.
template <stage2_mode M>
KEEL_NOINLINE void parse_one_pass_as(parse_state& st) noexcept {
  constexpr bool Build = M != stage2_mode::validate;
  const std::size_t node_cap = Build ? st.len / 2 + 2 : kValidateRing + 1;
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
  const bool whole =
      st.opt->allow_invalid_utf8
          ? one_pass<M, false>::go(st, nodes, node_cap, strings, out_end, sout_end, ok)
          : one_pass<M, true>::go(st, nodes, node_cap, strings, out_end, sout_end, ok);
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
