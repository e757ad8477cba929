// SPDX-License-Identifier: MIT
// Multi-threaded stress on keel's prefixed API: blocks handed between threads and freed by their
// receivers, thread creation/exit churn (heaps handed back and adopted), fork from a threaded
// process with allocation in the child.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "keel/alloc.h"

namespace {

struct tagged {
  unsigned char* p;
  std::size_t n;
  std::uint32_t seed;
};

void fill(unsigned char* p, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(std::size_t{seed} * 31 + i);
}
bool check(const unsigned char* p, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != static_cast<unsigned char>(std::size_t{seed} * 31 + i)) return false;
  }
  return true;
}

std::uint64_t next(std::uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// Each thread allocates blocks, fills them and posts them to the next thread's mailbox; every
// thread verifies and frees what it receives (remote frees), with sizes from tiny to huge.
TEST(AllocStress, BlocksPassedBetweenThreads) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 20000;
  std::vector<std::vector<tagged>> box(kThreads);
  std::vector<std::mutex> mu(kThreads);
  std::atomic<int> done{0};
  std::atomic<long> verified{0}, bad{0};
  auto drain = [&](int id) {
    std::vector<tagged> got;
    {
      std::lock_guard<std::mutex> g(mu[static_cast<std::size_t>(id)]);
      got.swap(box[static_cast<std::size_t>(id)]);
    }
    for (const tagged& t : got) {
      if (!check(t.p, t.n, t.seed)) ++bad;
      ++verified;
      keel_free(t.p);
    }
  };
  std::vector<std::thread> ts;
  for (int id = 0; id < kThreads; ++id) {
    ts.emplace_back([&, id] {
      std::uint64_t x = 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(id);
      std::vector<tagged> outgoing;
      for (int i = 0; i < kPerThread; ++i) {
        const std::uint64_t r = next(x);
        std::size_t n = 1 + r % 2048;
        if (r % 1000 == 0)
          n = 1 + r % (std::size_t{3} << 20);
        else if (r % 50 == 0)
          n = 1 + r % 200000;
        auto* p = static_cast<unsigned char*>(keel_malloc(n));
        ASSERT_NE(p, nullptr);
        const auto seed = static_cast<std::uint32_t>(r >> 40);
        fill(p, n, seed);
        outgoing.push_back({p, n, seed});
        if (outgoing.size() == 64) {
          const int to = (id + 1 + static_cast<int>(r % (kThreads - 1))) % kThreads;
          std::lock_guard<std::mutex> g(mu[static_cast<std::size_t>(to)]);
          auto& b = box[static_cast<std::size_t>(to)];
          b.insert(b.end(), outgoing.begin(), outgoing.end());
          outgoing.clear();
        }
        if (i % 256 == 0) drain(id);
      }
      {
        std::lock_guard<std::mutex> g(mu[static_cast<std::size_t>((id + 1) % kThreads)]);
        auto& b = box[static_cast<std::size_t>((id + 1) % kThreads)];
        b.insert(b.end(), outgoing.begin(), outgoing.end());
      }
      ++done;
      while (done.load() < kThreads) {
        drain(id);
        std::this_thread::yield();
      }
      drain(id);
    });
  }
  for (auto& t : ts) t.join();
  for (int id = 0; id < kThreads; ++id) drain(id);
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(verified.load(), long{kThreads} * kPerThread);
}

// Short-lived threads allocate, keep half for the next generation and exit; the survivors are
// verified and freed by threads of the next generation after their allocator exited.
TEST(AllocStress, ThreadChurn) {
  constexpr int kGenerations = 60, kThreads = 4, kBlocks = 500;
  keel_malloc_trim(0);
  const keel_alloc_info before = keel_alloc_info_get();
  std::vector<std::vector<tagged>> carry(kThreads);
  std::atomic<long> bad{0};
  for (int g = 0; g < kGenerations; ++g) {
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t) {
      ts.emplace_back([&, t, g] {
        auto& inbox = carry[static_cast<std::size_t>(t)];
        for (const tagged& b : inbox) {
          if (!check(b.p, b.n, b.seed)) ++bad;
          keel_free(b.p);
        }
        inbox.clear();
        std::uint64_t x = 0x1234567ull * static_cast<std::uint64_t>(g * kThreads + t + 1);
        std::vector<tagged> keep;
        for (int i = 0; i < kBlocks; ++i) {
          const std::uint64_t r = next(x);
          const std::size_t n = 1 + r % 5000;
          auto* p = static_cast<unsigned char*>(keel_malloc(n));
          const auto seed = static_cast<std::uint32_t>(r);
          fill(p, n, seed);
          if (i % 2)
            keep.push_back({p, n, seed});
          else
            keel_free(p);
        }
        inbox.swap(keep);
      });
    }
    for (auto& th : ts) th.join();
    std::rotate(carry.begin(), carry.begin() + 1, carry.end());  // next generation: other threads
  }
  for (auto& c : carry) {
    for (const tagged& b : c) {
      if (!check(b.p, b.n, b.seed)) ++bad;
      keel_free(b.p);
    }
  }
  EXPECT_EQ(bad.load(), 0);
  // Exited threads handed their heaps back; memory of theirs is reused, not leaked per thread.
  const keel_alloc_info info = keel_alloc_info_get();
  EXPECT_LT(info.heaps, 8u);
  EXPECT_LT(info.mapped, std::size_t{256} << 20);
  // Nothing is lost: once every block is freed, a trim adopts the exited threads' segments,
  // collects their remote frees and every page is empty again.
  keel_malloc_trim(0);
  const keel_alloc_info after = keel_alloc_info_get();
  EXPECT_EQ(after.abandoned, 0u);
  EXPECT_LE(after.in_pages, before.in_pages + (std::size_t{1} << 20));
}

