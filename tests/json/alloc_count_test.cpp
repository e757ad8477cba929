// SPDX-License-Identifier: MIT
// Counts global allocations (operator new replaced): a reused parser and writer allocate nothing in
// steady state. Its own binary, since the replacement counts every allocation in the process.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "keel/json.h"
#include "test_util.h"

namespace {
std::atomic<long> g_allocations{0};
// Out of line so GCC does not pair the malloc/free below with new/delete expressions.
__attribute__((noinline)) void* counted_alloc(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
__attribute__((noinline)) void release(void* p) noexcept { std::free(p); }
}  // namespace

void* operator new(std::size_t n) {
  if (void* p = counted_alloc(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }

namespace {

using namespace keel::json;

TEST(Steady, ReusedParserAndWriterAllocateNothing) {
  const std::string a =
      keel::json::test::slurp(keel::json::test::corpus() / "json" / "twitter.json");
  const std::string b =
      keel::json::test::slurp(keel::json::test::corpus() / "json" / "citm_catalog.json");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  parser p;
  writer w;
  for (const std::string* t : {&a, &b, &a, &b}) {
    auto r = p.parse(*t);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(w.write(*r).ok());
  }
  const long before = g_allocations.load();
  for (int i = 0; i < 5; ++i) {
    for (const std::string* t : {&a, &b}) {
      auto r = p.parse(*t);
      ASSERT_TRUE(r.ok());
      ASSERT_TRUE(w.write(*r).ok());
    }
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
}

TEST(Steady, HugeSizeFailsCleanly) {
  // The size is checked before the input is read.
  const char tiny[] = "[]";
  parser p;
  auto r = p.parse(tiny, std::size_t{5} << 30);
  EXPECT_EQ(r.code(), error_code::document_too_large);
}

}  // namespace
