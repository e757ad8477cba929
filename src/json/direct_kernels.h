// SPDX-License-Identifier: MIT
// The kernels of struct mapping's direct read (keel/json/mapping.h: text_cursor, direct_mapper),
// written once over an ISA traits type I and instantiated in parse_<isa>.cpp beside the parser:
// after stage 1, one value at a time is parsed by stage 2 (parse_kernels.h) from its position,
// and the members the struct does not read are checked without being parsed (skip_members).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "json/parse_kernels.h"
#include "json/parse_state.h"
#include "keel/json/mapping.h"

namespace keel::json::detail {

// value_at's containers, and positions no value starts at: stage 2's grammar from ip.
template <class I>
KEEL_NOINLINE const std::uint32_t* container_at(parse_state& st, const direct_view& v,
                                                const std::uint32_t* ip) noexcept {
  stage2<I, stage2_mode::one_value> s2{
      st,     v.buf,   st.len,    ip,        static_cast<std::size_t>(st.idx + st.n_idx - ip),
      v.safe, v.nodes, v.strings, v.strings, v.nodes};
  return s2.run() ? st.next_position : nullptr;
}

// The value at position ip as a DOM written from v.nodes / v.strings: a string or scalar is one
// node, a container its subtree (at most st.opt->max_depth levels). st holds stage 1's positions
// with their sentinels (sentinels()). Returns the position after the value, or nullptr with the
// error in st.
template <class I>
const std::uint32_t* value_at(parse_state& st, const direct_view& v,
                              const std::uint32_t* ip) noexcept {
  const std::uint8_t c = v.buf[*ip];
  // A container (or a byte no value starts with) out of line: the grammar loop's register
  // saves stay off the path of the strings and scalars most fields are.
  if (c == '{' || c == '[' || c == ']' || c == '}' || c == ',' || c == ':' ||
      ip >= st.idx + st.n_idx)
    return container_at<I>(st, v, ip);
  stage2<I, stage2_mode::one_value> s2{
      st,     v.buf,   st.len,    ip,        static_cast<std::size_t>(st.idx + st.n_idx - ip),
      v.safe, v.nodes, v.strings, v.strings, v.nodes};
  if (c == '"') return s2.string(ip) ? ip + 2 : nullptr;  // no grammar state: straight to it
  return s2.scalar(ip) ? ip + 1 : nullptr;
}

// Skipping a value the struct does not read, with the same verdict as stage 2 (valid or not: the
// error itself is found by the DOM path, see direct_mapper) but none of its output: no nodes, no
// string copies, no number conversion where the token's shape decides it. Stage 1 already
// validated the text's UTF-8, rejected control characters in strings and paired every opening
// quote with its closing one. What remains is the grammar, the escapes (checked for the bytes of
// a whole run of skipped members at once, escapes_valid) and the scalars' syntax (and a number's
// range). The fast paths read only locals (buf, safe): stores through a char pointer would make
// GCC reload anything else.
template <class I>
using skip_stage2 = stage2<I, stage2_mode::one_value>;

// The run of escapes at p (p[0] is a backslash) checked, each taken after the one before as
// stage 2 reads them: the byte after the run, or nullptr when one is not an escape stage 2
// accepts (or the run reaches end).
inline const std::uint8_t* escape_run(const std::uint8_t* p, const std::uint8_t* end) noexcept {
  do {  // escapes come in runs (\uXXXX\uXXXX, \/ in URLs): the next one without a new scan
    if (end - p < 2) return nullptr;
    if (p[1] != 'u') {
      if (kEscapeChar.v[p[1]] == 0) return nullptr;
      p += 2;
      continue;
    }
    if (end - p < 6) return nullptr;
    const std::int32_t cp = hex4(p + 2);
    if (cp < 0) return nullptr;
    if (static_cast<std::uint32_t>(cp - 0xd800) < 0x800) {  // a surrogate: high, then low
      if (cp >= 0xdc00 || end - p < 12 || p[6] != '\\' || p[7] != 'u') return nullptr;
      const std::int32_t lo = hex4(p + 8);
      if (lo < 0xdc00 || lo >= 0xe000) return nullptr;  // (a bad hex digit is negative)
      p += 12;
    } else {
      p += 6;
    }
  } while (p < end && *p == '\\');
  return p;
}

// True when every backslash of text[0, len) starts an escape stage 2 accepts (stage2::escape:
// one of \" \\ \/ \b \f \n \r \t, or \u and four hex digits, a high surrogate followed by
// \u and a low one, no low surrogate alone), each taken after the one before as stage 2 reads
// them. In a valid text every backslash is in a string, so the strings' escapes are valid
// exactly when this is true; a backslash outside a string makes the text invalid whatever this
// says (the walk then fails at the token that holds it). text[0, len) begins and ends outside
// any string (a run of members); the skip then reads no string on its own.
inline bool escapes_valid(const std::uint8_t* text, std::size_t len) noexcept {
  const std::uint8_t* p = text;
  const std::uint8_t* const end = text + len;
  for (;;) {
    p = static_cast<const std::uint8_t*>(std::memchr(p, '\\', static_cast<std::size_t>(end - p)));
    if (p == nullptr) return true;
    p = escape_run(p, end);
    if (p == nullptr) return false;
  }
}

#if KEEL_JSON_ESCAPE_BLOCK
// (simple_escapes and unescape_simple tell and translate the one-character escapes by the nibble
// tables of stage 2's block decoder, escape_block::kTables.)
enum class simple_verdict : std::uint8_t { valid, invalid, scalar };
// The escapes of the 64-byte block at p whose backslashes (those that count: none before the
// block's first escape, which no byte before it escapes) are m, its bytes from `live` on outside
// the text: valid when every backslash starts an escape of one character stage 2 accepts
// (" \\ / b f n r t; in a run of them the first, third, ... escape the byte after them), invalid
// when one escapes another byte or the end of the text, scalar when the block holds a \u escape
// or its last byte starts an escape (escape_run decides those). Written over the block
// decoder's vector type V (one 64-byte register, or two of 32), each V instantiated only in its
// own instruction set's translation unit (the linker keeps one copy of an inline template's
// instantiation). Inline as the compiler chooses: forced (KEEL_INLINE), the AVX-512 read of
// twitter.json in the keel binary was slower.
template <class V>
inline simple_verdict simple_escapes(const std::uint8_t* p, std::uint64_t m,
                                     std::uint64_t live) noexcept {
  const std::uint64_t escapers = escape_block::escape_starts(m);
  if (escapers >> 63) return simple_verdict::scalar;
  const std::uint64_t escaped = escapers << 1;
  if (escaped & ~live) return simple_verdict::invalid;
  const typename V::vec b = V::load(p);
  if (V::eq(b, V::set1('u')) & escaped) return simple_verdict::scalar;
  const typename V::vec nibble = V::set1(15);
  const typename V::vec group = V::and_(
      V::lookup(V::table(escape_block::kTables), V::and_(b, nibble)),
      V::lookup(V::table(escape_block::kTables + 64), V::and_(V::template shr16<4>(b), nibble)));
  return (escaped & ~V::test(group, group)) != 0 ? simple_verdict::invalid : simple_verdict::valid;
}
#endif

// escapes_valid over buf[from, to) with the backslashes found by I's compare, inline (a memchr
// call per run of skipped members cost more than the scan), in the 64-byte blocks stage 1 marked
// as holding one (map, when not nullptr: the text is not read again where it has none), else in
// every block; each block compared once, its runs of escapes taken in turn from that compare.
// The 63 bytes after buf[to) must be readable.
template <class I>
KEEL_INLINE bool escapes_valid_blocks(const std::uint8_t* buf, const std::uint64_t* map,
                                      std::size_t from, std::size_t to) noexcept {
  if constexpr (requires { I::eq(I::load(buf), '\\'); }) {
    std::size_t off = from;
    while (off < to) {
      std::size_t start = off & ~std::size_t{63};
      if (map != nullptr) {
        // The next marked block at or after off's.
        std::size_t w = off >> 12;
        std::uint64_t bits = map[w] & (~std::uint64_t{0} << ((off >> 6) & 63));
        while (bits == 0) {
          if (++w << 12 >= to) return true;
          bits = map[w];
        }
        const std::size_t marked = ((w << 6) + static_cast<std::size_t>(std::countr_zero(bits)))
                                   << 6;
        if (marked >= to) return true;
        if (marked > start) {
          start = marked;
          off = marked;
        }
      }
      std::uint64_t m = I::eq(I::load(buf + start), '\\') & (~std::uint64_t{0} << (off - start));
      const std::uint64_t live =
          to - start < 64 ? (std::uint64_t{1} << (to - start)) - 1 : ~std::uint64_t{0};
      m &= live;
      off = start + 64;
#if KEEL_JSON_ESCAPE_BLOCK
      // One-character escapes all checked at once; a \u escape, or one that crosses into the
      // next block, by escape_run.
      if (m != 0) {
        const simple_verdict verdict = simple_escapes<escape_block_vec>(buf + start, m, live);
        if (verdict == simple_verdict::valid) continue;
        if (verdict == simple_verdict::invalid) return false;
      }
#endif
      // Each run of escapes of the block in turn, from the one compare.
      while (m != 0) {
        const std::uint8_t* p = escape_run(buf + start + std::countr_zero(m), buf + to);
        if (p == nullptr) return false;
        const auto past = static_cast<std::size_t>(p - buf) - start;  // after the run
        if (past >= 64) {
          off = start + past;
          break;
        }
        m &= ~std::uint64_t{0} << past;
      }
    }
    return true;
  } else {
    return escapes_valid(buf + from, to - from);
  }
}

// True when the string whose quotes are at ip[0] and ip[1] has no backslash, so is the same
// escaped or not (one vector compare for most); false when it has one, or is too near the end of
// the text to tell without stage 2 (ip + 1 >= safe).
template <class I>
KEEL_INLINE bool plain_string(const std::uint8_t* buf, const std::uint32_t* safe,
                              const std::uint32_t* ip) noexcept {
  if (ip + 1 >= safe) [[unlikely]]
    return false;
  // ip[1] + kPad <= len: whole chunks up to kPad past the closing quote are readable. The
  // copies go to a local that nothing reads (the compiler drops the stores).
  alignas(64) std::uint8_t scratch[64];
  static_assert(I::kChunk <= sizeof scratch && I::kShort <= sizeof scratch && I::kChunk <= kPad);
  const std::uint8_t* src = buf + ip[0] + 1;
  auto remain = static_cast<std::size_t>(ip[1] - ip[0] - 1);
  if (remain <= I::kShort)
    return (I::copy_short(src, scratch) & ((std::uint64_t{1} << remain) - 1)) == 0;
  for (;;) {
    std::uint64_t m = I::copy_chunk(src, scratch);
    if (remain <= I::kChunk) {
      if (remain < 64) m &= (std::uint64_t{1} << remain) - 1;
      return m == 0;
    }
    if (m != 0) return false;
    src += I::kChunk;
    remain -= I::kChunk;
  }
}

#if defined(__AVX512VBMI2__) && defined(__AVX512BW__) && defined(__AVX512VL__)

// The contents of a string (n bytes at src, between its quotes; whole 64-byte blocks from src
// readable up to the closing quote's) unescaped into dst[0, length) as stage 2 unescapes them,
// 64 bytes at a time without a branch per escape: each block's escaping backslashes found from
// its one compare (the odd-run rule, carried across blocks), the bytes they escape checked and
// translated by nibble lookups, the backslashes dropped by one compress, one masked store.
// Returns the length, or kDeclined for a string with a \u escape or an escape stage 2 rejects
// (stage 2 reads those). Writes nothing at or after dst + n.
inline std::size_t unescape_simple(const std::uint8_t* src, std::size_t n,
                                   std::uint8_t* dst) noexcept {
  // (The letters among the escaped bytes are translated, the others kept.)
  const __m512i by_lo = _mm512_load_si512(escape_block::kTables);
  const __m512i by_hi = _mm512_load_si512(escape_block::kTables + 64);
  const __m512i letter = _mm512_load_si512(escape_block::kTables + 128);
  const __m512i nibble = _mm512_set1_epi8(15);
  const __m512i backslash = _mm512_set1_epi8('\\');
  std::size_t out = 0;
  std::uint64_t carry = 0;  // bit 0: the block's first byte is escaped (by the last one's end)
  for (std::size_t i = 0; i < n; i += 64) {
    const std::size_t rem = n - i;
    const std::uint64_t live = rem >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << rem) - 1;
    const __m512i b = _mm512_loadu_si512(src + i);
    std::uint64_t bs = _mm512_cmpeq_epi8_mask(b, backslash) & live;
    if ((bs | carry) == 0) {
      _mm512_mask_storeu_epi8(dst + out, live, b);
      out += rem >= 64 ? 64 : rem;
      continue;
    }
    bs &= ~carry;  // an escaped backslash starts no escape
    const std::uint64_t escapers = escape_block::escape_starts(bs);
    const std::uint64_t escaped = (escapers << 1) | carry;
    // (A backslash ending the contents would escape the closing quote, which stage 1 never
    // takes for one: declined all the same.)
    if (escapers & ~(rem > 64 ? ~std::uint64_t{0} : live >> 1)) return kDeclined;
    const __m512i group = _mm512_and_si512(
        _mm512_shuffle_epi8(by_lo, _mm512_and_si512(b, nibble)),
        _mm512_shuffle_epi8(by_hi, _mm512_and_si512(_mm512_srli_epi16(b, 4), nibble)));
    if (_mm512_testn_epi8_mask(group, group) & escaped) return kDeclined;
    const std::uint64_t letters = _mm512_test_epi8_mask(group, _mm512_set1_epi8(4 | 8)) & escaped;
    const __m512i to =
        _mm512_shuffle_epi8(letter, _mm512_and_si512(_mm512_srli_epi16(b, 1), nibble));
    const std::uint64_t keep = live & ~escapers;
    const __m512i packed = _mm512_maskz_compress_epi8(keep, _mm512_mask_mov_epi8(b, letters, to));
    const auto count = static_cast<std::size_t>(std::popcount(keep));
    _mm512_mask_storeu_epi8(
        dst + out, count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1, packed);
    out += count;
    carry = escapers >> 63;
  }
  return out;
}
#endif

