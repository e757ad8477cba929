// SPDX-License-Identifier: MIT
// keel::msg model: values of every type, checked get<T>, map operations, paths, copies.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "keel/msg.h"

namespace keel::msg {
namespace {

TEST(MsgValue, ScalarsAreInlineAndTyped) {
  EXPECT_EQ(value().type(), type::null);
  EXPECT_EQ(value(true).type(), type::boolean);
  EXPECT_EQ(value(std::int8_t{-3}).type(), type::int8);
  EXPECT_EQ(value(std::int16_t{-3}).type(), type::int16);
  EXPECT_EQ(value(-3).type(), type::int32);
  EXPECT_EQ(value(std::int64_t{-3}).type(), type::int64);
  EXPECT_EQ(value(-3LL).type(), type::int64);
  EXPECT_EQ(value(std::uint8_t{3}).type(), type::uint8);
  EXPECT_EQ(value(std::uint16_t{3}).type(), type::uint16);
  EXPECT_EQ(value(3u).type(), type::uint32);
  EXPECT_EQ(value(std::uint64_t{3}).type(), type::uint64);
  EXPECT_EQ(value(1.5f).type(), type::float32);
  EXPECT_EQ(value(1.5).type(), type::float64);
  EXPECT_EQ(value("hi").type(), type::string);
  EXPECT_EQ(value(timestamp{1, 2}).type(), type::timestamp);
  for (const value& v : {value(), value(true), value(-3), value(1.5), value("short string"),
                         value(std::string(22, 'x')), value(timestamp{1, 2})})
    EXPECT_TRUE(v.is_inline()) << type_name(v.type());
  EXPECT_FALSE(value(std::string(23, 'x')).is_inline());
  EXPECT_EQ(*value(std::string(23, 'x')).get<std::string_view>(), std::string(23, 'x'));
}

TEST(MsgValue, CheckedIntegerConversions) {
  value v(std::int64_t{300});
  EXPECT_EQ(*v.get<std::int16_t>(), 300);
  EXPECT_EQ(*v.get<std::uint16_t>(), 300);
  EXPECT_EQ(v.get<std::int8_t>().code(), error_code::out_of_range);
  EXPECT_EQ(v.get<std::uint8_t>().code(), error_code::out_of_range);
  value neg(std::int8_t{-1});
  EXPECT_EQ(neg.get<std::uint64_t>().code(), error_code::out_of_range);
  EXPECT_EQ(*neg.get<std::int64_t>(), -1);
  value big(std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(big.get<std::int64_t>().code(), error_code::out_of_range);
  EXPECT_EQ(*big.get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(value(1.0).get<int>().code(), error_code::type_mismatch);
  EXPECT_EQ(value(true).get<int>().code(), error_code::type_mismatch);
  EXPECT_EQ(value(1).get<bool>().code(), error_code::type_mismatch);
  EXPECT_EQ(*value(1.5f).get<double>(), 1.5);
  EXPECT_EQ(value(1.5).get<float>().code(), error_code::type_mismatch);
  EXPECT_EQ(value("x").get<bytes_view>().code(), error_code::type_mismatch);
  EXPECT_THROW(value("x").get<int>().value(), exception);
  EXPECT_THROW(*value("x").get<int>(), exception);
  EXPECT_EQ(value("x").get<int>().value_or(7), 7);
  try {
    (void)value("x").get<int>().value();
    FAIL() << "no exception";
  } catch (const keel::exception& e) {  // the shared base (keel/error.h)
    EXPECT_STREQ(e.component(), "msg");
    EXPECT_EQ(dynamic_cast<const exception&>(e).code(), error_code::type_mismatch);
  }
}

TEST(MsgValue, EveryHeapType) {
  const std::uint8_t raw[] = {0, 1, 2, 255};
  value b = value::bytes(bytes_view(raw));
  EXPECT_EQ(b.type(), type::bytes);
  EXPECT_EQ(b.get<bytes_view>()->size(), 4u);
  EXPECT_EQ((*b.get<bytes_view>())[3], 255);
  value e(extension{-1, {1, 2, 3}});
  EXPECT_EQ(e.get<extension_view>()->code, -1);
  EXPECT_EQ(e.get<extension_view>()->data.size(), 3u);
  value a(array{1, "two", 3.0});
  const array* arr = a.as_array();
  ASSERT_TRUE(arr != nullptr);
  EXPECT_EQ(arr->size(), 3u);
  value m(map{{"x", 1}, {"y", "z"}});
  const map* mp = m.as_map();
  ASSERT_TRUE(mp != nullptr);
  EXPECT_EQ(*mp->get<int>("x"), 1);
  value ti(std::vector<std::int32_t>{1, 2, 3});
  EXPECT_EQ(ti.type(), type::int32_array);
  EXPECT_EQ(ti.get<std::span<const std::int32_t>>()->size(), 3u);
  EXPECT_EQ(ti.get<std::span<const double>>().code(), error_code::type_mismatch);
  value tl(std::vector<std::int64_t>{1});
  value tf(std::vector<float>{1.f});
  value td(std::vector<double>{1.0, 2.0});
  EXPECT_EQ(tl.type(), type::int64_array);
  EXPECT_EQ(tf.type(), type::float32_array);
  EXPECT_EQ(td.type(), type::float64_array);
  EXPECT_EQ((*td.get<std::span<const double>>())[1], 2.0);
  value t = value::tagged(1, value(std::int64_t{5}));
  EXPECT_EQ(t.tag(), 1u);
  EXPECT_EQ(t.tagged_value(), value(std::int64_t{5}));
}

TEST(MsgValue, CopyMoveEquality) {
  value m(
      map{{"x", array{1, map{{"deep", std::string(40, 'd')}}}}, {"v", std::vector<double>{1, 2}}});
  value copy = m;
  EXPECT_EQ(copy, m);
  map* cm = copy.as_map();
  ASSERT_TRUE(cm != nullptr);
  value* deep = cm->find_path("/x/1/deep");
  ASSERT_TRUE(deep != nullptr);
  *deep = value("changed");
  EXPECT_NE(copy, m);
  const map* om = m.as_map();
  ASSERT_TRUE(om != nullptr);
  EXPECT_EQ(*om->get_path<std::string>("/x/1/deep"), std::string(40, 'd'));
  value moved = std::move(copy);
  const map* mm = moved.as_map();
  ASSERT_TRUE(mm != nullptr);
  EXPECT_EQ(*mm->get_path<std::string_view>("/x/1/deep"), "changed");
  EXPECT_TRUE(copy.is_null());  // NOLINT(bugprone-use-after-move): moved-from values are null
  // Float equality is by bits.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(value(nan), value(nan));
  EXPECT_NE(value(0.0), value(-0.0));
  EXPECT_NE(value(1), value(1u));  // int32 vs uint32: types differ
  EXPECT_NE(value(std::vector<float>{1}), value(std::vector<float>{1, 2}));
}

TEST(MsgMap, SetAddFindRemoveOrder) {
  map m;
  m.set("a", 1);
  m.set("b", 2);
  m.add("a", 3);  // appended; lookups still find the first
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(*m.get<int>("a"), 1);
  m.set("a", 10);
  EXPECT_EQ(*m.get<int>("a"), 10);
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(m.get<int>("zz").code(), error_code::not_found);
  EXPECT_TRUE(m.contains("b"));
  std::vector<std::string> names;
  for (const auto& e : m) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "a"}));
  EXPECT_EQ(m.remove("a"), 2u);
  EXPECT_FALSE(m.contains("a"));
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m.remove("a"), 0u);
}

