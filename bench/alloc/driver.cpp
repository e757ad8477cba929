// SPDX-License-Identifier: MIT
// keel_alloc_driver: runs one allocation workload in its own process and prints
// "<elapsed ns> <operations> <checksum> <peak RSS KiB> <CPU ns>" (the peak is the process's VmHWM:
// the resident high-water mark of this program alone, not of the process that started it; CPU ns
// is the user + system time of all the process's threads over the workload). `keel bench
// alloc` starts it once per allocator under LD_PRELOAD (nothing preloaded: glibc). It calls plain
// malloc/free, so whichever allocator the process has is the one measured. `--noop` runs the
// random-mixed loops with the baseline suite's no-op allocator instead: the loop's own cost (the
// floor).
//
// usage: keel_alloc_driver WORKLOAD [--threads N] [--scale F] [--noop]
//   random-mixed | rm-heavy (257..768 B) | rm-tiny (16..64 B) | rm-medium (1..32 KiB)
//   realloc-growth | realloc-single | larson | larson-server | prodcons | false-sharing |
//   thread-churn
#include <time.h>
#include <atomic>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "workloads/random_mixed.h"

namespace {

using clock_type = std::chrono::steady_clock;
using keel::bench::workload::xorshift64;

// Same as the baseline suite's no-op allocator: 1 KiB-strided slices of a static ring, never
// freed. The ring has max-size headroom so the loop's last-byte write stays inside it.
class noop_allocator {
 public:
  void* alloc(std::size_t) {
    cursor_ = (cursor_ + 1024) & (kRing - 1);
    return ring_ + cursor_;
  }

