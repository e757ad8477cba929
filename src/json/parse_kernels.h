// SPDX-License-Identifier: MIT
// The parser, written once over an ISA traits type I (isa_scalar.h, isa_avx2.h, isa_avx512.h,
// isa_neon.h) and instantiated in parse_<isa>.cpp, each compiled with its own instruction-set
// flags.
//
// Stage 1 reads the input in 64-byte blocks and, with bit masks, finds every structural
// character ({ } [ ] , : and both quotes of each string) and the first byte of every other token
// outside strings; it validates UTF-8 and rejects unescaped control characters inside strings.
// Stage 2 walks those positions with an explicit stack, checks the grammar and writes the DOM
// nodes (docs/json-dom.md): numbers converted, strings unescaped into the string area.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fast_float/fast_float.h>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "common/utf8.h"
#include "common/utf8_check.h"
#if defined(__x86_64__)
#include "json/digits_sse.h"
#include "json/escape_block.h"
#elif defined(__aarch64__)
#include "json/digits_neon.h"
#endif
#include "json/parse_state.h"
#include "json/pow10.h"
#include "keel/detail/attributes.h"

namespace keel::json::detail {

// Words of the input and of UTF-8 output are loaded and stored with their first byte lowest
// (utf8_encode_bmp, the member step's literals, direct_kernels.h's literal words): every kernel
// set, the scalar one included, assumes a little-endian host, as keel::msg does.
static_assert(std::endian::native == std::endian::little,
              "keel::json assumes a little-endian host");

using keel::detail::utf8_check;
using keel::detail::utf8_sequence;
namespace {

// ---------------------------------------------------------------------------------- stage 1

inline constexpr std::uint64_t kEvenBits = 0x5555555555555555ULL;
inline constexpr std::uint64_t kOddBits = ~kEvenBits;

// Appends base + position of every set bit of m. Writes in groups of 8 (room: kIndexSlack).
inline void flatten(std::uint32_t*& out, std::uint32_t base, std::uint64_t m) noexcept {
  const int cnt = std::popcount(m);
  std::uint32_t* o = out;
  for (int k = 0; k < 8; ++k) {
    o[k] = base + static_cast<std::uint32_t>(std::countr_zero(m));
    m &= m - 1;
  }
  if (cnt > 8) {
    for (int k = 8; k < 16; ++k) {
      o[k] = base + static_cast<std::uint32_t>(std::countr_zero(m));
      m &= m - 1;
    }
    for (int k = 16; k < cnt; ++k) {
      o[k] = base + static_cast<std::uint32_t>(std::countr_zero(m));
      m &= m - 1;
    }
  }
  out = o + cnt;
}

struct no_utf8_check {};

// NDJSON batches (Lines != 0): stage 1 asks for the text this many bytes ahead of the block it
// reads. A batch's text (a new one every 256 KiB of a file, or a piece of a parallel read) comes
// from memory or L3, where the hardware prefetcher left stage 1 waiting on it: 1.5-2 % of a
// 1-thread read on AVX2 and 2-3 % on AVX-512 (two record shapes). A whole document (Lines == 0)
// is left as it was: its stage 2 layout is fragile, and parse benchmarks read it from cache.
inline constexpr std::size_t kLinesPrefetch = 4096;

// Lines (NDJSON batches, lines_fn): 1, every '\n' is a position too; 2, and the lines are counted
// (line_counts). Marks (struct mapping's direct read): the blocks that hold a backslash are
// marked in st.backslash_blocks.
template <class I, int Lines = 0, bool Marks = false>
struct stage1 {
  // The vector UTF-8 check where the ISA has one; the scalar ISA checks sequences one by one.
  [[no_unique_address]] std::conditional_t<I::kVectorUtf8, utf8_check<I>, no_utf8_check> utf8;
  std::uint64_t prev_escaped = 0;    // bit 0: the next block's first byte is escaped
  std::uint64_t prev_in_string = 0;  // all ones when the previous block ended inside a string
  std::uint64_t prev_scalar = 0;     // bit 0: it ended in a bare token (kSeparators: outside one)
  std::size_t utf8_resume = 0;       // first byte not yet covered by a validated sequence
  std::uint64_t prev_hi = 0;         // the previous block's non-ASCII bytes (vector UTF-8 check)
  // Lines == 2: the '\n' bytes so far (low 32 bits of each step) and the lines after one that
  // start with whitespace (high 32 bits), summed in a vector register: no general register is
  // held across blocks for them (stage 1 has none to spare: held in three, the counts made more
  // of its state spill, and stage 1 with them took a third longer than without).
#if defined(__x86_64__)
  __m128i line_counts_acc = _mm_setzero_si128();
#else
  std::uint64_t line_counts_acc = 0;
#endif
  std::uint64_t* marks = nullptr;  // Marks: parse_state::backslash_blocks
  // Where the ISA has classify_sep (and the whitespace mask is not needed for line counting).
  static constexpr bool kSeparators =
      Lines != 2 && requires(const typename I::block& b, std::uint64_t& m) {
    I::classify_sep(b, m, m);
  };
  // Blocks wholly inside a string skip the classification (gsoc-2018.json: 70 % of its blocks).
  static constexpr bool kStringRuns = Lines == 0 && kSeparators;
  // The ISA's plain-text variant (kPlainText: isa_avx2_plain, its own translation unit, chosen
  // per document by plain_start): a block is tested for control and non-ASCII bytes by one mask
  // move, their mask made only when it has one. Minified ASCII documents have none; documents
  // with line breaks or non-ASCII text (where that branch would mispredict) keep the other test.
  static constexpr bool kPlainText = kStringRuns && requires { requires I::kPlainText; };

  // Bytes escaped by a backslash (the odd-length runs rule), carrying across blocks.
  std::uint64_t escaped_bytes(std::uint64_t bs, [[maybe_unused]] std::size_t base) noexcept {
    // Marks: a block with a backslash is marked (parse_state::backslash_blocks).
    if constexpr (Marks) {
      if (bs != 0) marks[base >> 12] |= std::uint64_t{1} << ((base >> 6) & 63);
    }
    const std::uint64_t carried = prev_escaped;
    bs &= ~carried;  // an escaped backslash neither starts nor continues a run
    const std::uint64_t starts = bs & ~(bs << 1);
    const std::uint64_t even_ends = (bs + (starts & kEvenBits)) & ~bs;
    const std::uint64_t odd_ends = (bs + (starts & kOddBits)) & ~bs;
    // A run starting on an even bit escapes the byte after it when it ends on an odd bit, etc.
    const std::uint64_t escaped = (even_ends & kOddBits) | (odd_ends & kEvenBits) | carried;
    prev_escaped = static_cast<std::uint64_t>(std::countl_one(bs) & 1);
    return escaped;
  }

  // The block's strings, token starts and positions (all but the line ends).
  // Returns the in-string mask.
  KEEL_INLINE std::uint64_t classify(const typename I::block& b, std::uint64_t q,
                                     std::uint64_t escaped, std::uint64_t ctrl,
                                     std::uint64_t& structurals, std::uint64_t& bad_ctrl,
                                     [[maybe_unused]] std::uint64_t& ws) noexcept {
    const std::uint64_t quotes = q & ~escaped;
    const std::uint64_t in_string = I::prefix_xor(quotes) ^ prev_in_string;
    prev_in_string = static_cast<std::uint64_t>(static_cast<std::int64_t>(in_string) >> 63);
    bad_ctrl = ctrl & in_string;
    // Bytes of bare tokens, strings' contents included: the in-string mask is applied once, to
    // the result, so the token starts do not wait for the carry-less multiply. (Same positions:
    // a byte outside a string follows a byte outside one or the closing quote, never contents.)
    std::uint64_t ops, starts;
    if constexpr (kSeparators) {
      // The separators (operators, whitespace, quotes escaped or not: those differ only inside
      // strings, where starts are dropped) as one mask; a start is a non-separator after one.
      std::uint64_t sep;
      I::classify_sep(b, ops, sep);
      starts = ~sep & ((sep << 1) | prev_scalar);
      prev_scalar = sep >> 63;
    } else {
      I::classify(b, ws, ops);
      const std::uint64_t scalar = ~(ops | ws | quotes);
      starts = scalar & ~((scalar << 1) | prev_scalar);
      prev_scalar = scalar >> 63;
    }
    // The block's positions are kept even when it has an error: those before the error still
    // count (an earlier grammar error wins), run() drops the rest.
    structurals = ((ops | starts) & ~in_string) | quotes;
    return in_string;
  }

