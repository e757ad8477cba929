// SPDX-License-Identifier: MIT
// task_group: run, helping wait, exceptions, cancellation, reuse, nesting.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "keel/pool.h"

namespace kp = keel::pool;

TEST(PoolGroup, RunsEveryTask) {
  kp::thread_pool p(2);
  kp::task_group g(p);
  std::atomic<int> n{0};
  for (int i = 0; i < 1000; ++i) {
    EXPECT_EQ(g.run([&] { n++; }), kp::error_code::ok);
  }
  EXPECT_EQ(g.wait(), kp::group_status::complete);
  EXPECT_EQ(n.load(), 1000);
  EXPECT_TRUE(g.exceptions().empty());
}

TEST(PoolGroup, WaitWithNothingQueued) {
  kp::thread_pool p(1);
  kp::task_group g(p);
  EXPECT_EQ(g.wait(), kp::group_status::complete);
}

TEST(PoolGroup, CollectsEveryExceptionAndRethrowsTheFirst) {
  kp::thread_pool p(2);
  kp::task_group g(p);
  std::atomic<int> ok{0};
  for (int i = 0; i < 10; ++i) {
    g.run([&, i] {
      if (i % 3 == 0) {
        throw std::runtime_error("e" + std::to_string(i));
      }
      ok++;
    });
  }
  EXPECT_THROW(g.wait(), std::runtime_error);
  EXPECT_EQ(g.exceptions().size(), 4u);  // i = 0, 3, 6, 9
  EXPECT_EQ(ok.load(), 6);
  // The group is reusable and clean afterwards.
  g.run([&] { ok++; });
  EXPECT_EQ(g.wait(), kp::group_status::complete);
  EXPECT_TRUE(g.exceptions().empty());
  EXPECT_EQ(ok.load(), 7);
}

TEST(PoolGroup, CancelSkipsQueuedTasks) {
  kp::thread_pool p(1);
  kp::task_group g(p);
  std::atomic<bool> release{false};
  std::atomic<int> ran{0};
  // The single worker is held by a task of another group; the group's tasks stay queued.
  kp::task_group blocker(p);
  std::atomic<bool> started{false};
  blocker.run([&] {
    started = true;
    while (!release.load()) {
      std::this_thread::yield();
    }
  });
  while (!started.load()) {
    std::this_thread::yield();
  }
  for (int i = 0; i < 100; ++i) {
    g.run([&] { ran++; });
  }
  g.cancel();
  EXPECT_TRUE(g.is_cancelled());
  release = true;
  EXPECT_EQ(g.wait(), kp::group_status::cancelled);
  EXPECT_EQ(ran.load(), 0);
  EXPECT_FALSE(g.is_cancelled());  // reset by wait
  blocker.wait();
  EXPECT_GE(p.stats().cancelled, 100u);
}

TEST(PoolGroup, RunningTaskSeesCancellation) {
  kp::thread_pool p(2);
  kp::task_group g(p);
  std::atomic<bool> saw{false};
  std::atomic<bool> started{false};
  g.run([&] {
    started = true;
    while (!g.is_cancelled()) {
      std::this_thread::yield();
    }
    saw = true;
  });
  while (!started.load()) {
    std::this_thread::yield();
  }
  g.cancel();
  EXPECT_EQ(g.wait(), kp::group_status::cancelled);
  EXPECT_TRUE(saw.load());
}

// Recursive fork-join on one group and on nested groups; with one worker too.
int fib_nested(kp::thread_pool& p, int n) {
  if (n < 2) {
    return n;
  }
  int a = 0;
  kp::task_group g(p);
  g.run([&] { a = fib_nested(p, n - 1); });
  int b = fib_nested(p, n - 2);
  g.wait();
  return a + b;
}

TEST(PoolGroup, NestedForkJoin) {
  for (std::size_t threads : {1u, 2u, 4u}) {
    kp::thread_pool p(threads);
    EXPECT_EQ(fib_nested(p, 18), 2584) << threads;
    // Called from a worker as well as from outside.
    EXPECT_EQ(p.submit([&] { return fib_nested(p, 15); }).get(), 610) << threads;
  }
}

TEST(PoolGroup, TasksAddToTheirOwnGroup) {
  kp::thread_pool p(2);
  kp::task_group g(p);
  std::atomic<int> leaves{0};
  std::function<void(int)> tree = [&](int d) {
    if (d == 0) {
      leaves++;
      return;
    }
    g.run([&, d] { tree(d - 1); });
    g.run([&, d] { tree(d - 1); });
  };
  g.run([&] { tree(10); });
  g.wait();
  EXPECT_EQ(leaves.load(), 1024);
}

TEST(PoolGroup, DestructorWaits) {
  kp::thread_pool p(2);
  std::atomic<int> n{0};
  {
    kp::task_group g(p);
    for (int i = 0; i < 100; ++i) {
      g.run([&] {
        std::this_thread::yield();
        n++;
      });
    }
  }
  EXPECT_EQ(n.load(), 100);
}

