// SPDX-License-Identifier: MIT
// KEEL_FIELDS: the shared field list with names, and the aggregate fallback.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "keel/bincode.h"
#include "keel/fields.h"

namespace shop {
struct order {
  std::uint64_t id = 0;
  std::string customer;
  std::vector<double> prices;
  bool paid = false;
};
KEEL_FIELDS(order, id, customer, prices, paid)

// The older bincode spelling declares the same list.
struct legacy_pair {
  int a = 0;
  int b = 0;
};
KEEL_BINCODE_FIELDS(legacy_pair, b, a)

struct plain {
  int x;
  double y;
};
}  // namespace shop

namespace {

TEST(Fields, NamesAndReferencesInOrder) {
  static_assert(keel::has_fields<shop::order>);
  static_assert(!keel::has_fields<shop::plain>);
  constexpr auto names = keel::field_names<shop::order>();
  static_assert(names.size() == 4);
  EXPECT_EQ(names[0], "id");
  EXPECT_EQ(names[1], "customer");
  EXPECT_EQ(names[2], "prices");
  EXPECT_EQ(names[3], "paid");
  shop::order o{7, "ann", {1.5}, true};
  auto refs = keel::fields_of(o);
  std::get<1>(refs) = "bob";
  EXPECT_EQ(o.customer, "bob");
  static_assert(
      std::is_same_v<decltype(refs),
                     std::tuple<std::uint64_t&, std::string&, std::vector<double>&, bool&>>);
  const shop::order& c = o;
  static_assert(std::is_same_v<decltype(std::get<0>(keel::fields_of(c))), const std::uint64_t&>);
  EXPECT_EQ(keel::field_count_v<shop::order>, 4u);
}

TEST(Fields, ForEachFieldVisitsNameAndValue) {
  shop::order o{42, "eve", {1.0, 2.0}, false};
  std::vector<std::string> seen;
  keel::for_each_field(o, [&](std::string_view name, auto& field) {
    using F = std::remove_cvref_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::uint64_t>) field += 1;
    seen.emplace_back(name);
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"id", "customer", "prices", "paid"}));
  EXPECT_EQ(o.id, 43u);
}

TEST(Fields, LegacyBincodeListIsTheSameList) {
  constexpr auto names = keel::field_names<shop::legacy_pair>();
  EXPECT_EQ(names[0], "b");
  EXPECT_EQ(names[1], "a");
  // bincode encodes in list order: b first.
  shop::legacy_pair p{1, 2};
  std::vector<std::uint8_t> out;
  ASSERT_TRUE(keel::bincode::encode(p, out, keel::bincode::legacy()).ok());
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[4], 1);
}

TEST(Fields, AggregatesWithoutAListAreReflected) {
  shop::plain p{3, 4.5};
  auto refs = keel::fields_of(p);
  EXPECT_EQ(std::get<0>(refs), 3);
  EXPECT_EQ(std::get<1>(refs), 4.5);
  EXPECT_EQ(keel::field_count_v<shop::plain>, 2u);
}

}  // namespace
