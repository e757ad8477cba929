// SPDX-License-Identifier: MIT
// The CPU keel runs on and the kernel sets it can use, detected once for every component.
//
// Each component with SIMD kernels picks one set at start-up: the best this CPU runs, unless its
// KEEL_<COMPONENT>_ISA variable (docs/options.md) names another set the CPU supports. `keel info`
// prints the features and each component's choice.
#pragma once

#include <cstdint>
#include <string_view>

namespace keel {

// Kernel sets, from the portable one up. `automatic` means "choose for me".
//   scalar: plain C++ (SSE2 on x86-64 and NEON on AArch64 where a kernel uses it: part of every
//           CPU of the architecture)
//   avx2:   x86-64, Haswell and later: AVX2, BMI1, BMI2, PCLMULQDQ, POPCNT
//   avx512: x86-64, Ice Lake / Zen 4 and later: avx2 plus AVX-512 F, BW, VL, VBMI2
//   neon:   AArch64 (every AArch64 CPU has NEON, the Advanced SIMD unit)
// A library built for one architecture has only that architecture's sets (and scalar).
enum class isa : std::uint8_t { automatic = 0, scalar, avx2, avx512, neon };

// Every kernel set (not `automatic`), portable first: what `keel info` and the tests walk.
inline constexpr isa all_isas[] = {isa::scalar, isa::avx2, isa::avx512, isa::neon};

// Features are false on CPUs of another architecture.
struct cpu_features {
  bool sse42 = false, pclmul = false, popcnt = false, bmi1 = false, bmi2 = false;
  bool avx2 = false, fma = false;
  bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false;
  bool avx512vbmi = false, avx512vbmi2 = false;
  bool neon = false;  // AArch64 Advanced SIMD
};

// The features of this CPU (and OS), detected once.
const cpu_features& cpu() noexcept;
// The CPU's model name ("AMD EPYC 9R14 ..."), or "" where it is not known.
std::string_view cpu_model() noexcept;
// True if this CPU can run the kernel set (`automatic` and `scalar` always can).
bool isa_supported(isa which) noexcept;
// The best kernel set this CPU runs.
isa best_isa() noexcept;
// "scalar", "avx2", "avx512", "neon" or "automatic".
const char* isa_name(isa which) noexcept;
// The set named by "scalar", "avx2", "avx512" or "neon"; `automatic` for anything else.
isa parse_isa(std::string_view name) noexcept;

}  // namespace keel
