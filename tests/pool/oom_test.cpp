// SPDX-License-Identifier: MIT
// Out of memory where the pool grows a deque's ring (a worker's deque, an external slot, a
// submitter lane): each push or take falls back to something that needs no new memory (the shared
// queue, whose overflow list links the tasks themselves; taking one task instead of a batch), and
// no task is lost. In this binary operator new[] — within the pool only the rings use it — fails
// for blocks of 4 KiB and more (a ring larger than its first 256 tasks) while `fail_rings` is set.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "keel/pool.h"

namespace {
std::atomic<bool> fail_rings{false};

struct failing_rings {
  failing_rings() { fail_rings.store(true); }
  ~failing_rings() { fail_rings.store(false); }
  failing_rings(const failing_rings&) = delete;
  failing_rings& operator=(const failing_rings&) = delete;
};
}  // namespace

void* operator new[](std::size_t n) {
  if (n >= 4096 && fail_rings.load(std::memory_order_relaxed)) {
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n != 0 ? n : 1)) {
    return p;
  }
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return ::operator new[](n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace kp = keel::pool;

namespace {
constexpr int kTasks = 5000;  // far more than a 256-task ring holds
}

TEST(PoolOutOfMemory, OutsideSubmitsWhenNoRingCanGrow) {
  kp::thread_pool p(2);
  std::atomic<int> ran{0};
  std::vector<kp::future<int>> fs;
  fs.reserve(kTasks);
  {
    failing_rings guard;
    p.pause();  // everything queues: the lane and the shared queue's ring fill up
    for (int i = 0; i < kTasks; ++i) {
      ASSERT_EQ(p.detach([&ran] { ran++; }), kp::error_code::ok);
      fs.push_back(p.submit([i] { return i; }));
    }
    ASSERT_EQ(p.detach_bulk(1000, [&ran](std::size_t) { ran++; }), kp::error_code::ok);
    p.resume();
    ASSERT_EQ(p.wait_idle(), kp::error_code::ok);
  }
  EXPECT_EQ(ran.load(), kTasks + 1000);
  for (int i = 0; i < kTasks; ++i) {
    ASSERT_EQ(fs[static_cast<std::size_t>(i)].get(), i);
  }
  const kp::pool_stats st = p.stats();
  EXPECT_EQ(st.executed, st.submitted);
}

// One worker, so that nobody steals from its deque and it does fill up.
TEST(PoolOutOfMemory, TasksSpawnWhenTheirWorkersDequeCannotGrow) {
  kp::thread_pool p(1);
  std::atomic<int> ran{0};
  {
    failing_rings guard;
    p.submit([&] {
       for (int i = 0; i < kTasks; ++i) {
         ASSERT_EQ(p.detach([&ran] { ran++; }), kp::error_code::ok);
       }
       ASSERT_EQ(p.detach_bulk(1000, [&ran](std::size_t) { ran++; }), kp::error_code::ok);
       kp::task_group g(p);  // a group on a worker: its tasks go onto the worker's deque
       for (int i = 0; i < kTasks; ++i) {
         g.run([&ran] { ran++; });
       }
       g.wait();
     }).get();
    ASSERT_EQ(p.wait_idle(), kp::error_code::ok);
  }
  EXPECT_EQ(ran.load(), 2 * kTasks + 1000);
  const kp::pool_stats st = p.stats();
  EXPECT_EQ(st.executed, st.submitted);
}

TEST(PoolOutOfMemory, AnOutsideGroupWhoseSlotCannotGrow) {
  kp::thread_pool p(2);
  std::atomic<int> ran{0};
  std::vector<int> hit(100000, 0);
  {
    failing_rings guard;
    kp::task_group g(p);
    p.pause();  // the owner's slot fills up before anyone takes from it
    for (int i = 0; i < kTasks; ++i) {
      ASSERT_EQ(g.run([&ran] { ran++; }), kp::error_code::ok);
    }
    p.resume();
    g.wait();
    kp::parallel_for(
        p, 0, hit.size(), [&hit](std::size_t i) { hit[i]++; }, 10);
    ASSERT_EQ(p.wait_idle(), kp::error_code::ok);
  }
  EXPECT_EQ(ran.load(), kTasks);
  const kp::pool_stats st = p.stats();
  EXPECT_EQ(st.executed, st.submitted);
  for (std::size_t i = 0; i < hit.size(); ++i) {
    ASSERT_EQ(hit[i], 1) << i;
  }
}
