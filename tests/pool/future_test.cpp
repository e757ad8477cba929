// SPDX-License-Identifier: MIT
// submit / future / detach / bulk submit.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "keel/pool.h"

namespace kp = keel::pool;

TEST(PoolFuture, ReturnsValueAndBindsArguments) {
  kp::thread_pool p(2);
  EXPECT_EQ(p.size(), 2u);
  auto f = p.submit([](int a, const std::string& b) { return b + std::to_string(a); }, 42,
                    std::string("x"));
  EXPECT_TRUE(f.valid());
  EXPECT_EQ(f.get(), "x42");
  EXPECT_FALSE(f.valid());
}

TEST(PoolFuture, VoidAndMoveOnlyResults) {
  kp::thread_pool p(2);
  std::atomic<int> hits{0};
  auto v = p.submit([&] { hits++; });
  v.get();
  EXPECT_EQ(hits.load(), 1);
  auto u = p.submit([] { return std::make_unique<int>(7); });
  EXPECT_EQ(*u.get(), 7);
  auto moved = p.submit([](std::unique_ptr<int> q) { return *q + 1; }, std::make_unique<int>(1));
  EXPECT_EQ(moved.get(), 2);
}

TEST(PoolFuture, ExceptionPropagatesToGet) {
  kp::thread_pool p(1);
  auto f = p.submit([]() -> int { throw std::runtime_error("boom"); });
  EXPECT_EQ(f.status(), kp::error_code::ok);  // it ran
  try {
    f.get();
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "boom");
  }
}

TEST(PoolFuture, EmptyFutureReportsNoState) {
  kp::future<int> f;
  EXPECT_FALSE(f.valid());
  EXPECT_FALSE(f.ready());
  EXPECT_EQ(f.status(), kp::error_code::no_state);
  try {
    f.get();
    FAIL();
  } catch (const kp::exception& e) {
    EXPECT_EQ(e.code(), kp::error_code::no_state);
  }
}

TEST(PoolFuture, ReadyAndWaitFromOutside) {
  kp::thread_pool p(2);
  std::atomic<bool> go{false};
  auto f = p.submit([&] {
    while (!go.load()) {
      std::this_thread::yield();
    }
    return 5;
  });
  EXPECT_FALSE(f.ready());
  go = true;
  f.wait();
  EXPECT_TRUE(f.ready());
  EXPECT_EQ(f.get(), 5);
}

TEST(PoolFuture, NestedWaitOnOneWorkerDoesNotDeadlock) {
  kp::thread_pool p(1);
  // Depth-10 chain of tasks each waiting for a child submitted to the same single worker.
  std::function<int(int)> chain = [&](int d) -> int {
    if (d == 0) {
      return 1;
    }
    auto f = p.submit(chain, d - 1);
    return f.get() + 1;
  };
  EXPECT_EQ(p.submit(chain, 10).get(), 11);
}

TEST(PoolDetach, RunsAndReportsExceptionsToHandler) {
  std::atomic<int> caught{0};
  std::string what;
  std::mutex mu;
  kp::pool_options o;
  o.threads = 2;
  o.on_detached_exception = [&](const std::exception_ptr& e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      std::lock_guard<std::mutex> l(mu);
      what = ex.what();
    }
    caught++;
  };
  kp::thread_pool p(o);
  std::atomic<int> ran{0};
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(p.detach([&] { ran++; }), kp::error_code::ok);
  }
  EXPECT_EQ(p.detach([] { throw std::logic_error("detached"); }), kp::error_code::ok);
  EXPECT_EQ(p.wait_idle(), kp::error_code::ok);
  EXPECT_EQ(ran.load(), 100);
  EXPECT_EQ(caught.load(), 1);
  EXPECT_EQ(what, "detached");
  EXPECT_EQ(p.stats().detached_exceptions, 1u);
}

TEST(PoolDetach, HandlerThatThrowsIsSwallowed) {
  kp::pool_options o;
  o.threads = 1;
  o.on_detached_exception = [](const std::exception_ptr&) { throw 1; };
  kp::thread_pool p(o);
  p.detach([] { throw 2; });
  EXPECT_EQ(p.wait_idle(), kp::error_code::ok);
  EXPECT_EQ(p.submit([] { return 3; }).get(), 3);  // the worker survived
}

