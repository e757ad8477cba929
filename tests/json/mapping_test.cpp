// SPDX-License-Identifier: MIT
// Struct mapping through KEEL_FIELDS: every supported type read and written, round trips, and
// errors naming the JSON Pointer of the offending value.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "keel/json.h"
#include "keel/json/mapping.h"

namespace shop {

enum class color : std::uint8_t { red, green, blue };

struct size {
  int w = 0, h = 0;
};
KEEL_FIELDS(size, w, h)

struct circle {
  static constexpr std::string_view json_tag = "circle";
  double r = 0;
};
KEEL_FIELDS(circle, r)

struct square {
  static constexpr std::string_view json_tag = "square";
  double side = 0;
};
KEEL_FIELDS(square, side)

struct item {
  std::string name;
  std::uint32_t count = 0;
  double price = 0;
  bool active = false;
  color paint = color::red;
  std::optional<std::string> note;
  std::vector<size> sizes;
  std::array<std::int16_t, 3> rgb{};
  std::map<std::string, int> stock;
  std::unordered_map<std::string, std::vector<int>> lots;
  std::variant<circle, square> shape;
  keel::json::mutable_document extra;  // any JSON
};
KEEL_FIELDS(item, name, count, price, active, paint, note, sizes, rgb, stock, lots, shape, extra)

struct order {
  std::uint64_t order_id = 0;
  double unit_price = 0;
};
KEEL_FIELDS(order, order_id, unit_price)

// Keys that write options escape ('/' with escape_slash, non-ASCII with escape_unicode).
struct odd_keys {
  int a = 1;
  int b = 2;
  int c = 3;
};
KEEL_FIELDS(odd_keys, a, b, c)

// std::vector<bool> holds its elements as bits: read and written through proxy references.
struct flags {
  std::vector<bool> bits;
  std::optional<std::vector<bool>> more;
  std::vector<std::vector<bool>> grid;
};
KEEL_FIELDS(flags, bits, more, grid)

}  // namespace shop

template <>
struct keel::json::field_rename<shop::odd_keys> {
  static constexpr std::pair<std::string_view, std::string_view> values[] = {{"a", "x/y"},
                                                                             {"b", "caf\xc3\xa9"}};
};

template <>
struct keel::json::field_rename<shop::order> {
  static constexpr std::pair<std::string_view, std::string_view> values[] = {
      {"unit_price", "unit-price"}};
};

template <>
struct keel::json::enum_names<shop::color> {
  static constexpr std::pair<shop::color, std::string_view> values[] = {
      {shop::color::red, "red"}, {shop::color::green, "green"}, {shop::color::blue, "blue"}};
};

namespace {

using namespace keel::json;

const char* kItem = R"({"name":"lamp","count":3,"price":19.5,"active":true,"paint":"green",
  "note":"fragile","sizes":[{"w":1,"h":2},{"w":3,"h":4}],"rgb":[1,2,-3],
  "stock":{"a":1,"b":2},"lots":{"x":[1,2]},"shape":{"square":{"side":2.5}},
  "extra":{"any":[1,"json",null]}})";

TEST(Mapping, ReadsEveryType) {
  shop::item it;
  const mapping_error e = from_json(kItem, it);
  ASSERT_FALSE(e) << e.to_string();
  EXPECT_EQ(it.name, "lamp");
  EXPECT_EQ(it.count, 3u);
  EXPECT_EQ(it.price, 19.5);
  EXPECT_TRUE(it.active);
  EXPECT_EQ(it.paint, shop::color::green);
  EXPECT_EQ(it.note, "fragile");
  ASSERT_EQ(it.sizes.size(), 2u);
  EXPECT_EQ(it.sizes[1].h, 4);
  EXPECT_EQ(it.rgb[2], -3);
  EXPECT_EQ(it.stock.at("b"), 2);
  EXPECT_EQ(it.lots.at("x"), (std::vector<int>{1, 2}));
  ASSERT_TRUE(std::holds_alternative<shop::square>(it.shape));
  EXPECT_EQ(std::get<shop::square>(it.shape).side, 2.5);
  EXPECT_EQ(*write(it.extra.root()), R"({"any":[1,"json",null]})");
}

TEST(Mapping, RoundTrip) {
  shop::item it;
  ASSERT_FALSE(from_json(kItem, it));
  auto text = to_json(it);
  ASSERT_TRUE(text.ok());
  shop::item again;
  ASSERT_FALSE(from_json(*text, again)) << *text;
  EXPECT_EQ(*to_json(again), *text);
  // Members in field order; an empty optional is left out.
  again.note.reset();
  again.shape = shop::circle{1.5};
  again.lots.clear();
  EXPECT_EQ(*to_json(again),
            R"({"name":"lamp","count":3,"price":19.5,"active":true,"paint":"green",)"
            R"("sizes":[{"w":1,"h":2},{"w":3,"h":4}],"rgb":[1,2,-3],"stock":{"a":1,"b":2},)"
            R"("lots":{},"shape":{"circle":{"r":1.5}},"extra":{"any":[1,"json",null]}})");
  auto pretty = to_json(shop::size{5, 6}, {.pretty = true});
  EXPECT_EQ(*pretty, "{\n  \"w\": 5,\n  \"h\": 6\n}");
}

