// SPDX-License-Identifier: MIT
// The block copies for 65 .. 16384 bytes, written once over a vector width and compiled per
// instruction set (copy_avx512.cpp; chosen at run time in copy.cpp). Why that range: glibc 2.36
// copies with `rep movsb` above 2112 bytes on CPUs with FSRM, and on the machine measured (AMD
// EPYC, AVX-512) that was 25-35% slower than this loop up to 16 KiB; above 16 KiB (source and
// destination no longer in L1) its `rep movsb` won. Below 2113 bytes glibc's vector code was
// 0.26..2 ns slower per call than these kernels (72 B .. 2 KiB, mean over 48 placements).
// docs/bincode.md, "Fast paths", has the figures.
//
// Shape: up to four vectors, all loaded, then all stored (overlapping where the size is not a
// multiple of the width). Above that, the first vector and the last four are loaded up front; the
// body moves four vectors per iteration with unaligned loads and stores aligned to the vector
// width; the last four and the first vector are stored at the end (overlapping the body where the
// size is not a multiple of four vectors). Source and destination never overlap (as for memcpy).
#pragma once

#include <cstddef>
#include <cstdint>

namespace keel::bincode::detail {

inline constexpr std::size_t copy_kernel_min = 65, copy_kernel_max = 16384;

// V: `static constexpr std::size_t width`, loadu(p), storeu(p, r), store_aligned(p, r) (and
// shift_in8 for copy_prefixed_kernel, below).
// Requires n > width.
template <class V>
inline void copy_kernel(std::uint8_t* d, const std::uint8_t* s, std::size_t n) noexcept {
  constexpr std::size_t w = V::width;
  if (n <= 4 * w) {
    if (n <= 2 * w) {
      const auto a = V::loadu(s), b = V::loadu(s + n - w);
      V::storeu(d, a);
      V::storeu(d + n - w, b);
      return;
    }
    const auto a = V::loadu(s), b = V::loadu(s + w), c = V::loadu(s + n - 2 * w),
               e = V::loadu(s + n - w);
    V::storeu(d, a);
    V::storeu(d + w, b);
    V::storeu(d + n - 2 * w, c);
    V::storeu(d + n - w, e);
    return;
  }
  const auto head = V::loadu(s);
  const auto t0 = V::loadu(s + n - 4 * w), t1 = V::loadu(s + n - 3 * w),
             t2 = V::loadu(s + n - 2 * w), t3 = V::loadu(s + n - w);
  const std::size_t skip = w - (reinterpret_cast<std::uintptr_t>(d) & (w - 1));  // 1 .. w
  std::uint8_t* p = d + skip;
  const std::uint8_t* q = s + skip;
  std::uint8_t* const body_end = d + n - 4 * w;
  for (; p < body_end; p += 4 * w, q += 4 * w) {
    const auto r0 = V::loadu(q), r1 = V::loadu(q + w), r2 = V::loadu(q + 2 * w),
               r3 = V::loadu(q + 3 * w);
    V::store_aligned(p, r0);
    V::store_aligned(p + w, r1);
    V::store_aligned(p + 2 * w, r2);
    V::store_aligned(p + 3 * w, r3);
  }
  V::storeu(d + n - 4 * w, t0);
  V::storeu(d + n - 3 * w, t1);
  V::storeu(d + n - 2 * w, t2);
  V::storeu(d + n - w, t3);
  V::storeu(d, head);
}

// The u64 `len` then n bytes of s, into d (8 + n bytes): the first vector is the length and the
// first w - 8 bytes of s (V::shift_in8(r, x): x in bytes 0..7, then bytes 0 .. w - 8 of r);
// d + i for i >= 8 comes from s + i - 8, copied as by copy_kernel. Reads only s .. s + n.
// Requires n >= w.
template <class V>
inline void copy_prefixed_kernel(std::uint8_t* d, std::uint64_t len, const std::uint8_t* s,
                                 std::size_t n) noexcept {
  constexpr std::size_t w = V::width;
  const std::size_t m = n + 8;
  const auto first = V::shift_in8(V::loadu(s), len);
  if (n < 4 * w) {  // up to four more vectors: all loaded, then all stored
    decltype(V::loadu(s)) mid[3];
    std::size_t k = 0;
    for (std::size_t i = w; i + w < m && k < 3; i += w) mid[k++] = V::loadu(s + (i - 8));
    const auto last = V::loadu(s + (n - w));
    for (std::size_t j = 0; j < k; ++j) V::storeu(d + (j + 1) * w, mid[j]);
    V::storeu(d + m - w, last);
    V::storeu(d, first);
    return;
  }
  const auto t0 = V::loadu(s + (n - 4 * w)), t1 = V::loadu(s + (n - 3 * w)),
             t2 = V::loadu(s + (n - 2 * w)), t3 = V::loadu(s + (n - w));
  std::size_t skip = w - (reinterpret_cast<std::uintptr_t>(d) & (w - 1));  // 1 .. w
  if (skip < 8) {  // the body's first vector would start before s: one more unaligned vector
    V::storeu(d + w, V::loadu(s + (w - 8)));
    skip += w;
  }
  std::uint8_t* p = d + skip;
  const std::uint8_t* q = s + (skip - 8);
  std::uint8_t* const body_end = d + m - 4 * w;
  for (; p < body_end; p += 4 * w, q += 4 * w) {
    const auto r0 = V::loadu(q), r1 = V::loadu(q + w), r2 = V::loadu(q + 2 * w),
               r3 = V::loadu(q + 3 * w);
    V::store_aligned(p, r0);
    V::store_aligned(p + w, r1);
    V::store_aligned(p + 2 * w, r2);
    V::store_aligned(p + 3 * w, r3);
  }
  V::storeu(d + m - 4 * w, t0);
  V::storeu(d + m - 3 * w, t1);
  V::storeu(d + m - 2 * w, t2);
  V::storeu(d + m - w, t3);
  V::storeu(d, first);
}

// copy_kernel with AVX-512 vectors (any n > 64; called for copy_kernel_min .. copy_kernel_max).
void copy_kernel_avx512(void* dst, const void* src, std::size_t n) noexcept;
// copy_prefixed_kernel with AVX-512 vectors (any n > 64; called for copy_kernel_min ..
// copy_kernel_max).
void copy_prefixed_kernel_avx512(void* dst, std::uint64_t len, const void* src,
                                 std::size_t n) noexcept;

}  // namespace keel::bincode::detail
