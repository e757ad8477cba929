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
