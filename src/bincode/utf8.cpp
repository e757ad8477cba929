// SPDX-License-Identifier: MIT
// UTF-8 validation with Rust's str::from_utf8 rules (Unicode Table 3-7: no overlong forms, no
// surrogates, nothing above U+10FFFF), with an 8-bytes-at-a-time ASCII fast path.
#include <cstring>

#include "keel/bincode/detail/wire.h"

namespace keel::bincode::detail {

bool valid_utf8(const std::uint8_t* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (i < n) {
    if (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      if ((w & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const std::uint8_t b = p[i];
    if (b < 0x80) {
      ++i;
      continue;
    }
    const std::size_t width = utf8_width(b);
    if (width == 0 || n - i < width) return false;
    std::uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (b == 0xE0)
      lo = 0xA0;
    else if (b == 0xED)
      hi = 0x9F;
    else if (b == 0xF0)
      lo = 0x90;
    else if (b == 0xF4)
      hi = 0x8F;
    if (p[i + 1] < lo || p[i + 1] > hi) return false;
    for (std::size_t k = 2; k < width; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return false;
    i += width;
  }
  return true;
}

}  // namespace keel::bincode::detail