TEST(PoolBulk, SubmitBulkAndDetachBulk) {
  kp::thread_pool p(2);
  std::vector<std::function<int()>> fns;
  fns.reserve(50);
  for (int i = 0; i < 50; ++i) {
    fns.push_back([i] { return i * i; });
  }
  auto futs = p.submit_bulk(fns);
  ASSERT_EQ(futs.size(), 50u);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(futs[i].get(), i * i);
  }

  std::vector<std::atomic<int>> seen(1000);
  EXPECT_EQ(p.detach_bulk(seen.size(), [&](std::size_t i) { seen[i]++; }), kp::error_code::ok);
  EXPECT_EQ(p.wait_idle(), kp::error_code::ok);
  for (auto& s : seen) {
    EXPECT_EQ(s.load(), 1);
  }
}

TEST(PoolBulk, BulkFromInsideAWorker) {
  kp::thread_pool p(2);
  auto outer = p.submit([&] {
    std::vector<std::function<int()>> fns;
    fns.reserve(20);
    for (int i = 0; i < 20; ++i) {
      fns.push_back([i] { return i; });
    }
    int sum = 0;
    for (auto& f : p.submit_bulk(fns)) {
      sum += f.get();
    }
    return sum;
  });
  EXPECT_EQ(outer.get(), 190);
}

// Task memory comes from small caches with operator new's default alignment; a callable or a
// result that asks for more must still be constructed where its alignment holds.
struct alignas(64) wide {
  unsigned char bytes[64] = {};
};

bool aligned64(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }

TEST(PoolFuture, OverAlignedCallablesAndResults) {
  kp::thread_pool p(2);
  std::atomic<int> misaligned{0};
  std::atomic<int> ran{0};
  std::vector<kp::future<wide>> results;
  kp::task_group g(p);
  for (int i = 0; i < 200; ++i) {
    wide w;
    w.bytes[0] = static_cast<unsigned char>(i);
    results.push_back(p.submit([w, &misaligned] {
      misaligned += aligned64(&w) ? 0 : 1;
      wide r = w;
      r.bytes[1] = 1;
      return r;
    }));
    p.detach([w, &misaligned, &ran] {
      misaligned += aligned64(&w) ? 0 : 1;
      ran++;
    });
    g.run([w, &misaligned, &ran] {
      misaligned += aligned64(&w) ? 0 : 1;
      ran++;
    });
  }
  g.wait();
  for (int i = 0; i < 200; ++i) {
    const wide r = results[static_cast<std::size_t>(i)].get();
    EXPECT_EQ(r.bytes[0], static_cast<unsigned char>(i));
    EXPECT_EQ(r.bytes[1], 1);
  }
  p.wait_idle();
  EXPECT_EQ(ran.load(), 400);
  EXPECT_EQ(misaligned.load(), 0);
}

// A callable whose copy throws on the n-th copy, counting its live instances.
struct fragile {
  static inline std::atomic<int> live{0};
  static inline std::atomic<int> copies_left{0};
  std::atomic<int>* ran;
  explicit fragile(std::atomic<int>* r) : ran(r) { live++; }
  fragile(const fragile& o) : ran(o.ran) {
    if (copies_left.fetch_sub(1) <= 0) {
      throw std::runtime_error("copy");
    }
    live++;
  }
  fragile(fragile&& o) noexcept : ran(o.ran) { live++; }
  fragile& operator=(const fragile&) = delete;
  ~fragile() { live--; }
  void operator()() const { (*ran)++; }
};

TEST(PoolBulk, ACallableThatThrowsWhileBeingCopiedQueuesNothingAndLeaksNothing) {
  kp::thread_pool p(2);
  std::atomic<int> ran{0};
  {
    std::vector<fragile> fns;
    fns.reserve(10);
    for (int i = 0; i < 10; ++i) {
      fns.emplace_back(&ran);
    }
    fragile::copies_left = 6;  // the 7th task cannot be made
    EXPECT_THROW(p.submit_bulk(fns), std::runtime_error);
    fragile::copies_left = 4;  // detach_bulk copies the callable into every task
    EXPECT_THROW(p.detach_bulk(10, [f = fns[0]](std::size_t) { f(); }), std::runtime_error);
    fragile::copies_left = 1000;
    for (auto& f : p.submit_bulk(fns)) {
      f.get();
    }
  }
  p.wait_idle();
  EXPECT_EQ(ran.load(), 10);  // only the last bulk ran
  EXPECT_EQ(fragile::live.load(), 0);
  EXPECT_EQ(p.stats().submitted, 10u);
}