TEST(PoolGroup, ManyOutsideOwnersAtOnceMoreThanSlots) {
  // Groups owned by threads outside the pool borrow one of a few deques; the rest use the
  // shared queue. Eight owners at once, each reusing its group several times.
  kp::thread_pool p(2);
  std::vector<std::thread> ts;
  std::atomic<long> total{0};
  ts.reserve(8);
  for (int k = 0; k < 8; ++k) {
    ts.emplace_back([&] {
      kp::task_group g(p);
      for (int round = 0; round < 5; ++round) {
        std::atomic<int> n{0};
        for (int i = 0; i < 500; ++i) {
          g.run([&] { n++; });
        }
        EXPECT_EQ(g.wait(), kp::group_status::complete);
        EXPECT_EQ(n.load(), 500);
        total += n.load();
      }
    });
  }
  for (auto& t : ts) {
    t.join();
  }
  EXPECT_EQ(total.load(), 8 * 5 * 500);
  EXPECT_EQ(p.wait_idle(), kp::error_code::ok);
  kp::pool_stats s = p.stats();
  EXPECT_EQ(s.submitted, s.executed);
}

// A thread that ran a group's tasks counts their completions in one step when it turns to
// anything else: here the only worker, after running tasks of the group, runs a low-priority task
// that blocks until the group's wait() returned. The wait must not depend on that worker. (The
// waiter helps and may run that task itself; then it does not block.)
TEST(PoolGroup, CompletionsAreNotHeldByAThreadThatMovedOn) {
  kp::thread_pool p(1);
  const std::thread::id waiter = std::this_thread::get_id();
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> ran{0};
    std::promise<void> waited;
    std::shared_future<void> waited_f = waited.get_future().share();
    std::atomic<bool> blocked_ok{true};
    {
      kp::task_group g(p);
      for (int i = 0; i < 1000; ++i) {
        g.run([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      }
      ASSERT_EQ(p.detach(kp::submit_options{kp::priority::low, {}},
                         [waited_f, waiter, &blocked_ok] {
                           if (std::this_thread::get_id() != waiter) {
                             blocked_ok = waited_f.wait_for(std::chrono::seconds(10)) ==
                                          std::future_status::ready;
                           }
                         }),
                kp::error_code::ok);
      const auto t0 = std::chrono::steady_clock::now();
      g.wait();
      EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
      waited.set_value();
    }
    EXPECT_EQ(ran.load(), 1000);
    ASSERT_EQ(p.wait_idle(), kp::error_code::ok);
    EXPECT_TRUE(blocked_ok.load());
  }
}

// Groups whose tasks are run in long same-group streams by several threads, nested: every task
// is counted once and every wait returns.
TEST(PoolGroup, StreamsOfOneGroupsTasksOnManyThreads) {
  kp::thread_pool p(3);
  std::atomic<long> ran{0};
  kp::task_group outer(p);
  for (int k = 0; k < 8; ++k) {
    outer.run([&] {
      kp::task_group inner(p);
      for (int i = 0; i < 5000; ++i) {
        inner.run([&] { ran.fetch_add(1, std::memory_order_relaxed); });
      }
      inner.wait();
    });
  }
  outer.wait();
  EXPECT_EQ(ran.load(), 8 * 5000);
}

// A thread outside the pool waiting for its group runs only that group's tasks (from the deque
// its group borrowed), never an unrelated task: one that waits for something the caller does
// after wait() returns would otherwise block the caller for good. Here both workers are busy (one
// blocked on a gate, one running the group's last task) while an unrelated task X is queued; X
// waits until the caller's wait() returned.
TEST(PoolGroup, OutsideWaiterRunsOnlyItsGroupsTasks) {
  kp::thread_pool p(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::promise<void> gate;
  std::shared_future<void> gate_f = gate.get_future().share();
  std::atomic<bool> blocker_started{false};
  ASSERT_EQ(p.detach([&blocker_started, gate_f] {
    blocker_started = true;
    gate_f.wait();
  }),
            kp::error_code::ok);
  while (!blocker_started) {
    std::this_thread::yield();
  }
  std::promise<void> waited;
  std::shared_future<void> waited_f = waited.get_future().share();
  std::atomic<bool> x_on_caller{false}, x_saw_wait{false};
  {
    kp::task_group g(p);
    std::atomic<bool> last_started{false};
    g.run([&last_started] {
      last_started = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    });
    while (!last_started) {  // taken by the free worker
      std::this_thread::yield();
    }
    ASSERT_EQ(p.detach([&, waited_f] {
      x_on_caller = std::this_thread::get_id() == caller;
      x_saw_wait = waited_f.wait_for(std::chrono::seconds(2)) == std::future_status::ready;
    }),
              kp::error_code::ok);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(g.wait(), kp::group_status::complete);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
    waited.set_value();
  }
  gate.set_value();
  ASSERT_EQ(p.wait_idle(), kp::error_code::ok);
  EXPECT_FALSE(x_on_caller.load());
  EXPECT_TRUE(x_saw_wait.load());
}
