// SPDX-License-Identifier: MIT
// Where workers start: each moves once to the CPU of its affinity mask with the fewest keel
// workers started on it (the CPUs after the creating thread's first) and then keeps the whole
// mask: a start-up hint, never a pin.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "keel/pool.h"
#include "pool/os.h"

namespace kp = keel::pool;
namespace os = keel::pool::detail::os;

namespace {

cpu_set_t my_mask() {
  cpu_set_t s;
  CPU_ZERO(&s);
  EXPECT_EQ(sched_getaffinity(0, sizeof s, &s), 0);
  return s;
}

std::vector<int> cpus_of(const cpu_set_t& s) {
  std::vector<int> out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &s)) {
      out.push_back(c);
    }
  }
  return out;
}

// The counts are process-wide: tests that expect particular CPUs need no other keel worker alive.
std::uint32_t placed_total(const std::vector<int>& cpus) {
  std::uint32_t n = 0;
  for (int c : cpus) {
    n += os::placed_threads(c);
  }
  return n;
}

// Why a test that expects particular CPUs cannot run here, or nullptr.
const char* cannot_expect_cpus(const std::vector<int>& cpus) {
  if (cpus.size() < 2) {
    return "needs two CPUs in the affinity mask";
  }
  if (placed_total(cpus) != 0) {
    return "workers of other pools are alive";
  }
  return nullptr;
}

}  // namespace

TEST(PoolPlacement, WorkersKeepTheWholeAffinityMask) {
  const cpu_set_t mine = my_mask();
  std::mutex mu;
  std::vector<cpu_set_t> seen;
  {
    kp::pool_options o;
    o.threads = 3;
    o.on_worker_start = [&](std::size_t) {
      cpu_set_t s = my_mask();
      std::lock_guard<std::mutex> l(mu);
      seen.push_back(s);
    };
    kp::thread_pool p(o);
    p.wait_idle();
  }
  ASSERT_EQ(seen.size(), 3u);
  for (const cpu_set_t& s : seen) {
    EXPECT_TRUE(CPU_EQUAL(&s, &mine));
  }
}

// Runs place_thread(after) on a new thread that starts on `start_on` (held there, then given its
// whole mask back, so a thread place_thread did not move would still be there) and returns the
// CPU it chose; *ran_there is set if the thread was on that CPU right after the call, *mask_kept
// if its mask was whole again.
int place_on_new_thread(int after, int start_on, bool* ran_there, bool* mask_kept) {
  int chosen = -1;
  std::thread([&] {
    const cpu_set_t before = my_mask();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(start_on, &one);
    EXPECT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    EXPECT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
    chosen = os::place_thread(after);
    *ran_there = sched_getcpu() == chosen;
    const cpu_set_t now = my_mask();
    *mask_kept = CPU_EQUAL(&before, &now);
  }).join();
  return chosen;
}

TEST(PoolPlacement, PlaceThreadTakesTheLeastUsedCpuAfterTheGivenOne) {
  const std::vector<int> cpus = cpus_of(my_mask());
  if (const char* why = cannot_expect_cpus(cpus)) {
    GTEST_SKIP() << why;
  }
  const std::size_t n = cpus.size();
  // The kernel may move a thread again at any time, so a few misses are allowed; a thread that
  // was not moved would be on the chosen CPU about half the time or less.
  int ran_there = 0;
  for (int attempt = 0; attempt < 20; ++attempt) {
    bool there = false;
    bool kept = false;
    const int c = place_on_new_thread(cpus[0], cpus[0], &there, &kept);
    EXPECT_EQ(c, cpus[1]);  // nothing placed: the CPU after the given one
    EXPECT_TRUE(kept);
    ran_there += there ? 1 : 0;
    os::unplace_thread(c);
  }
  EXPECT_GE(ran_there, 18);
  // While placements are held, each next thread goes to the next CPU with fewer.
  std::vector<int> held;
  for (std::size_t k = 0; k < n + 1; ++k) {
    bool there = false;
    bool kept = false;
    held.push_back(place_on_new_thread(cpus[0], cpus[0], &there, &kept));
    EXPECT_EQ(held.back(), cpus[(1 + k) % n]) << "placement " << k;
  }
  for (int c : held) {
    os::unplace_thread(c);
  }
  // An unknown CPU (-1) or one outside the mask counts from the mask's first CPU.
  for (int after : {-1, cpus.back() + 1}) {
    bool there = false;
    bool kept = false;
    const int c = place_on_new_thread(after, cpus[1], &there, &kept);
    EXPECT_EQ(c, cpus[0]) << "after " << after;
    os::unplace_thread(c);
  }
}

