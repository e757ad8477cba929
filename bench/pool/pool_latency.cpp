// SPDX-License-Identifier: MIT
// Submit-to-start latency (P50, P99) with a worker spinning and with every worker parked, and the
// CPU an idle pool burns. Measured by the suite itself (add_external): the figures are
// percentiles of single submissions, not means over a loop, so they do not fit the in-process
// harness. Impls take turns in chunks so that machine noise hits them alike.
#define TBB_PREVIEW_GLOBAL_CONTROL 1
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <sys/resource.h>

#include <algorithm>
#include <asio/post.hpp>
#include <asio/thread_pool.hpp>
#include <atomic>
#include <chrono>
#include <cmath>
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
using clk = std::chrono::steady_clock;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clk::now().time_since_epoch())
      .count();
}

// One impl's way of running a callable on t threads, made and torn down by the measurement.
struct runner {
  std::string impl;
  std::function<std::function<void(std::function<void()>)>(int t, std::shared_ptr<void>& keep)>
      make;
};

std::vector<runner> runners() {
  std::vector<runner> r;
  r.push_back({"keel", [](int t, std::shared_ptr<void>& keep) {
                 auto p = std::make_shared<kp::thread_pool>(static_cast<std::size_t>(t));
                 keep = p;
                 return std::function<void(std::function<void()>)>(
                     [p](std::function<void()> f) { p->detach(std::move(f)); });
               }});
  r.push_back({"tbb", [](int t, std::shared_ptr<void>& keep) {
                 struct tbb_env {
                   explicit tbb_env(int n)
                       : gc(tbb::global_control::max_allowed_parallelism,
                            static_cast<std::size_t>(n + 1)),
                         arena(n + 1, 1) {
                     arena.initialize();
                   }
                   tbb::global_control gc;
                   tbb::task_arena arena;
                 };
                 auto e = std::make_shared<tbb_env>(t);
                 keep = e;
                 return std::function<void(std::function<void()>)>(
                     [e](std::function<void()> f) { e->arena.enqueue(std::move(f)); });
               }});
  r.push_back({"asio", [](int t, std::shared_ptr<void>& keep) {
                 auto p = std::shared_ptr<asio::thread_pool>(
                     new asio::thread_pool(static_cast<std::size_t>(t)), [](asio::thread_pool* q) {
                       q->join();
                       delete q;
                     });
                 keep = p;
                 return std::function<void(std::function<void()>)>(
                     [p](std::function<void()> f) { asio::post(*p, std::move(f)); });
               }});
  r.push_back({"mutex_pool", [](int t, std::shared_ptr<void>& keep) {
                 auto p = std::make_shared<mutex_pool>(static_cast<std::size_t>(t));
                 keep = p;
                 return std::function<void(std::function<void()>)>(
                     [p](std::function<void()> f) { p->post(std::move(f)); });
               }});
  r.push_back({"std_async", [](int, std::shared_ptr<void>& keep) {
                 auto futures = std::make_shared<std::vector<std::future<void>>>();
                 keep = futures;
                 return std::function<void(std::function<void()>)>(
                     [futures](std::function<void()> f) {
                       futures->push_back(std::async(std::launch::async, std::move(f)));
                     });
               }});
  return r;
}

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// `count` submissions of a task that stamps its start time; `gap` between them.
void sample(const std::function<void(std::function<void()>)>& submit, int count,
            std::chrono::microseconds gap, std::vector<double>& out) {
  std::atomic<std::int64_t> started{0};
  for (int i = 0; i < count; ++i) {
    started.store(0, std::memory_order_relaxed);
    std::function<void()> task = [&started] { started.store(now_ns(), std::memory_order_release); };
    const std::int64_t t0 = now_ns();
    submit(std::move(task));
    // Spin (do not yield) while waiting: yielding would let the scheduler run the task on this
    // very core, measuring a context switch instead of the pool. After ~10 us, yield (a core
    // shared with the pool's worker must be given up eventually).
    std::int64_t t1;
    for (int spins = 0; (t1 = started.load(std::memory_order_acquire)) == 0; ++spins) {
      if (spins < 200) {
        relax();
      } else {
        std::this_thread::yield();
      }
    }
    out.push_back(static_cast<double>(t1 - t0));
    if (gap.count() > 0) {
      std::this_thread::sleep_for(gap);
    }
  }
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) {
    return 0;
  }
  std::sort(v.begin(), v.end());
  const auto idx = static_cast<std::size_t>(std::llround(q * static_cast<double>(v.size() - 1)));
  return v[std::min(idx, v.size() - 1)];
}

