// SPDX-License-Identifier: MIT
// Stage 2's block decoder of escapes (parse_kernels.h, stage2::long_string): the escapes and plain
// bytes of a string's next 64 bytes decoded at once, for text dense in escapes. Written once over
// a 64-byte vector type V (AVX-512 BW + VBMI2: one register and mask registers; AVX2: two
// registers, their masks as 64-bit integers), instantiated in the kernel sets that have one.
//
// Every output byte is computed where it stands from its own hex value and its neighbours':
// a \uXXXX's one to three UTF-8 bytes at offsets 2-4 of the escape, a surrogate pair's four at
// offsets 3, 4, 5 and 10, a one-character escape's byte after its backslash, plain bytes as they
// are; then the bytes kept are packed by one compress (VBMI2) or eight table shuffles (AVX2).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include <immintrin.h>

#include "keel/detail/attributes.h"

namespace keel::json::detail {
namespace escape_block {

// The byte tables, each 16 entries four times (one per 128-bit lane): the classes of a
// one-character escape's low nibble and of its high nibble (they meet for " \ / b f n r t), and
// what the letters b f n r t stand for, by (letter >> 1) & 15.
alignas(64) inline constexpr std::uint8_t kTables[192] = {
    0x00, 0x00, 0x0d, 0x00, 0x08, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x04, 0x01,
    0x00, 0x00, 0x0d, 0x00, 0x08, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x04, 0x01,
    0x00, 0x00, 0x0d, 0x00, 0x08, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x04, 0x01,
    0x00, 0x00, 0x0d, 0x00, 0x08, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x04, 0x01,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x02, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x02, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x02, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x02, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x0d, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x0d, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x0d, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x08, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x0d, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00};

inline constexpr std::uint64_t kEven = 0x5555555555555555ULL;

// The backslashes of bs (none escaped by a byte before bit 0) that start an escape: in each run
// of them the first, third, ... (the runs that start on an even bit, cleared by adding their
// first bit, escape from their even bits; the others from their odd bits).
inline std::uint64_t escape_starts(std::uint64_t bs) noexcept {
  const std::uint64_t runs = bs & ~(bs << 1);
  const std::uint64_t even_runs = bs & ~(bs + (runs & kEven));
  return (even_runs & kEven) | (bs & ~even_runs & ~kEven);
}

#if defined(__AVX512BW__) && defined(__AVX512VBMI2__)
struct avx512 {
  using vec = __m512i;
  static vec load(const std::uint8_t* p) noexcept { return _mm512_loadu_si512(p); }
  static vec table(const std::uint8_t* t) noexcept { return _mm512_load_si512(t); }
  static vec set1(int c) noexcept { return _mm512_set1_epi8(static_cast<char>(c)); }
  static std::uint64_t eq(vec a, vec b) noexcept { return _mm512_cmpeq_epi8_mask(a, b); }
  static std::uint64_t le(vec a, vec b) noexcept { return _mm512_cmple_epu8_mask(a, b); }
  static std::uint64_t test(vec a, vec b) noexcept { return _mm512_test_epi8_mask(a, b); }
  static vec add(vec a, vec b) noexcept { return _mm512_add_epi8(a, b); }
  static vec sub(vec a, vec b) noexcept { return _mm512_sub_epi8(a, b); }
  static vec or_(vec a, vec b) noexcept { return _mm512_or_si512(a, b); }
  static vec and_(vec a, vec b) noexcept { return _mm512_and_si512(a, b); }
  static vec or3(vec a, vec b, vec c) noexcept { return _mm512_ternarylogic_epi32(a, b, c, 0xfe); }
  template <int K>
  static vec shl16(vec a) noexcept {
    return _mm512_slli_epi16(a, K);
  }
  template <int K>
  static vec shr16(vec a) noexcept {
    return _mm512_srli_epi16(a, K);
  }
  static vec lookup(vec t, vec i) noexcept { return _mm512_shuffle_epi8(t, i); }
  static vec blend(vec a, std::uint64_t m, vec b) noexcept { return _mm512_mask_mov_epi8(a, m, b); }
  // Byte i of the result is byte i + K of a (zeros past the 64).
  template <int K>
  static vec next(vec a) noexcept {
    // maskz form: the plain one trips GCC 12 -Wmaybe-uninitialized (_mm512_undefined).
    const vec up = _mm512_maskz_alignr_epi32(0xffff, _mm512_setzero_si512(), a, 4);
    return _mm512_alignr_epi8(up, a, K);
  }
  // The bytes of `out` at the bits of `keep`, in order, at dst (64 bytes stored); their count.
  static std::size_t compress(std::uint8_t* dst, std::uint64_t keep, vec out) noexcept {
    _mm512_storeu_si512(dst, _mm512_maskz_compress_epi8(keep, out));
    return static_cast<std::size_t>(std::popcount(keep));
  }
};
#endif

#if defined(__AVX2__)
// For each 8-bit mask, the indexes of its set bits in order (then zeros): a shuffle that packs
// an 8-byte group's kept bytes.
struct pack_table {
  std::uint64_t v[256];
  constexpr pack_table() : v() {
    for (int m = 0; m < 256; ++m) {
      std::uint64_t idx = 0;
      int k = 0;
      for (int b = 0; b < 8; ++b)
        if (m & (1 << b)) idx |= static_cast<std::uint64_t>(b) << (8 * k++);
      v[m] = idx;
    }
  }
};
inline constexpr pack_table kPack{};

// Every byte value 32 times (avx2::set1 reads its vectors from here).
struct splat_table {
  alignas(32) std::uint8_t v[256][32];
  constexpr splat_table() : v() {
    for (int c = 0; c < 256; ++c)
      for (int k = 0; k < 32; ++k) v[c][k] = static_cast<std::uint8_t>(c);
  }
};
inline constexpr splat_table kSplat{};

struct avx2 {
  struct vec {
    __m256i lo, hi;
  };
  // The table's address hidden from GCC: from _mm256_set1_epi8 (or a load it can see through)
  // it rebuilt each vector with a mov, a vmovd and a vpbroadcastb at every use (43 in decode);
  // a load from memory folds into the instruction that uses it.
  static const std::uint8_t* splat(int c) noexcept {
    const std::uint8_t* t = &kSplat.v[0][0];
    asm("" : "+r"(t));
    return t + std::size_t{32} * static_cast<std::size_t>(c & 0xff);
  }
  static vec load(const std::uint8_t* p) noexcept {
    return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32))};
  }
  static vec table(const std::uint8_t* t) noexcept {
    const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(t));
    return {x, x};
  }
  static vec set1(int c) noexcept {
    const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(splat(c)));
    return {x, x};
  }
  static std::uint64_t mask(vec a) noexcept {
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(a.lo)) |
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(a.hi)))
            << 32);
  }
  static std::uint64_t eq(vec a, vec b) noexcept {
    return mask({_mm256_cmpeq_epi8(a.lo, b.lo), _mm256_cmpeq_epi8(a.hi, b.hi)});
  }
  static std::uint64_t le(vec a, vec b) noexcept {
    return eq({_mm256_min_epu8(a.lo, b.lo), _mm256_min_epu8(a.hi, b.hi)}, a);
  }
  static std::uint64_t test(vec a, vec b) noexcept {
    const __m256i z = _mm256_setzero_si256();
    return ~eq({_mm256_and_si256(a.lo, b.lo), _mm256_and_si256(a.hi, b.hi)}, {z, z});
  }
  static vec add(vec a, vec b) noexcept {
    return {_mm256_add_epi8(a.lo, b.lo), _mm256_add_epi8(a.hi, b.hi)};
  }
  static vec sub(vec a, vec b) noexcept {
    return {_mm256_sub_epi8(a.lo, b.lo), _mm256_sub_epi8(a.hi, b.hi)};
  }
  static vec or_(vec a, vec b) noexcept {
    return {_mm256_or_si256(a.lo, b.lo), _mm256_or_si256(a.hi, b.hi)};
  }
  static vec and_(vec a, vec b) noexcept {
    return {_mm256_and_si256(a.lo, b.lo), _mm256_and_si256(a.hi, b.hi)};
  }
  static vec or3(vec a, vec b, vec c) noexcept { return or_(or_(a, b), c); }
  template <int K>
  static vec shl16(vec a) noexcept {
    return {_mm256_slli_epi16(a.lo, K), _mm256_slli_epi16(a.hi, K)};
  }
  template <int K>
  static vec shr16(vec a) noexcept {
    return {_mm256_srli_epi16(a.lo, K), _mm256_srli_epi16(a.hi, K)};
  }
  static vec lookup(vec t, vec i) noexcept {
    return {_mm256_shuffle_epi8(t.lo, i.lo), _mm256_shuffle_epi8(t.hi, i.hi)};
  }
  // 32 mask bits as 32 bytes of 0 or 0xff.
  static __m256i spread(std::uint32_t m) noexcept {
    const __m256i bytes =
        _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(m)),
                            _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2,
                                             2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3));
    const __m256i bits = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
    return _mm256_cmpeq_epi8(_mm256_and_si256(bytes, bits), bits);
  }
  static vec blend(vec a, std::uint64_t m, vec b) noexcept {
    return {_mm256_blendv_epi8(a.lo, b.lo, spread(static_cast<std::uint32_t>(m))),
            _mm256_blendv_epi8(a.hi, b.hi, spread(static_cast<std::uint32_t>(m >> 32)))};
  }
  template <int K>
  static vec next(vec a) noexcept {
    const __m256i lo_up = _mm256_permute2x128_si256(a.lo, a.hi, 0x21);
    const __m256i hi_up = _mm256_permute2x128_si256(a.hi, a.hi, 0x81);
    return {_mm256_alignr_epi8(lo_up, a.lo, K), _mm256_alignr_epi8(hi_up, a.hi, K)};
  }
  static std::size_t compress(std::uint8_t* dst, std::uint64_t keep, vec out) noexcept {
    alignas(32) std::uint8_t b[64];
    _mm256_store_si256(reinterpret_cast<__m256i*>(b), out.lo);
    _mm256_store_si256(reinterpret_cast<__m256i*>(b + 32), out.hi);
    std::uint8_t* const start = dst;
    for (std::size_t g = 0; g < 8; ++g) {
      const auto k = static_cast<std::uint8_t>(keep >> (8 * g));
      const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + 8 * g));
      const __m128i i = _mm_cvtsi64_si128(static_cast<long long>(kPack.v[k]));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(dst), _mm_shuffle_epi8(x, i));
      dst += std::popcount(k);
    }
    return static_cast<std::size_t>(dst - start);
  }
};
#endif