TEST(Mapping, ErrorsNameThePointer) {
  const struct {
    const char* json;
    error_code code;
    const char* pointer;
  } cases[] = {
      {R"({"count":"3"})", error_code::type_mismatch, "/count"},
      {R"({"name":"x","count":-1})", error_code::type_mismatch, "/count"},
      {R"({"name":"x","count":4294967296})", error_code::type_mismatch, "/count"},
      {R"({"name":"x","count":1,"price":1,"active":true,"paint":"pink"})", error_code::not_found,
       "/paint"},
      {R"({"sizes":[{"w":1,"h":2},{"w":1,"h":"2"}]})", error_code::type_mismatch, "/sizes/1/h"},
      {R"({"sizes":[{"w":1}]})", error_code::missing_field, "/sizes/0/h"},
      {R"({"rgb":[1,2]})", error_code::type_mismatch, "/rgb"},
      {R"({"rgb":[1,2,40000]})", error_code::type_mismatch, "/rgb/2"},
      {R"({"stock":{"a/b":"x"}})", error_code::type_mismatch, "/stock/a~1b"},
      {R"({"shape":{"triangle":{}}})", error_code::unknown_key, "/shape/triangle"},
      {R"({"shape":{"circle":{"r":"big"}}})", error_code::type_mismatch, "/shape/circle/r"},
      {R"([1])", error_code::type_mismatch, ""},
      {R"({"name":"x"})", error_code::missing_field, "/count"},
  };
  for (const auto& c : cases) {
    shop::item it;
    const mapping_error e = from_json(c.json, it);
    EXPECT_EQ(e.code, c.code) << c.json << ": " << e.to_string();
    EXPECT_EQ(e.pointer, c.pointer) << c.json;
  }
  shop::item it;
  EXPECT_EQ(from_json(R"({"count":"3"})", it).to_string(), "/count: type mismatch");
  const mapping_error pe = from_json("{\"a\":", it);
  EXPECT_EQ(pe.code, error_code::unexpected_end);
  EXPECT_EQ(pe.to_string(), "1:6: unexpected end of input");
}

TEST(Mapping, RenamedFields) {
  shop::order o;
  ASSERT_FALSE(from_json(R"({"order_id":7,"unit-price":2.5})", o));
  EXPECT_EQ(o.order_id, 7u);
  EXPECT_EQ(o.unit_price, 2.5);
  EXPECT_EQ(*to_json(o), R"({"order_id":7,"unit-price":2.5})");
  const mapping_error e = from_json(R"({"order_id":7,"unit_price":2.5})", o);
  EXPECT_EQ(e.code, error_code::missing_field);  // the C++ name is not a JSON key
  EXPECT_EQ(e.pointer, "/unit-price");
}

// Minified text is written directly; it must equal what the writer makes of to_document().
TEST(Mapping, DirectTextEqualsTheWriter) {
  std::vector<std::string> strings = {
      "",    "plain",     "q\"uote",  "back\\slash",
      "a/b", "tab\there", "\x01\x1f", "caf\xc3\xa9 \xf0\x9f\x98\x80"};
  for (std::size_t len : {15, 16, 17, 31, 32, 33, 70}) {
    for (std::size_t pos = 0; pos < len; pos += 5) {
      std::string x(len, 'x');
      x[pos] = pos % 2 ? '"' : '\n';
      strings.push_back(x);
    }
  }
  std::map<std::string, std::vector<std::string>> m{{"k/\"", strings}};
  for (const write_options o :
       {write_options{}, write_options{.escape_unicode = true}, write_options{.escape_slash = true},
        write_options{.escape_unicode = true, .escape_slash = true}}) {
    auto direct = to_json(m, o);
    auto via_document = write(to_document(m)->root(), o);
    ASSERT_TRUE(direct.ok() && via_document.ok());
    EXPECT_EQ(*direct, *via_document);
  }
  for (const write_options o : {write_options{}, write_options{.escape_unicode = true},
                                write_options{.escape_slash = true}}) {
    EXPECT_EQ(*to_json(shop::odd_keys{}, o), *write(to_document(shop::odd_keys{})->root(), o));
  }
  EXPECT_EQ(*to_json(shop::odd_keys{}, {.escape_slash = true}),
            "{\"x\\/y\":1,\"caf\xc3\xa9\":2,\"c\":3}");
  // Invalid UTF-8 anywhere: in a whole 16-byte block or in the tail after the last one.
  for (std::size_t pos : {0, 5, 15, 16, 20, 31, 32, 39}) {
    std::string x(40, 'x');
    x[pos] = '\xc3';
    EXPECT_EQ(to_json(x).code(), error_code::invalid_utf8) << pos;
    x[pos] = '\x7f';  // DEL is plain ASCII, written as is
    EXPECT_EQ(*to_json(x), '"' + x + '"');
  }
  shop::item it;
  ASSERT_FALSE(from_json(kItem, it));
  EXPECT_EQ(*to_json(it), *write(to_document(it)->root()));
  EXPECT_EQ(to_json(std::string("\xff")).code(), error_code::invalid_utf8);
  EXPECT_EQ(to_document(std::string("\xff")).code(), error_code::invalid_utf8);
  EXPECT_EQ(to_json(std::vector<double>{1.0, 0.0 / 0.0}).code(), error_code::nonfinite_number);
  EXPECT_EQ(*to_json(std::vector<double>{1.0, 1.0 / 0.0}, {.nonfinite = nonfinite_policy::null}),
            "[1.0,null]");
  EXPECT_EQ(*to_json(std::vector<std::int64_t>{INT64_MIN, -1}), "[-9223372036854775808,-1]");
  EXPECT_EQ(*to_json(std::vector<std::uint64_t>{UINT64_MAX}), "[18446744073709551615]");
}