// unescape_simple where the kernel set has no masked store (AVX2), one escape at a time: each
// chunk of I::kChunk bytes copied whole into a local buffer, the output advanced past its bytes
// before the first backslash (no branch per byte), the escaped byte translated by table; the
// result then copied to dst. Whole chunks are read from src up to kPad bytes past the contents
// (the caller's padded()). The length, or kDeclined for contents longer than the buffer, with a
// \u escape (stage 2 decodes those) or with an escape stage 2 rejects. Nothing written at or
// after dst + n.
inline constexpr std::size_t kUnescapeRoom = 1024;
template <class I>
std::size_t unescape_each(const std::uint8_t* src, std::size_t n, std::uint8_t* dst) noexcept {
  if (n > kUnescapeRoom) return kDeclined;
  alignas(64) std::uint8_t room[kUnescapeRoom + I::kChunk];
  const std::uint8_t* const end = src + n;
  std::uint8_t* out = room;
  for (;;) {
    const std::uint64_t m = I::copy_chunk(src, out);
    const auto left = static_cast<std::size_t>(end - src);
    const std::uint64_t bs = left < I::kChunk ? m & ((std::uint64_t{1} << left) - 1) : m;
    if (bs == 0) {
      if (left <= I::kChunk) {
        out += left;
        break;
      }
      src += I::kChunk;
      out += I::kChunk;
      continue;
    }
    const auto b = static_cast<std::size_t>(std::countr_zero(bs));
    src += b;
    out += b;
    // (A backslash ending the contents would escape the closing quote, which stage 1 never
    // takes for one: declined all the same.)
    if (left - b < 2) return kDeclined;
    const std::uint8_t c = kEscapeChar.v[src[1]];
    if (c == 0) return kDeclined;  // \u (stage 2 decodes it), or an escape stage 2 rejects
    *out++ = c;
    src += 2;
    if (src == end) break;
  }
  const auto length = static_cast<std::size_t>(out - room);
  std::memcpy(dst, room, length);
  return length;
}

