// The block copy for 2113 .. 16384 bytes, written once over a vector width and compiled per
// instruction set (copy_avx512.cpp; chosen at run time in copy.cpp). Why that range: glibc 2.36
// copies with `rep movsb` above 2112 bytes on CPUs with FSRM, and on the machine measured (AMD
// EPYC, AVX-512) that was 25-35% slower than this loop up to 16 KiB; below 2113 bytes glibc's own
// vector loop was as fast or faster, and above 16 KiB (source and destination no longer in L1)
// its `rep movsb` won. docs/bincode.md, "Fast paths", has the figures.
//
// Shape: the first vector and the last four are loaded up front; the body moves four vectors per
// iteration with unaligned loads and stores aligned to the vector width; the last four and the
// first vector are stored at the end (overlapping the body where the size is not a multiple of
// four vectors). Source and destination never overlap (as for memcpy).
#pragma once

#include <cstddef>
#include <cstdint>

namespace keel::bincode::detail {

inline constexpr std::size_t copy_kernel_min = 2113, copy_kernel_max = 16384;

// V: `static constexpr std::size_t width`, loadu(p), storeu(p, r), store_aligned(p, r).
// Requires n >= 4 * width.
template <class V>
inline void copy_kernel(std::uint8_t* d, const std::uint8_t* s, std::size_t n) noexcept {
  constexpr std::size_t w = V::width;
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

// copy_kernel with AVX-512 vectors, for copy_kernel_min .. copy_kernel_max bytes.
void copy_kernel_avx512(void* dst, const void* src, std::size_t n) noexcept;

}  // namespace keel::bincode::detail
