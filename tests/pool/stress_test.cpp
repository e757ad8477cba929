// SPDX-License-Identifier: MIT
// Stress: many tasks from many threads, random nesting, cancellation and shutdown racing with
// submits. Every task is counted: none lost, none run twice. Sized for seconds in CI, under the
// sanitizers too.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "keel/pool.h"

namespace kp = keel::pool;

namespace {
constexpr int kScale = 8;  // the same sizes under the sanitizers

// One slot per task; a task marks its slot; checked to be exactly 1 afterwards.
struct ledger {
  explicit ledger(std::size_t n) : slots(n) {}
  void mark(std::size_t i) { slots[i].fetch_add(1, std::memory_order_relaxed); }
  std::size_t count(int v) const {
    std::size_t c = 0;
    for (auto& s : slots) {
      c += s.load() == v;
    }
    return c;
  }
  std::vector<std::atomic<int>> slots;
};
}  // namespace

TEST(PoolStress, ManySubmittersAndSpawnersLoseNothing) {
  const std::size_t per_thread = std::size_t{40000} * kScale;  // release: 1.44M tasks in all
  constexpr int kSubmitters = 3;
  ledger outer(per_thread * kSubmitters), inner(per_thread * kSubmitters);
  {
    kp::thread_pool p(4);  // more workers than cores on CI: preemption inside the protocols
    std::vector<std::thread> ts;
    ts.reserve(kSubmitters);
    for (int s = 0; s < kSubmitters; ++s) {
      ts.emplace_back([&, s] {
        for (std::size_t i = 0; i < per_thread; ++i) {
          const std::size_t id = static_cast<std::size_t>(s) * per_thread + i;
          auto body = [&, id] {
            outer.mark(id);
            if (id % 2 == 0) {
              p.detach([&, id] { inner.mark(id); });  // from a worker: its deque
            }
          };
          if (i % 3 == 0) {
            ASSERT_EQ(p.detach(kp::submit_options{static_cast<kp::priority>(i % 9 / 3), {}}, body),
                      kp::error_code::ok);
          } else {
            ASSERT_EQ(p.detach(body), kp::error_code::ok);
          }
        }
      });
    }
    for (auto& t : ts) {
      t.join();
    }
    ASSERT_EQ(p.wait_idle(), kp::error_code::ok);
    kp::pool_stats st = p.stats();
    EXPECT_EQ(st.submitted, per_thread * kSubmitters * 3 / 2);
    EXPECT_EQ(st.executed, st.submitted);
  }
  EXPECT_EQ(outer.count(1), outer.slots.size());
  std::size_t evens = 0;
  for (std::size_t i = 0; i < inner.slots.size(); ++i) {
    ASSERT_EQ(inner.slots[i].load(), i % 2 == 0 ? 1 : 0) << i;
    evens += i % 2 == 0;
  }
  EXPECT_GT(evens, 0u);
}

// A random tree of futures and groups; returns the number of nodes it ran.
long random_tree(kp::thread_pool& p, std::uint64_t seed, int depth) {
  std::mt19937_64 rng(seed);
  if (depth == 0) {
    return 1;
  }
  const int kind = static_cast<int>(rng() % 3);
  const int fan = 1 + static_cast<int>(rng() % 4);
  long total = 1;
  if (kind == 0) {
    std::vector<kp::future<long>> fs;
    fs.reserve(static_cast<std::size_t>(fan));
    for (int i = 0; i < fan; ++i) {
      fs.push_back(p.submit(random_tree, std::ref(p), rng(), depth - 1));
    }
    for (auto& f : fs) {
      total += f.get();
    }
  } else if (kind == 1) {
    kp::task_group g(p);
    std::vector<long> parts(static_cast<std::size_t>(fan));
    for (int i = 0; i < fan; ++i) {
      std::uint64_t s = rng();
      // += so that a task run twice shows in the total
      g.run([&, i, s] { parts[static_cast<std::size_t>(i)] += random_tree(p, s, depth - 1); });
    }
    g.wait();
    for (long v : parts) {
      total += v;
    }
  } else {
    std::atomic<long> sum{0};
    std::uint64_t base = rng();
    kp::parallel_for(
        p, 0, static_cast<std::size_t>(fan),
        [&](std::size_t i) { sum += random_tree(p, base + i, depth - 1); }, 1);
    total += sum.load();
  }
  return total;
}