  // Returns false (and sets st.s1_*) on the first error in this block.
  KEEL_INLINE bool block(parse_state& st, const std::uint8_t* p, std::size_t base,
                         std::uint32_t*& out) noexcept {
    const typename I::block b = I::load(p);
    // Backslashes are rare: where the ISA has any_eq (one mask move for the block, not one per
    // register) the block is tested for one, and their mask made only when it has one.
    std::uint64_t bs_any;
    if constexpr (requires { I::any_eq(b, '\\'); }) {
      bs_any = I::any_eq(b, '\\');
    } else {
      bs_any = I::eq(b, '\\');
    }
    const std::uint64_t q = I::eq(b, '"');
    if constexpr (kPlainText) return plain_block(st, b, base, out, bs_any, q);
    // Control bytes moved to a general register at once (the empty asm): otherwise GCC folds the
    // in-string mask into a masked compare, which puts the compare, and the branch below, behind
    // the carry-less multiply. Where the ISA has control_or_high, non-ASCII bytes are in the mask
    // too (such a block goes to slow() anyway, which takes them out).
    std::uint64_t ctrl;
    if constexpr (requires { I::control_or_high(b); }) {
      ctrl = I::control_or_high(b);
    } else {
      ctrl = I::control(b);
    }
    asm("" : "+r"(ctrl));
    const std::uint64_t escaped = (bs_any | prev_escaped) ? escaped_bytes(I::eq(b, '\\'), base) : 0;
    // Non-ASCII bytes (slow() ignores them when the check is off: allow_invalid_utf8 is read
    // there, not kept live in the loop).
    const std::uint64_t hi = high(b);
    std::uint64_t structurals, bad_ctrl, ws;
    if constexpr (kStringRuns) {
      // A block inside a string from its first byte to its last (no quote: the text of long
      // strings) has no positions, only its control characters and UTF-8 to check.
      if ((prev_in_string & ~q) == ~std::uint64_t{0}) [[unlikely]] {
        structurals = 0;
        bad_ctrl = ctrl;
      } else {
        classify(b, q, escaped, ctrl, structurals, bad_ctrl, ws);
      }
    } else {
      classify(b, q, escaped, ctrl, structurals, bad_ctrl, ws);
    }
    if constexpr (Lines != 0) {
      // Each '\n' is a position too, where stage 2 of a record stops (parse_record). (One inside
      // a string is a stage-1 error: the positions from it on are dropped.)
      const std::uint64_t nls = I::eq(b, '\n');
      structurals |= nls;
      // The lines, and those that start with whitespace after one: in the block, and (rare) after
      // a '\n' that ends it, the next block's first byte. A block adds less than 2^32 to either
      // count.
      if constexpr (Lines == 2) {
        std::uint64_t blank = static_cast<std::uint64_t>(std::popcount(nls & (ws >> 1)));
        if (static_cast<std::int64_t>(nls) < 0 && base + 64 < st.len) [[unlikely]]
          blank += json_whitespace(st.buf[base + 64]) ? 1 : 0;
        const std::uint64_t step = static_cast<std::uint64_t>(std::popcount(nls)) | blank << 32;
#if defined(__x86_64__)
        line_counts_acc =
            _mm_add_epi64(line_counts_acc, _mm_cvtsi64_si128(static_cast<long long>(step)));
        asm("" : "+x"(line_counts_acc));
#else
        line_counts_acc += step;
#endif
      }
    }
    // The positions are written one block late: the compress and stores of the previous block
    // overlap this block's classification instead of waiting at the end of its dependency chain.
    // (The previous block's base is base - 64; for the first block pending is 0.)
    emit(out, base - 64, pending);
    pending = structurals;
    // One branch for both checks: an ASCII block without control characters after an ASCII
    // block needs neither.
    if ((bad_ctrl | hi | prev_hi) != 0) [[unlikely]]
      return slow(st, b, base, out, hi, bad_ctrl);
    return true;
  }

  // block() of kPlainText: the control and non-ASCII bytes tested by one mask move, their mask
  // (in strings) made only when the block has one.
  KEEL_INLINE bool plain_block(parse_state& st, const typename I::block& b, std::size_t base,
                               std::uint32_t*& out, std::uint64_t bs_any,
                               std::uint64_t q) noexcept {
    const typename I::block cv = I::control_or_high_v(b);
    const std::uint64_t any = I::any_of(cv);
    const std::uint64_t escaped = (bs_any | prev_escaped) ? escaped_bytes(I::eq(b, '\\'), base) : 0;
    std::uint64_t structurals, in_string, bad_ctrl, ws;
    if ((prev_in_string & ~q) == ~std::uint64_t{0}) [[unlikely]] {
      structurals = 0;
      in_string = ~std::uint64_t{0};
    } else {
      in_string = classify(b, q, escaped, 0, structurals, bad_ctrl, ws);
    }
    emit(out, base - 64, pending);
    pending = structurals;
    if ((any | prev_hi) != 0) [[unlikely]] {
      // Control characters count in strings only; a non-ASCII byte anywhere (in a string or not)
      // goes to the UTF-8 check.
      const std::uint64_t hi = high(b);
      bad_ctrl = I::mask_of(cv) & in_string;
      if ((bad_ctrl | hi | prev_hi) != 0) return slow(st, b, base, out, hi, bad_ctrl);
    }
    return true;
  }

  // Whether a document is read by the kPlainText variant: its first 4 KiB (whole blocks) have no
  // control or non-ASCII byte.
  static bool plain_start(const parse_state& st) noexcept {
    const std::size_t full = st.len & ~std::size_t{63};
    const std::size_t n = full < 4096 ? full : 4096;
    for (std::size_t k = 0; k < n; k += 64) {
      // (Pretty-printed documents stop at the first block, at their first line break.)
      if (I::any_of(I::control_or_high_v(I::load(st.buf + k))) != 0) return false;
    }
    return n != 0;
  }

  // Nonzero when the block has a non-ASCII byte: the vector UTF-8 check needs no positions, and
  // an ISA may have a cheaper test than the mask of high().
  static std::uint64_t high(const typename I::block& b) noexcept {
    if constexpr (I::kVectorUtf8 && requires { I::any_high(b); }) {
      return I::any_high(b);
    } else {
      return I::high(b);
    }
  }

  // A block with non-ASCII bytes, after one, or with a control character inside a string.
  KEEL_INLINE bool slow(parse_state& st, const typename I::block& b, std::size_t base,
                        std::uint32_t*& out, std::uint64_t hi, std::uint64_t bad_ctrl) noexcept {
    // UTF-8 and control characters; when a block has both errors the earlier one is reported.
    std::size_t bad_utf8 = kNone;
    if constexpr (requires { I::control_or_high(b); }) {
      if (hi != 0) bad_ctrl &= ~I::high(b);  // the non-ASCII bytes of control_or_high
    }
    if (st.opt->allow_invalid_utf8) hi = 0;
    if constexpr (I::kVectorUtf8) {
      // After an ASCII block the checker's state is all zeros: a run of ASCII blocks needs
      // neither its update nor a test of the error vector.
      if ((hi | prev_hi) != 0) {
        if (hi == 0) {
          utf8.ascii();
        } else {
          for (int k = 0; k < I::kVecs; ++k) utf8.check(I::part(b, k));
        }
        prev_hi = hi;
      }
    } else if (hi) {
      if (utf8_resume > base)
        hi = utf8_resume - base >= 64 ? 0 : hi & (~0ULL << (utf8_resume - base));
      const std::uint8_t* end = st.buf + st.len;
      while (hi) {
        const std::size_t pos = base + static_cast<std::size_t>(std::countr_zero(hi));
        const std::size_t n = utf8_sequence(st.buf + pos, end);
        if (n == 0) {
          bad_utf8 = pos;
          break;
        }
        utf8_resume = pos + n;
        hi = utf8_resume - base >= 64 ? 0 : hi & (~0ULL << (utf8_resume - base));
      }
    }
    if constexpr (I::kVectorUtf8) {
      // The vector check's error is tested here and at the end of the input, not after every
      // block (a test and a branch per non-ASCII block): an invalid sequence anywhere before a
      // control character is the earlier error of the two.
      if (bad_ctrl != 0 && I::any(utf8.error)) [[unlikely]]
        bad_utf8 = utf8_locate(st);
    }
    if ((bad_ctrl | (bad_utf8 != kNone)) != 0) [[unlikely]] {
      flush(out, base);
      const std::size_t at_ctrl =
          bad_ctrl ? base + static_cast<std::size_t>(std::countr_zero(bad_ctrl)) : kNone;
      if (at_ctrl < bad_utf8) return fail(st, error_code::control_character, at_ctrl);
      return fail(st, error_code::invalid_utf8, bad_utf8);
    }
    return true;
  }

  static constexpr std::size_t kNone = ~std::size_t{0};
  std::uint64_t pending = 0;  // the previous block's positions, not yet written

  // Writes the pending positions, those of the block at `base`.
  KEEL_INLINE void flush(std::uint32_t*& out, std::size_t base) noexcept {
    emit(out, base, pending);
    pending = 0;
  }

  KEEL_INLINE static void emit(std::uint32_t*& out, std::size_t base, std::uint64_t m) noexcept {
    if constexpr (Lines != 0 &&
                  requires(std::uint32_t * &o) { I::template flatten<true>(o, 0u, 0ull); }) {
      // The ISA's writer for NDJSON batches (isa_avx2.h).
      I::template flatten<true>(out, static_cast<std::uint32_t>(base), m);
    } else if constexpr (requires(std::uint32_t * &o) { I::flatten(o, 0u, 0ull); }) {
      I::flatten(out, static_cast<std::uint32_t>(base), m);  // the ISA's own (AVX-512 compress)
    } else {
      flatten(out, static_cast<std::uint32_t>(base), m);
    }
  }