 private:
  static constexpr std::size_t kRing = 1 << 20;
  alignas(64) static inline unsigned char ring_[kRing + (64 << 10)];
  std::size_t cursor_ = 0;
};

struct result {
  std::uint64_t ops = 0;
  std::uint64_t checksum = 0;
};

result run_random_mixed(std::uint32_t lo, std::uint32_t hi, double scale, bool noop) {
  keel::bench::workload::random_mixed_params p;
  p.min_size = lo;
  p.max_size = hi;
  p.decisions = static_cast<std::uint64_t>(static_cast<double>(p.decisions) * scale);
  result r;
  r.ops = p.decisions;
  if (noop) {
    noop_allocator a;
    r.checksum = keel::bench::workload::random_mixed(
        p, [&](std::size_t n) { return a.alloc(n); }, [](void*, std::size_t) {});
  } else {
    r.checksum = keel::bench::workload::random_mixed(
        p, [](std::size_t n) { return std::malloc(n); },
        [](void* q, std::size_t) { std::free(q); });
  }
  return r;
}

// A buffer grows by realloc in small steps (16..256 B) up to 256 KiB, its tail byte written and
// checked at every step; 64 buffers alive, grown round-robin. Operations: realloc calls.
result run_realloc_growth(double scale) {
  constexpr int kBuffers = 64;
  constexpr std::size_t kMax = 256 << 10;
  struct buf {
    unsigned char* p = nullptr;
    std::size_t n = 0;
  };
  std::vector<buf> bufs(kBuffers);
  const auto total = static_cast<std::uint64_t>(4'000'000 * scale);
  std::uint64_t x = 0x1234567;
  result r;
  for (std::uint64_t i = 0; i < total; ++i) {
    buf& b = bufs[i % kBuffers];
    const std::size_t step = 16 + (xorshift64(x) & 255);
    if (b.n + step > kMax) {
      std::free(b.p);
      b = buf{};
    }
    const std::size_t n = b.n + step;
    auto* q = static_cast<unsigned char*>(std::realloc(b.p, n));
    if (!q) std::abort();
    if (b.n) r.checksum += q[b.n - 1];
    q[n - 1] = static_cast<unsigned char>(i);
    b = buf{q, n};
    ++r.ops;
  }
  for (buf& b : bufs) std::free(b.p);
  return r;
}

// One buffer at a time grows by realloc from 64 KiB to 1 MiB by steps of x1.25, the last byte of
// each new size written and the previous one checked, then is freed: a growing buffer with
// nothing else going on (whether the allocator grows it in place or copies it). Operations:
// realloc calls.
result run_realloc_single(double scale) {
  constexpr std::size_t kStart = 64 << 10, kMax = 1 << 20;
  const auto rounds = static_cast<std::uint64_t>(3000 * scale);
  result r;
  for (std::uint64_t i = 0; i < rounds; ++i) {
    std::size_t n = kStart;
    auto* p = static_cast<unsigned char*>(std::malloc(n));
    if (!p) std::abort();
    p[n - 1] = static_cast<unsigned char>(i);
    while (n < kMax) {
      const std::size_t m = n + n / 4 > kMax ? kMax : n + n / 4;
      auto* q = static_cast<unsigned char*>(std::realloc(p, m));
      if (!q) std::abort();
      r.checksum += q[n - 1];
      q[m - 1] = static_cast<unsigned char>(i + m);
      p = q;
      n = m;
      ++r.ops;
    }
    std::free(p);
  }
  return r;
}

// Larson-style server churn: each thread owns a table of blocks, replaces random entries (free the
// old block, allocate a new one of 16..512 B) and every 4096 operations swaps its whole table
// with a shared mailbox, so most blocks are freed by a thread other than the one that allocated
// them.
result run_larson(int threads, double scale) {
  constexpr std::size_t kSlots = 1024;
  const auto per_thread = static_cast<std::uint64_t>(4'000'000 * scale / threads);
  std::vector<std::vector<unsigned char*>> mailbox(static_cast<std::size_t>(threads));
  for (auto& m : mailbox) m.assign(kSlots, nullptr);
  std::mutex mu;
  std::atomic<std::uint64_t> sum{0};
  auto body = [&](int id) {
    std::vector<unsigned char*> table(kSlots, nullptr);
    std::uint64_t x = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(id + 1);
    std::uint64_t local = 0;
    for (std::uint64_t i = 0; i < per_thread; ++i) {
      const std::uint64_t r = xorshift64(x);
      unsigned char*& slot = table[r % kSlots];
      if (slot) {
        local += slot[0];
        std::free(slot);
      }
      const std::size_t n = 16 + ((r >> 32) % 497);
      slot = static_cast<unsigned char*>(std::malloc(n));
      slot[0] = static_cast<unsigned char>(r);
      if ((i & 4095) == 4095) {
        std::lock_guard<std::mutex> g(mu);
        table.swap(mailbox[(static_cast<std::size_t>(id) + i / 4096) % mailbox.size()]);
      }
    }
    {
      std::lock_guard<std::mutex> g(mu);
      for (unsigned char* p : table) std::free(p);
    }
    sum += local;
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) ts.emplace_back(body, t);
  for (auto& t : ts) t.join();
  for (auto& m : mailbox)
    for (unsigned char* p : m) std::free(p);
  return {per_thread * static_cast<std::uint64_t>(threads), sum.load()};
}

// Larson's server benchmark in the proportions public allocator suites run it (8..1000 B,
// 5000 live blocks per thread, each thread doing 100 rounds of 5000 replacements): the main
// thread allocates every slot's blocks; then each slot runs a chain of threads, each doing 100 x
// 5000 replacements (free a random block, allocate one of a random size) on the slot's table,
// then starting its successor on the same table (detached) and exiting. So nearly every free is
// of a block another thread allocated, most of them by a thread that has exited or is exiting.
// Work: 100 generations per slot at scale 1 (the peak RSS of an allocator that does not reuse
// what exited threads left grows with the number of generations).
struct larson_slot {
  std::vector<unsigned char*> table;
  std::uint64_t x = 0;
  std::uint64_t sum = 0;
  int left = 0;  // generations still to run
};
struct larson_shared {
  std::mutex mu;
  std::condition_variable cv;
  int running = 0;  // slots whose chain has not finished
};
constexpr std::size_t kLarsonChunks = 5000, kLarsonRounds = 100, kLarsonMin = 8, kLarsonMax = 1000;

void larson_generation(larson_slot* sl, larson_shared* sh) {
  for (std::size_t i = 0; i < kLarsonRounds * kLarsonChunks; ++i) {
    const std::uint64_t r = xorshift64(sl->x);
    unsigned char*& b = sl->table[r % kLarsonChunks];
    sl->sum += b[0];
    std::free(b);
    b = static_cast<unsigned char*>(
        std::malloc(kLarsonMin + (r >> 32) % (kLarsonMax - kLarsonMin)));
    b[0] = static_cast<unsigned char>(r);
  }
  if (--sl->left > 0) {
    std::thread(larson_generation, sl, sh).detach();
    return;
  }
  std::lock_guard<std::mutex> g(sh->mu);
  if (--sh->running == 0) sh->cv.notify_all();
}

result run_larson_server(int threads, double scale) {
  const int generations = static_cast<int>(100 * scale) < 1 ? 1 : static_cast<int>(100 * scale);
  std::vector<larson_slot> slots(static_cast<std::size_t>(threads));
  larson_shared shared;
  shared.running = threads;
  std::uint64_t seed = 4141;
  for (larson_slot& sl : slots) {
    sl.x = 0x9E3779B97F4A7C15ull ^ xorshift64(seed);
    sl.left = generations;
    sl.table.resize(kLarsonChunks);
    for (auto& b : sl.table) {
      b = static_cast<unsigned char*>(
          std::malloc(kLarsonMin + xorshift64(sl.x) % (kLarsonMax - kLarsonMin)));
      b[0] = 1;
    }
  }
  for (larson_slot& sl : slots) std::thread(larson_generation, &sl, &shared).detach();
  {
    std::unique_lock<std::mutex> lk(shared.mu);
    shared.cv.wait(lk, [&] { return shared.running == 0; });
  }
  result r;
  for (larson_slot& sl : slots) {
    for (unsigned char* b : sl.table) std::free(b);
    r.checksum += sl.sum;
  }
  r.ops = static_cast<std::uint64_t>(generations) * kLarsonRounds * kLarsonChunks *
          static_cast<std::uint64_t>(threads);
  return r;
}

constexpr std::size_t kRingCap = 4096;
struct spsc_ring {
  std::vector<std::atomic<unsigned char*>> slots =
      std::vector<std::atomic<unsigned char*>>(kRingCap);
  alignas(64) std::atomic<std::uint64_t> head{0};
  alignas(64) std::atomic<std::uint64_t> tail{0};
};

// Producer/consumer: producers allocate 16..256 B blocks, fill a header, and pass them through a
// bounded single-producer single-consumer ring to a consumer thread that checks and frees them.
// threads = 1: one thread alternates producing and consuming batches; 2: one pair; 4: two pairs.
result run_prodcons(int threads, double scale) {
  const auto per_pair = static_cast<std::uint64_t>(4'000'000 * scale / (threads == 4 ? 2 : 1));
  auto produce_one = [](std::uint64_t& x, std::uint64_t i) {
    const std::size_t n = 16 + (xorshift64(x) % 241);
    auto* p = static_cast<unsigned char*>(std::malloc(n));
    std::memcpy(p, &i, 8);
    p[n - 1] = static_cast<unsigned char>(n);
    return p;
  };
  std::atomic<std::uint64_t> sum{0};
  if (threads == 1) {
    std::uint64_t x = 77, local = 0;
    std::vector<unsigned char*> batch(4096);
    for (std::uint64_t i = 0; i < per_pair;) {
      std::size_t k = 0;
      for (; k < batch.size() && i < per_pair; ++k, ++i) batch[k] = produce_one(x, i);
      for (std::size_t j = 0; j < k; ++j) {
        std::uint64_t v;
        std::memcpy(&v, batch[j], 8);
        local += v;
        std::free(batch[j]);
      }
    }
    return {per_pair, local};
  }
  const int pairs = threads / 2;
  std::vector<spsc_ring> rings(static_cast<std::size_t>(pairs));
  std::vector<std::thread> ts;
  for (int pi = 0; pi < pairs; ++pi) {
    spsc_ring& rg = rings[static_cast<std::size_t>(pi)];
    ts.emplace_back([&rg, per_pair, produce_one, pi] {
      std::uint64_t x = 77 + static_cast<std::uint64_t>(pi);
      for (std::uint64_t i = 0; i < per_pair; ++i) {
        unsigned char* p = produce_one(x, i);
        const std::uint64_t h = rg.head.load(std::memory_order_relaxed);
        while (h - rg.tail.load(std::memory_order_acquire) >= kRingCap) std::this_thread::yield();
        rg.slots[h % kRingCap].store(p, std::memory_order_relaxed);
        rg.head.store(h + 1, std::memory_order_release);
      }
    });
    ts.emplace_back([&rg, per_pair, &sum] {
      std::uint64_t local = 0;
      for (std::uint64_t i = 0; i < per_pair; ++i) {
        const std::uint64_t t = rg.tail.load(std::memory_order_relaxed);
        while (rg.head.load(std::memory_order_acquire) == t) std::this_thread::yield();
        unsigned char* p = rg.slots[t % kRingCap].load(std::memory_order_relaxed);
        rg.tail.store(t + 1, std::memory_order_release);
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        if (v != i) std::abort();
        local += v;
        std::free(p);
      }
      sum += local;
    });
  }
  for (auto& t : ts) t.join();
  return {per_pair * static_cast<std::uint64_t>(pairs), sum.load()};
}

// False sharing (cache-scratch): the main thread allocates one small object per thread (adjacent
// in memory) and hands them out; each thread frees its object, then repeatedly allocates an
// object, writes it many times and frees it. An allocator that gives a thread memory on another
// thread's cache lines makes the writes fight over lines.
result run_false_sharing(int threads, double scale) {
  const auto iters = static_cast<std::uint64_t>(40'000 * scale);
  constexpr int kWrites = 500;
  std::vector<unsigned char*> initial(static_cast<std::size_t>(threads));
  for (auto& p : initial) p = static_cast<unsigned char*>(std::malloc(8));
  std::atomic<std::uint64_t> sum{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) {
    ts.emplace_back([&, t] {
      std::free(initial[static_cast<std::size_t>(t)]);
      std::uint64_t local = 0;
      for (std::uint64_t i = 0; i < iters; ++i) {
        auto* p = static_cast<volatile unsigned char*>(std::malloc(8));
        for (int w = 0; w < kWrites; ++w) p[w & 7] = static_cast<unsigned char>(p[w & 7] + 1);
        local += p[0];
        std::free(const_cast<unsigned char*>(p));
      }
      sum += local;
    });
  }
  for (auto& t : ts) t.join();
  return {iters * static_cast<std::uint64_t>(threads), sum.load()};
}

// Thread churn: rounds of `threads` short-lived threads; each allocates 2000 blocks of 16..1024 B,
// frees half, and leaves the other half to the next round's threads (freed by another thread after
// the allocating one exited). Operations: allocations.
result run_thread_churn(int threads, double scale) {
  const auto rounds = static_cast<int>(400 * scale);
  constexpr int kPerThread = 2000;
  std::vector<std::vector<unsigned char*>> carry(static_cast<std::size_t>(threads));
  std::atomic<std::uint64_t> sum{0};
  for (int round = 0; round < rounds; ++round) {
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) {
      ts.emplace_back([&, t, round] {
        auto& mine = carry[static_cast<std::size_t>((t + 1) % threads)];
        std::uint64_t local = 0;
        for (unsigned char* p : mine) {
          local += p[0];
          std::free(p);
        }
        mine.clear();
        std::uint64_t x = 0x51ull * static_cast<std::uint64_t>(round * threads + t + 1);
        std::vector<unsigned char*> keep;
        keep.reserve(kPerThread / 2);
        for (int i = 0; i < kPerThread; ++i) {
          const std::size_t n = 16 + (xorshift64(x) % 1009);
          auto* p = static_cast<unsigned char*>(std::malloc(n));
          p[0] = static_cast<unsigned char>(i);
          if (i & 1) {
            keep.push_back(p);
          } else {
            local += p[0];
            std::free(p);
          }
        }
        sum += local;
        // Hand the kept half to the next round (through a slot no other thread of this round uses).
        carry[static_cast<std::size_t>((t + 1) % threads)].swap(keep);
      });
    }
    for (auto& t : ts) t.join();
  }
  for (auto& c : carry)
    for (unsigned char* p : c) std::free(p);
  return {static_cast<std::uint64_t>(rounds) * static_cast<std::uint64_t>(threads) * kPerThread,
          sum.load()};
}

// VmHWM of /proc/self/status in KiB (0 when unreadable).
long peak_rss_kb() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  long kb = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (std::sscanf(line, "VmHWM: %ld kB", &kb) == 1) break;
  }
  std::fclose(f);
  return kb;
}

