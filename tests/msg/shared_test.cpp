// SPDX-License-Identifier: MIT
// keel::msg::shared_message under concurrent readers and writers (also run under TSan): every
// read sees a whole version (two counters updated together are always equal), a thread's reads
// never go back in time, and every update is applied exactly once.
#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <set>
#include <thread>
#include <vector>

#include "keel/msg.h"
#include "keel/msg/shared.h"

namespace keel::msg {
namespace {

TEST(MsgShared, ReadsAndUpdates) {
  shared_message s;
  s.set("a", std::int64_t{1});
  s.add("b", "x");
  EXPECT_EQ(*s.get<int>("a"), 1);
  EXPECT_TRUE(s.contains("b"));
  EXPECT_EQ(s.size(), 2u);
  auto snap = s.snapshot();
  s.set("a", std::int64_t{2});
  EXPECT_EQ(*snap->get<int>("a"), 1);  // a snapshot does not change
  EXPECT_EQ(*s.get<int>("a"), 2);
  EXPECT_EQ(s.remove("b"), 1u);
  EXPECT_EQ(s.version(), 4u);
}

TEST(MsgShared, StressReadersAndWriters) {
#if defined(__SANITIZE_THREAD__)
  constexpr int kUpdates = 2000;
#else
  constexpr int kUpdates = 20000;
#endif
  constexpr int kWriters = 2, kReaders = 6;
  message init;
  init.set("a", std::int64_t{0});
  init.set("b", std::int64_t{0});
  shared_message s(init);
  std::atomic<bool> done{false};
  std::atomic<int> torn{0}, backwards{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&] {
      for (int i = 0; i < kUpdates; ++i) {
        s.update([](message& m) {
          const std::int64_t a = *m.get<std::int64_t>("a") + 1;
          m.set("a", a);
          m.set("b", a);
          m.set("payload", std::string(static_cast<std::size_t>(a % 64), 'p'));
        });
      }
    });
  }
  for (int r = 0; r < kReaders; ++r) {
    threads.emplace_back([&] {
      std::int64_t last = 0;
      while (!done.load(std::memory_order_acquire)) {
        auto snap = s.snapshot();
        const std::int64_t a = *snap->get<std::int64_t>("a");
        const std::int64_t b = *snap->get<std::int64_t>("b");
        if (a != b) torn.fetch_add(1);
        if (a < last) backwards.fetch_add(1);
        last = a;
      }
    });
  }
  for (int w = 0; w < kWriters; ++w) threads[static_cast<std::size_t>(w)].join();
  done.store(true, std::memory_order_release);
  for (std::size_t t = kWriters; t < threads.size(); ++t) threads[t].join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_EQ(backwards.load(), 0);
  EXPECT_EQ(*s.get<std::int64_t>("a"), std::int64_t{kWriters} * kUpdates);
  EXPECT_EQ(s.version(), static_cast<std::uint64_t>(kWriters) * kUpdates);
}

// Threads alive at the same time read through different slots (up to kSlots of them), also when
// earlier threads have come and gone.
TEST(MsgShared, LiveThreadsHaveSlotsOfTheirOwn) {
  const std::size_t mine = shared_message::reader_slot();
  EXPECT_LT(mine, shared_message::kSlots);
  EXPECT_EQ(shared_message::reader_slot(), mine);  // fixed for the thread's life
  for (std::size_t i = 0; i < 2 * shared_message::kSlots; ++i) {
    std::size_t other = mine;
    std::thread([&other] { other = shared_message::reader_slot(); }).join();
    EXPECT_NE(other, mine) << "thread " << i;
  }
  constexpr std::size_t kOthers = shared_message::kSlots - 1;
  std::vector<std::size_t> slots(kOthers);
  std::latch all_read(kOthers);
  std::latch release(1);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kOthers; ++t) {
    threads.emplace_back([&, t] {
      slots[t] = shared_message::reader_slot();
      all_read.count_down();
      release.wait();
    });
  }
  all_read.wait();
  release.count_down();
  for (auto& t : threads) t.join();
  std::set<std::size_t> distinct(slots.begin(), slots.end());
  distinct.insert(mine);
  EXPECT_EQ(distinct.size(), shared_message::kSlots);
}

// A plain map shared read-only between threads: the first lookups race to build its index (one
// builds, the others scan meanwhile); every lookup finds the right value.
TEST(MsgShared, ConcurrentLookupsOnOneMap) {
  for (int round = 0; round < 20; ++round) {
    map m;
    const auto name = [](int i) {
      std::string n = "name";
      n += std::to_string(i);
      return n;
    };
    for (int i = 0; i < 200; ++i) m.add(name(i), i);
    std::atomic<int> wrong{0};
    std::vector<std::thread> readers;
    for (int t = 0; t < 4; ++t) {
      readers.emplace_back([&m, &wrong, &name, t] {
        for (int i = 0; i < 200; ++i) {
          const int k = (i * 7 + t * 13) % 200;
          auto r = m.get<int>(name(k));
          if (!r || *r != k) wrong.fetch_add(1);
        }
        if (m.contains("name200")) wrong.fetch_add(1);
      });
    }
    for (auto& r : readers) r.join();
    EXPECT_EQ(wrong.load(), 0);
  }
}

}  // namespace
}  // namespace keel::msg
