// SPDX-License-Identifier: MIT
// The block copies for 65 .. 16384 bytes, written once over a vector width and compiled per
// instruction set (copy_avx2.cpp, copy_avx512.cpp; chosen at run time in copy.cpp). Why that range:
// glibc 2.36 copies with `rep movsb` above 2112 bytes on CPUs with FSRM, and on the machine
// measured (AMD EPYC, AVX-512) that was 25-35% slower than this loop up to 16 KiB; above 16 KiB
// (source and destination no longer in L1) its `rep movsb` won. Below 2113 bytes glibc's vector
// code was 0.26..2 ns slower per call than these kernels (72 B .. 2 KiB, mean over 48 placements).
// docs/bincode.md, "Fast paths", has the figures.
//
// Shape: up to four vectors, all loaded, then all stored (overlapping where the size is not a
// multiple of the width); up to five vectors, the first vector and the last four likewise; from
// five vectors and a byte up to eight, the first four and the last four likewise (as glibc copies
// up to eight vectors: no loop). Above that, the first vector and the last four are loaded up
// front; the body moves four vectors per iteration with unaligned loads and stores aligned to the
// vector width; the last four and the first vector are stored at the end (overlapping the body
// where the size is not a multiple of four vectors). Where the destination is less than 256 bytes
// ahead of the source modulo 4 KiB the body runs from the end instead (aliases_forward, below).
// Source and destination never overlap (as for memcpy).
#pragma once

#include <cstddef>
#include <cstdint>

#include "keel/bincode/detail/wire.h"