// true, false and null by their first byte: the word as a little-endian load reads it, the mask of
// its bytes, and its length (0: no literal starts with the byte).
struct literal_words {
  std::uint64_t word[256] = {}, mask[256] = {};
  std::uint8_t len[256] = {};
  constexpr literal_words() {
    const char* const words[] = {"true", "false", "null"};
    for (const char* w : words) {
      const auto c = static_cast<unsigned char>(w[0]);
      std::size_t n = 0;
      for (; w[n] != 0; ++n) {
        word[c] |= std::uint64_t{static_cast<unsigned char>(w[n])} << (8 * n);
        mask[c] |= std::uint64_t{0xff} << (8 * n);
      }
      len[c] = static_cast<std::uint8_t>(n);
    }
  }
};
inline constexpr literal_words kLiterals{};

// True when the bare token at ip is true, false, null or an integer of at most 19 digits (every
// one of which stage 2 accepts), told by its shape; false for anything else (fractions,
// exponents, longer integers, NaN / Infinity, bad tokens, a token near the end of the text),
// which stage 2's own reader then decides.
template <class I>
KEEL_INLINE bool plain_scalar(const std::uint8_t* buf, const std::uint32_t* safe,
                              const std::uint32_t* ip) noexcept {
  if (ip + 1 >= safe) [[unlikely]]
    return false;
  const std::uint8_t* p = buf + *ip;  // kPad bytes after the token are readable
  // true, false or null: one compare of the word, whichever it is (a switch on the first byte
  // mispredicted between them).
  if (const std::size_t n = kLiterals.len[*p]; n != 0) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return ((w ^ kLiterals.word[*p]) & kLiterals.mask[*p]) == 0 && !kTokenChar.t[p[n]];
  }
  const std::uint8_t* q = p + (*p == '-');
  std::size_t digits = 1;
  if (*q == '0') {
    ++q;
  } else if (is_digit(*q)) {
    digits = 0;
    for (int k = 0; k < 3; ++k) {  // up to 24 digits seen: enough to tell 19 from more
      std::uint64_t w;
      std::memcpy(&w, q, 8);
      const std::uint64_t other = skip_stage2<I>::digit_marks(w) ^ 0x3333333333333333ULL;
      const auto n = other == 0 ? 8 : static_cast<std::size_t>(std::countr_zero(other) >> 3);
      q += n;
      digits += n;
      if (n < 8) break;
    }
  } else {
    return false;
  }
  return digits <= 19 && !kTokenChar.t[*q];
}

