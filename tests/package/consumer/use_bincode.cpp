// SPDX-License-Identifier: MIT
// A tiny real use of the installed keel::bincode: a struct encoded as Rust's bincode 2 standard()
// would, and decoded back.
#include <keel/bincode.h>

#include <cstdio>

namespace {
struct point {
  std::int32_t x;
  std::string label;
  std::optional<double> weight;
  bool operator==(const point&) const = default;
};
}  // namespace

int use_bincode() {
  namespace kb = keel::bincode;
  const point p{-2, "ab", 1.5};
  auto bytes = kb::encode_to_vector(p, kb::standard());
  // x = -2 (zigzag 3), "ab" (len 2), Some(1.5)
  const std::vector<std::uint8_t> want{3, 2, 'a', 'b', 1, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F};
  if (!bytes || *bytes != want) {
    std::fprintf(stderr, "use_bincode: unexpected encoding\n");
    return 1;
  }
  auto back = kb::decode<point>(*bytes, kb::standard());
  return back && *back == p ? 0 : 1;
}