std::vector<keel::bench::record> latency(const keel::bench::context& ctx) {
  std::vector<keel::bench::record> out;
  const auto rs = runners();
  for (int t : {1, 2}) {
    for (const bool parked : {false, true}) {
      const std::string base = std::string("latency/") + (parked ? "parked" : "spinning");
      const std::string suffix = "/t" + std::to_string(t);
      if (!ctx.wants(base + "/p50" + suffix) && !ctx.wants(base + "/p99" + suffix)) {
        continue;  // --filter
      }
      const int chunks = ctx.quick ? 3 : 5;
      const int per_chunk = parked ? (ctx.quick ? 15 : 40) : (ctx.quick ? 200 : 1000);
      const auto gap = parked ? std::chrono::microseconds(5000) : std::chrono::microseconds(0);
      std::vector<std::vector<double>> samples(rs.size());
      for (int c = 0; c < chunks; ++c) {
        for (std::size_t k = 0; k < rs.size(); ++k) {
          std::shared_ptr<void> keep;
          auto submit = rs[k].make(t, keep);
          // Warm up (threads started, caches filled), then let parked pools fall asleep.
          sample(submit, 20, std::chrono::microseconds(0), samples[k]);
          samples[k].resize(samples[k].size() - 20);
          if (parked) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
          sample(submit, per_chunk, gap, samples[k]);
        }
      }
      for (std::size_t k = 0; k < rs.size(); ++k) {
        for (const auto& [label, q] : {std::pair<const char*, double>{"p50", 0.5}, {"p99", 0.99}}) {
          keel::bench::record r;
          r.case_name = base + "/" + label + suffix;
          r.impl = rs[k].impl;
          r.median_ns = percentile(samples[k], q);
          r.items = 1;
          out.push_back(std::move(r));
        }
      }
    }
  }
  return out;
}

long cpu_us() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000L + u.ru_utime.tv_usec +
         u.ru_stime.tv_usec;
}

// CPU time (all threads of the process) while a pool that just did some work sits idle 200 ms.
std::vector<keel::bench::record> idle_cpu(const keel::bench::context& ctx) {
  std::vector<keel::bench::record> out;
  const auto rs = runners();
  const int reps = ctx.quick ? 1 : 3;
  for (int t : {1, 2}) {
    if (!ctx.wants("idle-cpu/200ms/t" + std::to_string(t))) {
      continue;  // --filter
    }
    std::vector<std::vector<double>> used(rs.size());
    for (int rep = 0; rep < reps; ++rep) {
      for (std::size_t k = 0; k < rs.size(); ++k) {
        if (rs[k].impl == "std_async") {
          continue;  // no threads outlive their task
        }
        std::shared_ptr<void> keep;
        auto submit = rs[k].make(t, keep);
        std::vector<double> ignored;
        sample(submit, 200, std::chrono::microseconds(0), ignored);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const long a = cpu_us();
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        used[k].push_back(static_cast<double>(cpu_us() - a) * 1000.0);
      }
    }
    for (std::size_t k = 0; k < rs.size(); ++k) {
      if (used[k].empty()) {
        continue;
      }
      keel::bench::record r;
      r.case_name = "idle-cpu/200ms/t" + std::to_string(t);
      r.impl = rs[k].impl;
      r.median_ns = percentile(used[k], 0.5);
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace

KEEL_BENCH_SUITE(pool, "submit-to-start latency and idle CPU") {
  s.add_external("latency", latency);
  s.add_external("idle-cpu", idle_cpu);
  s.note(
      "latency/spinning: the next task is submitted as soon as the previous one started (workers "
      "still "
      "searching); latency/parked: 5 ms between submissions (every worker asleep). Figure: P50 / "
      "P99 of "
      "now() at task start minus now() just before the submit call, from the benchmark thread, "
      "which spins "
      "(pause) while it waits so the task cannot simply run on its core; all impls take turns in "
      "chunks. tbb: task_arena::enqueue with t workers; std_async starts a thread per task.");
  s.note(
      "idle-cpu/200ms: CPU time (getrusage, whole process) consumed in 200 ms by a pool that ran "
      "200 tasks and "
      "was then left alone for 50 ms; 'median_ns' is that CPU time in ns (0 = no CPU).");
}
