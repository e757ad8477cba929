// SPDX-License-Identifier: MIT
// The shared submission queue on its own: FIFO order through ring growth, the overflow list behind
// a ring that may not grow, refused pushes, and concurrent submitters and takers.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "pool/inject_queue.h"

namespace kd = keel::pool::detail;

namespace {

std::vector<kd::task_node*> pop_all(kd::inject_queue& q, std::size_t batch) {
  std::vector<kd::task_node*> out;
  std::vector<kd::task_node*> buf(batch);
  while (std::size_t n = q.pop_batch(buf.data(), batch)) {
    EXPECT_LE(n, batch);
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return out;
}

}  // namespace

TEST(PoolInjectQueue, FifoThroughGrowth) {
  kd::inject_queue q;
  std::vector<kd::task_node> nodes(3000);
  for (auto& n : nodes) {
    q.push(&n);  // the ring grows 256 -> 4096
  }
  EXPECT_EQ(q.size(), nodes.size());
  kd::task_node* t[5];
  ASSERT_EQ(q.pop_batch(t, 5), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(t[i], &nodes[i]);
  }
  std::vector<kd::task_node*> rest = pop_all(q, 7);
  ASSERT_EQ(rest.size(), nodes.size() - 5);
  for (std::size_t i = 0; i < rest.size(); ++i) {
    ASSERT_EQ(rest[i], &nodes[i + 5]) << i;
  }
  EXPECT_EQ(q.size(), 0u);
  EXPECT_EQ(q.pop(), nullptr);
}

// Growth while the oldest task sits in the middle of the ring (head wrapped) keeps the order.
TEST(PoolInjectQueue, GrowthWithAWrappedHeadKeepsFifoOrder) {
  kd::inject_queue q;
  std::vector<kd::task_node> nodes(2000);
  std::size_t pushed = 0, popped = 0;
  auto push_to = [&](std::size_t n) {
    for (; pushed < n; ++pushed) {
      q.push(&nodes[pushed]);
    }
  };
  auto pop_n = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i, ++popped) {
      ASSERT_EQ(q.pop(), &nodes[popped]) << popped;
    }
  };
  push_to(256);  // a full ring of 256
  pop_n(200);
  push_to(466);  // wraps, then grows to 512 with the head at slot 200
  pop_n(200);
  push_to(2000);  // two more growths with a wrapped head
  pop_n(2000 - 400);
  EXPECT_EQ(q.pop(), nullptr);
}

// A ring larger than 64 Ki tasks is freed once it empties; the queue then starts small again.
TEST(PoolInjectQueue, LargeRingIsFreedWhenEmpty) {
  kd::inject_queue q;
  std::vector<kd::task_node> nodes(70000);
  for (auto& n : nodes) {
    q.push(&n);
  }
  EXPECT_EQ(q.ring_capacity(), 131072u);
  std::vector<kd::task_node*> all = pop_all(q, 32);
  ASSERT_EQ(all.size(), nodes.size());
  EXPECT_EQ(all.back(), &nodes.back());
  EXPECT_EQ(q.ring_capacity(), 0u);
  q.push(&nodes[0]);
  EXPECT_EQ(q.ring_capacity(), 256u);
  EXPECT_EQ(q.pop(), &nodes[0]);
}

// With the ring at its limit, later tasks wait in the overflow list, and tasks pushed while the
// overflow is not empty go behind it even when the ring has room again.
TEST(PoolInjectQueue, OverflowKeepsFifoOrder) {
  kd::inject_queue q(256);
  std::vector<kd::task_node> nodes(700);
  std::size_t pushed = 0;
  for (; pushed < 600; ++pushed) {
    q.push(&nodes[pushed]);
  }
  std::vector<kd::task_node*> got;
  kd::task_node* buf[32];
  for (int k = 0; k < 4; ++k) {
    std::size_t n = q.pop_batch(buf, 25);
    ASSERT_EQ(n, 25u);
    got.insert(got.end(), buf, buf + n);
  }
  // A chain of 100 (as push_bulk makes) while 344 wait in the overflow.
  for (std::size_t i = pushed; i + 1 < pushed + 100; ++i) {
    nodes[i].next = &nodes[i + 1];
  }
  q.push_chain(&nodes[pushed], &nodes[pushed + 99], 100);
  pushed += 100;
  EXPECT_EQ(q.size(), 600u);
  std::vector<kd::task_node*> rest = pop_all(q, 32);
  got.insert(got.end(), rest.begin(), rest.end());
  ASSERT_EQ(got.size(), pushed);
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], &nodes[i]) << i;
  }
  // Empty again: new tasks use the ring, and a second overflow works like the first.
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      q.push(&nodes[i]);
    }
    std::vector<kd::task_node*> again = pop_all(q, 32);
    ASSERT_EQ(again.size(), nodes.size()) << round;
    for (std::size_t i = 0; i < again.size(); ++i) {
      ASSERT_EQ(again[i], &nodes[i]) << round << " " << i;
    }
  }
}

TEST(PoolInjectQueue, RefusesExternalPushesOnceStateIsSet) {
  kd::inject_queue q;
  std::atomic<std::uint32_t> state{0};
  kd::task_node a, b;
  EXPECT_TRUE(q.push_external(&a, &a, 1, state));
  state = 1;
  EXPECT_FALSE(q.push_external(&b, &b, 1, state));
  EXPECT_EQ(q.submitted(), 1u);
  EXPECT_EQ(q.pop(), &a);
  EXPECT_EQ(q.pop(), nullptr);
}

// Two submitters and two takers on a ring that overflows: every task is taken exactly once, and
// each submitter's tasks come out in the order it pushed them.
TEST(PoolInjectQueue, ConcurrentSubmittersAndTakers) {
  constexpr std::size_t kPer = 20000;
  kd::inject_queue q(512);
  std::vector<kd::task_node> nodes(2 * kPer);
  std::vector<std::atomic<int>> taken(2 * kPer);
  std::atomic<std::size_t> total{0};
  std::atomic<bool> order_ok{true};
  auto submitter = [&](std::size_t base) {
    for (std::size_t i = 0; i < kPer; ++i) {
      q.push(&nodes[base + i]);
    }
  };
  auto taker = [&] {
    std::size_t last[2] = {0, 0};
    bool any[2] = {false, false};
    kd::task_node* buf[16];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (total.load() < 2 * kPer) {
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "tasks lost: " << total.load() << " of " << 2 * kPer << " taken";
        return;
      }
      std::size_t n = q.pop_batch(buf, 16);
      for (std::size_t k = 0; k < n; ++k) {
        auto i = static_cast<std::size_t>(buf[k] - nodes.data());
        taken[i]++;
        const std::size_t who = i / kPer;
        if (any[who] && i <= last[who]) {
          order_ok = false;
        }
        any[who] = true;
        last[who] = i;
      }
      total += n;
    }
  };
  std::thread s1(submitter, 0), s2(submitter, kPer), t1(taker), t2(taker);
  s1.join();
  s2.join();
  t1.join();
  t2.join();
  for (std::size_t i = 0; i < taken.size(); ++i) {
    ASSERT_EQ(taken[i].load(), 1) << i;
  }
  EXPECT_TRUE(order_ok.load());
  EXPECT_EQ(q.size(), 0u);
}
