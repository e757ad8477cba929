// SPDX-License-Identifier: MIT
// keel::msg::view: lookups over the binary form agree with the decoded message.
#include <gtest/gtest.h>

#include <string>

#include "keel/msg.h"
#include "random_message.h"

namespace keel::msg {
namespace {

message sample() {
  message m(header{"svc", "7", "db", "", "query", "2"});
  m.add("id", std::uint64_t{1} << 40);
  m.add("name", std::string(60, 'n'));
  m.add("ratio", 0.25);
  m.add("ok", true);
  m.add("when", timestamp{1700000000, 5});
  m.add("blob", value::bytes(std::string_view("\x00\x01", 2)));
  m.add("ext", extension{5, {9, 9}});
  m.add("nested", map{{"a", array{1, "x", map{{"deep", -5}}}}, {"b/c", 1.5f}});
  m.add("nums", std::vector<double>{1.5, 2.5, 3.5});
  m.add("tag", value::tagged(1, value(std::int64_t{42})));
  return m;
}

TEST(MsgView, FindsWithoutDecoding) {
  const std::string bytes = to_binary(sample());
  auto v = view::open(bytes);
  ASSERT_TRUE(v.ok()) << v.error().to_string();
  EXPECT_EQ(v->source_id(), "svc");
  EXPECT_EQ(v->source_sub_id(), "7");
  EXPECT_EQ(v->target_id(), "db");
  EXPECT_EQ(v->type(), "query");
  EXPECT_EQ(v->version(), "2");
  EXPECT_EQ(v->size(), 10u);
  EXPECT_EQ(*v->get<std::uint64_t>("id"), std::uint64_t{1} << 40);
  EXPECT_EQ(v->get<std::uint32_t>("id").code(), error_code::out_of_range);
  EXPECT_EQ(*v->get<std::string_view>("name"), std::string(60, 'n'));
  EXPECT_EQ(*v->get<double>("ratio"), 0.25);
  EXPECT_EQ(*v->get<bool>("ok"), true);
  EXPECT_EQ(*v->get<timestamp>("when"), (timestamp{1700000000, 5}));
  EXPECT_EQ(v->get<bytes_view>("blob")->size(), 2u);
  EXPECT_EQ(v->get<extension_view>("ext")->code, 5);
  EXPECT_EQ(v->get<int>("missing").code(), error_code::not_found);
  EXPECT_EQ(v->get<int>("name").code(), error_code::type_mismatch);
  EXPECT_EQ(*v->find_path("/nested/a/2/deep")->get<int>(), -5);
  EXPECT_EQ(*v->find_path("/nested/a/1")->get<std::string_view>(), "x");
  EXPECT_EQ(*v->find_path("/nested/b~1c")->get<float>(), 1.5f);
  EXPECT_EQ(v->find_path("/nested/a/3").code(), error_code::not_found);
  auto nums = v->find("nums");
  EXPECT_EQ(nums->size(), 3u);
  EXPECT_EQ(*nums->element<double>(2), 3.5);
  EXPECT_EQ(nums->element<double>(3).code(), error_code::not_found);
  EXPECT_EQ(nums->element<float>(0).code(), error_code::type_mismatch);
  auto tag = v->find("tag");
  EXPECT_EQ(tag->tag_number(), 1u);
  EXPECT_EQ(*tag->inner()->get<std::int64_t>(), 42);
  auto nested = v->find("nested")->decode();
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(*nested, *sample().find("nested"));
}

TEST(MsgView, AgreesWithTheReaderOnRandomMessages) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::generator g(seed);
    const message m = g.make();
    const std::string bytes = to_binary(m);
    auto v = view::open(bytes);
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(v->type(), m.header.type);
    for (const auto& e : m) {
      auto found = v->find(e.name);
      ASSERT_TRUE(found.ok()) << seed << " " << e.name;
      auto decoded = found->decode();
      ASSERT_TRUE(decoded.ok()) << decoded.error().to_string();
      EXPECT_EQ(*decoded, *m.find(e.name));
    }
  }
}

// A body of more than 8 entries is looked up through the view's index: the first entry of each
// name, paths through it, and not_found (at the body's offset) for a name that is not there.
TEST(MsgView, IndexedBodyAgreesWithTheReader) {
  test::random_options o;
  o.max_entries = 60;
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    test::generator g(seed, o);
    message m = g.make();
    m.add("dup", 1);
    m.add("dup", 2);
    for (int i = 0; i < 9; ++i) {
      std::string name = "k";
      name += std::to_string(i);
      m.add(name, map{{"in", i}});
    }
    const std::string bytes = to_binary(m);
    auto v = view::open(bytes);
    ASSERT_TRUE(v.ok()) << v.error().to_string();
    for (const auto& e : m) {
      auto found = v->find(e.name);
      ASSERT_TRUE(found.ok()) << seed << " " << e.name;
      auto decoded = found->decode();
      ASSERT_TRUE(decoded.ok()) << decoded.error().to_string();
      EXPECT_EQ(*decoded, *m.find(e.name)) << seed << " " << e.name;
    }
    EXPECT_EQ(*v->get<int>("dup"), 1);
    EXPECT_EQ(*v->find_path("/k7/in")->get<int>(), 7);
    auto missing = v->find("not there");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.code(), error_code::not_found);
    EXPECT_EQ(missing.error().offset, v->body().offset());
    EXPECT_EQ(v->find_path("/nope/x").code(), error_code::not_found);
  }
}

TEST(MsgView, DamagedBytesGiveErrorsNotCrashes) {
  const std::string bytes = to_binary(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto v = view::open(std::string_view(bytes).substr(0, n));
    if (!v.ok()) {
      EXPECT_LE(v.error().offset, n);
      continue;
    }
    for (const char* name : {"id", "name", "nested", "nums", "tag", "zzz"}) {
      auto f = v->find(name);
      if (f.ok()) (void)f->decode();
    }
    (void)v->find_path("/nested/a/2/deep");
  }
}

// Opening walks every entry of an indexed body (more than 8 entries), so a body cut anywhere is
// found when opened, with the error of the entry it cuts: truncated, or bad_length for a nested
// container whose length runs past the end, at or before the cut.
TEST(MsgView, IndexedBodyCutAnywhereFailsToOpen) {
  message m = sample();
  for (int i = 0; i < 9; ++i) {
    std::string name = "n";
    name += std::to_string(i);
    m.add(name, std::int16_t{-3});
  }
  m.add("chain", value::tagged(1, value::tagged(2, value(array{1.5f, "x"}))));
  m.add("e", extension{-4, {1, 2, 3}});
  m.add("ts", timestamp{5, 6});
  const std::string bytes = to_binary(m);
  ASSERT_TRUE(view::open(bytes).ok());
  const std::size_t body = to_binary(message(m.header)).size() - 1;  // where the body count is
  for (std::size_t n = body + 1; n < bytes.size(); ++n) {
    auto v = view::open(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(v.ok()) << n;
    EXPECT_TRUE(v.code() == error_code::truncated || v.code() == error_code::bad_length)
        << n << ": " << v.error().to_string();
    EXPECT_LE(v.error().offset, n);
  }
}

}  // namespace
}  // namespace keel::msg