TEST(PoolPlacement, PoolsPlaceTheirWorkersNextToTheCreatorUnlessTurnedOff) {
  const std::vector<int> cpus = cpus_of(my_mask());
  if (const char* why = cannot_expect_cpus(cpus)) {
    GTEST_SKIP() << why;
  }
  const std::uint32_t before = placed_total(cpus);
  int next_to_creator = 0;
  for (int attempt = 0; attempt < 10; ++attempt) {
    std::thread([&] {
      // Make the pool from the mask's first CPU, where "unknown" would also start counting.
      os::unplace_thread(os::place_thread(-1));
      // The creator may be moved between this read and the constructor's: a few misses allowed.
      const int creator = sched_getcpu();
      kp::pool_options o;
      o.threads = 1;
      kp::thread_pool p(o);
      p.submit([] {}).get();  // the worker placed itself before it ran anything
      EXPECT_EQ(placed_total(cpus), before + 1);
      std::size_t at = 0;
      while (at < cpus.size() && cpus[at] != creator) {
        ++at;
      }
      next_to_creator += os::placed_threads(cpus[(at + 1) % cpus.size()]) > 0 ? 1 : 0;
    }).join();
  }
  EXPECT_GE(next_to_creator, 8);
  {
    // Two pools at once: every worker counted (the start hook runs after the placement).
    std::atomic<int> started{0};
    kp::pool_options o;
    o.threads = 3;
    o.on_worker_start = [&](std::size_t) { started++; };
    kp::thread_pool p1(o);
    kp::thread_pool p2(o);
    while (started.load() < 6) {
      std::this_thread::yield();
    }
    EXPECT_EQ(placed_total(cpus), before + 6);
  }
  EXPECT_EQ(placed_total(cpus), before);  // released when the workers exit
  {
    std::atomic<int> started{0};
    kp::pool_options o;
    o.threads = 2;
    o.place_workers = false;
    o.on_worker_start = [&](std::size_t) { started++; };
    kp::thread_pool p(o);
    while (started.load() < 2) {
      std::this_thread::yield();
    }
    EXPECT_EQ(placed_total(cpus), before);
  }
}

TEST(PoolPlacement, TwoOneWorkerPoolsTakeDifferentCpus) {
  const std::vector<int> cpus = cpus_of(my_mask());
  if (const char* why = cannot_expect_cpus(cpus)) {
    GTEST_SKIP() << why;
  }
  std::atomic<int> started{0};
  kp::pool_options o;
  o.threads = 1;
  o.on_worker_start = [&](std::size_t) { started++; };  // runs after the placement
  kp::thread_pool pa(o);
  kp::thread_pool pb(o);
  while (started.load() < 2) {
    std::this_thread::yield();
  }
  int used = 0;
  for (int c : cpus) {
    used += os::placed_threads(c) > 0 ? 1 : 0;
  }
  EXPECT_EQ(used, 2);
}

TEST(PoolPlacement, OneCpuMasksAreLeftAlone) {
  const std::vector<int> cpus = cpus_of(my_mask());
  std::thread([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus.back(), &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    EXPECT_EQ(os::place_thread(cpus.back()), -1);
    const cpu_set_t after = my_mask();
    EXPECT_TRUE(CPU_EQUAL(&after, &one));
    EXPECT_EQ(os::current_cpu(), cpus.back());
  }).join();
}

TEST(PoolPlacement, AForkedChildStartsWithNoPlacements) {
  const std::vector<int> cpus = cpus_of(my_mask());
  if (cpus.size() < 2) {
    GTEST_SKIP() << "needs two CPUs in the affinity mask";
  }
  kp::pool_options o;
  o.threads = 2;
  std::atomic<int> started{0};
  o.on_worker_start = [&](std::size_t) { started++; };
  kp::thread_pool p(o);
  while (started.load() < 2) {
    std::this_thread::yield();
  }
  ASSERT_GE(placed_total(cpus), 2u);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    _exit(placed_total(cpus) == 0 ? 0 : 1);  // the parent's workers are not in the child
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_GE(placed_total(cpus), 2u);  // the parent's own counts are untouched
}