namespace keel::bincode::detail {

// copy_kernel_min, copy_kernel_max, copy_fn: keel/bincode/detail/wire.h.

// Four vectors stored unaligned at p, p + width, p + 2 * width, p + 3 * width.
template <class V, class R>
[[gnu::always_inline]] inline void store4(std::uint8_t* p, R r0, R r1, R r2, R r3) noexcept {
  constexpr std::size_t w = V::width;
  V::storeu(p, r0);
  V::storeu(p + w, r1);
  V::storeu(p + 2 * w, r2);
  V::storeu(p + 3 * w, r3);
}

// The kernel's body copying `size` bytes to d: four vectors an iteration from q to p (p aligned to
// the vector width) while p < d + size - 4 * width, then the last four vectors of the copy,
// t0..t3, stored at d + size - 4 * width (overlapping the body's last iteration).
template <class V, class R>
[[gnu::always_inline]] inline void copy_body(std::uint8_t* p, const std::uint8_t* q,
                                             std::uint8_t* d, std::size_t size, R t0, R t1, R t2,
                                             R t3) noexcept {
  constexpr std::size_t w = V::width;
  for (std::uint8_t* const body_end = d + size - 4 * w; p < body_end; p += 4 * w, q += 4 * w) {
    const auto r0 = V::loadu(q), r1 = V::loadu(q + w), r2 = V::loadu(q + 2 * w),
               r3 = V::loadu(q + 3 * w);
    V::store_aligned(p, r0);
    V::store_aligned(p + w, r1);
    V::store_aligned(p + 2 * w, r2);
    V::store_aligned(p + 3 * w, r3);
  }
  store4<V>(d + size - 4 * w, t0, t1, t2, t3);
}

// Whether a forward loop would read behind its own stores modulo 4 KiB: the destination less than
// 256 bytes ahead of the source modulo 4 KiB. A load from the address of a pending store modulo
// 4 KiB waits for it ("4K aliasing"); there the body is copied from its end, as glibc's memmove
// does.
inline bool aliases_forward(const std::uint8_t* d, const std::uint8_t* s) noexcept {
  return ((reinterpret_cast<std::uintptr_t>(d) - reinterpret_cast<std::uintptr_t>(s)) & 4095) < 256;
}

// The kernel's body copied from its end: four vectors an iteration, stored aligned to the vector
// width, from the last whole vector of d .. d + size down while the loads stay at or after s.
// Leaves d .. d + 4 * width (at most) and the last vector (d + size - width ..) for the caller.
template <class V>
[[gnu::always_inline]] inline void copy_body_backward(std::uint8_t* d, const std::uint8_t* s,
                                                      std::size_t size) noexcept {
  constexpr std::size_t w = V::width;
  std::size_t e = size - ((reinterpret_cast<std::uintptr_t>(d) + size) & (w - 1));
  for (; e >= 4 * w; e -= 4 * w) {
    const std::uint8_t* q = s + e;
    const auto r0 = V::loadu(q - 4 * w), r1 = V::loadu(q - 3 * w), r2 = V::loadu(q - 2 * w),
               r3 = V::loadu(q - w);
    V::store_aligned(d + e - 4 * w, r0);
    V::store_aligned(d + e - 3 * w, r1);
    V::store_aligned(d + e - 2 * w, r2);
    V::store_aligned(d + e - w, r3);
  }
}

// V: `static constexpr std::size_t width`, loadu(p), storeu(p, r), store_aligned(p, r).
// Requires n > width. Starts on a 64-byte boundary: wherever the linker happened to put it, a
// 128-256 byte copy varied by up to 0.25 ns (10-15 %) with the same code.
template <class V>
[[gnu::aligned(64)]] inline void copy_kernel(std::uint8_t* d, const std::uint8_t* s,
                                             std::size_t n) noexcept {
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
  if (n <= 5 * w) {  // the first vector and the last four, all loaded first (no loop)
    const auto h = V::loadu(s), b0 = V::loadu(s + n - 4 * w), b1 = V::loadu(s + n - 3 * w),
               b2 = V::loadu(s + n - 2 * w), b3 = V::loadu(s + n - w);
    store4<V>(d + n - 4 * w, b0, b1, b2, b3);
    V::storeu(d, h);
    return;
  }
  if (n <= 8 * w) {  // the first four vectors and the last four, all loaded first
    const auto a0 = V::loadu(s), a1 = V::loadu(s + w), a2 = V::loadu(s + 2 * w),
               a3 = V::loadu(s + 3 * w), b0 = V::loadu(s + n - 4 * w), b1 = V::loadu(s + n - 3 * w),
               b2 = V::loadu(s + n - 2 * w), b3 = V::loadu(s + n - w);
    store4<V>(d, a0, a1, a2, a3);
    store4<V>(d + n - 4 * w, b0, b1, b2, b3);
    return;
  }
  if (aliases_forward(d, s)) {
    const auto h0 = V::loadu(s), h1 = V::loadu(s + w), h2 = V::loadu(s + 2 * w),
               h3 = V::loadu(s + 3 * w), last = V::loadu(s + n - w);
    copy_body_backward<V>(d, s, n);
    V::storeu(d + n - w, last);
    V::storeu(d, h0);
    V::storeu(d + w, h1);
    V::storeu(d + 2 * w, h2);
    V::storeu(d + 3 * w, h3);
    return;
  }
  const auto head = V::loadu(s);
  const auto t0 = V::loadu(s + n - 4 * w), t1 = V::loadu(s + n - 3 * w),
             t2 = V::loadu(s + n - 2 * w), t3 = V::loadu(s + n - w);
  const std::size_t skip = w - (reinterpret_cast<std::uintptr_t>(d) & (w - 1));  // 1 .. w
  std::uint8_t* p = d + skip;
  const std::uint8_t* q = s + skip;
  copy_body<V>(p, q, d, n, t0, t1, t2, t3);
  V::storeu(d, head);
}

// The kernel of one instruction set (copy_kernel over its vectors): any n > 64; copy.cpp calls
// it for copy_kernel_min .. copy_kernel_max. (Encoding stores the u64 length by itself and then
// copies the payload with the same kernel: docs/bincode.md, "Fast paths".)
// 32-byte AVX2 and 64-byte AVX-512F vectors. (The scalar path copies with the C library's memcpy:
// a kernel of 16-byte SSE2 vectors took 1.5-2x its time from 256 bytes up.)
#if defined(__x86_64__)
extern const copy_fn copy_kernel_avx2, copy_kernel_avx512;
#endif

}  // namespace keel::bincode::detail