// A server's worker threads come and go while their blocks live on: each generation of a chain
// of threads inherits a table of 5000 live blocks (8..1000 B), replaces random ones and exits
// (larson's pattern; here the next generation starts once the previous one has exited, so the
// count below does not depend on scheduling). The blocks an exited thread allocated are freed by
// its successors onto its abandoned pages: the successors must adopt those segments and reuse
// the memory, not map new segments generation after generation while the old ones wait.
TEST(AllocStress, InheritedBlocksOfExitedThreadsAreReclaimed) {
  constexpr int kGenerations = 40;
  constexpr std::size_t kSlots = 5000, kOps = 50000;
  keel_malloc_trim(0);
  const keel_alloc_info before = keel_alloc_info_get();
  std::vector<unsigned char*> table(kSlots);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& b : table) b = static_cast<unsigned char*>(keel_malloc(8 + next(x) % 992));
  std::size_t peak_segments = 0;
  for (int g = 0; g < kGenerations; ++g) {
    std::thread([&] {
      for (std::size_t i = 0; i < kOps; ++i) {
        const std::uint64_t r = next(x);
        unsigned char*& b = table[r % kSlots];
        keel_free(b);
        b = static_cast<unsigned char*>(keel_malloc(8 + (r >> 32) % 992));
        b[0] = 1;
      }
      peak_segments = std::max(peak_segments, keel_alloc_info_get().segments);
    }).join();
  }
  // The live set is about 2.5 MB: a few segments serve it; without adoption every generation
  // left about one more behind (40 generations: 31 segments).
  EXPECT_LE(peak_segments, before.segments + 6);
  for (unsigned char* b : table) keel_free(b);
}

// A library's thread-specific data destructor that allocates and frees after keel handed the
// exiting thread's heap back: the heap it gets then is handed back too (no heap or memory is
// left behind per thread), and blocks allocated there are usable by other threads.
std::atomic<void*> g_late_block{nullptr};
void late_destructor(void* value) {
  keel_free(keel_malloc(200));
  auto* p = static_cast<unsigned char*>(keel_malloc(300));
  fill(p, 300, 11);
  keel_free(g_late_block.exchange(p));
  (void)value;
}

TEST(AllocStress, AllocationInLateThreadDestructors) {
  keel_free(keel_malloc(50));  // keel's own key first: its destructor runs before ours
  pthread_key_t key;
  ASSERT_EQ(pthread_key_create(&key, late_destructor), 0);
  const keel_alloc_info before = keel_alloc_info_get();
  for (int round = 0; round < 50; ++round) {
    std::thread([key] {
      keel_free(keel_malloc(100));
      pthread_setspecific(key, reinterpret_cast<void*>(1));
    }).join();
  }
  const keel_alloc_info after = keel_alloc_info_get();
  EXPECT_EQ(after.heaps, before.heaps);
  void* last = g_late_block.exchange(nullptr);
  ASSERT_NE(last, nullptr);
  EXPECT_TRUE(check(static_cast<unsigned char*>(last), 300, 11));
  keel_free(last);
  pthread_key_delete(key);
}

// Fork while other threads allocate; the child allocates, frees (also blocks of the parent's
// threads) and exits cleanly.
TEST(AllocStress, ForkFromThreadedProcess) {
  std::atomic<bool> stop{false};
  std::atomic<int> running{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 3; ++t) {
    ts.emplace_back([&stop, &running, t] {
      std::uint64_t x = 99 + static_cast<std::uint64_t>(t);
      std::vector<void*> live(64, nullptr);
      running.fetch_add(1);
      while (!stop.load(std::memory_order_relaxed)) {
        const std::uint64_t r = next(x);
        void*& slot = live[r % live.size()];
        keel_free(slot);
        // Mostly small blocks, some huge ones (the huge cache's lock is held across fork too).
        slot = keel_malloc(r % 64 == 0 ? (std::size_t{2} << 20) + r % 4096 : 1 + r % 3000);
      }
      for (void* p : live) keel_free(p);
    });
  }
  std::vector<unsigned char*> parent_blocks;
  for (int i = 0; i < 100; ++i) {
    auto* p = static_cast<unsigned char*>(keel_malloc(100));
    fill(p, 100, 7);
    parent_blocks.push_back(p);
  }
  // Fork only once every thread is inside its keel_malloc/keel_free loop: a thread still starting
  // up may hold a lock of the C library or of a sanitizer's runtime (ASan's allocator takes one
  // while it sets up a new thread), which the child would inherit locked and hang on.
  while (running.load() < 3) std::this_thread::yield();
  for (int round = 0; round < 10; ++round) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int rc = 0;
#ifndef __SANITIZE_THREAD__  // ThreadSanitizer cannot start threads after a multi-threaded fork
      std::thread child_thread([] {
        std::vector<void*> v;
        for (int i = 0; i < 10000; ++i) v.push_back(keel_malloc(1 + i % 4000));
        for (void* p : v) keel_free(p);
      });
      child_thread.join();
#endif
      for (unsigned char* p : parent_blocks) {
        if (!check(p, 100, 7)) rc = 1;
        keel_free(p);
      }
      std::vector<void*> v;
      for (int i = 0; i < 20000; ++i) v.push_back(keel_malloc(1 + i % 70000));
      for (int i = 0; i < 8; ++i) v.push_back(keel_malloc(std::size_t{3} << 20));
      for (void* p : v) keel_free(p);
      _exit(rc);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << status;
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  stop = true;
  for (auto& t : ts) t.join();
  for (unsigned char* p : parent_blocks) keel_free(p);
}

}  // namespace
