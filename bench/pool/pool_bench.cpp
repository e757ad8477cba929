// SPDX-License-Identifier: MIT
// keel::pool against oneTBB, asio::thread_pool, std::async and a mutex + condition-variable pool.
// Throughput cases (in-process, interleaved by the harness); latency and idle CPU are in
// pool_latency.cpp. Case names end in /t<N>: N threads run tasks (see the notes for each case).
#define TBB_PREVIEW_GLOBAL_CONTROL 1
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <asio/post.hpp>
#include <asio/thread_pool.hpp>
#include <asio/use_future.hpp>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "harness/keel_bench.h"
#include "keel/pool.h"
#include "pool/mutex_pool.h"

namespace {

namespace kp = keel::pool;
using keel::bench::pool_peers::mutex_pool;

// Lets TBB run n workers besides the calling thread (its default caps workers at cores - 1).
struct tbb_threads {
  explicit tbb_threads(int n)
      : gc(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(n + 1)) {}
  tbb::global_control gc;
};

// Every entry starts with a short sleep so that threads a previous entry left spinning (TBB's
// workers linger after their arena drains) have parked before this one is timed.
void add(keel::bench::suite& s, std::string case_name, std::string impl,
         std::function<void(benchmark::State&)> body, std::uint64_t items) {
  s.add(
      std::move(case_name), std::move(impl),
      [body = std::move(body)](benchmark::State& st) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        body(st);
      },
      0, items);
}

void wait_zero(const std::atomic<long>& left) {
  while (left.load(std::memory_order_acquire) != 0) {
    std::this_thread::yield();
  }
}

// ---- empty tasks submitted from outside --------------------------------------------------------

constexpr long kBatch = 10000;

// Per iteration: kBatch empty tasks handed to `post` (each decrements one shared counter), then the
// caller waits for the counter to reach zero. Every detached-task peer runs this same loop.
template <class Post>
void detached_batches(benchmark::State& st, Post&& post) {
  std::atomic<long> left{0};
  for (auto _ : st) {
    left.store(kBatch, std::memory_order_relaxed);
    for (long i = 0; i < kBatch; ++i) {
      post([&left] { left.fetch_sub(1, std::memory_order_release); });
    }
    wait_zero(left);
  }
}

void add_empty(keel::bench::suite& s, int t) {
  const std::string sfx = "/t" + std::to_string(t);
  // detached: fire-and-forget; each task decrements one shared counter, the caller waits for 0.
  add(
      s, "empty/detached" + sfx, "keel",
      [t](benchmark::State& st) {
        kp::thread_pool p(static_cast<std::size_t>(t));
        detached_batches(st, [&](auto&& f) { p.detach(std::forward<decltype(f)>(f)); });
      },
      kBatch);
  add(
      s, "empty/detached" + sfx, "tbb",
      [t](benchmark::State& st) {
        tbb_threads limit(t);
        tbb::task_arena arena(t + 1, 1);  // t workers; the caller only enqueues
        arena.initialize();
        detached_batches(st, [&](auto&& f) { arena.enqueue(std::forward<decltype(f)>(f)); });
      },
      kBatch);
  add(
      s, "empty/detached" + sfx, "asio",
      [t](benchmark::State& st) {
        asio::thread_pool p(static_cast<std::size_t>(t));
        detached_batches(st, [&](auto&& f) { asio::post(p, std::forward<decltype(f)>(f)); });
        p.join();
      },
      kBatch);
  add(
      s, "empty/detached" + sfx, "mutex_pool",
      [t](benchmark::State& st) {
        mutex_pool p(static_cast<std::size_t>(t));
        detached_batches(st, [&](auto&& f) { p.post(std::forward<decltype(f)>(f)); });
      },
      kBatch);

  // future: one future per task, then every result is read.
  add(
      s, "empty/future" + sfx, "keel",
      [t](benchmark::State& st) {
        kp::thread_pool p(static_cast<std::size_t>(t));
        std::vector<kp::future<int>> fs(kBatch);
        for (auto _ : st) {
          for (auto& f : fs) {
            f = p.submit([] { return 1; });
          }
          long sum = 0;
          for (auto& f : fs) {
            sum += f.get();
          }
          benchmark::DoNotOptimize(sum);
        }
      },
      kBatch);
  add(
      s, "empty/future" + sfx, "asio",
      [t](benchmark::State& st) {
        asio::thread_pool p(static_cast<std::size_t>(t));
        std::vector<std::future<int>> fs(kBatch);
        for (auto _ : st) {
          for (auto& f : fs) {
            f = asio::post(p, asio::use_future([] { return 1; }));
          }
          long sum = 0;
          for (auto& f : fs) {
            sum += f.get();
          }
          benchmark::DoNotOptimize(sum);
        }
        p.join();
      },
      kBatch);
  add(
      s, "empty/future" + sfx, "mutex_pool",
      [t](benchmark::State& st) {
        mutex_pool p(static_cast<std::size_t>(t));
        std::vector<std::future<int>> fs(kBatch);
        for (auto _ : st) {
          for (auto& f : fs) {
            f = p.submit([] { return 1; });
          }
          long sum = 0;
          for (auto& f : fs) {
            sum += f.get();
          }
          benchmark::DoNotOptimize(sum);
        }
      },
      kBatch);
  constexpr long kAsyncBatch = 500;  // a thread per task: a smaller batch, same per-task figure
  add(
      s, "empty/future" + sfx, "std_async",
      [](benchmark::State& st) {
        std::vector<std::future<int>> fs(kAsyncBatch);
        for (auto _ : st) {
          for (auto& f : fs) {
            f = std::async(std::launch::async, [] { return 1; });
          }
          long sum = 0;
          for (auto& f : fs) {
            sum += f.get();
          }
          benchmark::DoNotOptimize(sum);
        }
      },
      kAsyncBatch);

  // group: a task group filled from outside, then waited on (the waiter helps in both).
  add(
      s, "empty/group" + sfx, "keel",
      [t](benchmark::State& st) {
        kp::thread_pool p(static_cast<std::size_t>(t));
        kp::task_group g(p);
        for (auto _ : st) {
          for (long i = 0; i < kBatch; ++i) {
            g.run([] {});
          }
          g.wait();
        }
      },
      kBatch);
  add(
      s, "empty/group" + sfx, "tbb",
      [t](benchmark::State& st) {
        tbb_threads limit(t);
        tbb::task_arena arena(t + 1,
                              1);  // t workers plus the caller, which also runs tasks in wait()
        arena.execute([&] {
          tbb::task_group g;
          for (auto _ : st) {
            for (long i = 0; i < kBatch; ++i) {
              g.run([] {});
            }
            g.wait();
          }
        });
      },
      kBatch);
}

