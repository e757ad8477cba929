// Where workers start: each is moved once to its own CPU of the affinity mask (the CPUs after the
// creating thread's first) and then keeps the whole mask: a start-up hint, never a pin.
#include <gtest/gtest.h>
#include <sched.h>

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

TEST(PoolPlacement, MoveNearGoesToTheCpuAfterTheGivenOneAndRestoresTheMask) {
  const std::vector<int> cpus = cpus_of(my_mask());
  if (cpus.size() < 2) {
    GTEST_SKIP() << "needs two CPUs in the affinity mask";
  }
  const cpu_set_t mine = my_mask();
  for (std::size_t k = 0; k < 3; ++k) {
    const int want = cpus[(1 + k) % cpus.size()];
    // The kernel may move a thread again at any time, so a few misses are allowed; a thread that
    // was not moved would land on the wanted CPU about half the time or less.
    int landed = 0;
    for (int attempt = 0; attempt < 20; ++attempt) {
      std::thread([&] {
        os::move_near(cpus[0], k);
        landed += sched_getcpu() == want ? 1 : 0;
        const cpu_set_t after = my_mask();
        EXPECT_TRUE(CPU_EQUAL(&after, &mine));
      }).join();
    }
    EXPECT_GE(landed, 18) << "on CPU " << want << " after move_near(" << cpus[0] << ", " << k
                          << ") in " << landed << " of 20 threads";
  }
}

TEST(PoolPlacement, UnknownCpuCountsFromTheFirstAndOneCpuMasksAreLeftAlone) {
  const std::vector<int> cpus = cpus_of(my_mask());
  std::thread([&] {
    // An unknown creator CPU (-1): worker 0 goes to the mask's first CPU.
    if (cpus.size() >= 2) {
      int landed = 0;
      for (int attempt = 0; attempt < 20; ++attempt) {
        os::move_near(-1, 0);
        landed += os::current_cpu() == cpus[0] ? 1 : 0;
        os::move_near(-1, 1);  // away again, so that each attempt starts elsewhere
      }
      EXPECT_GE(landed, 18);
    }
    // A thread restricted to one CPU stays restricted to it.
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus.back(), &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
    os::move_near(cpus.back(), 5);
    const cpu_set_t after = my_mask();
    EXPECT_TRUE(CPU_EQUAL(&after, &one));
    EXPECT_EQ(os::current_cpu(), cpus.back());
  }).join();
}