  // The vector check flagged a block (or an unfinished sequence at the end): the first bad byte,
  // found with the scalar validator from the start of the input, ASCII eight bytes at a time.
  // (The check's error is tested only at a control character and at the end: slow(), scan().)
  static std::size_t utf8_locate(const parse_state& st) noexcept {
    std::size_t pos = 0;
    const std::uint8_t* end = st.buf + st.len;
    while (pos < st.len) {
      if (st.buf[pos] < 0x80) {
        std::uint64_t w;
        if (st.len - pos >= 8) {
          std::memcpy(&w, st.buf + pos, 8);
          if ((w & 0x8080808080808080ULL) == 0) {
            pos += 8;
            continue;
          }
        }
        ++pos;
        continue;
      }
      const std::size_t n = utf8_sequence(st.buf + pos, end);
      if (n == 0) return pos;
      pos += n;
    }
    return st.len;  // not reached: the vector check found an error
  }

  static bool fail(parse_state& st, error_code c, std::size_t off) noexcept {
    st.s1_error = c;
    st.s1_offset = off;
    return false;
  }

  // Fills st.idx / st.n_idx. Stage-1 errors stop the scan and drop the indices at or after them.
  // The scan state is a local whose address is never taken, so it stays in registers (the
  // index stores could alias it otherwise: vector types may alias anything).
  static void run(parse_state& st) noexcept {
    if constexpr (Lines == 0 && !Marks && !kPlainText && requires { I::positions_plain(st); }) {
      if (plain_start(st)) return I::positions_plain(st);
    }
    stage1 s1;
    if constexpr (Marks) s1.marks = st.backslash_blocks;
    s1.scan(st);
  }
  static void run(parse_state& st, line_counts& counts) noexcept {
    stage1 s1;
    s1.scan(st);
#if defined(__x86_64__)
    const auto sums = static_cast<std::uint64_t>(_mm_cvtsi128_si64(s1.line_counts_acc));
#else
    const std::uint64_t sums = s1.line_counts_acc;
#endif
    // Each below 2^32: a batch holds less than 4 GiB (its positions are 32-bit).
    counts.ends = sums & 0xffffffffu;
    // The padding after a last '\n' in a partial block is spaces: not a line.
    const bool padded_line = st.len % 64 != 0 && st.buf[st.len - 1] == '\n';
    counts.blank_starts = (sums >> 32) - (padded_line ? 1 : 0);
  }

  KEEL_INLINE void scan(parse_state& st) noexcept {
    if constexpr (kSeparators) prev_scalar = 1;  // the input starts after a separator
    std::uint32_t* out = st.idx;
    // Locals, not re-read through st each block (the index stores may alias anything).
    const std::uint8_t* const buf = st.buf;
    const std::size_t full = st.len & ~std::size_t{63};
    bool ok = true;
    std::size_t base = 0;
    // NDJSON batches (Lines != 0) take one block a step on every ISA: with two (AVX2), the
    // 1-thread read of amazon_cellphones.ndjson (a backslash in a quarter of its blocks, whose
    // escape branch does not predict) was 1.5-2 % slower; two other record shapes no faster.
    if constexpr (Lines == 0 && requires { requires I::kBlockPairs; }) {
      // Two blocks a step (the ISA's choice, kBlockPairs): each has its own copy of the branches
      // (positions, escapes, UTF-8), and the loop's own work is halved.
      // The bound as one value compared with base (base + 128 <= full kept a second induction
      // variable, base + 128, in a register of its own).
      const std::size_t pairs_end = full >= 128 ? full - 127 : 0;
      for (; base < pairs_end; base += 128) {
        if (!block(st, buf + base, base, out)) {
          ok = false;
          break;
        }
        if (!block(st, buf + base + 64, base + 64, out)) {
          ok = false;
          base += 64;
          break;
        }
      }
      if (ok && base < full) {
        if (block(st, buf + base, base, out)) {
          base += 64;
        } else {
          ok = false;
        }
      }
    } else {
      for (; base < full; base += 64) {
        if constexpr (Lines != 0) __builtin_prefetch(buf + base + kLinesPrefetch, 0, 3);
        if (!block(st, buf + base, base, out)) {
          ok = false;
          break;
        }
      }
    }
    std::size_t last = base - 64;  // the block whose positions are pending
    if (ok && base < st.len) {
      alignas(64) std::uint8_t tail[64];
      std::memset(tail, ' ', 64);
      std::memcpy(tail, st.buf + base, st.len - base);
      ok = block(st, tail, base, out);
      last = base;
    }
    if constexpr (I::kVectorUtf8) {
      // A sequence cut off by the end of the input (when no padded block followed it).
      if (ok && !st.opt->allow_invalid_utf8) {
        utf8.ascii();
        if (I::any(utf8.error)) ok = fail(st, error_code::invalid_utf8, utf8_locate(st));
      }
    }
    flush(out, last);
    std::size_t n = static_cast<std::size_t>(out - st.idx);
    if (ok && prev_in_string) {
      // The unterminated string starts at the last quote recorded.
      std::size_t k = n;
      while (k > 0 && st.buf[st.idx[k - 1]] != '"') --k;
      st.s1_error = error_code::unterminated_string;
      st.s1_offset = k > 0 ? st.idx[k - 1] : 0;
    }
    if (st.s1_error != error_code::ok) {
      while (n > 0 && st.idx[n - 1] >= st.s1_offset) --n;
    }
    st.n_idx = n;
  }
};

// ---------------------------------------------------------------------------------- stage 2

// Bytes that may continue a bare token (anything but whitespace, structural characters, quotes).
struct token_table {
  bool t[256];
  constexpr token_table() : t() {
    for (int c = 0; c < 256; ++c) t[c] = true;
    for (unsigned char c : {' ', '\t', '\n', '\r', '{', '}', '[', ']', ',', ':', '"'}) t[c] = false;
  }
};
inline constexpr token_table kTokenChar{};

// Numbers of up to this many digits (m < 10^14 < 2^53) are read as the exact quotient or product
// of m and a power of ten (Clinger), longer ones by Eisel-Lemire. Not 15: the shortest forms of
// arbitrary doubles have 15 to 17 digits, and on a document of them a branch at 15/16
// mispredicted on each 15-digit number (measured 1-2 % slower than no exact path); numbers
// written to a fixed precision (mesh.json, numbers.json: 12-14 digits) stay below 15.
inline constexpr unsigned kExactDigits = 14;

// What the byte after a run of digits makes of a number: its end (a byte that cannot continue a
// token), a fraction, an exponent, or an error. One lookup instead of a compare per case.
inline constexpr std::uint8_t kDigitsEnd = 0, kDigitsDot = 1, kDigitsExp = 2, kDigitsBad = 3;
struct after_digits_table {
  std::uint8_t v[256];
  constexpr after_digits_table() : v() {
    for (int c = 0; c < 256; ++c) v[c] = kTokenChar.t[c] ? kDigitsBad : kDigitsEnd;
    v[static_cast<unsigned char>('.')] = kDigitsDot;
    v[static_cast<unsigned char>('e')] = kDigitsExp;
    v[static_cast<unsigned char>('E')] = kDigitsExp;
  }
};
inline constexpr after_digits_table kAfterDigits{};

// Bytes the string and number readers may read past the end of what they parse.
inline constexpr std::size_t kPad = 64;

// The low n bits of m, 1 <= n <= 64.
inline std::uint64_t low_bits(std::uint64_t m, std::size_t n) noexcept {
#if defined(__BMI2__)
  return _bzhi_u64(m, static_cast<unsigned>(n));
#else
  return m & (~std::uint64_t{0} >> (64 - n));
#endif
}

inline bool is_digit(std::uint8_t c) noexcept { return static_cast<std::uint8_t>(c - '0') < 10; }

// Hex digit values, -1 for other bytes.
struct hex_table {
  std::int8_t v[256];
  constexpr hex_table() : v() {
    for (int c = 0; c < 256; ++c) v[c] = -1;
    for (int c = 0; c < 10; ++c) v['0' + c] = static_cast<std::int8_t>(c);
    for (int c = 0; c < 6; ++c) {
      v['a' + c] = static_cast<std::int8_t>(10 + c);
      v['A' + c] = static_cast<std::int8_t>(10 + c);
    }
  }
};
inline constexpr hex_table kHex{};

// What a one-character escape (the byte after the backslash) stands for; 0 for other bytes.
struct escape_table {
  std::uint8_t v[256];
  constexpr escape_table() : v() {
    const unsigned char from[] = {'"', '\\', '/', 'b', 'f', 'n', 'r', 't'};
    const unsigned char to[] = {'"', '\\', '/', '\b', '\f', '\n', '\r', '\t'};
    for (int k = 0; k < 8; ++k) v[from[k]] = to[k];
  }
};
inline constexpr escape_table kEscapeChar{};

// The four hex digits at p, or a negative value when one is not a hex digit: four lookups and
// no branch (digits and letters mix at random in escapes, a per-digit branch mispredicts). A -1
// entry sign-extends, so it sets the high bits whatever its shift.
inline std::int32_t hex4(const std::uint8_t* p) noexcept {
  return (std::int32_t{kHex.v[p[0]]} * 4096) | (std::int32_t{kHex.v[p[1]]} * 256) |
         (std::int32_t{kHex.v[p[2]]} * 16) | std::int32_t{kHex.v[p[3]]};
}

#if defined(__BMI2__) && defined(__AVX512F__)
#define KEEL_JSON_FAST_PDEP 1
#else
#define KEEL_JSON_FAST_PDEP 0
#endif

// Code point cp < 0x10000 as 1-3 UTF-8 bytes; always stores 4 bytes (the string area has room
// past every string), returns the length. Branch-free: escaped text mixes the lengths. On the
// AVX-512 set one bit deposit spreads the bits into the bytes (their order reversed by a byte
// swap). Not on the AVX2 set: AMD before Zen 3 runs AVX2 code but microcodes pdep (tens to
// hundreds of cycles, growing with the mask's bits); every CPU with AVX-512 runs it in one uop.
inline std::size_t utf8_encode_bmp(std::uint32_t cp, std::uint8_t* out) noexcept {
  const std::uint32_t k = 1 + std::uint32_t{cp >= 0x80} + std::uint32_t{cp >= 0x800};
#if KEEL_JSON_FAST_PDEP
  static constexpr std::uint32_t kDeposit[4] = {0, 0x7f000000, 0x1f3f0000, 0x0f3f3f00};
  static constexpr std::uint32_t kLead[4] = {0, 0, 0x80c0, 0x8080e0};
  const std::uint32_t w = __builtin_bswap32(_pdep_u32(cp, kDeposit[k])) | kLead[k];
#else
  const std::uint32_t two = (0xc0 | (cp >> 6)) | ((0x80 | (cp & 0x3f)) << 8);
  const std::uint32_t three =
      (0xe0 | (cp >> 12)) | ((0x80 | ((cp >> 6) & 0x3f)) << 8) | ((0x80 | (cp & 0x3f)) << 16);
  const std::uint32_t w = cp < 0x80 ? cp : cp < 0x800 ? two : three;
#endif
  std::memcpy(out, &w, 4);  // little-endian: the first byte lowest
  return k;
}

// Code point 0x10000 <= cp < 0x110000 (a surrogate pair's) as its 4 UTF-8 bytes.
inline void utf8_encode_4(std::uint32_t cp, std::uint8_t* out) noexcept {
#if KEEL_JSON_FAST_PDEP
  const std::uint32_t w = __builtin_bswap32(_pdep_u32(cp, 0x073f3f3f)) | 0x808080f0;
#else
  const std::uint32_t w = (0xf0 | (cp >> 18)) | ((0x80 | ((cp >> 12) & 0x3f)) << 8) |
                          ((0x80 | ((cp >> 6) & 0x3f)) << 16) | ((0x80 | (cp & 0x3f)) << 24);
#endif
  std::memcpy(out, &w, 4);
}

// The block decoder of escape-dense text (escape_block.h) on the kernel sets with 64-byte
// vectors or two 32-byte ones.
#if defined(__AVX512BW__) && defined(__AVX512VBMI2__)
#define KEEL_JSON_ESCAPE_BLOCK 1
using escape_block_vec = escape_block::avx512;
#elif defined(__AVX2__)
#define KEEL_JSON_ESCAPE_BLOCK 1
using escape_block_vec = escape_block::avx2;
#else
#define KEEL_JSON_ESCAPE_BLOCK 0
#endif

// The grammar's open containers, shared by stage2::run and the scalar one pass: the innermost
// one in two locals of the caller (its first node, nullptr at the top level outside every
// container; its element count times two, plus one for an object), the enclosing ones on a stack
// of two words each, sp past the innermost. Inlined into the caller, all three stay in registers.
KEEL_INLINE void open_container(std::uint64_t*& sp, node*& start, std::uint64_t& count, node* first,
                                bool object) noexcept {
  sp[0] = std::bit_cast<std::uint64_t>(start);
  sp[1] = count;
  sp += 2;
  count = object;
  start = first;
}

// Writes the innermost container's node (kind, element count, node span up to out) and makes the
// enclosing one innermost.
KEEL_INLINE void close_container(std::uint64_t*& sp, node*& start, std::uint64_t& count,
                                 const node* out) noexcept {
  start->tag = tag_of((count & 1) ? type::object : type::array, count >> 1);
  start->data = static_cast<std::uint64_t>(out - start);
  sp -= 2;
  start = std::bit_cast<node*>(sp[0]);
  count = sp[1];
}

// Whether stage 2 takes a member's short string value right after its key (run()): the ISA's
// traits may say kMemberStringStep = false where that measured slower (isa_avx512.h).
template <class I>
inline constexpr bool kMemberStringStep = [] {
  if constexpr (requires { I::kMemberStringStep; })
    return I::kMemberStringStep;
  else
    return true;
}();

// Whether string() copies the longer strings it can read past (the closing quote kPad bytes
// before the end) by whole chunks without long_string's end-of-input check: the ISA's traits
// say kSafeChunkStep = true where that measured faster (isa_avx2.h).
template <class I>
inline constexpr bool kSafeChunkStep = requires {
  requires I::kSafeChunkStep;
};

// M: build: nodes and string copies for the document; validate: they go round small buffers that
// nothing reads back, and only the checks remain; in_place: the nodes, with each string's data
// the offset of its text in the input (the document's string area then); its copy is only
// checked, and unescape_in_place() rewrites the strings with escapes once the parse succeeded.
// Record: the same code as its own type for NDJSON records (parse_record), so that each of the
// two callers of go() is the only caller of its run() and gets it inlined.
template <class I, stage2_mode M = stage2_mode::build, bool Record = false>
struct stage2 {
  static constexpr bool Build = M != stage2_mode::validate;
  static constexpr bool InPlace = M == stage2_mode::in_place;
  parse_state& st;
  const std::uint8_t* buf;
  std::size_t len;
  const std::uint32_t* idx;
  std::size_t n;
  // Positions before `safe` are followed by another position that is at least kPad bytes before
  // the end of the input: one pointer compare clears a string or token for reads past its end.
  const std::uint32_t* safe;
  node* out;
  std::uint8_t* sbase;
  std::uint8_t* sout;
  node* ring;                 // !Build: the first of kValidateRing + 1 nodes
  std::uint64_t src_off = 0;  // InPlace: where the string being read starts in the input

