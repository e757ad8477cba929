// SPDX-License-Identifier: MIT
// parallel_for, parallel_for_chunks, parallel_reduce.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "keel/pool.h"

namespace kp = keel::pool;

TEST(PoolParallelFor, VisitsEveryIndexOnceForManyGrains) {
  kp::thread_pool p(2);
  for (std::size_t grain : {0u, 1u, 7u, 64u, 1000u, 100000u}) {
    std::vector<std::atomic<int>> hits(10007);
    kp::parallel_for(
        p, 0, hits.size(), [&](std::size_t i) { hits[i]++; }, grain);
    for (std::size_t i = 0; i < hits.size(); ++i) {
      ASSERT_EQ(hits[i].load(), 1) << "grain " << grain << " i " << i;
    }
  }
}

TEST(PoolParallelFor, OffsetAndEmptyRanges) {
  kp::thread_pool p(2);
  std::atomic<std::size_t> sum{0};
  kp::parallel_for(p, 100, 200, [&](std::size_t i) { sum += i; });
  EXPECT_EQ(sum.load(), 14950u);
  kp::parallel_for(p, 5, 5, [&](std::size_t) { FAIL(); });
  kp::parallel_for(p, 9, 3, [&](std::size_t) { FAIL(); });
}

TEST(PoolParallelFor, ChunksCoverTheRangeAndRespectGrain) {
  kp::thread_pool p(3);
  std::vector<std::atomic<int>> hits(5000);
  std::atomic<std::size_t> max_len{0};
  kp::parallel_for_chunks(
      p, 0, hits.size(),
      [&](std::size_t lo, std::size_t hi) {
        std::size_t len = hi - lo, seen = max_len.load();
        while (len > seen && !max_len.compare_exchange_weak(seen, len)) {
        }
        for (std::size_t i = lo; i < hi; ++i) {
          hits[i]++;
        }
      },
      33);
  EXPECT_LE(max_len.load(), 33u);
  for (auto& h : hits) {
    ASSERT_EQ(h.load(), 1);
  }
}

// grain 0: about 32 chunks per worker, so that the last chunks of a loop are short enough to
// balance (with 8 per worker a 40 MB loop on 2 workers ended its threads up to 57 us apart).
TEST(PoolParallelFor, AutomaticGrainMakesAbout32ChunksPerWorker) {
  for (std::size_t workers : {1u, 2u, 3u}) {
    kp::thread_pool p(workers);
    constexpr std::size_t kN = 100000;
    std::atomic<std::size_t> chunks{0}, max_len{0};
    kp::parallel_for_chunks(p, 0, kN, [&](std::size_t lo, std::size_t hi) {
      chunks++;
      std::size_t len = hi - lo, seen = max_len.load();
      while (len > seen && !max_len.compare_exchange_weak(seen, len)) {
      }
    });
    const std::size_t want = (kN + 32 * workers - 1) / (32 * workers);
    EXPECT_LE(max_len.load(), want) << workers << " workers";
    EXPECT_GE(chunks.load(), 32 * workers) << workers << " workers";
    EXPECT_LE(chunks.load(), 64 * workers) << workers << " workers";
  }
}

// Lazy splitting: tasks are made only when the running thread's queue is empty, not one per chunk.
TEST(PoolParallelFor, MakesFarFewerTasksThanChunks) {
  kp::thread_pool p(2);
  constexpr std::size_t kN = std::size_t{1} << 20, kGrain = 16;
  std::vector<std::atomic<std::uint8_t>> hits(kN);
  std::atomic<std::size_t> chunks{0};
  const std::uint64_t before = p.stats().submitted;
  kp::parallel_for_chunks(
      p, 0, kN,
      [&](std::size_t lo, std::size_t hi) {
        ASSERT_LE(hi - lo, kGrain);
        chunks.fetch_add(1, std::memory_order_relaxed);
        for (std::size_t i = lo; i < hi; ++i) {
          hits[i].fetch_add(1, std::memory_order_relaxed);
        }
      },
      kGrain);
  const std::uint64_t tasks = p.stats().submitted - before;
  EXPECT_GE(chunks.load(), kN / kGrain);
  EXPECT_LT(tasks, kN / kGrain / 8) << chunks.load() << " chunks";
  for (std::size_t i = 0; i < kN; ++i) {
    ASSERT_EQ(hits[i].load(), 1) << i;
  }
}

TEST(PoolParallelFor, RethrowsAndStopsEarly) {
  kp::thread_pool p(2);
  std::atomic<std::size_t> done{0};
  EXPECT_THROW(kp::parallel_for(
                   p, 0, 1000000,
                   [&](std::size_t i) {
                     if (i == 10) throw std::out_of_range("ten");
                     done++;
                   },
                   100),
               std::out_of_range);
  EXPECT_LT(done.load(), 1000000u - 1);
  // The pool is fine afterwards.
  std::atomic<int> n{0};
  kp::parallel_for(p, 0, 100, [&](std::size_t) { n++; });
  EXPECT_EQ(n.load(), 100);
}

