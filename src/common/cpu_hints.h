// SPDX-License-Identifier: MIT
// Two instructions the concurrent components use, per architecture (header only: the allocator
// includes it without linking keel::common).
#pragma once

#include <cstdint>

namespace keel::detail {

// Tells the CPU the thread is spinning (x86 PAUSE, AArch64 YIELD).
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// A fast, monotonic-enough cycle or tick counter for mixing into keys (x86 TSC, AArch64 virtual
// counter); never used as a clock.
inline std::uint64_t cycle_counter() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
  std::uint64_t v;
  asm volatile("mrs %0, cntvct_el0" : "=r"(v));
  return v;
#else
  return 0;
#endif
}

}  // namespace keel::detail