  // !Build, before each value or key (each writes at most one node and one string): back to the
  // start of the ring and of the string buffer.
  KEEL_INLINE void recycle() noexcept {
    if constexpr (!Build) {
      if (out >= ring + kValidateRing) out = ring;
      sout = sbase;
    }
  }

  bool fail(error_code c, std::size_t off) noexcept {
    st.code = c;
    st.offset = off;
    return false;
  }

  // Unescapes the string whose quotes are at ip[0] and ip[1] into the string area.
  KEEL_INLINE bool string(const std::uint32_t* ip) noexcept {
    const std::uint8_t* src = buf + ip[0] + 1;
    const std::uint8_t* end = buf + ip[1];
    if constexpr (InPlace) {
      sout = sbase;  // the copy is only checked: one buffer for every string
      src_off = ip[0] + 1;
    }
    std::uint8_t* const start = sout;
    std::uint8_t* dst = sout;
    if (ip + 1 < safe) [[likely]] {
      // Most strings (keys above all) are short: one small copy and no loop.
      const auto remain = static_cast<std::size_t>(end - src);
      if constexpr (kSafeChunkStep<I>) {
        // The [[likely]]s keep the short path straight through: without them, beside the loop
        // of safe_chunks(), GCC put it behind three taken jumps (update-center.json 3 % slower).
        if (remain <= I::kShort) [[likely]] {
          if ((I::copy_short(src, dst) & ((std::uint64_t{1} << remain) - 1)) == 0) [[likely]] {
            string_node(start, dst + remain, kNoEscape);
            return true;
          }
        } else if (safe_chunks(src, end, dst, start)) {
          return true;
        }
      } else if (remain <= I::kShort) {
        if ((I::copy_short(src, dst) & ((std::uint64_t{1} << remain) - 1)) == 0) {
          string_node(start, dst + remain, kNoEscape);
          return true;
        }
      }
    } else if (ip + 1 >= idx + n) {
      // Stage 1 pairs every opening quote with its closing one unless it stopped at an error.
      return fail(error_code::unexpected_end, len);
    }
    if (!long_string(src, end, dst)) return false;
    // Every escape is longer than what it decodes to: as long as its source, it had no backslash
    // (the source length reloaded from the positions rather than kept in a register).
    string_node(start, dst,
                static_cast<std::size_t>(dst - start) == ip[1] - ip[0] - 1 ? kNoEscape : 0);
    return true;
  }

  // kSafeChunkStep: a string longer than kShort whose closing quote is kPad bytes before the end
  // of the input, copied by whole chunks without long_string's end-of-input check. True when it
  // had no backslash (its node written); else src and dst are at the chunk of the first one,
  // from which long_string goes on.
  KEEL_INLINE bool safe_chunks(const std::uint8_t*& src, const std::uint8_t* end,
                               std::uint8_t*& dst, std::uint8_t* start) noexcept {
    for (;;) {
      std::uint64_t m = I::copy_chunk(src, dst);
      const auto left = static_cast<std::size_t>(end - src);
      if (left <= I::kChunk) {
        if (left < 64) m &= (std::uint64_t{1} << left) - 1;
        if (m != 0) return false;
        string_node(start, dst + left, kNoEscape);
        return true;
      }
      if (m != 0) return false;
      src += I::kChunk;
      dst += I::kChunk;
    }
  }