std::string key(int i) {
  std::string k = "k";
  k.append(std::to_string(i));
  return k;
}

TEST(MsgMap, LargeMapsUseTheIndex) {
  map m;
  for (int i = 0; i < 5000; ++i) m.add(key(i), i);
  for (int i = 0; i < 5000; i += 7) EXPECT_EQ(*m.get<int>(key(i)), i);
  EXPECT_FALSE(m.contains("k5000"));
  m.add("k17", -1);
  EXPECT_EQ(*m.get<int>("k17"), 17);
  EXPECT_EQ(m.remove("k17"), 2u);
  EXPECT_FALSE(m.contains("k17"));
  EXPECT_EQ(*m.get<int>("k18"), 18);
  m.set("k18", 0);
  EXPECT_EQ(*m.get<int>("k18"), 0);
  map copy = m;
  EXPECT_EQ(copy, m);
  EXPECT_EQ(*copy.get<int>("k4999"), 4999);
  // The order is kept through all of it.
  EXPECT_EQ(copy[0].name, "k0");
  EXPECT_EQ(copy[copy.size() - 1].name, "k4999");
}

TEST(MsgMap, Paths) {
  map m{{"a", map{{"b/c", array{10, map{{"~x", true}}}}}}};
  EXPECT_EQ(*m.get_path<int>("/a/b~1c/0"), 10);
  EXPECT_EQ(*m.get_path<bool>("/a/b~1c/1/~0x"), true);
  EXPECT_EQ(m.find_path("/a/b~1c/2"), nullptr);
  EXPECT_EQ(m.find_path("/a/b~1c/01"), nullptr);
  EXPECT_EQ(m.find_path("/a/b~1c/-1"), nullptr);
  EXPECT_EQ(m.find_path("/a/b~2c"), nullptr);
  EXPECT_EQ(m.find_path("a"), nullptr);
  EXPECT_EQ(m.find_path(""), nullptr);
  EXPECT_EQ(m.find_path("/a/b~1c/0/x"), nullptr);
  EXPECT_EQ(m.get_path<int>("/nope").code(), error_code::not_found);
}

TEST(MsgMessage, HeaderAndBody) {
  message m(header{"src", "1", "dst", "2", "order", "1.0"});
  m.set("qty", 5u);
  message copy = m;
  EXPECT_EQ(copy, m);
  copy.header.version = "2.0";
  EXPECT_NE(copy, m);
  EXPECT_EQ(m.body().size(), 1u);
  message moved = std::move(m);
  EXPECT_EQ(moved.header.type, "order");
  EXPECT_EQ(*moved.get<std::uint64_t>("qty"), 5u);
}

TEST(MsgValue, TypeNames) {
  for (int i = 0; i < kTypeCount; ++i) {
    type t{};
    ASSERT_TRUE(type_from_name(type_name(static_cast<type>(i)), t));
    EXPECT_EQ(t, static_cast<type>(i));
  }
  type t{};
  EXPECT_FALSE(type_from_name("int7", t));
}

}  // namespace
}  // namespace keel::msg
