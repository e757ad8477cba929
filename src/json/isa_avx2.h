// SPDX-License-Identifier: MIT
// AVX2 block primitives (two 32-byte halves per 64-byte block). Compiled with -mavx2 -mbmi
// -mbmi2 -mpclmul -mpopcnt (src/json/CMakeLists.txt; not -mlzcnt, which keel's CPU check does
// not test for: std::countl_zero/countl_one compile to bsr and a zero test).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "common/simd_avx2.h"

namespace keel::json::detail {

struct parse_state;

// 32 backslashes for copy_chunk's compare (internal linkage: addressed relative to the code).
alignas(32) static constexpr std::uint8_t kBackslashes32[32] = {
    '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\',
    '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\', '\\'};

// All ones for prefix_xor's carry-less multiply (as kBackslashes32).
alignas(16) static constexpr std::uint64_t kOnes16[2] = {~std::uint64_t{0}, ~std::uint64_t{0}};

struct isa_avx2 : keel::detail::simd_avx2 {
  struct block {
    __m256i lo, hi;
  };
  static block load(const std::uint8_t* p) noexcept {
    return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32))};
  }
  static std::uint64_t bits(__m256i lo, __m256i hi) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(lo)) |
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(hi))) << 32);
  }
  static std::uint64_t eq(const block& b, std::uint8_t c) noexcept {
    const __m256i k = _mm256_set1_epi8(static_cast<char>(c));
    return bits(_mm256_cmpeq_epi8(b.lo, k), _mm256_cmpeq_epi8(b.hi, k));
  }
  // Nonzero when a byte of the block is c (one mask move for both halves).
  static std::uint64_t any_eq(const block& b, std::uint8_t c) noexcept {
    const __m256i k = _mm256_set1_epi8(static_cast<char>(c));
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(b.lo, k), _mm256_cmpeq_epi8(b.hi, k))));
  }
  static std::uint64_t control(const block& b) noexcept {
    const __m256i k = _mm256_set1_epi8(0x1f);
    return bits(_mm256_cmpeq_epi8(_mm256_min_epu8(b.lo, k), b.lo),
                _mm256_cmpeq_epi8(_mm256_min_epu8(b.hi, k), b.hi));
  }
  // Control characters and non-ASCII bytes: one signed compare with 0x20 a register (bytes
  // 0x80-0xff are negative), where control() takes two. Stage 1 tests this in the block's fast
  // path and takes the non-ASCII bytes out in its slow path. The constant goes through an empty
  // asm: otherwise GCC rewrites 0x20 > b as b <= 0x1f and compares by min and equality again.
  static std::uint64_t control_or_high(const block& b) noexcept {
    __m256i k = _mm256_set1_epi8(0x20);
    asm("" : "+x"(k));
    return bits(_mm256_cmpgt_epi8(k, b.lo), _mm256_cmpgt_epi8(k, b.hi));
  }
  // control_or_high's compares kept as vectors (isa_avx2_plain): whether the block has such a
  // byte is one mask move for both halves (any_of); their mask (mask_of) is made only then.
  static block control_or_high_v(const block& b) noexcept {
    __m256i k = _mm256_set1_epi8(0x20);
    asm("" : "+x"(k));
    return {_mm256_cmpgt_epi8(k, b.lo), _mm256_cmpgt_epi8(k, b.hi)};
  }
  static std::uint64_t any_of(const block& c) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(c.lo, c.hi)));
  }
  static std::uint64_t mask_of(const block& c) noexcept { return bits(c.lo, c.hi); }
  static std::uint64_t high(const block& b) noexcept { return bits(b.lo, b.hi); }
  // Nonzero when the block has a non-ASCII byte (one mask move, not the positions of high()).
  static std::uint64_t any_high(const block& b) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(b.lo, b.hi)));
  }
  // Whitespace and operators (see stage1_scalar.h) by table lookup on the low nibble: the four
  // whitespace bytes have distinct low nibbles, and so do { } , : (after OR 0x20).
  static __m256i ws_bytes(__m256i v) noexcept {
    const __m256i t = _mm256_setr_epi8(' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0,
                                       ' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0);
    return _mm256_cmpeq_epi8(_mm256_shuffle_epi8(t, v), v);
  }
  static __m256i op_bytes(__m256i v) noexcept {
    const __m256i t = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0, 0, 0,
                                       0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0);
    v = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
    return _mm256_cmpeq_epi8(_mm256_shuffle_epi8(t, v), v);
  }
  static void classify(const block& b, std::uint64_t& ws, std::uint64_t& ops) noexcept {
    ws = bits(ws_bytes(b.lo), ws_bytes(b.hi));
    ops = bits(op_bytes(b.lo), op_bytes(b.hi));
  }
  // Operators, and the separators (operators, whitespace and quotes, escaped ones included) whose
  // complement is the bare-token bytes: the three ORed in the vector registers, one mask for the
  // separators instead of whitespace's own and two ORs after it (stage 1 -2.6 to -3.8 %).
  static void classify_sep(const block& b, std::uint64_t& ops, std::uint64_t& sep) noexcept {
    const __m256i q = _mm256_set1_epi8('"');
    const __m256i op_lo = op_bytes(b.lo), op_hi = op_bytes(b.hi);
    ops = bits(op_lo, op_hi);
    sep = bits(_mm256_or_si256(_mm256_or_si256(op_lo, ws_bytes(b.lo)), _mm256_cmpeq_epi8(b.lo, q)),
               _mm256_or_si256(_mm256_or_si256(op_hi, ws_bytes(b.hi)), _mm256_cmpeq_epi8(b.hi, q)));
  }
  // Structural positions as 32-bit offsets, four per step (room: kIndexSlack). tzcnt and blsr
  // by intrinsic: from std::countr_zero (defined as 64 for 0) GCC made a branch after every
  // position for the case that the mask has run out, taken at each block's last position. tzcnt
  // by asm: from _tzcnt_u64 GCC put an xor before every one (to break a false dependency on the
  // destination that CPUs since Skylake and every Zen do not have): a fifth of the writing's
  // instructions.
  template <int K>
  static void put4(std::uint32_t* o, std::uint32_t base, std::uint64_t& m) noexcept {
    for (int k = K; k < K + 4; ++k) {
      std::uint64_t t;
      asm("tzcnt %1, %0" : "=r"(t) : "r"(m));
      o[k] = base + static_cast<std::uint32_t>(t);
      m = _blsr_u64(m);
    }
  }
  // Empty blocks (an eighth of twitter.json's) skip it; then four positions per step up to 32: a
  // block's positions cost what they are rounded up to four, where eight per step cost twice
  // that on blocks of 1-4 or 9-12 positions (most of them in documents of short strings). Past
  // 24, two more steps rather than a loop: dense documents of short keys and values have 20-31
  // positions a block, and a loop over the last few mispredicted its exit on most of them.
  // Eight (NDJSON batches, stage1<I, Lines>): eight positions per step up to 32, the first eight
  // written whatever the count, with no test for an empty block. amazon_cellphones.ndjson's
  // blocks have 0, 3 or 5 positions most often (18, 38 and 15 %), where the tests of an empty
  // block and of more than four mispredicted: its NDJSON read 3.6 % faster.
  template <bool Eight = false>
  static void flatten(std::uint32_t*& out, std::uint32_t base, std::uint64_t m) noexcept {
    if (!Eight && m == 0) return;
    const auto cnt = static_cast<int>(_mm_popcnt_u64(m));
    std::uint32_t* o = out;
    put4<0>(o, base, m);
    if (Eight || cnt > 4) {
      put4<4>(o, base, m);
      if (cnt > 8) {
        put4<8>(o, base, m);
        if (Eight || cnt > 12) {
          put4<12>(o, base, m);
          if (cnt > 16) {
            put4<16>(o, base, m);
            put4<20>(o, base, m);
            if (cnt > 24) {
              put4<24>(o, base, m);
              put4<28>(o, base, m);
              for (int k = 32; k < cnt; ++k) {
                o[k] = base + static_cast<std::uint32_t>(_tzcnt_u64(m));
                m = _blsr_u64(m);
              }
            }
          }
        }
      }
    }
    out = o + cnt;
  }
  // Stage 1 of a document takes two blocks a step (parse_kernels.h; an NDJSON batch one).
  static constexpr bool kBlockPairs = true;
  // The all-ones operand read from memory by the multiply itself: from _mm_set1_epi8(-1) GCC
  // made it anew (vpcmpeqd) in every block, its vector registers taken by the classification.
  static std::uint64_t prefix_xor(std::uint64_t x) noexcept {
    const __m128i v = _mm_cvtsi64_si128(static_cast<long long>(x));
    __m128i r;
    asm("vpclmulqdq $0, %[k], %[v], %[r]" : [r] "=x"(r) : [k] "m"(kOnes16), [v] "x"(v));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(r));
  }
  // The UTF-8 check (common/utf8_check.h) runs on the vector primitives of simd_avx2, two
  // registers per block.
  static constexpr bool kVectorUtf8 = true;
  static constexpr bool kSimdDigits = true;  // digits_sse.h
  static constexpr int kVecs = 2;
  static vec part(const block& b, int k) noexcept { return k == 0 ? b.lo : b.hi; }
  // Short strings: the 32-byte chunk step (most keys and many values fit in one).
  static constexpr std::size_t kShort = 32;
  static std::uint64_t copy_short(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    return copy_chunk(src, dst);
  }

  // Stage 1 of documents that start without control or non-ASCII bytes (find_positions):
  // stage1<isa_avx2_plain>, in parse_avx2_plain.cpp.
  static void positions_plain(parse_state& st) noexcept;

  static constexpr std::size_t kChunk = 32;
  // Longer strings far enough from the end by chunks without an end check (parse_kernels.h:
  // stage2::string): update-center.json -9 %, twitter.json -3 %.
  static constexpr bool kSafeChunkStep = true;
  static std::uint64_t copy_chunk(const std::uint8_t* src, std::uint8_t* dst) noexcept {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), v);
    // The compare reads the backslashes from memory, in one instruction: from _mm256_set1_epi8
    // (or a load of a constant) GCC rebuilt the vector with three for every string.
    __m256i bs;
    asm("vpcmpeqb %[k], %[v], %[r]" : [r] "=x"(bs) : [k] "m"(kBackslashes32), [v] "x"(v));
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(bs));
  }
};

// isa_avx2 with the plain-text stage 1 (stage1::kPlainText), compiled in a translation unit of
// its own (parse_avx2_plain.cpp): with both loops in one file, GCC allocated the registers of
// both worse.
struct isa_avx2_plain : isa_avx2 {
  static constexpr bool kPlainText = true;
};

}  // namespace keel::json::detail