// Stage 2 for what the skip hands on, made where it is needed (its fields stay off the fast
// paths' registers): from position `from` to the end.
template <class I>
KEEL_INLINE skip_stage2<I> stage2_from(parse_state& st, const direct_view& v,
                                       const std::uint32_t* from) noexcept {
  return {st,     v.buf,   st.len,    from,      static_cast<std::size_t>(st.idx + st.n_idx - from),
          v.safe, v.nodes, v.strings, v.strings, v.nodes};
}

// The bare token at ip checked by stage 2 (decoded into the scratch area): out of line, off the
// fast paths.
template <class I>
KEEL_NOINLINE bool check_by_stage2(parse_state& st, const direct_view& v,
                                   const std::uint32_t* ip) noexcept {
  return stage2_from<I>(st, v, st.idx).scalar(ip);
}

// The container at ip ('{' or '['), skipped: the position after it, or nullptr when the text is
// not valid JSON there (st.opt's max_depth and allow_trailing_commas apply, as in stage2::run).
// The kinds of the open containers are one bit each; nesting deeper than those bits goes to
// stage 2's grammar. The walk's states are separate for objects and arrays (the kind of the
// innermost container is where the walk is, not a variable tested at each comma), so that each
// test has its own branch. Inline in skip_run, its one caller (no call, prologue and reload of
// st.opt per skipped container).
template <class I>
KEEL_INLINE const std::uint32_t* skip_container(parse_state& st, const direct_view& v,
                                                const std::uint32_t* ip) noexcept {
  const std::uint8_t* const buf = v.buf;
  const std::uint32_t* const safe = v.safe;
  const std::size_t max_depth = st.opt->max_depth;
  const bool trailing = st.opt->allow_trailing_commas;
  constexpr std::size_t kLevels = 64;
  std::uint64_t kinds = 0;  // bit d: the container d levels below the innermost is an object
  const std::size_t limit = max_depth < kLevels ? max_depth : kLevels;
  const std::uint32_t* const start = ip;
  std::size_t depth = 0;
  std::uint8_t c;
open:
  if (depth >= limit) [[unlikely]] {
    if (limit == max_depth) return nullptr;
    // Deeper than the bits here: stage 2 walks the whole value again.
    return container_at<I>(st, v, start);
  }
  ++depth;
  if (buf[*ip++] == '{') {
    kinds = (kinds << 1) | 1;
    if (buf[*ip] != '}') goto key;
    ++ip;
    goto close;
  }
  kinds <<= 1;
  if (buf[*ip] != ']') goto array_value;
  ++ip;
  goto close;
key:
  if (buf[*ip] != '"') {
    // A key expected after a comma ("{}" was checked at the '{'): a trailing comma, when allowed.
    if (buf[*ip] != '}' || !trailing) return nullptr;
    ++ip;
    goto close;
  }
  ip += 2;
  if (buf[*ip] != ':') return nullptr;
  ++ip;
  c = buf[*ip];
  if (c == '"') {  // its escapes are checked by skip_members (escapes_valid)
    ip += 2;
    goto object_next;
  }
  if (kTokenChar.t[c]) {  // a bare token (or a byte stage 2 rejects where a value starts)
    if (!plain_scalar<I>(buf, safe, ip) && !check_by_stage2<I>(st, v, ip)) return nullptr;
    ++ip;
    goto object_next;
  }
  if (c == '{' || c == '[') {
    // An empty one ("[]", "{}": most arrays skipped are empty) opens no level, if one more is
    // allowed ('[' + 2 is ']', '{' + 2 is '}').
    if (buf[ip[1]] == c + 2 && depth < limit) {
      ip += 2;
      goto object_next;
    }
    goto open;
  }
  return nullptr;
object_next:
  c = buf[*ip++];
  if (c == ',') goto key;
  if (c != '}') return nullptr;
  goto close;
array_value:
  c = buf[*ip];
  if (c == '"') {
    ip += 2;
    goto array_next;
  }
  if (kTokenChar.t[c]) {
    if (!plain_scalar<I>(buf, safe, ip) && !check_by_stage2<I>(st, v, ip)) return nullptr;
    ++ip;
    goto array_next;
  }
  if (c == '{' || c == '[') {
    if (buf[ip[1]] == c + 2 && depth < limit) {
      ip += 2;
      goto array_next;
    }
    goto open;
  }
  // A value expected after a comma: ']' is a trailing comma, when allowed.
  if (c != ']' || !trailing) return nullptr;
  ++ip;
  goto close;
array_next:
  c = buf[*ip++];
  if (c == ',') goto array_value;
  if (c != ']') return nullptr;
close:
  if (--depth == 0) return ip;
  kinds >>= 1;
  if (kinds & 1) goto object_next;
  goto array_next;
}