  // The node of the string copied to [start, dst), and its NUL.
  KEEL_INLINE void string_node(std::uint8_t* start, std::uint8_t* dst,
                               std::uint64_t flags) noexcept {
    const std::size_t length = static_cast<std::size_t>(dst - start);
    *dst++ = 0;
    out->tag = tag_of(type::string, length) | flags;
    out->data = InPlace ? src_off : static_cast<std::uint64_t>(start - sbase);
    ++out;
    sout = dst;
  }

  // The general copy: chunks, escapes, and the end of the input.
  KEEL_INLINE bool long_string(const std::uint8_t* src, const std::uint8_t* end,
                               std::uint8_t*& dst_ref) noexcept {
    const std::uint8_t* const buf_end = buf + len;
    std::uint8_t* dst = dst_ref;
    for (;;) {
      if (src + I::kChunk <= buf_end) {
        std::uint64_t m = I::copy_chunk(src, dst);
        const std::size_t remain = static_cast<std::size_t>(end - src);
        if (remain <= I::kChunk) {
          if (remain < 64) m &= (1ULL << remain) - 1;
          if (!m) {
            dst += remain;
            break;
          }
        } else if (!m) {
          src += I::kChunk;
          dst += I::kChunk;
          continue;
        }
        const int b = std::countr_zero(m);
        src += b;
        dst += b;
#if KEEL_JSON_ESCAPE_BLOCK
        // Text dense in escapes (4 or more backslashes in the chunk) is decoded 64 bytes at a
        // time; a few escapes among plain text (twitter.json's \n and \", update-center's \/)
        // cost less one by one.
        if (std::popcount(m) >= 4 && buf_end - src >= 64) {
          std::size_t wrote;
          if (const std::size_t took = escape_block::decode<escape_block_vec>(
                  src, static_cast<std::size_t>(end - src), dst, wrote)) {
            src += took;
            dst += wrote;
            if (src == end) break;
            continue;
          }
        }
#endif
      } else {
        while (src < end && *src != '\\') *dst++ = *src++;
        if (src == end) break;
      }
      // A run of escapes without the chunk step between them.
      do {
        if (!escape(src, end, dst)) return false;
      } while (*src == '\\');
      if (src == end) break;
    }
    dst_ref = dst;
    return true;
  }

  // src points at a backslash inside [.., end).
  bool escape(const std::uint8_t*& src, const std::uint8_t* end, std::uint8_t*& dst) noexcept {
    // One-character escapes by table ('u' maps to 0): one branch for them, where a test for 'u'
    // first took two; a switch is an indirect jump that mispredicts when they mix with \u.
    if (const std::uint8_t c = kEscapeChar.v[src[1]]; c != 0) {
      *dst++ = c;
      src += 2;
      return true;
    }
    const std::size_t at = static_cast<std::size_t>(src - buf);
    if (src[1] != 'u' || end - src < 6) return fail(error_code::invalid_escape, at);
    std::int32_t cp = hex4(src + 2);
    if (cp < 0) return fail(error_code::invalid_escape, at);
    if (static_cast<std::uint32_t>(cp - 0xd800) < 0x800) [[unlikely]] {  // a surrogate
      if (cp >= 0xdc00 || end - src < 12 || src[6] != '\\' || src[7] != 'u')
        return fail(error_code::invalid_surrogate, at);
      const std::int32_t lo = hex4(src + 8);
      if (lo < 0) return fail(error_code::invalid_escape, at + 6);
      if (lo < 0xdc00 || lo >= 0xe000) return fail(error_code::invalid_surrogate, at);
      cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      src += 12;
      utf8_encode_4(static_cast<std::uint32_t>(cp), dst);
      dst += 4;
      return true;
    }
    dst += utf8_encode_bmp(static_cast<std::uint32_t>(cp), dst);
    src += 6;
    return true;
  }

  // A bare token (number or literal) at ip[0]. Its readers run until a byte that cannot continue
  // the token and may look up to kPad bytes ahead: a token that is the last one, or whose
  // following structural byte is within kPad bytes of the end, is parsed from a padded copy.
  KEEL_INLINE bool scalar(const std::uint32_t* ip) noexcept {
    const std::size_t off = ip[0];
    if (ip + 1 >= safe) [[unlikely]] {
      if (ip >= idx + n) return fail(error_code::unexpected_end, len);  // a sentinel
      const std::uint8_t* tmp = padded_copy(st, buf, off, len);
      if (tmp == nullptr) return fail(error_code::out_of_memory, 0);
      return scalar_at(tmp, off, len - off);
    }
    return scalar_at(buf + off, off, len - off);
  }
  // The token at off copied with kPad spaces after it (nullptr: out of memory). Static: the
  // grammar loop's state never has its address taken, so it can live in registers.
  KEEL_NOINLINE static const std::uint8_t* padded_copy(parse_state& st, const std::uint8_t* buf,
                                                       std::size_t off, std::size_t len) noexcept {
    const std::size_t tl = len - off;
    auto* tmp = reinterpret_cast<std::uint8_t*>(st.scratch(tl + kPad));
    if (tmp == nullptr) return nullptr;
    std::memcpy(tmp, buf + off, tl);
    std::memset(tmp + tl, ' ', kPad);
    return tmp;
  }
  // Inlined with a constant length: memcmp here was an out-of-line call per true/false/null.
  KEEL_INLINE static bool literal(const std::uint8_t* p, std::size_t avail, const char* word,
                                  std::size_t wl) noexcept {
    if (avail < wl) return false;
    for (std::size_t k = 0; k < wl; ++k)
      if (p[k] != static_cast<std::uint8_t>(word[k])) return false;
    return avail == wl || !kTokenChar.t[p[wl]];
  }

  // The four bytes at p equal w: one 32-bit compare (kPad bytes past a token are readable, so
  // the bytes after a short token are spaces or other bytes that fail the compare).
  KEEL_INLINE static bool word4(const std::uint8_t* p, const char (&w)[5]) noexcept {
    std::uint32_t v, x;
    std::memcpy(&v, p, 4);
    std::memcpy(&x, w, 4);
    return v == x;
  }

  KEEL_INLINE bool scalar_at(const std::uint8_t* p, std::size_t off, std::size_t avail) noexcept {
    // Numbers first, with one branch for both signs (a switch would mispredict on '-' vs digit).
    if (is_digit(*p) | ((*p == '-') & (p[1] != 'I'))) return number(p, off);
    switch (*p) {
      case 't':
        if (!word4(p, "true") || kTokenChar.t[p[4]]) return fail(error_code::invalid_literal, off);
        *out++ = {tag_of(type::boolean, 0), 1};
        return true;
      case 'f':
        if (!word4(p + 1, "alse") || kTokenChar.t[p[5]])
          return fail(error_code::invalid_literal, off);
        *out++ = {tag_of(type::boolean, 0), 0};
        return true;
      case 'n':
        if (!word4(p, "null") || kTokenChar.t[p[4]]) return fail(error_code::invalid_literal, off);
        *out++ = {tag_of(type::null, 0), 0};
        return true;
      case 'N':
        if (!st.opt->allow_nan_inf || !literal(p, avail, "NaN", 3))
          return fail(error_code::invalid_literal, off);
        return put_double(std::numeric_limits<double>::quiet_NaN());
      case 'I':
        if (!st.opt->allow_nan_inf || !literal(p, avail, "Infinity", 8))
          return fail(error_code::invalid_literal, off);
        return put_double(std::numeric_limits<double>::infinity());
      case '-':  // "-I..."
        if (!st.opt->allow_nan_inf || !literal(p, avail, "-Infinity", 9))
          return fail(error_code::invalid_literal, off);
        return put_double(-std::numeric_limits<double>::infinity());
      default:
        return fail(error_code::unexpected_character, off);
    }
  }

  KEEL_INLINE bool put_double(double d) noexcept {
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    *out++ = {tag_of(type::double_, 0), bits};
    return true;
  }

