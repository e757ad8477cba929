// SPDX-License-Identifier: MIT
// The shared error shape: every component's results and exceptions have the same members, and a
// failed result never yields an invalid value (every accessor either chains the error or throws).
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "keel/bincode.h"
#include "keel/error.h"
#include "keel/json.h"
#include "keel/pool.h"

namespace {

namespace kj = keel::json;
namespace kb = keel::bincode;
namespace kp = keel::pool;

// Input bytes the optimiser cannot see through (keeps gcc's bounds warnings about constant inputs
// away from decodes that are meant to fail).
[[gnu::noinline]] std::vector<std::uint8_t> bytes_of(std::size_t n) {
  return std::vector<std::uint8_t>(n, 1);
}

kj::result<kj::value> bad_parse(kj::parser& p) {
  return p.parse(std::string_view("{\"a\": [1, }"));
}

TEST(ErrorShape, FailedJsonResultThrowsOnEveryValueAccessor) {
  kj::parser p;
  auto r = bad_parse(p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), kj::error_code::unexpected_character);
  EXPECT_EQ(r.error().position(), (keel::position{10, 1, 11}));
  EXPECT_THROW((void)r.value(), kj::exception);
  EXPECT_THROW((void)*r, kj::exception);
  EXPECT_THROW((void)r->is_null(), kj::exception);
  auto copy = r;
  EXPECT_THROW((void)std::move(copy).value(), kj::exception);
  try {
    (void)r->at_pointer("/a/0");
    FAIL() << "operator-> on a failed result must throw";
  } catch (const keel::exception& e) {
    EXPECT_STREQ(e.component(), "json");
    EXPECT_EQ(std::string(e.what()), "1:11: unexpected character");
    EXPECT_EQ(dynamic_cast<const kj::exception&>(e).code(), kj::error_code::unexpected_character);
  }
}

TEST(ErrorShape, FailedJsonResultChainsItsError) {
  kj::parser p;
  auto r = bad_parse(p);
  auto chained = r.find("a").at_pointer("/0").at(3)["x"][std::size_t{2}];
  EXPECT_EQ(chained.error(), r.error());
  auto d = r.at_pointer("/a").get<double>();
  EXPECT_EQ(d.error(), r.error());
  EXPECT_THROW((void)*d, kj::exception);
  EXPECT_EQ(d.value_or(2.5), 2.5);
}

TEST(ErrorShape, JsonLookupsChainOnSuccessAndFailAtTheFirstMiss) {
  kj::parser p;
  auto r = p.parse(std::string_view(R"({"a": {"b": [1, 2.5, "x"]}})"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r.find("a").at_pointer("/b/1").get<double>(), 2.5);
  EXPECT_EQ(*r["a"]["b"][std::size_t{2}].get<std::string_view>(), "x");
  auto miss = r.find("a").find("nope").at(0).get<std::int64_t>();
  EXPECT_EQ(miss.code(), kj::error_code::not_found);
  auto wrong = r.at_pointer("/a/b/2").get<double>();
  EXPECT_EQ(wrong.code(), kj::error_code::type_mismatch);
  EXPECT_THROW((void)*wrong, kj::exception);
}

TEST(ErrorShape, BincodeFailedResultsThrow) {
  const auto two = bytes_of(2);
  auto r = kb::decode<std::uint32_t>(two, kb::legacy());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), kb::error_code::unexpected_end);
  EXPECT_STREQ(r.error().message(), kb::message(kb::error_code::unexpected_end));
  EXPECT_EQ(r.error().to_string(), "unexpected end of input at byte 0");
  EXPECT_THROW((void)*r, kb::exception);
  EXPECT_THROW((void)r.value(), keel::exception);
  try {
    (void)r.value();
  } catch (const kb::exception& e) {
    EXPECT_STREQ(e.component(), "bincode");
    EXPECT_EQ(e.code(), kb::error_code::unexpected_end);
    EXPECT_EQ(e.error(), r.error());
  }
  auto small = bytes_of(2);
  auto n = kb::encode(std::uint64_t{7}, std::span<std::uint8_t>(small), kb::legacy());
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.code(), kb::error_code::buffer_too_small);
  EXPECT_THROW((void)*n, kb::exception);
}

TEST(ErrorShape, PoolExceptionIsAKeelException) {
  kp::exception e(kp::error_code::shut_down);
  const keel::exception& base = e;
  EXPECT_STREQ(base.component(), "pool");
  EXPECT_STREQ(base.what(), "shut down");
  EXPECT_EQ(e.error().code, kp::error_code::shut_down);
  EXPECT_STREQ(kp::message(kp::error_code::cancelled), "cancelled");
}

// A result holds types without a default constructor and switches between value and error.
struct no_default {
  explicit no_default(int v) : x(v) {}
  int x;
};

TEST(ErrorShape, ResultHoldsAnyTypeAndAssignsBothWays) {
  kj::result<no_default> r = no_default(3);
  EXPECT_EQ(r->x, 3);
  kj::result<no_default> e = kj::error_code::not_found;
  EXPECT_FALSE(e.ok());
  r = e;
  EXPECT_EQ(r.code(), kj::error_code::not_found);
  EXPECT_THROW((void)r->x, kj::exception);
  r = kj::result<no_default>(no_default(9));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->x, 9);
  kj::result<std::string> s = std::string(100, 'x');
  auto moved = std::move(s);
  EXPECT_EQ(moved->size(), 100u);
  s = moved;
  EXPECT_EQ(*s, *moved);
}

// The old spellings still compile (deprecated for one release).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(ErrorShape, DeprecatedNamesStillWork) {
  kj::parser p;
  auto r = bad_parse(p);
  EXPECT_EQ(r.err().code, kj::error_code::unexpected_character);
  const auto none = bytes_of(0);
  EXPECT_THROW((void)kb::decode<std::uint8_t>(none, kb::legacy()).value(), kb::bincode_error);
  EXPECT_STREQ(kb::to_string(kb::error_code::invalid_bool),
               kb::message(kb::error_code::invalid_bool));
  EXPECT_THROW(throw kp::pool_error(kp::errc::cancelled), kp::exception);
  EXPECT_STREQ(kp::to_string(kp::errc::cancelled), "cancelled");
}
#pragma GCC diagnostic pop

}  // namespace
