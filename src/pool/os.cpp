// SPDX-License-Identifier: MIT
// Linux system calls behind src/pool/os.h.
#include "pool/os.h"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstring>

namespace keel::pool::detail::os {

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                long timeout_ns) noexcept {
  timespec ts{};
  timespec* tp = nullptr;
  if (timeout_ns >= 0) {
    ts.tv_sec = timeout_ns / 1000000000L;
    ts.tv_nsec = timeout_ns % 1000000000L;
    tp = &ts;
  }
  // Returns on wake, on a value mismatch (EAGAIN), on a signal or on timeout: callers re-check.
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, tp,
          nullptr, 0);
}

void futex_wake(std::atomic<std::uint32_t>& word, int n) noexcept {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, n, nullptr,
          nullptr, 0);
}

bool enable_heavy_fence() noexcept {
  static const bool ok = [] {
    const long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds < 0 || (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) {
      return false;
    }
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
  }();
  return ok;
}

void heavy_fence() noexcept { syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0); }

std::size_t affinity_cpus() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) {
      return static_cast<std::size_t>(n);
    }
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<std::size_t>(n) : 1;
}

int current_cpu() noexcept { return sched_getcpu(); }

namespace {

// Threads place_thread put on each CPU that have not called unplace_thread yet.
std::atomic<std::uint32_t> placed_on[CPU_SETSIZE];

// A child process made by fork() has none of its parent's workers.
void forget_placements() noexcept {
  for (std::atomic<std::uint32_t>& n : placed_on) {
    n.store(0, std::memory_order_relaxed);
  }
}

}  // namespace

int place_thread(int after_cpu) noexcept {
  static const bool fork_handler = pthread_atfork(nullptr, nullptr, &forget_placements) == 0;
  (void)fork_handler;
  cpu_set_t all;
  CPU_ZERO(&all);
  if (sched_getaffinity(0, sizeof all, &all) != 0) {
    return -1;
  }
  const int count = CPU_COUNT(&all);
  if (count < 2) {
    return -1;
  }
  int cpus[CPU_SETSIZE];
  int n = 0;
  int at = -1;  // the position of after_cpu in the mask; -1 starts at the first CPU
  for (int c = 0; c < CPU_SETSIZE && n < count; ++c) {
    if (CPU_ISSET(c, &all)) {
      if (c == after_cpu) {
        at = n;
      }
      cpus[n++] = c;
    }
  }
  // Take the least used CPU; threads placing themselves at the same moment retry if another
  // took the CPU first, so two of them do not both count it as free.
  int target = -1;
  for (;;) {
    std::uint32_t least = UINT32_MAX;
    for (int j = 1; j <= n; ++j) {
      const int c = cpus[(at + j) % n];
      const std::uint32_t k = placed_on[c].load(std::memory_order_relaxed);
      if (k < least) {
        least = k;
        target = c;
      }
    }
    if (placed_on[target].compare_exchange_weak(least, least + 1, std::memory_order_relaxed)) {
      break;
    }
  }
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(target, &one);
  // Setting a one-CPU mask moves the thread there at once; widening it again does not move it.
  if (sched_setaffinity(0, sizeof one, &one) != 0) {
    placed_on[target].fetch_sub(1, std::memory_order_relaxed);
    return -1;
  }
  if (sched_setaffinity(0, sizeof all, &all) != 0) {
    // Never leave the thread pinned: every bit set is cut down to what the thread may use.
    cpu_set_t any;
    std::memset(&any, 0xff, sizeof any);
    sched_setaffinity(0, sizeof any, &any);
  }
  return target;
}

std::uint32_t placed_threads(int cpu) noexcept {
  return cpu >= 0 && cpu < CPU_SETSIZE ? placed_on[cpu].load(std::memory_order_relaxed) : 0;
}

void unplace_thread(int cpu) noexcept {
  if (cpu >= 0 && cpu < CPU_SETSIZE) {
    placed_on[cpu].fetch_sub(1, std::memory_order_relaxed);
  }
}

void set_thread_name(const std::string& name) noexcept {
  std::string cut = name.substr(0, 15);
  pthread_setname_np(pthread_self(), cut.c_str());
}

void yield() noexcept { sched_yield(); }

std::uint64_t now_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace keel::pool::detail::os
