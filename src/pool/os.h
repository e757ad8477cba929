// SPDX-License-Identifier: MIT
// Internal: the operating-system calls the pool makes (Linux): futex wait/wake, CPU count from the
// affinity mask, thread names, a spin-wait hint, a coarse clock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/cpu_hints.h"

namespace keel::pool::detail::os {

// Sleeps while `*word == expected` (spurious returns allowed); timeout_ns < 0: no timeout.
void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                long timeout_ns = -1) noexcept;
// Wakes up to n sleepers of `word` (harmless if the memory is gone: the address is only a key).
void futex_wake(std::atomic<std::uint32_t>& word, int n) noexcept;

// CPUs in this process's affinity mask (at least 1).
std::size_t affinity_cpus() noexcept;
// The CPU the calling thread runs on (-1 if unknown).
int current_cpu() noexcept;
// A start-up placement hint, not a pin: moves the calling thread to the CPU of its affinity mask
// on which the fewest threads placed by earlier calls (and not yet unplaced) started, taking the
// first such CPU after `after_cpu` cyclically, then gives the thread its whole mask back. Returns
// that CPU for unplace_thread, or -1 if the thread was not moved (a one-CPU mask, a failed call).
int place_thread(int after_cpu) noexcept;
void unplace_thread(int cpu) noexcept;
// Threads placed on `cpu` and not yet unplaced (for tests).
std::uint32_t placed_threads(int cpu) noexcept;
// Names the calling thread (cut to 15 characters).
void set_thread_name(const std::string& name) noexcept;
void yield() noexcept;

// Asymmetric fence (membarrier, private expedited): heavy_fence() returns after every running
// thread of the process has executed a full memory barrier, so the other side of a store/load
// handshake needs no fence of its own. enable_heavy_fence() registers the process (once) and is
// false where the kernel does not offer it.
bool enable_heavy_fence() noexcept;
void heavy_fence() noexcept;
// Monotonic nanoseconds.
std::uint64_t now_ns() noexcept;

inline void cpu_relax() noexcept { keel::detail::cpu_relax(); }

}  // namespace keel::pool::detail::os