TEST(Mapping, UnknownKeys) {
  shop::size s;
  EXPECT_FALSE(from_json(R"({"w":1,"h":2,"d":3})", s));  // ignored by default
  EXPECT_EQ(s.h, 2);
  read_options strict;
  strict.reject_unknown_keys = true;
  const mapping_error e = from_json(R"({"w":1,"d":3,"h":2})", s, strict);
  EXPECT_EQ(e.code, error_code::unknown_key);
  EXPECT_EQ(e.pointer, "/d");
  EXPECT_FALSE(from_json(R"({"w":1,"h":2})", s, strict));
}

TEST(Mapping, OptionalAndNull) {
  std::optional<int> o = 3;
  ASSERT_FALSE(from_json("null", o));
  EXPECT_FALSE(o.has_value());
  ASSERT_FALSE(from_json("7", o));
  EXPECT_EQ(o, 7);
  EXPECT_EQ(*to_json(std::optional<int>{}), "null");
  std::vector<std::optional<double>> v;
  ASSERT_FALSE(from_json("[1.5,null]", v));
  EXPECT_EQ(*to_json(v), "[1.5,null]");
}

TEST(Mapping, VectorOfBool) {
  for (const read_path path : {read_path::direct, read_path::dom}) {
    read_options ro;
    ro.path = path;
    shop::flags f;
    f.bits = std::vector<bool>(5, false);  // read over: shrunk to what the text holds
    ASSERT_FALSE(from_json(R"({"bits":[true,false,true],"grid":[[],[false],[true,true]]})", f, ro));
    EXPECT_EQ(f.bits, (std::vector<bool>{true, false, true}));
    EXPECT_FALSE(f.more.has_value());
    EXPECT_EQ(f.grid, (std::vector<std::vector<bool>>{{}, {false}, {true, true}}));
    ASSERT_FALSE(from_json(R"({"bits":[],"more":[false,true],"grid":[]})", f, ro));
    EXPECT_TRUE(f.bits.empty());
    EXPECT_EQ(f.more, (std::vector<bool>{false, true}));
    EXPECT_TRUE(f.grid.empty());
    // Errors name the element.
    const struct {
      const char* json;
      error_code code;
      const char* pointer;
    } cases[] = {
        {R"({"bits":[true,1],"grid":[]})", error_code::type_mismatch, "/bits/1"},
        {R"({"bits":[true,null],"grid":[]})", error_code::type_mismatch, "/bits/1"},
        {R"({"bits":[],"more":[false,"true"],"grid":[]})", error_code::type_mismatch, "/more/1"},
        {R"({"bits":[],"grid":[[true],[false,0]]})", error_code::type_mismatch, "/grid/1/1"},
        {R"({"bits":true,"grid":[]})", error_code::type_mismatch, "/bits"},
        {R"({"grid":[]})", error_code::missing_field, "/bits"},
    };
    for (const auto& c : cases) {
      const mapping_error e = from_json(c.json, f, ro);
      EXPECT_EQ(e.code, c.code) << c.json << ": " << e.to_string();
      EXPECT_EQ(e.pointer, c.pointer) << c.json;
    }
    EXPECT_EQ(from_json(R"({"bits":[true,tru],"grid":[]})", f, ro).to_string(),
              "1:15: invalid literal (expected true, false or null)");
  }
  shop::flags f{{true, false}, std::vector<bool>{}, {{false}, {true, false, true}}};
  const auto text = to_json(f);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, R"({"bits":[true,false],"more":[],"grid":[[false],[true,false,true]]})");
  EXPECT_EQ(*write(to_document(f)->root()), *text);
  EXPECT_EQ(*to_json(f, {.pretty = true}), *write(to_document(f)->root(), {.pretty = true}));
  shop::flags again;
  ASSERT_FALSE(from_json(*text, again));
  EXPECT_EQ(again.bits, f.bits);
  EXPECT_EQ(again.more, f.more);
  EXPECT_EQ(again.grid, f.grid);
  std::vector<bool> top;
  ASSERT_FALSE(from_json("[false,true,true]", top));
  EXPECT_EQ(*to_json(top), "[false,true,true]");
}

}  // namespace