// Decodes from src, at a backslash that starts an escape, with 64 readable bytes; lim is how
// many bytes of the string are left (its closing quote at src[lim]). Returns how many source
// bytes it took (up to lim, or up to an escape starting at byte 52 or later: every escape before
// it ends within the 64) and the bytes written at dst in `wrote` (64 bytes may be stored), or 0
// when something in them is not a valid escape (the caller's exact path then says what).
template <class V>
KEEL_NOINLINE std::size_t decode(const std::uint8_t* src, std::size_t lim, std::uint8_t* dst,
                                 std::size_t& wrote) noexcept {
  using vec = typename V::vec;
  const vec v = V::load(src);
  const std::uint64_t in = lim >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lim) - 1;
  const std::uint64_t bs = V::eq(v, V::set1('\\')) & in;
  const std::uint64_t starts = escape_starts(bs);
  const std::uint64_t u_all = starts & (V::eq(v, V::set1('u')) >> 1);

  // Hex values (0-15 in every byte: clean for the shifts below) and where they are hex digits.
  const vec dg = V::sub(v, V::set1('0'));
  const vec al = V::sub(V::or_(v, V::set1(0x20)), V::set1('a'));
  const std::uint64_t is_dg = V::le(dg, V::set1(9));
  const std::uint64_t hex = is_dg | V::le(al, V::set1(5));
  const vec n = V::and_(V::blend(V::add(al, V::set1(10)), is_dg, dg), V::set1(0x0f));
  const vec n1 = V::template next<1>(n);
  const vec n4 = V::template next<4>(n);
  const vec n5 = V::template next<5>(n);

  // Per \u start s, from its digits' masks shifted back to s: D then 8-B or C-F (a high or low
  // surrogate), else 3, 2 or 1 UTF-8 bytes by the leading nonzero bits.
  const std::uint64_t nz = V::test(n, n) & hex;
  const std::uint64_t ge8 = V::test(n, V::set1(8));
  const std::uint64_t has4 = V::test(n, V::set1(4));
  const std::uint64_t is_d = V::eq(n, V::set1(0xd));
  const std::uint64_t sur_all = u_all & (is_d >> 2) & (ge8 >> 3);
  const std::uint64_t hs_all = sur_all & ~(has4 >> 3);
  // The block ends at lim, or at an escape start from byte 52 on (the second half of a pair not
  // counting as one).
  const std::uint64_t late = starts & ~(hs_all << 6) & ~std::uint64_t{0xfffffffffffff};
  const std::size_t cut =
      late ? static_cast<std::size_t>(std::countr_zero(late)) : (lim < 64 ? lim : 64);
  const std::uint64_t m = cut >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << cut) - 1;
  const std::uint64_t u = u_all & m;
  const std::uint64_t sh = starts & m & ~u;
  const std::uint64_t sur = sur_all & m;
  const std::uint64_t hs = hs_all & m;
  const std::uint64_t ls = sur & ~hs;
  const std::uint64_t bmp = u & ~sur;
  const std::uint64_t three = bmp & ((nz >> 2) | (ge8 >> 3));
  const std::uint64_t two = bmp & ~three & ((nz >> 3) | (ge8 >> 4));
  const std::uint64_t one = bmp & ~three & ~two;

  // A one-character escape's letter: valid when the classes of its two nibbles meet; " \ /
  // stand for themselves, b f n r t by a table on (letter >> 1) & 15.
  const vec lo_n = V::and_(v, V::set1(0x0f));
  const vec hi_n = V::and_(V::template shr16<4>(v), V::set1(0x0f));
  const std::uint64_t short_ok =
      V::test(V::lookup(V::table(kTables), lo_n), V::lookup(V::table(kTables + 64), hi_n));

  // Anything else goes to the exact path: a bad digit or letter, a half pair.
  const std::uint64_t digits = (u << 2) | (u << 3) | (u << 4) | (u << 5);
  if ((digits & ~hex) | ((sh << 1) & ~short_ok) | (ls ^ (hs << 6))) return 0;

  const vec ctl =
      V::lookup(V::table(kTables + 128), V::and_(V::template shr16<1>(v), V::set1(0x0f)));
  const vec x80 = V::set1(0x80);
  const vec n1_hi2 = V::and_(V::template shr16<2>(n1), V::set1(3));  // (s+1's digit) >> 2
  const vec lo2_4 = V::template shl16<4>(V::and_(n, V::set1(3)));    // (digit & 3) << 4
  const vec mid = V::or_(V::template shl16<2>(n), n1_hi2);
  vec out = V::blend(v, (sh << 1) & V::le(V::set1(0x60), v), ctl);
  // s+2 of 3 bytes: 1110 and the first digit; s+3 of 3 (2) bytes: 10 (110) and six bits; s+4 of
  // 2-3 bytes and a pair's last byte at s+10: 10 and six bits; s+4 of 1 byte: two digits.
  out = V::blend(out, three << 2, V::or_(n, V::set1(0xe0)));
  out = V::blend(out, three << 3, V::or_(mid, x80));
  out = V::blend(out, two << 3, V::or_(mid, V::set1(0xc0)));
  out = V::blend(out, ((three | two) << 4) | (hs << 10), V::or3(lo2_4, n1, x80));
  out = V::blend(out, one << 4, V::or_(V::template shl16<4>(n), n1));
  // A pair, high half's digits at s+2..s+5 and low half's at s+8..s+11: code point
  // ((H + 0x40) << 10) | L for their ten low bits H and L, the + 0x40 a 4 added to s+4's digit.
  const vec carry = V::template shr16<4>(V::and_(V::add(n1, V::set1(4)), V::set1(0x10)));
  out = V::blend(out, hs << 3, V::or_(V::add(V::and_(n, V::set1(3)), carry), V::set1(0xf0)));
  const vec h4 = V::and_(V::add(n, V::set1(4)), V::set1(0x0f));
  out = V::blend(out, hs << 4, V::or3(V::template shl16<2>(h4), n1_hi2, x80));
  out = V::blend(out, hs << 5,
                 V::or3(V::or_(lo2_4, x80), V::template shl16<2>(V::and_(n4, V::set1(3))),
                        V::and_(V::template shr16<2>(n5), V::set1(3))));

  const std::uint64_t covered = digits | u | (u << 1) | sh | (sh << 1);
  const std::uint64_t keep = (m & ~covered) | (sh << 1) | (three << 2) | ((three | two) << 3) |
                             (bmp << 4) | (hs << 3) | (hs << 4) | (hs << 5) | (hs << 10);
  wrote = V::compress(dst, keep, out);
  return cut;
}

}  // namespace escape_block
}  // namespace keel::json::detail
