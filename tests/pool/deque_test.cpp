// SPDX-License-Identifier: MIT
// The Chase-Lev deque on its own: LIFO for the owner, FIFO for thieves, growth, and a race where
// every item must be taken exactly once.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "pool/deque.h"

namespace kd = keel::pool::detail;

TEST(PoolDeque, OwnerLifoThiefFifoAndGrowth) {
  kd::ws_deque d(4);
  std::vector<kd::task_node> nodes(100);
  for (auto& n : nodes) {
    d.push(&n);  // grows 4 -> 128
  }
  kd::task_node* t = nullptr;
  ASSERT_EQ(d.steal(t), kd::ws_deque::steal_result::taken);
  EXPECT_EQ(t, &nodes[0]);
  EXPECT_EQ(d.pop(), &nodes[99]);
  for (int i = 98; i >= 1; --i) {
    ASSERT_EQ(d.pop(), &nodes[static_cast<std::size_t>(i)]);
  }
  EXPECT_EQ(d.pop(), nullptr);
  EXPECT_EQ(d.steal(t), kd::ws_deque::steal_result::empty);
  EXPECT_FALSE(d.maybe_nonempty());
}

// reserve(n) grows the ring once so that n pushes do not allocate (a submitter lane pushes a bulk
// that way): it reloads the owner's stale copy of top before deciding, and the task left at a
// wrapped position keeps its place.
TEST(PoolDeque, ReserveMakesRoomForABulkAtOnce) {
  kd::ws_deque d(4);
  std::vector<kd::task_node> nodes(16);
  kd::task_node* t = nullptr;
  const auto take = [&](std::size_t want) {
    ASSERT_EQ(d.steal(t), kd::ws_deque::steal_result::taken);
    ASSERT_EQ(t, &nodes[want]);
  };
  for (std::size_t i = 0; i < 4; ++i) {
    d.push(&nodes[i]);
  }
  for (std::size_t i = 0; i < 3; ++i) {
    take(i);
  }
  d.push(&nodes[4]);  // the owner's copy of top is reloaded here (3): no growth
  d.push(&nodes[5]);  // wraps to slot 1
  take(3);
  take(4);       // top is 5 now, the owner's copy still 3
  d.reserve(3);  // 1 queued + 3 fit in 4 once top is reloaded (with the stale copy: 8)
  EXPECT_EQ(d.capacity(), 4u);
  d.reserve(7);  // 1 + 7 -> 8
  EXPECT_EQ(d.capacity(), 8u);
  for (std::size_t i = 6; i < 13; ++i) {
    d.push(&nodes[i]);
  }
  EXPECT_EQ(d.capacity(), 8u);
  for (std::size_t i = 5; i < 13; ++i) {
    take(i);
  }
  EXPECT_EQ(d.steal(t), kd::ws_deque::steal_result::empty);
}

TEST(PoolDeque, ConcurrentThievesTakeEachItemOnce) {
#if defined(__SANITIZE_THREAD__)
  constexpr int kItems = 20000;
#else
  constexpr int kItems = 200000;
#endif
  kd::ws_deque d(2);
  std::vector<kd::task_node> nodes(kItems);
  std::vector<std::atomic<int>> taken(kItems);
  std::atomic<bool> done{false};
  auto mark = [&](kd::task_node* n) { taken[static_cast<std::size_t>(n - nodes.data())]++; };
  std::vector<std::thread> thieves;
  thieves.reserve(2);
  for (int k = 0; k < 2; ++k) {
    thieves.emplace_back([&] {
      while (!done.load() || d.maybe_nonempty()) {
        kd::task_node* t = nullptr;
        if (d.steal(t) == kd::ws_deque::steal_result::taken) {
          mark(t);
        }
      }
    });
  }
  for (int i = 0; i < kItems; ++i) {
    d.push(&nodes[static_cast<std::size_t>(i)]);
    if (i % 3 == 0) {
      if (kd::task_node* t = d.pop()) {
        mark(t);
      }
    }
  }
  while (kd::task_node* t = d.pop()) {
    mark(t);
  }
  done = true;
  for (auto& th : thieves) {
    th.join();
  }
  for (int i = 0; i < kItems; ++i) {
    ASSERT_EQ(taken[static_cast<std::size_t>(i)].load(), 1) << i;
  }
}

TEST(PoolDeque, BatchStealTakesTheOldestHalf) {
  kd::ws_deque d(4);
  std::vector<kd::task_node> nodes(9);
  kd::task_node* got[32];
  std::size_t n = 0;
  EXPECT_EQ(d.steal_batch(got, 32, n), kd::ws_deque::steal_result::empty);
  for (auto& x : nodes) {
    d.push(&x);  // grows 4 -> 16
  }
  ASSERT_EQ(d.steal_batch(got, 32, n), kd::ws_deque::steal_result::taken);
  ASSERT_EQ(n, 5u);  // half of 9, rounded up
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(got[i], &nodes[i]);
  }
  ASSERT_EQ(d.steal_batch(got, 1, n), kd::ws_deque::steal_result::taken);  // at most `max`
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(got[0], &nodes[5]);
  ASSERT_EQ(d.steal_batch(got, 32, n), kd::ws_deque::steal_result::taken);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(got[1], &nodes[7]);
  ASSERT_EQ(d.steal_batch(got, 32, n), kd::ws_deque::steal_result::taken);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(got[0], &nodes[8]);
  EXPECT_EQ(d.steal_batch(got, 32, n), kd::ws_deque::steal_result::empty);
}

// An external slot's deque: the owner pushes and takes batches like the thieves (never pop), the
// ring grows under them; every item is taken exactly once.
TEST(PoolDeque, ConcurrentBatchTakersTakeEachItemOnce) {
#if defined(__SANITIZE_THREAD__)
  constexpr int kItems = 20000;
#else
  constexpr int kItems = 200000;
#endif
  kd::ws_deque d(2);
  std::vector<kd::task_node> nodes(kItems);
  std::vector<std::atomic<int>> taken(kItems);
  std::atomic<bool> done{false};
  auto mark = [&](kd::task_node* t) { taken[static_cast<std::size_t>(t - nodes.data())]++; };
  auto take = [&](std::size_t max) {
    kd::task_node* got[32];
    std::size_t n = 0;
    const auto r = d.steal_batch(got, max, n);
    if (r == kd::ws_deque::steal_result::taken) {
      for (std::size_t i = 0; i < n; ++i) {
        mark(got[i]);
      }
    }
    return r;
  };
  std::vector<std::thread> thieves;
  thieves.reserve(2);
  for (int k = 0; k < 2; ++k) {
    thieves.emplace_back([&, k] {
      while (!done.load() || d.maybe_nonempty()) {
        take(k == 0 ? 32 : 3);
      }
    });
  }
  for (int i = 0; i < kItems; ++i) {
    d.push(&nodes[static_cast<std::size_t>(i)]);
    if (i % 5 == 0) {
      take(32);
    }
  }
  while (take(32) != kd::ws_deque::steal_result::empty) {
  }
  done = true;
  for (auto& th : thieves) {
    th.join();
  }
  for (int i = 0; i < kItems; ++i) {
    ASSERT_EQ(taken[static_cast<std::size_t>(i)].load(), 1) << i;
  }
}
