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
// Allocations of more bytes than this are refused (std::bad_alloc).
std::atomic<std::size_t> g_refuse_above{~std::size_t{0}};
// Out of line so GCC does not pair the malloc/free below with new/delete expressions.
__attribute__((noinline)) void* counted_alloc(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (n > g_refuse_above.load(std::memory_order_relaxed)) return nullptr;
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

// The scalar set's one pass reserves nodes for the worst case (half a node a byte of input);
// where that much is refused it parses with stage 1 and stage 2, whose node count comes from the
// positions, and the document is the same.
TEST(Steady, ScalarParseWithoutRoomForTheNodeEstimate) {
  const std::string a =
      keel::json::test::slurp(keel::json::test::corpus() / "json" / "twitter.json");
  ASSERT_FALSE(a.empty());
  parser reference;
  auto want = reference.parse(a);
  ASSERT_TRUE(want.ok());
  parse_options po;
  po.isa = isa::scalar;
  parser p(po);
  // Room for the input's position buffer and for 16 bytes a node of the document (grown by half
  // again), not for the one pass's 8 bytes a byte of input.
  g_refuse_above = 7 * a.size();
  auto r = p.parse(a);
  g_refuse_above = ~std::size_t{0};
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(*r == *want);
  EXPECT_LT(p.doc().node_count() * 24, 7 * a.size());  // the two passes' nodes did fit
}

TEST(Steady, HugeSizeFailsCleanly) {
  // The size is checked before the input is read.
  const char tiny[] = "[]";
  parser p;
  auto r = p.parse(tiny, std::size_t{5} << 30);
  EXPECT_EQ(r.code(), error_code::document_too_large);
}

}  // namespace