// User + system time of every thread of the process so far (waiting for a core is not in it).
std::int64_t process_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int usage() {
  std::fprintf(stderr,
               "usage: keel_alloc_driver WORKLOAD [--threads N] [--scale F] [--noop]\n"
               "  random-mixed rm-heavy rm-tiny rm-medium realloc-growth realloc-single larson\n"
               "  larson-server\n"
               "  prodcons false-sharing thread-churn\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string w = argv[1];
  int threads = 1;
  double scale = 1.0;
  bool noop = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (a == "--scale" && i + 1 < argc) {
      scale = std::atof(argv[++i]);
    } else if (a == "--noop") {
      noop = true;
    } else {
      return usage();
    }
  }
  if (threads < 1 || threads > 64 || !(scale > 0 && scale <= 100)) return usage();
  const bool is_rm = w == "random-mixed" || w == "rm-heavy" || w == "rm-tiny" || w == "rm-medium";
  if (noop && !is_rm) {
    std::fprintf(stderr, "keel_alloc_driver: --noop applies to the random-mixed workloads only\n");
    return 2;
  }
  const auto t0 = clock_type::now();
  const std::int64_t cpu0 = process_cpu_ns();
  result r;
  if (w == "random-mixed")
    r = run_random_mixed(16, 1024, scale, noop);
  else if (w == "rm-heavy")
    r = run_random_mixed(257, 768, scale, noop);
  else if (w == "rm-tiny")
    r = run_random_mixed(16, 64, scale, noop);
  else if (w == "rm-medium")
    r = run_random_mixed(1024, 32 << 10, scale, noop);
  else if (w == "realloc-growth")
    r = run_realloc_growth(scale);
  else if (w == "realloc-single")
    r = run_realloc_single(scale);
  else if (w == "larson")
    r = run_larson(threads, scale);
  else if (w == "larson-server")
    r = run_larson_server(threads, scale);
  else if (w == "prodcons") {
    if (threads != 1 && threads != 2 && threads != 4) return usage();
    r = run_prodcons(threads, scale);
  } else if (w == "false-sharing")
    r = run_false_sharing(threads, scale);
  else if (w == "thread-churn")
    r = run_thread_churn(threads, scale);
  else
    return usage();
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now() - t0).count();
  const std::int64_t cpu = process_cpu_ns() - cpu0;
  std::printf("%lld %llu %llu %ld %lld\n", static_cast<long long>(ns),
              static_cast<unsigned long long>(r.ops), static_cast<unsigned long long>(r.checksum),
              peak_rss_kb(), static_cast<long long>(cpu));
  return 0;
}
