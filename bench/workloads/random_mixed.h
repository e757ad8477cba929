// SPDX-License-Identifier: MIT
// The reference allocation workload (alloc issue, "random-mixed"): one thread, `slots` live
// slots, `decisions` alloc-or-free decisions drawn from one xorshift64 stream. An empty slot gets
// a block of a size uniform in [min_size, max_size] whose first and last bytes are written; a
// full slot's block is read and freed. Shared by the baseline suite (no-op allocator: the floor)
// and the per-process allocator driver, so both do exactly the same work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace keel::bench::workload {

struct random_mixed_params {
  std::uint32_t min_size = 16;
  std::uint32_t max_size = 1024;
  std::uint32_t slots = 400;
  std::uint64_t decisions = 20'000'000;
  std::uint64_t seed = 0x9E3779B97F4A7C15ull;
};

inline std::uint64_t xorshift64(std::uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// alloc(size) -> void*, release(ptr, size). Returns a checksum of the bytes read back.
template <class Alloc, class Release>
std::uint64_t random_mixed(const random_mixed_params& p, Alloc&& alloc, Release&& release) {
  struct slot {
    unsigned char* ptr;
    std::uint32_t size;
  };
  std::vector<slot> live(p.slots, slot{nullptr, 0});
  const std::uint64_t span = p.max_size - p.min_size + 1;
  std::uint64_t x = p.seed;
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < p.decisions; ++i) {
    const std::uint64_t r = xorshift64(x);
    slot& s = live[(r >> 8) % p.slots];
    if (s.ptr) {
      sum += s.ptr[0] + s.ptr[s.size - 1];
      release(s.ptr, s.size);
      s.ptr = nullptr;
    } else {
      const auto size = static_cast<std::uint32_t>(p.min_size + (r >> 32) % span);
      auto* ptr = static_cast<unsigned char*>(alloc(size));
      ptr[0] = static_cast<unsigned char>(i);
      ptr[size - 1] = static_cast<unsigned char>(i >> 8);
      s = slot{ptr, size};
    }
  }
  for (slot& s : live) {
    if (s.ptr) release(s.ptr, s.size);
  }
  return sum;
}

}  // namespace keel::bench::workload
