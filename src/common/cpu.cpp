// SPDX-License-Identifier: MIT
// CPU feature detection, once per process, for every component (keel/cpu.h).
#include "keel/cpu.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace keel {
namespace {

cpu_features detect() noexcept {
  cpu_features f;
#if defined(__x86_64__)
  __builtin_cpu_init();
  f.sse42 = __builtin_cpu_supports("sse4.2");
  f.pclmul = __builtin_cpu_supports("pclmul");
  f.popcnt = __builtin_cpu_supports("popcnt");
  f.bmi1 = __builtin_cpu_supports("bmi");
  f.bmi2 = __builtin_cpu_supports("bmi2");
  f.avx2 = __builtin_cpu_supports("avx2");
  f.fma = __builtin_cpu_supports("fma");
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx512bw = __builtin_cpu_supports("avx512bw");
  f.avx512vl = __builtin_cpu_supports("avx512vl");
  f.avx512dq = __builtin_cpu_supports("avx512dq");
  f.avx512vbmi = __builtin_cpu_supports("avx512vbmi");
  f.avx512vbmi2 = __builtin_cpu_supports("avx512vbmi2");
#elif defined(__aarch64__) && defined(__ARM_NEON)
  f.neon = true;  // part of the AArch64 base architecture
#endif
  return f;
}

std::string read_model() {
  std::string model;
  if (std::FILE* f = std::fopen("/proc/cpuinfo", "r")) {
    char line[512];
    while (std::fgets(line, sizeof line, f)) {
      if (std::strncmp(line, "model name", 10) != 0) continue;
      const char* colon = std::strchr(line, ':');
      if (!colon) break;
      model = colon + 1;
      while (!model.empty() && (model.front() == ' ' || model.front() == '\t')) model.erase(0, 1);
      while (!model.empty() && (model.back() == '\n' || model.back() == ' ')) model.pop_back();
      break;
    }
    std::fclose(f);
  }
  return model;
}

}  // namespace

const cpu_features& cpu() noexcept {
  static const cpu_features features = detect();
  return features;
}

std::string_view cpu_model() noexcept {
  static const std::string model = read_model();
  return model;
}

bool isa_supported(isa which) noexcept {
  const cpu_features& f = cpu();
  switch (which) {
    case isa::automatic:
    case isa::scalar:
      return true;
    case isa::avx2:
      return f.avx2 && f.bmi1 && f.bmi2 && f.pclmul && f.popcnt;
    case isa::avx512:
      return isa_supported(isa::avx2) && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vbmi2;
    case isa::neon:
      return f.neon;
  }
  return false;
}

isa best_isa() noexcept {
  static const isa best = isa_supported(isa::avx512) ? isa::avx512
                          : isa_supported(isa::avx2) ? isa::avx2
                          : isa_supported(isa::neon) ? isa::neon
                                                     : isa::scalar;
  return best;
}

const char* isa_name(isa which) noexcept {
  switch (which) {
    case isa::scalar:
      return "scalar";
    case isa::avx2:
      return "avx2";
    case isa::avx512:
      return "avx512";
    case isa::neon:
      return "neon";
    case isa::automatic:
      break;
  }
  return "automatic";
}

isa parse_isa(std::string_view name) noexcept {
  if (name == "scalar") return isa::scalar;
  if (name == "avx2") return isa::avx2;
  if (name == "avx512") return isa::avx512;
  if (name == "neon") return isa::neon;
  return isa::automatic;
}

}  // namespace keel