long serial_tree(std::uint64_t seed, int depth) {
  std::mt19937_64 rng(seed);
  if (depth == 0) {
    return 1;
  }
  const int kind = static_cast<int>(rng() % 3);
  const int fan = 1 + static_cast<int>(rng() % 4);
  long total = 1;
  if (kind == 2) {
    std::uint64_t base = rng();
    for (int i = 0; i < fan; ++i) {
      total += serial_tree(base + static_cast<std::uint64_t>(i), depth - 1);
    }
  } else {
    for (int i = 0; i < fan; ++i) {
      total += serial_tree(rng(), depth - 1);
    }
  }
  return total;
}

TEST(PoolStress, RandomNestingMatchesSerial) {
  for (std::size_t threads : {1u, 2u, 3u}) {
    kp::thread_pool p(threads);
    for (std::uint64_t seed = 1; seed <= std::uint64_t{2} * kScale; ++seed) {
      const int depth = 5;
      ASSERT_EQ(p.submit(random_tree, std::ref(p), seed, depth).get(), serial_tree(seed, depth))
          << seed;
      ASSERT_EQ(random_tree(p, seed + 100, depth), serial_tree(seed + 100, depth))
          << seed;  // from outside
    }
  }
}

TEST(PoolStress, CancellationRacingWithSubmitsAndRuns) {
  const std::size_t n = std::size_t{20000} * kScale;
  ledger ran(n);
  std::vector<kp::future<void>> fs(n);
  std::vector<std::unique_ptr<kp::cancel_source>> sources(64);
  for (auto& s : sources) {
    s = std::make_unique<kp::cancel_source>();
  }
  {
    kp::thread_pool p(3);
    std::thread canceller([&] {
      for (std::size_t k = 0; k < sources.size(); k += 2) {
        sources[k]->cancel();
        std::this_thread::yield();
      }
    });
    for (std::size_t i = 0; i < n; ++i) {
      fs[i] =
          p.submit(kp::submit_options{kp::priority::normal, sources[i % sources.size()]->token()},
                   [&, i] { ran.mark(i); });
    }
    canceller.join();
    for (std::size_t i = 0; i < n; ++i) {
      const kp::error_code st = fs[i].status();
      const int r = ran.slots[i].load();
      if (st == kp::error_code::cancelled) {
        ASSERT_EQ(r, 0) << i;
        ASSERT_EQ((i % sources.size()) % 2, 0u)
            << "cancelled without its token being cancelled: " << i;
      } else {
        ASSERT_EQ(st, kp::error_code::ok);
        ASSERT_EQ(r, 1) << i;
      }
    }
    p.wait_idle();
    kp::pool_stats s = p.stats();
    EXPECT_EQ(s.executed + s.cancelled, n);
    EXPECT_EQ(s.executed, ran.count(1));
  }
}

TEST(PoolStress, ShutdownRacingWithSubmits) {
  std::size_t dropped = 0;  // by shutdown_now, over all rounds
  for (int round = 0; round < 4 * kScale; ++round) {
    const bool now = round % 2 == 1;
    constexpr int kThreads = 3;
    constexpr std::size_t kMax = 20000;
    ledger ran(kThreads * kMax);
    std::vector<std::vector<kp::future<void>>> accepted(kThreads);
    std::atomic<std::size_t> rejected{0};
    auto p = std::make_unique<kp::thread_pool>(2);
    std::atomic<int> ready{0};
    std::vector<std::thread> ts;
    ts.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      ts.emplace_back([&, t] {
        ready++;
        for (std::size_t i = 0; i < kMax; ++i) {
          const std::size_t id = static_cast<std::size_t>(t) * kMax + i;
          auto f = p->submit([&, id] {
            ran.mark(id);
            if (id % 4 == 0) {
              p->detach([] {});  // nested submits during the drain / stop
            }
          });
          // A refused future is ready at once; an accepted one is not waited for here, so the
          // queues hold thousands of tasks when the shutdown lands.
          if (f.ready() && f.status() == kp::error_code::shut_down) {
            rejected++;
            break;
          }
          accepted[static_cast<std::size_t>(t)].push_back(std::move(f));
        }
      });
    }
    while (ready.load() < kThreads) {
      std::this_thread::yield();
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200 * (round + 1)));
    ASSERT_EQ(now ? p->shutdown_now() : p->shutdown(), kp::error_code::ok);
    for (auto& t : ts) {
      t.join();
    }
    std::size_t cancelled = 0, ok = 0;
    for (auto& v : accepted) {
      for (auto& f : v) {
        const kp::error_code st = f.status();
        if (st == kp::error_code::cancelled) {
          ++cancelled;
        } else {
          ASSERT_EQ(st, kp::error_code::ok);
          ++ok;
        }
      }
    }
    EXPECT_EQ(ran.count(1), ok);
    EXPECT_EQ(ran.count(0), ran.slots.size() - ok);
    if (!now) {
      EXPECT_EQ(cancelled, 0u);  // a graceful shutdown runs everything it accepted
    }
    dropped += cancelled;
    kp::pool_stats s = p->stats();
    EXPECT_EQ(s.executed + s.cancelled, s.submitted);
    p.reset();
  }
  EXPECT_GT(dropped, 0u);  // the stops did land on queued work
}