// ---- fork-join -------------------------------------------------------------------------------

long fib_serial_calls(int n) {
  return n < 2 ? 1 : 1 + fib_serial_calls(n - 1) + fib_serial_calls(n - 2);
}

// parallel_for/1e7's loop body, out of line so that keel and tbb run the same machine code: two
// inlined copies of the same loop source differed by about 5 % in streaming speed (docs/pool.md).
[[gnu::noinline]] void scale_range(std::uint32_t* v, std::size_t lo, std::size_t hi) {
  for (std::size_t i = lo; i < hi; ++i) {
    v[i] = v[i] * 3 + 1;
  }
}

// parallel_for/1e7's array, one for every implementation and round: fresh pages per measurement
// made single rounds of the same code differ by up to 25 % (some allocations stream faster than
// others), so both sides stream the same memory.
std::vector<std::uint32_t>& loop_array(std::size_t n) {
  static std::vector<std::uint32_t> v(n, 1);
  return v;
}

// Runs f as one task on p and waits for it: keel's counterpart of task_arena::execute.
template <class F>
void in_pool(kp::thread_pool& p, F&& f) {
  p.submit(std::forward<F>(f)).get();
}

long fib_keel(kp::thread_pool& p, int n) {
  if (n < 2) {
    return n;
  }
  long a = 0;
  kp::task_group g(p);
  g.run([&] { a = fib_keel(p, n - 1); });
  const long b = fib_keel(p, n - 2);
  g.wait();
  return a + b;
}

long fib_tbb(int n) {
  if (n < 2) {
    return n;
  }
  long a = 0;
  tbb::task_group g;
  g.run([&] { a = fib_tbb(n - 1); });
  const long b = fib_tbb(n - 2);
  g.wait();
  return a + b;
}

long skynet_keel(kp::thread_pool& p, long num, long size) {
  if (size == 1) {
    return num;
  }
  long sums[10];
  kp::task_group g(p);
  const long sub = size / 10;
  for (long i = 0; i < 10; ++i) {
    g.run([&, i] { sums[i] = skynet_keel(p, num + i * sub, sub); });
  }
  g.wait();
  long total = 0;
  for (long v : sums) {
    total += v;
  }
  return total;
}

long skynet_tbb(long num, long size) {
  if (size == 1) {
    return num;
  }
  long sums[10];
  tbb::task_group g;
  const long sub = size / 10;
  for (long i = 0; i < 10; ++i) {
    g.run([&, i] { sums[i] = skynet_tbb(num + i * sub, sub); });
  }
  g.wait();
  long total = 0;
  for (long v : sums) {
    total += v;
  }
  return total;
}