// The key at ip unescaped by stage 2 (its node at v.nodes[0], its text at v.strings): out of
// line, off the fast paths.
template <class I>
KEEL_NOINLINE bool key_by_stage2(parse_state& st, const direct_view& v,
                                 const std::uint32_t* ip) noexcept {
  return stage2_from<I>(st, v, st.idx).string(ip);
}

// skip_members' walk: the members, their grammar and scalars; the escapes of the strings it steps
// over unread are left to the caller.
template <class I>
KEEL_INLINE const std::uint32_t* skip_run(parse_state& st, const direct_view& v,
                                          const std::uint32_t* ip, const key_filter& f,
                                          std::size_t& clean_to) noexcept {
  const std::uint64_t* const lengths = f.lengths_by_first;
  // A key (unescaped) whose first byte and length a field's name has; an empty one under '"'.
  const auto may_be_field = [lengths](const std::uint8_t* key, std::size_t len) {
    return ((lengths[len != 0 ? key[0] : '"'] >> (len & 63)) & 1) != 0;
  };
  // A key as written: its first byte is its closing quote when it is empty, which the filter
  // files the empty name under (no test of the length).
  const auto may_be_field_raw = [lengths](const std::uint8_t* key, std::size_t len) {
    return ((lengths[key[0]] >> (len & 63)) & 1) != 0;
  };
  // Whether a key has a backslash, from stage 1's map of the blocks that hold one (when it made
  // one): the text from the last key looked up to clean_to (the first marked block after it)
  // has none, so the keys that end before it need no look at their bytes. (clean_to is
  // direct_view's, kept by the caller from one call to the next.)
  const std::uint64_t* const map = v.backslash_blocks;
  const auto plain_key = [&](const std::uint32_t* at) {
    if (at[1] <= clean_to) return true;
    if (map != nullptr) {
      const std::size_t from = at[0] + 1, last = st.len >> 12;
      std::size_t w = from >> 12;
      std::uint64_t bits = map[w] & (~std::uint64_t{0} << ((from >> 6) & 63));
      while (bits == 0 && w < last) bits = map[++w];
      clean_to = bits == 0 ? ~std::size_t{0}
                           : ((w << 6) + static_cast<std::size_t>(std::countr_zero(bits))) << 6;
      if (at[1] <= clean_to) return true;
    }
    return plain_string<I>(v.buf, v.safe, at);
  };
  for (;;) {
    if (v.buf[*ip] != '"') return ip;
    // The key as written first: without a backslash it is the key.
    if (may_be_field_raw(v.buf + ip[0] + 1, ip[1] - ip[0] - 1)) return ip;
    if (!plain_key(ip)) {
      if (!key_by_stage2<I>(st, v, ip)) return nullptr;
      if ((v.nodes[0].tag & kNoEscape) == 0 &&
          may_be_field(v.strings, static_cast<std::size_t>(v.nodes[0].tag >> 8)))
        return ip;
    }
    ip += 2;
    if (v.buf[*ip] != ':') return nullptr;
    ++ip;
    // The value: the common string and scalar here, containers by skip_container.
    const std::uint8_t c = v.buf[*ip];
    if (c == '"') {  // its escapes are checked by the caller (escapes_valid)
      ip += 2;
    } else if (kTokenChar.t[c]) {
      if (!plain_scalar<I>(v.buf, v.safe, ip) && !check_by_stage2<I>(st, v, ip)) return nullptr;
      ++ip;
    } else if (c == '{' || c == '[') {
      ip = skip_container<I>(st, v, ip);
      if (ip == nullptr) return nullptr;
    } else {
      return nullptr;
    }
    const std::uint8_t after = v.buf[*ip];
    if (after == '}') return ip;
    if (after != ',') return nullptr;
    ++ip;
  }
}

// From ip, the position of a key in an object (after '{' or ','), drops the members whose
// (unescaped) key no field can have (f), each checked as stage 2 would: the grammar, the scalars
// and deep nesting by skip_run, the escapes of every string skipped in one pass over their bytes
// (escapes_valid). Returns the position of the first member whose key may be a field's, or of
// whatever else stands where a key should (the object's '}' after its last member or a trailing
// comma, or a byte the caller rejects); nullptr when the text is not valid JSON there.
template <class I>
const std::uint32_t* skip_members(parse_state& st, const direct_view& v, const std::uint32_t* ip,
                                  const key_filter& f) noexcept {
  std::size_t clean_to = v.clean_to;  // in a register through the walk
  const std::uint32_t* const end = skip_run<I>(st, v, ip, f, clean_to);
  v.clean_to = clean_to;
  if (end == nullptr || end == ip) return end;
  // Before safe, kPad bytes after the end position are text: whole blocks may be read.
  const bool ok = end < v.safe ? escapes_valid_blocks<I>(v.buf, v.backslash_blocks, *ip, *end)
                               : escapes_valid(v.buf + *ip, *end - *ip);
  return ok ? end : nullptr;
}

}  // namespace keel::json::detail
