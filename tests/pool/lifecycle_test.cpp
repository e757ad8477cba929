// SPDX-License-Identifier: MIT
// wait_idle and shutdown semantics.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "keel/pool.h"

namespace kp = keel::pool;
using namespace std::chrono_literals;

TEST(PoolLifecycle, DestructorDrainsQueuedAndNestedWork) {
  std::atomic<int> n{0};
  {
    kp::thread_pool p(2);
    for (int i = 0; i < 500; ++i) {
      p.detach([&] {
        n++;
        p.detach([&] { n++; });  // submitted during the drain: still runs
      });
    }
  }
  EXPECT_EQ(n.load(), 1000);
}

TEST(PoolLifecycle, PoolDestroyedByItsOwnTaskDrainsAndItsWorkersExit) {
  std::atomic<int> exits{0};
  std::atomic<int> ran{0};
  kp::pool_options o;
  o.threads = 2;
  o.on_worker_exit = [&](std::size_t) { exits++; };
  auto* p = new kp::thread_pool(o);
  p->detach([p, &ran] {
    for (int i = 0; i < 100; ++i) {
      p->detach([&ran] {
        std::this_thread::sleep_for(100us);
        ran++;
      });
    }
    delete p;  // returns at once; queued tasks still run
  });
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (exits.load() < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(exits.load(), 2) << "the workers of a pool its own task destroyed did not exit";
  EXPECT_EQ(ran.load(), 100);
}

TEST(PoolLifecycle, WaitIdleWaitsForNestedWork) {
  kp::thread_pool p(2);
  std::atomic<int> n{0};
  for (int i = 0; i < 100; ++i) {
    p.detach([&] {
      std::this_thread::sleep_for(100us);
      p.detach([&] { n++; });
    });
  }
  EXPECT_EQ(p.wait_idle(), kp::error_code::ok);
  EXPECT_EQ(n.load(), 100);
  EXPECT_EQ(p.submit([&] { return p.wait_idle(); }).get(), kp::error_code::would_deadlock);
  EXPECT_EQ(p.submit([&] { return p.shutdown(); }).get(), kp::error_code::would_deadlock);
}

TEST(PoolLifecycle, SubmitAfterShutdownIsAnError) {
  kp::thread_pool p(2);
  EXPECT_EQ(p.shutdown(), kp::error_code::ok);
  EXPECT_EQ(p.shutdown(), kp::error_code::ok);      // idempotent
  EXPECT_EQ(p.shutdown_now(), kp::error_code::ok);  // and harmless afterwards
  auto f = p.submit([] { return 1; });
  EXPECT_TRUE(f.valid());
  EXPECT_TRUE(f.ready());
  EXPECT_EQ(f.status(), kp::error_code::shut_down);
  try {
    f.get();
    FAIL();
  } catch (const kp::exception& e) {
    EXPECT_EQ(e.code(), kp::error_code::shut_down);
  }
  bool ran = false;
  EXPECT_EQ(p.detach([&] { ran = true; }), kp::error_code::shut_down);
  kp::task_group g(p);
  EXPECT_EQ(g.run([&] { ran = true; }), kp::error_code::shut_down);
  EXPECT_EQ(g.wait(), kp::group_status::complete);
  std::vector<std::function<int()>> fns(3, [] { return 1; });
  for (auto& bf : p.submit_bulk(fns)) {
    EXPECT_EQ(bf.status(), kp::error_code::shut_down);
  }
  EXPECT_EQ(p.detach_bulk(5, [&](std::size_t) { ran = true; }), kp::error_code::shut_down);
  EXPECT_FALSE(ran);
  EXPECT_EQ(p.stats().submitted, 0u);
  EXPECT_EQ(p.wait_idle(), kp::error_code::ok);
}

TEST(PoolLifecycle, ShutdownNowDropsQueuedTasksAndReportsThemCancelled) {
  kp::thread_pool p(1);
  std::atomic<bool> go{false}, started{false};
  auto running = p.submit([&] {
    started = true;
    while (!go.load()) {
      std::this_thread::yield();
    }
    return 7;
  });
  while (!started.load()) {
    std::this_thread::yield();
  }
  std::atomic<int> ran{0};
  std::vector<kp::future<void>> fs;
  fs.reserve(100);
  for (int i = 0; i < 100; ++i) {
    fs.push_back(p.submit([&] { ran++; }));
  }
  kp::task_group g(p);
  for (int i = 0; i < 10; ++i) {
    g.run([&] { ran++; });
  }
  std::thread stopper([&] { EXPECT_EQ(p.shutdown_now(), kp::error_code::ok); });
  // shutdown_now refuses new work at once, then waits for the running task.
  std::uint64_t accepted = 0;
  while (p.detach([] {}) == kp::error_code::ok) {
    ++accepted;
    std::this_thread::yield();
  }
  go = true;
  stopper.join();
  EXPECT_EQ(running.get(), 7);  // a running task finishes
  for (auto& f : fs) {
    EXPECT_EQ(f.status(), kp::error_code::cancelled);
  }
  g.wait();
  EXPECT_EQ(ran.load(), 0);
  EXPECT_EQ(p.stats().cancelled, 110u + accepted);
}

TEST(PoolLifecycle, ShutdownOfAPausedPoolStillDrains) {
  std::atomic<int> n{0};
  {
    kp::thread_pool p(2);
    p.pause();
    for (int i = 0; i < 50; ++i) {
      p.detach([&] { n++; });
    }
  }
  EXPECT_EQ(n.load(), 50);
}

TEST(PoolLifecycle, ShutdownNowOfAPausedPoolDropsEverything) {
  kp::thread_pool p(2);
  p.pause();
  std::atomic<int> n{0};
  std::vector<kp::future<void>> fs;
  fs.reserve(50);
  for (int i = 0; i < 50; ++i) {
    fs.push_back(p.submit([&] { n++; }));
  }
  EXPECT_EQ(p.shutdown_now(), kp::error_code::ok);
  for (auto& f : fs) {
    EXPECT_EQ(f.status(), kp::error_code::cancelled);
  }
  EXPECT_EQ(n.load(), 0);
}

TEST(PoolLifecycle, ErrcNames) {
  EXPECT_STREQ(kp::message(kp::error_code::ok), "ok");
  EXPECT_STREQ(kp::message(kp::error_code::shut_down), "shut down");
  EXPECT_STREQ(kp::exception(kp::error_code::cancelled).what(), "cancelled");
}

namespace {

// Made on a thread before its first task, so destroyed after the thread's task-memory cache was
// given back at thread exit: frees the futures it holds and submits once more from there.
struct late_user {
  kp::thread_pool* p = nullptr;
  std::vector<kp::future<int>> held;
  ~late_user() {
    held.clear();
    if (p) {
      EXPECT_EQ(p->submit([] { return 7; }).get(), 7);
    }
  }
};

}  // namespace

// Task memory freed or made by thread_local destructors that run after the thread's cache was
// reaped goes straight to the heap: the asan preset's leak check fails if it is cached there
// (2 KB batches and the blocks in them were lost per exiting thread).
TEST(PoolLifecycle, TaskMemoryUsedByLateThreadLocalDestructorsIsNotLost) {
  kp::thread_pool p(2);
  for (int round = 0; round < 4; ++round) {
    std::thread th([&p] {
      thread_local late_user u;
      u.p = &p;
      for (int i = 0; i < 300; ++i) {
        u.held.push_back(p.submit([i] { return i; }));
      }
      for (auto& f : u.held) {
        f.wait();
      }
    });
    th.join();
  }
  p.wait_idle();
}