TEST(PoolParallelFor, NestedInsideTasksAndWithOneWorker) {
  kp::thread_pool p(1);
  std::atomic<int> n{0};
  kp::parallel_for(
      p, 0, 10,
      [&](std::size_t) {
        kp::parallel_for(
            p, 0, 10, [&](std::size_t) { n++; }, 1);
      },
      1);
  EXPECT_EQ(n.load(), 100);
}

// On the only worker of a pool nobody could take a split-off half: the loop makes no task.
TEST(PoolParallelFor, MakesNoTaskOnTheOnlyWorker) {
  kp::thread_pool p(1);
  std::vector<int> v(100000, 0);
  for (std::size_t grain : {std::size_t{0}, std::size_t{1}, std::size_t{1000}}) {
    std::fill(v.begin(), v.end(), 0);
    const std::uint64_t before = p.stats().submitted;
    p.submit([&] {
       kp::parallel_for(
           p, 0, v.size(), [&](std::size_t i) { v[i]++; }, grain);
     }).get();
    EXPECT_EQ(p.stats().submitted - before, 1u) << "grain " << grain;  // the submit only
    EXPECT_EQ(std::count(v.begin(), v.end(), 1), static_cast<long>(v.size()));
  }
  std::atomic<int> calls{0};  // the grain still bounds each call of the body
  p.submit([&] {
     kp::parallel_for_chunks(
         p, 0, 1000,
         [&](std::size_t lo, std::size_t hi) {
           EXPECT_LE(hi - lo, 7u);
           calls++;
         },
         7);
   }).get();
  EXPECT_EQ(calls.load(), 143);
}

TEST(PoolParallelFor, RunsInlineOnAStoppedPool) {
  kp::thread_pool p(2);
  p.shutdown();
  std::vector<int> v(1000, 0);
  kp::parallel_for(
      p, 0, v.size(), [&](std::size_t i) { v[i] = 1; }, 10);
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 1000);
}

TEST(PoolParallelForEach, VisitsEveryElementOfARange) {
  kp::thread_pool p(2);
  std::vector<int> v(5000);
  std::iota(v.begin(), v.end(), 0);
  kp::parallel_for_each(
      p, v, [](int& x) { x *= 2; }, 64);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(v[static_cast<std::size_t>(i)], 2 * i);
  }
  std::vector<int> empty;
  kp::parallel_for_each(p, empty, [](int&) { FAIL(); });
}

// parallel_reduce keeps a partial result per chunk until the end: its automatic grain makes about
// 8 chunks per worker, not parallel_for's 32.
TEST(PoolParallelReduce, AutomaticGrainMakesAbout8ChunksPerWorker) {
  kp::thread_pool p(2);
  std::atomic<int> calls{0};
  const long sum = kp::parallel_reduce(
      p, 0, 1600, 0L,
      [&](std::size_t lo, std::size_t hi, long acc) {
        calls++;
        return acc + static_cast<long>(hi - lo);
      },
      std::plus<>{});
  EXPECT_EQ(sum, 1600);
  EXPECT_EQ(calls.load(), 16);
}

TEST(PoolParallelReduce, SumsAndIsDeterministic) {
  kp::thread_pool p(2);
  std::vector<double> v(100003);
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = 1.0 / static_cast<double>(i + 1);
  }
  auto map = [&](std::size_t lo, std::size_t hi, double acc) {
    for (; lo < hi; ++lo) {
      acc += v[lo];
    }
    return acc;
  };
  double a = kp::parallel_reduce(p, 0, v.size(), 0.0, map, std::plus<>{}, 1000);
  double b = kp::parallel_reduce(p, 0, v.size(), 0.0, map, std::plus<>{}, 1000);
  EXPECT_EQ(a, b);  // same chunks, same combination order
  double serial = 0;
  for (std::size_t k = 0; k < v.size(); k += 1000) {
    serial += map(k, std::min(v.size(), k + 1000), 0.0);
  }
  EXPECT_EQ(a, serial);
  EXPECT_EQ(kp::parallel_reduce(p, 3, 3, 42.0, map, std::plus<>{}), 42.0);
  // Non-commutative reduce keeps left-to-right order.
  std::string s = kp::parallel_reduce(
      p, 0, 26, std::string(),
      [](std::size_t lo, std::size_t hi, std::string acc) {
        for (; lo < hi; ++lo) {
          acc += static_cast<char>('a' + lo);
        }
        return acc;
      },
      [](const std::string& x, const std::string& y) { return x + y; }, 3);
  EXPECT_EQ(s, "abcdefghijklmnopqrstuvwxyz");
}
