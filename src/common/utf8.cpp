// SPDX-License-Identifier: MIT
// keel::utf8_valid: the scalar loop for short inputs and CPUs without vectors, the vector kernel
// of the best (or forced) instruction set otherwise.
#include "keel/utf8.h"

#include <cstring>

#include "common/utf8.h"
#include "common/utf8_kernel.h"

namespace keel {
namespace {

// Below this many bytes the vector kernel's setup costs more than the scalar loop.
constexpr std::size_t kVectorMin = 64;

bool utf8_valid_scalar(const std::uint8_t* p, std::size_t n) noexcept {
  const std::uint8_t* end = p + n;
  while (p < end) {
    if (end - p >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        p += 8;
        continue;
      }
    }
    if (*p < 0x80) {
      ++p;
      continue;
    }
    const std::size_t len = detail::utf8_sequence(p, end);
    if (len == 0) return false;
    p += len;
  }
  return true;
}

using kernel = bool (*)(const std::uint8_t*, std::size_t) noexcept;

kernel kernel_for(isa which) noexcept {
  if (!isa_supported(which)) which = isa::scalar;
  switch (which) {
#if defined(__x86_64__)
    case isa::avx512:
      return detail::utf8_valid_avx512;
    case isa::avx2:
      return detail::utf8_valid_avx2;
#elif defined(__aarch64__)
    case isa::neon:
      return detail::utf8_valid_neon;
#endif
    default:
      return utf8_valid_scalar;
  }
}

[[gnu::noinline]] bool utf8_valid_long(const std::uint8_t* p, std::size_t n) noexcept {
  static const kernel best = kernel_for(best_isa());
  return best(p, n);
}

}  // namespace

bool utf8_valid(const std::uint8_t* p, std::size_t n) noexcept {
  return n < kVectorMin ? utf8_valid_scalar(p, n) : utf8_valid_long(p, n);
}

bool utf8_valid(const std::uint8_t* p, std::size_t n, isa which) noexcept {
  return kernel_for(which == isa::automatic ? best_isa() : which)(p, n);
}

}  // namespace keel