void add_fork_join(keel::bench::suite& s, int t) {
  const std::string sfx = "/t" + std::to_string(t);
  constexpr int kFib = 30;
  const auto calls = static_cast<std::uint64_t>(fib_serial_calls(kFib));
  // The timed loop runs on one of the t threads that do the work: tbb's inside
  // task_arena(t, 1).execute (the benchmark thread joins the arena), keel's inside one task on a
  // pool of t workers (in_pool). Neither side pays a hand-off between threads per iteration.
  add(
      s, "fib/30" + sfx, "keel",
      [t](benchmark::State& st) {
        kp::thread_pool p(static_cast<std::size_t>(t));
        in_pool(p, [&] {
          for (auto _ : st) {
            if (fib_keel(p, kFib) != 832040) {
              st.SkipWithError("wrong fib");
            }
          }
        });
      },
      calls);
  add(
      s, "fib/30" + sfx, "tbb",
      [t](benchmark::State& st) {
        tbb_threads limit(t);
        tbb::task_arena arena(t, 1);
        arena.execute([&] {
          for (auto _ : st) {
            long r = fib_tbb(kFib);
            if (r != 832040) {
              st.SkipWithError("wrong fib");
            }
          }
        });
      },
      calls);

  constexpr long kLeaves = 1000000;
  constexpr long kSkynet = kLeaves * (kLeaves - 1) / 2;
  add(
      s, "skynet/1M" + sfx, "keel",
      [t](benchmark::State& st) {
        kp::thread_pool p(static_cast<std::size_t>(t));
        in_pool(p, [&] {
          for (auto _ : st) {
            if (skynet_keel(p, 0, kLeaves) != kSkynet) {
              st.SkipWithError("wrong sum");
            }
          }
        });
      },
      kLeaves);
  add(
      s, "skynet/1M" + sfx, "tbb",
      [t](benchmark::State& st) {
        tbb_threads limit(t);
        tbb::task_arena arena(t, 1);
        arena.execute([&] {
          for (auto _ : st) {
            if (skynet_tbb(0, kLeaves) != kSkynet) {
              st.SkipWithError("wrong sum");
            }
          }
        });
      },
      kLeaves);

  constexpr std::size_t kN = 10000000;
  for (std::size_t grain : {std::size_t{0}, std::size_t{1000}, std::size_t{100000}}) {
    std::string name = "parallel_for/1e7/";
    if (grain) {
      name += 'g';
      name += std::to_string(grain);
    } else {
      name += "auto";
    }
    name += sfx;
    add(
        s, name, "keel",
        [t, grain](benchmark::State& st) {
          kp::thread_pool p(static_cast<std::size_t>(t));
          std::vector<std::uint32_t>& v = loop_array(kN);
          in_pool(p, [&] {
            for (auto _ : st) {
              kp::parallel_for_chunks(
                  p, 0, kN, [&](std::size_t lo, std::size_t hi) { scale_range(v.data(), lo, hi); },
                  grain);
            }
          });
          benchmark::DoNotOptimize(v.data());
        },
        kN);
    add(
        s, name, "tbb",
        [t, grain](benchmark::State& st) {
          tbb_threads limit(t);
          tbb::task_arena arena(t, 1);
          std::vector<std::uint32_t>& v = loop_array(kN);
          auto body = [&](const tbb::blocked_range<std::size_t>& r) {
            scale_range(v.data(), r.begin(), r.end());
          };
          arena.execute([&] {
            for (auto _ : st) {
              if (grain == 0) {
                tbb::parallel_for(tbb::blocked_range<std::size_t>(0, kN), body,
                                  tbb::auto_partitioner());
              } else {
                tbb::parallel_for(tbb::blocked_range<std::size_t>(0, kN, grain), body,
                                  tbb::simple_partitioner());
              }
            }
          });
          benchmark::DoNotOptimize(v.data());
        },
        kN);
  }
}

}  // namespace

KEEL_BENCH_SUITE(
    pool, "work-stealing pool vs oneTBB, asio::thread_pool, std::async, mutex+condvar pool") {
  for (int t : {1, 2}) {
    add_empty(s, t);
    add_fork_join(s, t);
  }
  s.note(
      "tN: N pool threads. Peers as packaged by Debian (oneTBB 2021.8, asio 1.22), same flags as "
      "keel.");
  s.note(
      "empty/detached: 10000 tasks posted from the benchmark thread (keel detach, tbb "
      "task_arena::enqueue with t "
      "workers, asio post, mutex_pool post); each task decrements one shared counter; the caller "
      "yields until 0.");
  s.note(
      "empty/future: 10000 tasks with a future each, then every get() (keel submit, asio "
      "use_future, "
      "mutex_pool packaged_task, std::async(launch::async) with batches of 500). tbb has no "
      "futures: see empty/group.");
  s.note(
      "empty/group: 10000 task_group::run from the benchmark thread, then wait(), which runs tasks "
      "too (keel: t "
      "workers + caller; tbb: arena of t workers + caller).");
  s.note(
      "fib/30: fork-join fib without cutoff on a task_group per call; time per call (2.69M calls). "
      "skynet/1M: "
      "10-ary task tree to 1M leaves, time per leaf. The timed loop runs on one of the t threads: "
      "keel inside one task on a pool of t workers, tbb inside task_arena(t, 1).execute (the same "
      "for parallel_for). asio, mutex_pool and std_async are not in these cases: a worker blocked "
      "waiting for its "
      "children deadlocks them (std::async would need one thread per call).");
  s.note(
      "parallel_for/1e7: v[i] = v[i] * 3 + 1 over 1e7 uint32 (40 MB), in one out-of-line function "
      "both sides call per range (keel parallel_for_chunks, tbb blocked_range); gN: chunks of at "
      "most N (keel cuts N from the front; tbb simple_partitioner halves ranges until <= N, e.g. "
      "~610 at g1000), auto: keel's default grain, tbb auto_partitioner. One shared array. Time "
      "per item.");
}
