// SPDX-License-Identifier: MIT
// The vector UTF-8 validator of a whole buffer, written once over the byte-vector primitives of
// simd_<isa>.h and instantiated per instruction set (utf8_avx2.cpp, utf8_avx512.cpp on x86-64,
// utf8_neon.cpp on AArch64).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/utf8_check.h"

namespace keel::detail {

template <class S>
bool utf8_valid_vec(const std::uint8_t* p, std::size_t n) noexcept {
  using vec = typename S::vec;
  constexpr std::size_t W = sizeof(vec);
  utf8_check<S> check;
  const vec high = S::splat(0x80);
  std::size_t i = 0;
  for (; i + W <= n; i += W) {
    const vec in = S::loadu(p + i);
    if (S::any(S::and_(in, high)))
      check.check(in);
    else
      check.ascii();
  }
  if (i < n) {  // the tail, padded with zeros (ASCII: they complete no sequence)
    alignas(64) std::uint8_t tail[W] = {};
    std::memcpy(tail, p + i, n - i);
    check.check(S::loadu(tail));
  }
  check.ascii();  // a sequence left open at the end is an error
  return !S::any(check.error);
}

#if defined(__x86_64__)
bool utf8_valid_avx2(const std::uint8_t* p, std::size_t n) noexcept;
bool utf8_valid_avx512(const std::uint8_t* p, std::size_t n) noexcept;
#elif defined(__aarch64__)
bool utf8_valid_neon(const std::uint8_t* p, std::size_t n) noexcept;
#endif

}  // namespace keel::detail
