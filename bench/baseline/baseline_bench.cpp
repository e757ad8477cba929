// SPDX-License-Identifier: MIT
// The floor every other suite is compared with: memcpy bandwidth and the random-mixed allocation
// loop with an allocator that does nothing.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "harness/keel_bench.h"
#include "workloads/random_mixed.h"

namespace {

struct aligned_free {
  void operator()(void* p) const { std::free(p); }
};
using buffer = std::unique_ptr<unsigned char, aligned_free>;

buffer make_buffer(std::size_t n) {
  auto* p = static_cast<unsigned char*>(std::aligned_alloc(64, (n + 63) / 64 * 64));
  std::memset(p, 0x5a, n);  // touch every page before timing
  return buffer(p);
}

// The no-op allocator: hands out 1 KiB-strided slices of a static ring and forgets them.
class noop_allocator {
 public:
  void* alloc(std::size_t) {
    cursor_ = (cursor_ + 1024) & (kRing - 1);
    return ring_ + cursor_;
  }

 private:
  static constexpr std::size_t kRing = 1 << 20;
  alignas(64) static inline unsigned char ring_[kRing];
  std::size_t cursor_ = 0;
};

}  // namespace

KEEL_BENCH_SUITE(baseline, "the floor: memcpy bandwidth, allocation loop with a no-op allocator") {
  for (std::size_t size = 64; size <= (std::size_t{64} << 20); size *= 4) {
    std::string label = size >= (1u << 20) ? std::to_string(size >> 20) + "MiB"
                        : size >= 1024     ? std::to_string(size >> 10) + "KiB"
                                           : std::to_string(size) + "B";
    // Buffers are made per run (outside the timed loop) so that peak RSS is this case's own.
    s.add(
        "memcpy/" + label, "memcpy",
        [size](benchmark::State& st) {
          buffer src = make_buffer(size), dst = make_buffer(size);
          for (auto _ : st) {
            std::memcpy(dst.get(), src.get(), size);
            benchmark::ClobberMemory();
          }
        },
        size);
  }

  keel::bench::workload::random_mixed_params params;
  s.add(
      "random-mixed", "floor",
      [params](benchmark::State& st) {
        noop_allocator a;
        for (auto _ : st) {
          auto sum = keel::bench::workload::random_mixed(
              params, [&](std::size_t n) { return a.alloc(n); }, [](void*, std::size_t) {});
          benchmark::DoNotOptimize(sum);
        }
      },
      0, params.decisions);
  s.note("memcpy: glibc memcpy between two 64-byte-aligned, pre-touched buffers");
  s.note(
      "random-mixed floor: 20M decisions, 400 slots, 16..1024 B, no-op allocator (the loop's own "
      "cost)");
}
