// SPDX-License-Identifier: MIT
// A tiny real use of the installed keel::bincode_batch: a batch encoded on a keel::pool, decoded
// back on the calling thread.
#include <keel/bincode.h>
#include <keel/bincode/batch.h>
#include <keel/pool.h>

#include <cstdio>

namespace {
struct point {
  std::int32_t x;
  std::string label;
  bool operator==(const point&) const = default;
};
}  // namespace

int use_bincode_batch() {
  namespace kb = keel::bincode;
  keel::pool::thread_pool pool(1);
  std::vector<point> many;
  for (std::int32_t i = 0; i < 100; ++i) many.push_back({i, "p" + std::to_string(i)});
  kb::buffer out;
  std::vector<std::size_t> offsets;
  if (!kb::encode_batch(pool, std::span<const point>(many), out, offsets, kb::standard()).ok()) {
    std::fprintf(stderr, "use_bincode_batch: encode_batch failed\n");
    return 1;
  }
  std::vector<point> back;
  const std::span<const std::uint8_t> bytes(out.data(), out.size());
  if (!kb::decode_batch(kb::serial, bytes, offsets, back, kb::standard()).ok()) return 1;
  return back == many ? 0 : 1;
}