// More outside submitters than the pool has submitter lanes (8): threads share lanes, and a push
// that finds its lane held by another thread waits for it. Detached tasks and futures from every
// thread, some spawning from a worker; all counted.
TEST(PoolStress, MoreOutsideSubmittersThanLanesLoseNothing) {
  constexpr int kSubmitters = 12;
  const std::size_t per_thread = std::size_t{5000} * kScale;
  ledger led(kSubmitters * per_thread), inner(kSubmitters * per_thread);
  std::vector<std::vector<kp::future<int>>> futures(kSubmitters);
  {
    kp::thread_pool p(3);
    std::vector<std::thread> ts;
    ts.reserve(kSubmitters);
    for (int s = 0; s < kSubmitters; ++s) {
      ts.emplace_back([&, s] {
        auto& mine = futures[static_cast<std::size_t>(s)];
        for (std::size_t i = 0; i < per_thread; ++i) {
          const std::size_t id = static_cast<std::size_t>(s) * per_thread + i;
          if (i % 4 == 0) {
            mine.push_back(p.submit([&, id] {
              led.mark(id);
              return static_cast<int>(id % 1000);
            }));
          } else {
            ASSERT_EQ(p.detach([&, id] {
              led.mark(id);
              if (id % 8 == 1) {
                p.detach([&, id] { inner.mark(id); });
              }
            }),
                      kp::error_code::ok);
          }
        }
      });
    }
    for (auto& t : ts) {
      t.join();
    }
    for (int s = 0; s < kSubmitters; ++s) {
      for (std::size_t k = 0; k < futures[static_cast<std::size_t>(s)].size(); ++k) {
        const std::size_t id = static_cast<std::size_t>(s) * per_thread + 4 * k;
        ASSERT_EQ(futures[static_cast<std::size_t>(s)][k].get(), static_cast<int>(id % 1000));
      }
    }
    ASSERT_EQ(p.wait_idle(), kp::error_code::ok);
    const kp::pool_stats st = p.stats();
    EXPECT_EQ(st.submitted, kSubmitters * per_thread + inner.slots.size() / 8);
    EXPECT_EQ(st.executed, st.submitted);
  }
  EXPECT_EQ(led.count(1), led.slots.size());
  for (std::size_t i = 0; i < inner.slots.size(); ++i) {
    ASSERT_EQ(inner.slots[i].load(), i % 8 == 1 ? 1 : 0) << i;
  }
}

// Groups owned by threads outside the pool, more owners than lent slots: owners and workers take
// several tasks of a slot at once, tasks add nested tasks to their own group, groups are reused
// (slots are claimed and given back each round). Every task is marked exactly once.
TEST(PoolStress, OutsideGroupOwnersTakingBatchesLoseNothing) {
  constexpr int kOwners = 6, kRounds = 10, kTasks = 500 * kScale;
  constexpr std::size_t kPerOwner = std::size_t{kRounds} * kTasks * 2;
  kp::thread_pool p(3);
  ledger led(kOwners * kPerOwner);
  std::vector<std::thread> owners;
  owners.reserve(kOwners);
  for (int o = 0; o < kOwners; ++o) {
    owners.emplace_back([&, o] {
      kp::task_group g(p);
      for (int r = 0; r < kRounds; ++r) {
        for (int i = 0; i < kTasks; ++i) {
          const std::size_t id =
              static_cast<std::size_t>(o) * kPerOwner +
              (static_cast<std::size_t>(r) * kTasks + static_cast<std::size_t>(i)) * 2;
          g.run([&led, &g, id] {
            led.mark(id);
            if (id % 4 == 0) {
              g.run([&led, id] { led.mark(id + 1); });  // nested, from whichever thread runs this
            } else {
              led.mark(id + 1);
            }
          });
        }
        EXPECT_EQ(g.wait(), kp::group_status::complete);
      }
    });
  }
  for (auto& t : owners) {
    t.join();
  }
  EXPECT_EQ(led.count(1), led.slots.size());
  EXPECT_EQ(p.wait_idle(), kp::error_code::ok);
  const kp::pool_stats s = p.stats();
  EXPECT_EQ(s.submitted, s.executed);
}