  // Per byte of v (8 bytes of input): 0x33 where the byte is an ASCII digit. A carry out of a
  // byte >= 0xfa only disturbs the bytes after it, which the callers ignore.
  static std::uint64_t digit_marks(std::uint64_t v) noexcept {
    return (v & 0xf0f0f0f0f0f0f0f0ULL) |
           (((v + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) >> 4);
  }
  // The value of eight ASCII digits (first digit in the lowest byte), by SWAR multiplies.
  static std::uint32_t eight_value(std::uint64_t v) noexcept {
    v -= 0x3030303030303030ULL;
    v = v * 10 + (v >> 8);
    v = (((v & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32))) +
         (((v >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32)))) >>
        32;
    return static_cast<std::uint32_t>(v);
  }
  // Digits at p accumulated into m (wrapping beyond 19 digits; callers check the count), eight
  // at a time, then the last 0-7 in one step. Reads 8 bytes past the last digit at most.
  KEEL_INLINE static const std::uint8_t* digits(const std::uint8_t* p, std::uint64_t& m) noexcept {
    static constexpr std::uint32_t kScale[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    for (;;) {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      const std::uint64_t other = digit_marks(v) ^ 0x3333333333333333ULL;
      if (other == 0) {
        m = m * 100000000 + eight_value(v);
        p += 8;
        continue;
      }
      const int k = std::countr_zero(other) >> 3;  // leading digits in v
      if (k) {
        // Keep the k digits as the high bytes, pad the low bytes with '0'.
        const std::uint64_t w = (v << (64 - 8 * k)) | (0x3030303030303030ULL >> (8 * k));
        m = m * kScale[k] + eight_value(w);
        p += k;
      }
      return p;
    }
  }

  // digits() with the first 16 digits read by one vector conversion (vector kernels).
  KEEL_INLINE const std::uint8_t* any_digits(const std::uint8_t* p, std::uint64_t& m) noexcept {
    if constexpr (I::kSimdDigits) {
      std::uint64_t v;
      const int c = digits16(p, v);
      m = m * kPow10U64[c] + v;
      return c == 16 ? digits(p + 16, m) : p + c;
    } else {
      return digits(p, m);
    }
  }

  // RFC 8259 number at s; the token ends at a byte that cannot continue it, and kPad bytes past
  // the token are readable (see scalar()).
  KEEL_INLINE bool number(const std::uint8_t* const s, std::size_t off) noexcept {
    const std::uint8_t* p = s;
    const bool neg = *p == '-';
    p += neg;
    if constexpr (I::kSimdDigits) {
      // The common shapes, -?int and -?int.frac with up to 16 digits in each part and 19 in all,
      // from one digit mask of 32 bytes. A fraction of up to kExactDigits digits in all converts
      // in one step, the dot dropped; longer ones convert both parts in parallel (digits_sse.h).
      const std::uint32_t digs = digit_mask32(p);
      const auto il = static_cast<unsigned>(std::countr_zero(~digs));  // integer digits
      // An NDJSON record (Record) tests the count and the leading zero by one branch: its
      // integers mix lengths of one digit and more (amazon_cellphones.ndjson: AVX2 -2 %), where
      // the branch on il == 1 mispredicted; a document keeps the branches (numbers.json, every
      // number "0.", 3-4 % slower by one).
      bool shape;
      if constexpr (Record) {
        shape = (il - 1 < 16) & ((p[0] != '0') | (il == 1));
      } else {
        shape = il - 1 < 16 && (p[0] != '0' || il == 1);
      }
      if (shape) {
        const std::uint8_t after_int = kAfterDigits.v[p[il]];
        if (after_int == kDigitsEnd) {
          const std::uint64_t m = digits_value(p, static_cast<int>(il));  // < 10^16
          *out++ = {tag_of(type::int64, 0), neg ? ~m + 1 : m};
          return true;
        }
        if (after_int == kDigitsDot) {
          const auto fl = static_cast<unsigned>(std::countr_zero(~digs >> (il + 1)));
          const std::uint8_t* const e = p + il + 1 + fl;
          const std::uint8_t after_frac = kAfterDigits.v[*e];
          if (fl - 1 < 16 && il + fl <= 19 && il + 1 + fl < 32 && after_frac != kDigitsExp) {
            if (after_frac != kDigitsEnd) return fail(error_code::invalid_number, off);
            if (il + fl <= kExactDigits) {
              // m < 2^53 and 10^fl are exact doubles: their quotient, correctly rounded, is the
              // nearest double (Clinger).
              const auto m = static_cast<std::int64_t>(
                  decimal_value(p, static_cast<int>(il), static_cast<int>(fl)));
              const double d = static_cast<double>(m) / kPow10Double[fl];
              *out++ = {tag_of(type::double_, 0),
                        std::bit_cast<std::uint64_t>(d) | (std::uint64_t{neg} << 63)};
              return true;
            }
            const std::uint64_t m = digits_value(p, static_cast<int>(il)) * kPow10U64[fl] +
                                    digits_value(p + il + 1, static_cast<int>(fl));
            return to_double(neg, m, -static_cast<std::int64_t>(fl), s, e, off);
          }
        } else if (after_int != kDigitsExp) {
          return fail(error_code::invalid_number, off);
        }
      }
    }
    const std::uint8_t* const int_start = p;
    std::uint64_t m = 0;
    if (*p == '0') {
      ++p;
    } else if (is_digit(*p)) {
      p = any_digits(p, m);
    } else {
      return fail(error_code::invalid_number, off);
    }
    const std::size_t int_digits = static_cast<std::size_t>(p - int_start);
    bool is_float = false;
    std::size_t frac_digits = 0;
    if (*p == '.') {
      ++p;
      if (!is_digit(*p)) return fail(error_code::invalid_number, off);
      const std::uint8_t* f = p;
      p = any_digits(p, m);
      frac_digits = static_cast<std::size_t>(p - f);
      is_float = true;
    }
    std::int64_t exp = 0;
    if ((*p | 0x20) == 'e') {
      ++p;
      bool eneg = false;
      if (*p == '+' || *p == '-') {
        eneg = *p == '-';
        ++p;
      }
      if (!is_digit(*p)) return fail(error_code::invalid_number, off);
      while (is_digit(*p)) {
        if (exp < 100000000) exp = exp * 10 + (*p - '0');
        ++p;
      }
      if (eneg) exp = -exp;
      is_float = true;
    }
    if (kTokenChar.t[*p]) return fail(error_code::invalid_number, off);
    if (!is_float) {
      if (int_digits <= 19) {
        if (!neg) {
          *out++ = {
              tag_of(m <= static_cast<std::uint64_t>(INT64_MAX) ? type::int64 : type::uint64, 0),
              m};
          return true;
        }
        if (m <= (1ULL << 63)) {
          *out++ = {tag_of(type::int64, 0), ~m + 1};
          return true;
        }
      } else if (int_digits == 20 && !neg) {
        // Recompute with overflow checks: 20 digits may still fit uint64_t.
        std::uint64_t v = 0;
        bool over = false;
        for (const std::uint8_t* d = int_start; d < int_start + 20; ++d) {
          over |= __builtin_mul_overflow(v, 10u, &v);
          over |= __builtin_add_overflow(v, static_cast<std::uint64_t>(*d - '0'), &v);
        }
        if (!over) {
          *out++ = {tag_of(type::uint64, 0), v};
          return true;
        }
      }
      if (st.opt->big_integers_as_raw) {
        const std::size_t tl = static_cast<std::size_t>(p - s);
        if constexpr (InPlace) {  // the token where it is (s may be a padded copy of it)
          *out++ = {tag_of(type::raw_number, tl), off};
          return true;
        }
        std::memcpy(sout, s, tl);
        *out++ = {tag_of(type::raw_number, tl), static_cast<std::uint64_t>(sout - sbase)};
        sout[tl] = 0;
        sout += tl + 1;
        return true;
      }
    } else if (int_digits + frac_digits <= 19) {
      // m holds every digit exactly: value = m * 10^e10.
      return to_double(neg, m, exp - static_cast<std::int64_t>(frac_digits), s, p, off);
    }
    return slow_double(s, p, off);
  }

  // The double nearest m * 10^e10 (m exact, <= 19 digits), negated if neg; s..p is the token.
  // Below 10^kExactDigits m < 2^53 and, for |e10| <= 22, 10^|e10| are exact doubles: their
  // correctly rounded product or quotient is the nearest double (Clinger). Else Eisel-Lemire
  // (fast_float's compute_float), whose own branches do not depend on the digits.
  KEEL_INLINE bool to_double(bool neg, std::uint64_t m, std::int64_t e10, const std::uint8_t* s,
                             const std::uint8_t* p, std::size_t off) noexcept {
    if (m < kPow10U64[kExactDigits] && static_cast<std::uint64_t>(e10 + 22) <= 44) {
      const double dm = static_cast<double>(static_cast<std::int64_t>(m));
      const double d = e10 < 0 ? dm / kPow10Double[-e10] : dm * kPow10Double[e10];
      *out++ = {tag_of(type::double_, 0),
                std::bit_cast<std::uint64_t>(d) | (std::uint64_t{neg} << 63)};
      return true;
    }
    const fast_float::adjusted_mantissa am =
        fast_float::compute_float<fast_float::binary_format<double>>(e10, m);
    if (am.power2 < 0) [[unlikely]]  // undecided: the full algorithm
      return slow_double(s, p, off);
    if (am.power2 == fast_float::binary_format<double>::infinite_power())
      return fail(error_code::number_out_of_range, off);
    double d;
    fast_float::to_float(neg, am, d);
    return put_double(d);
  }

  KEEL_INLINE bool slow_double(const std::uint8_t* s, const std::uint8_t* p,
                               std::size_t off) noexcept {
    double d = 0;
    const error_code e = full_double(s, p, d);
    return e == error_code::ok ? put_double(d) : fail(e, off);
  }
  // Out of line (rare: > 19 digits, or Eisel-Lemire undecided), and static: no `this` escapes.
  KEEL_NOINLINE static error_code full_double(const std::uint8_t* s, const std::uint8_t* p,
                                              double& d) noexcept {
    const auto r = fast_float::from_chars(reinterpret_cast<const char*>(s),
                                          reinterpret_cast<const char*>(p), d);
    if (r.ptr != reinterpret_cast<const char*>(p)) return error_code::invalid_number;
    if (!std::isfinite(d)) return error_code::number_out_of_range;
    return error_code::ok;
  }

  // Stage 2 on a local stage2 whose address never escapes (no out-of-line member takes `this`):
  // GCC can keep more of its members in registers (char and vector stores may alias anything
  // reachable through a pointer). Inlined: as a function of its own it measured 4 % slower on
  // canada.json (1 % faster on twitter.json).
  KEEL_INLINE static bool go(parse_state& st, const std::uint8_t* buf, std::size_t safe,
                             node* nodes, std::uint8_t* strings, node*& out_end,
                             std::uint8_t*& sout_end) noexcept {
    stage2 s2{st, buf, st.len, st.idx, st.n_idx, st.idx + safe, nodes, strings, strings, nodes};
    const bool ok = s2.run();
    out_end = s2.out;
    sout_end = s2.sout;
    return ok;
  }

  // Out of line and static (no `this`): an unexpected position, or the end of the positions.
  KEEL_NOINLINE static bool bad_at(parse_state& st, const std::uint32_t* q,
                                   const std::uint32_t* end, std::size_t len) noexcept {
    st.code = q >= end ? error_code::unexpected_end : error_code::unexpected_character;
    st.offset = q >= end ? len : *q;
    return false;
  }

  // The grammar over the structural positions, walked by pointer. The innermost open container
  // (its first node, kind and element count) lives in locals; the stack keeps the enclosing ones.
  bool run() noexcept {
    const parse_options& opt = *st.opt;
    const std::size_t max_depth = opt.max_depth;
    // Nesting is bounded by the input too: each level needs an opening byte.
    const std::size_t stack_cap = (max_depth < n ? max_depth : n) + 1;
    std::uint64_t* const stack = st.stack(2 * stack_cap);
    if (stack == nullptr) return fail(error_code::out_of_memory, 0);
    const std::uint32_t* ip = idx;
    const std::uint32_t* const end = idx + n;
    // The enclosing containers: two words each, sp past the innermost; max_depth of them at most
    // (one pointer instead of a depth and the stack: fewer values live in the grammar loop).
    std::uint64_t* sp = stack;
    const std::uint64_t* const sp_limit = stack + 2 * (stack_cap - 1);  // max_depth levels
    // The innermost container: its first node (nullptr at the top level, outside every
    // container), and its element count times two plus one for an object (one value for both:
    // one fewer live in the grammar loop, and close needs no index arithmetic).
    node* cur_start = nullptr;
    std::uint64_t cur_count = 0;
    // No end check: the positions after the last one are sentinels (see sentinels()).
    auto ch = [&](const std::uint32_t* q) -> std::uint8_t { return buf[*q]; };
    auto bad = [&](const std::uint32_t* q) { return bad_at(st, q, end, len); };

    if (n == 0) return fail(error_code::empty_document, len);
  value:
    recycle();
    // The common values first, each behind one branch: a string, then a number (or any byte from
    // '-' to '9': scalar() rejects '.' and '/' as the switch's default would). GCC makes the
    // switch a chain of compares, five branches before a number's; it is left for containers,
    // literals and errors.
    if (ch(ip) == '"') {
      if (!string(ip)) return false;
      ip += 2;
      goto after_value;
    }
    if (static_cast<std::uint8_t>(ch(ip) - '-') <= '9' - '-') goto value_scalar;
    switch (ch(ip)) {
      case '{':
      case '[': {
        if (sp >= sp_limit) return fail(error_code::depth_exceeded, *ip);
        open_container(sp, cur_start, cur_count, out, buf[*ip] == '{');
        ++out;
        ++ip;
        if (cur_count) {
          if (ch(ip) == '}') {
            ++ip;
            goto close;
          }
          goto key;
        }
        if (ch(ip) == ']') {
          ++ip;
          goto close;
        }
        goto value;
      }
      case ']':
        // A value expected after a comma (an array's first value after '[' was checked there):
        // a trailing comma, when allowed. Checked here, off the path of every comma.
        if (opt.allow_trailing_commas && cur_start != nullptr && !(cur_count & 1)) {
          ++ip;
          goto close;
        }
        return bad(ip);
      case 0:
      case '}':
      case ',':
      case ':':
        return bad(ip);
      default:
      value_scalar:
        if (!scalar(ip)) return false;
        ++ip;
        goto after_value;
    }
  key:
    recycle();
    if (ch(ip) != '"') [[unlikely]] {
      // A key expected after a comma ("{}" was checked at the '{'): a trailing comma, when
      // allowed.
      if (ch(ip) == '}' && opt.allow_trailing_commas) {
        ++ip;
        goto close;
      }
      return bad(ip);
    }
    if (!string(ip)) return false;
    ip += 2;
    if (ch(ip) != ':') return bad(ip);
    ++ip;
    // The member's value. The most common, a short string without escapes, a small integer or a
    // literal, is taken here (as string() or scalar() would): what follows it is then known to
    // be an object's ',' or '}', without the value switch and the top-level and container kind
    // tests of after_value. Any other value goes the general way.
    if constexpr (kMemberStringStep<I>) {
      if (ch(ip) == '"' && ip + 1 < safe) {
        recycle();
        if constexpr (InPlace) {
          sout = sbase;
          src_off = ip[0] + 1;
        }
        const std::size_t remain = ip[1] - ip[0] - 1;
        if (remain <= I::kShort) {
          if ((I::copy_short(buf + ip[0] + 1, sout) & ((std::uint64_t{1} << remain) - 1)) == 0) {
            string_node(sout, sout + remain, kNoEscape);
            ip += 2;
            goto object_next;
          }
        } else if constexpr (kSafeChunkStep<I>) {
          // Values of up to three chunks (URLs, short sentences) here too, without a loop:
          // apache_builds.json -3 %, update-center.json -4 % (AVX2). [[unlikely]] keeps them off
          // the straight path: without it numbers.json, an array, was laid out 11 % slower.
          if (remain <= 3 * I::kChunk) [[unlikely]] {
            const std::uint8_t* const src = buf + ip[0] + 1;
            const std::uint64_t m = I::copy_chunk(src, sout) |
                                    (I::copy_chunk(src + I::kChunk, sout + I::kChunk) << I::kChunk);
            std::uint64_t bs;
            if (remain <= 2 * I::kChunk) {
              bs = low_bits(m, remain);
            } else {
              bs = m | low_bits(I::copy_chunk(src + 2 * I::kChunk, sout + 2 * I::kChunk),
                                remain - 2 * I::kChunk);
            }
            if (bs == 0) {
              string_node(sout, sout + remain, kNoEscape);
              ip += 2;
              goto object_next;
            }
          }
        }
      } else if (I::kSimdDigits && is_digit(ch(ip)) && ip + 1 < safe) {
        // The other common member value, a small integer (up to 15 digits, no sign, fraction
        // or exponent), read by one vector conversion; anything else goes the general way.
        const std::uint8_t* const p = buf + *ip;
        std::uint64_t v = 0;
        int k = 16;
        if constexpr (I::kSimdDigits) k = digits16(p, v);
        if (k < 16 && (p[0] != '0' || k == 1) && kAfterDigits.v[p[k]] == kDigitsEnd) {
          recycle();
          *out++ = {tag_of(type::int64, 0), v};
          ++ip;
          goto object_next;
        }
      } else if (static_cast<std::uint8_t>(ch(ip) - 'f') <= 't' - 'f' && ip + 1 < safe) {
        // true, false or null: one compare of their bytes, then the byte after them.
        const std::uint8_t* const p = buf + *ip;
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        const auto w4 = static_cast<std::uint32_t>(w);
        node lit;
        std::size_t wl = 4;
        if (w4 == 0x65757274) {  // "true" (little-endian, as every vector kernel set)
          lit = {tag_of(type::boolean, 0), 1};
        } else if (w4 == 0x6c6c756e) {  // "null"
          lit = {tag_of(type::null, 0), 0};
        } else if ((w & 0xffffffffffULL) == 0x65736c6166ULL) {  // "false"
          lit = {tag_of(type::boolean, 0), 0};
          wl = 5;
        } else {
          goto value;
        }
        if (!kTokenChar.t[p[wl]]) {
          recycle();
          *out++ = lit;
          ++ip;
          goto object_next;
        }
      }
    }
    goto value;
  after_value:
    if (cur_start == nullptr) goto done;
    cur_count += 2;
    if (cur_count & 1) {
      const std::uint8_t c = ch(ip++);
      if (c == ',') goto key;
      if (c == '}') goto close;
      return bad(ip - 1);
    } else {
      const std::uint8_t c = ch(ip++);
      if (c == ',') goto value;
      if (c == ']') goto close;
      return bad(ip - 1);
    }
  close:
    close_container(sp, cur_start, cur_count, out);
    goto after_value;
  // After a member's value taken by kMemberStringStep (the label is unused where it is off).
  object_next:
    __attribute__((unused));
    {
      cur_count += 2;
      const std::uint8_t c = ch(ip++);
      if (c == ',') goto key;
      if (c == '}') goto close;
      return bad(ip - 1);
    }
  done:
    // The direct read of struct mapping parses one value at a time. (A run-time flag here, a
    // member, measured 14 % slower on twitter.json and instruments.json: GCC kept fewer of the
    // members in registers.)
    if constexpr (M == stage2_mode::one_value) {
      st.next_position = ip;
      return true;
    }
    // An NDJSON record (parse_record): the positions go on after its line, whose '\n' is one of
    // them (stage1<I, Lines>) and ends the record. Its callers parse whole records
    // (stop_after_first off) and read next_position alone, not consumed.
    if constexpr (Record) {
      if (ip < end && buf[*ip] != '\n') return fail(error_code::trailing_content, *ip);
      st.next_position = ip;
      return true;
    }
    if (ip < end) {
      if (!opt.stop_after_first) return fail(error_code::trailing_content, *ip);
      st.consumed = *ip;
    } else {
      st.consumed = len;
    }
    if (opt.stop_after_first && ip > idx) {
      // End of the value: after its last token.
      const std::size_t last = ip[-1];
      const std::uint8_t c = buf[last];
      std::size_t e = last + 1;
      if (c != '}' && c != ']' && c != '"') {
        while (e < len && kTokenChar.t[buf[e]]) ++e;
      }
      st.consumed = e;
    }
    return true;
  }
};

// Stage 2 reads the byte at each position without checking for the end of the positions: after
// the last one, stage 1's array gets sentinel positions at a byte that ends every grammar state
// in an error (unexpected_end) without consuming the next position, or after consuming at most
// one more (':' after a key). Any byte but { [ , ] } does: the last such byte of the input is
// used. An input made only of those five bytes (no string, scalar or whitespace anywhere, e.g.
// "[[],[]]") is copied with a space appended for the sentinel. Returns the buffer stage 2 reads.
inline const std::uint8_t* sentinels(parse_state& st) noexcept {
  if (st.n_idx == 0) return st.buf;
  const auto ends_grammar = [](std::uint8_t c) {
    return c != '{' && c != '[' && c != ',' && c != ']' && c != '}';
  };
  std::size_t at = st.len;
  while (at > 0 && !ends_grammar(st.buf[at - 1])) --at;
  const std::uint8_t* buf = st.buf;
  std::uint32_t pos;
  if (at > 0) {
    pos = static_cast<std::uint32_t>(at - 1);
  } else {
    auto* copy = reinterpret_cast<std::uint8_t*>(st.scratch(st.len + 1));
    if (copy == nullptr) return nullptr;
    std::memcpy(copy, st.buf, st.len);
    copy[st.len] = ' ';
    buf = copy;
    pos = static_cast<std::uint32_t>(st.len);
  }
  for (std::size_t k = 0; k < kSentinels; ++k) st.idx[st.n_idx + k] = pos;
  return buf;
}

// parser::parse_in_place, after a successful parse: the strings with escapes (and keys), whose
// nodes hold the offset of their text in `text`, rewritten there unescaped (never longer than
// their source). The text was checked by the parse: no error cases here.
inline void unescape_in_place(const node* nodes, std::size_t count, std::uint8_t* text) noexcept {
  for (const node* n = nodes; n < nodes + count; ++n) {
    if ((n->tag & (kTypeMask | kNoEscape)) != static_cast<std::uint64_t>(type::string)) continue;
    std::uint8_t* dst = text + n->data;
    const std::uint8_t* src = dst;
    for (;;) {
      const std::uint8_t c = *src;
      if (c == '"') break;  // the closing quote: every quote inside is escaped
      if (c != '\\') {
        *dst++ = c;
        ++src;
      } else if (src[1] != 'u') {
        *dst++ = kEscapeChar.v[src[1]];
        src += 2;
      } else {
        // Each write (up to 4 bytes) ends within the escape's own source bytes, already read.
        std::uint32_t cp = static_cast<std::uint32_t>(hex4(src + 2));
        if (cp - 0xd800 < 0x800) {
          cp = 0x10000 + ((cp - 0xd800) << 10) +
               (static_cast<std::uint32_t>(hex4(src + 8)) - 0xdc00);
          utf8_encode_4(cp, dst);
          dst += 4;
          src += 12;
        } else {
          dst += utf8_encode_bmp(cp, dst);
          src += 6;
        }
      }
    }
  }
}

}  // namespace

// Stage 1 marking the blocks with a backslash (st.backslash_blocks), out of line: the parse's
// own stage 1 is the same code with or without it.
template <class I>
KEEL_NOINLINE void find_positions_marked(parse_state& st) noexcept {
  stage1<I, 0, true>::run(st);
}

// Stage 1 alone: fills st.idx / st.n_idx and st.s1_error / st.s1_offset.
// With st.backslash_blocks set, stage1<I> marks the blocks; an ISA's own stage 1 does not, and
// clears the pointer to say so.
template <class I>
void find_positions(parse_state& st) noexcept {
  if constexpr (requires { I::stage1(st); }) {
    st.backslash_blocks = nullptr;
    I::stage1(st);  // the ISA's own stage 1 (isa_scalar: stage1_scalar.h)
  } else if (st.backslash_blocks != nullptr) [[unlikely]]
    find_positions_marked<I>(st);
  else
    stage1<I>::run(st);
}

// Stage 1 alone with the line ends as positions, and the lines counted unless `counts` is nullptr
// (lines_fn): the ISAs built on stage1<I>.
template <class I>
void find_positions_lines(parse_state& st, line_counts* counts) noexcept {
  if (counts != nullptr) {
    stage1<I, 2>::run(st, *counts);
  } else {
    stage1<I, 1>::run(st);
  }
}

// After a successful parse that built nodes [nodes, out_end) and strings [strings, sout_end):
// the document's counts, and for a parse in place its strings unescaped in the caller's text.
template <stage2_mode M>
KEEL_INLINE void finish_document(parse_state& st, node* nodes, node* out_end, std::uint8_t* strings,
                                 std::uint8_t* sout_end) noexcept {
  if constexpr (M == stage2_mode::in_place) {
    // The document's strings are the caller's text: a copy made to strip comments goes back
    // there first, up to the end of the value (text after it stays as it was).
    if (st.buf != st.in_place_text) std::memcpy(st.in_place_text, st.buf, st.consumed);
    unescape_in_place(nodes, static_cast<std::size_t>(out_end - nodes), st.in_place_text);
    st.finish(static_cast<std::size_t>(out_end - nodes), 0);
  } else {
    st.finish(static_cast<std::size_t>(out_end - nodes),
              static_cast<std::size_t>(sout_end - strings));
  }
}

// Both stages; the result (or error) is left in st. One function per mode: with both stages
// inlined into one, the parse measured up to 10 % slower (code layout).
template <class I, stage2_mode M>
KEEL_NOINLINE void parse_document_as(parse_state& st) noexcept {
  constexpr bool Build = M != stage2_mode::validate;
  if (!st.positions_given) find_positions<I>(st);
  node* nodes = st.nodes(Build ? st.n_idx + 1 : kValidateRing + 1);
  std::uint8_t* strings = reinterpret_cast<std::uint8_t*>(st.strings(st.len + kStringSlack));
  if (nodes == nullptr || strings == nullptr) {
    st.code = error_code::out_of_memory;
    st.offset = 0;
    return;
  }
  // The first position within kPad bytes of the end: earlier ones need no end checks.
  std::size_t safe = st.n_idx;
  while (safe > 0 && st.idx[safe - 1] + kPad > st.len) --safe;
  const std::uint8_t* const buf = sentinels(st);
  if (buf == nullptr) {
    st.code = error_code::out_of_memory;
    st.offset = 0;
    return;
  }
  node* out_end;
  std::uint8_t* sout_end;
  const bool ok = stage2<I, M>::go(st, buf, safe, nodes, strings, out_end, sout_end);
  if (st.s1_error != error_code::ok) {
    // Indices stop at the stage-1 error: report it unless stage 2 failed earlier, or (when only
    // the first value was wanted) that value ended before it.
    if (!ok ? st.offset >= st.s1_offset : !st.opt->stop_after_first) {
      st.code = st.s1_error;
      st.offset = st.s1_offset;
      return;
    }
  }
  if (ok && Build) finish_document<M>(st, nodes, out_end, strings, sout_end);
}

// NDJSON: stage 2 alone over one record of a batch (record_fn in parse_state.h), without
// parse_document_as's per-parse steps (room, sentinel position, `safe`): the batch makes them once.
template <class I>
void parse_record(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe) noexcept {
  node* out_end;
  std::uint8_t* sout_end;
  if (stage2<I, stage2_mode::build, true>::go(st, st.buf, safe, nodes, strings, out_end, sout_end))
    finish_document<stage2_mode::build>(st, nodes, out_end, strings, sout_end);
}

template <class I>
void parse_document(parse_state& st) noexcept {
  switch (st.mode) {
    case stage2_mode::build:
    case stage2_mode::one_value:  // (only struct mapping's value_at, not a whole document)
      return parse_document_as<I, stage2_mode::build>(st);
    case stage2_mode::validate:
      return parse_document_as<I, stage2_mode::validate>(st);
    case stage2_mode::in_place:
      return parse_document_as<I, stage2_mode::in_place>(st);
  }
}

}  // namespace keel::json::detail
