// SPDX-License-Identifier: MIT
// The hash of entry names used by map's index and view's index: names are short, so 8 bytes at
// a time, multiply-folded (the indexes keep the high 32 bits and probe with the low ones, so
// both halves are mixed). Private to keel::msg.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace keel::msg::detail {

template <class T>
inline T load_raw(const char* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
__extension__ typedef unsigned __int128 hash_u128;
inline std::uint64_t fold_mul(std::uint64_t a, std::uint64_t b) noexcept {
  const hash_u128 r = static_cast<hash_u128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}
inline std::uint64_t hash_name(std::string_view s) noexcept {
  constexpr std::uint64_t k0 = 0x9e3779b97f4a7c15ull, k1 = 0xbf58476d1ce4e5b9ull;
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = k0 ^ n;
  while (n > 16) {
    h = fold_mul(load_raw<std::uint64_t>(p) ^ k1, load_raw<std::uint64_t>(p + 8) ^ h);
    p += 16;
    n -= 16;
  }
  // The rest (0..16 bytes) by overlapping fixed-size loads: no variable-length copy.
  std::uint64_t a = 0, b = 0;
  if (n > 8) {
    a = load_raw<std::uint64_t>(p);
    b = load_raw<std::uint64_t>(p + n - 8);
  } else if (n >= 4) {
    a = load_raw<std::uint32_t>(p) | std::uint64_t{load_raw<std::uint32_t>(p + n - 4)} << 32;
  } else if (n > 0) {
    a = std::uint64_t{static_cast<std::uint8_t>(p[0])} << 16 |
        std::uint64_t{static_cast<std::uint8_t>(p[n / 2])} << 8 |
        static_cast<std::uint8_t>(p[n - 1]);
  }
  return fold_mul(a ^ k1, b ^ h);
}

}  // namespace keel::msg::detail
