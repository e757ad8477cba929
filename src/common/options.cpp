// SPDX-License-Identifier: MIT
// The table of KEEL_* variables and their values, read once.
#include "common/options.h"

#include <array>
#include <cstdlib>
#include <cstring>

namespace keel::detail {
namespace {

constexpr option_info kTable[] = {
    {"KEEL_JSON_ISA", "json", "best this CPU runs",
     "kernel set of the JSON parser and writer: avx512, avx2, neon or scalar"},
    {"KEEL_BINCODE_ISA", "bincode", "best this CPU runs",
     "block copies: avx512 or avx2 the copy kernels of that set, scalar the C library's memcpy"},
    {"KEEL_MSG_ISA", "msg", "best this CPU runs",
     "kernel set of the numeric operations on typed arrays (sum, min, max, mean, dot, scale)"},
    {"KEEL_POOL_THREADS", "pool", "0 (the CPUs of the affinity mask)",
     "worker count of a pool created with default options (0..4096)"},
    {"KEEL_POOL_SPIN_US", "pool", "50",
     "microseconds an idle worker searches for work before it parks (0..1000000)"},
    {"KEEL_ALLOC_STATS", "alloc", "0", "1: print allocator statistics at exit"},
    {"KEEL_ALLOC_HARDENED", "alloc", "0",
     "1: encoded free lists, guard pages and list checks on every free"},
    {"KEEL_ALLOC_DECAY_MS", "alloc", "30",
     "milliseconds free memory is kept before it is returned to the OS (0..3600000)"},
    {"KEEL_ALLOC_SEGMENT_CACHE", "alloc", "8", "empty 4 MiB segments kept mapped (0..1024)"},
    {"KEEL_ALLOC_VERBOSE", "alloc", "0", "1: print the allocator's options at start"},
    {"KEEL_CORPUS", "tool", "--corpus DIR; else ../shared/corpus in the build tree",
     "directory of the benchmark corpus (keel bench, tests)"},
};
constexpr std::size_t kCount = sizeof kTable / sizeof kTable[0];

struct snapshot {
  std::array<const char*, kCount> values{};
  snapshot() {
    for (std::size_t i = 0; i < kCount; ++i) {
      const char* v = std::getenv(kTable[i].name);  // NOLINT(concurrency-mt-unsafe): once
      values[i] = v && *v ? v : nullptr;
    }
  }
};

const snapshot& values() noexcept {
  static const snapshot s;
  return s;
}

}  // namespace

std::span<const option_info> option_table() noexcept { return kTable; }

const char* option_value(const char* name) noexcept {
  for (std::size_t i = 0; i < kCount; ++i)
    if (std::strcmp(kTable[i].name, name) == 0) return values().values[i];
  return nullptr;
}

isa choose_isa(const char* variable) noexcept {
  if (const char* v = option_value(variable)) {
    const isa want = parse_isa(v);
    if (want != isa::automatic && isa_supported(want)) return want;
  }
  return best_isa();
}

}  // namespace keel::detail
