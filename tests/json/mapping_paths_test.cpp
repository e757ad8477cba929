// SPDX-License-Identifier: MIT
// Struct mapping's two read paths against each other on every kernel set: the direct read (from
// the text's structural positions, no DOM of the document) accepts exactly the texts the DOM read
// accepts and reads the same values, and from_json reports the same errors whichever path is
// chosen. Valid models, every one-byte change and cut of them, and every JSONTestSuite file.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "json/parse_state.h"
#include "keel/json.h"
#include "keel/json/mapping.h"
#include "test_util.h"

namespace paths {

enum class mood : std::uint8_t { calm, wild };

struct inner {
  int a = 0;
  std::optional<std::string> s;
  std::vector<double> v;
};
KEEL_FIELDS(inner, a, s, v)

struct shape_a {
  static constexpr std::string_view json_tag = "a";
  int x = 0;
};
KEEL_FIELDS(shape_a, x)

struct shape_b {
  static constexpr std::string_view json_tag = "b";
  std::string y;
};
KEEL_FIELDS(shape_b, y)

struct outer {
  std::string name;
  std::uint64_t id = 0;
  bool ok = false;
  double f = 0;
  std::int8_t small = 0;
  mood m = mood::calm;
  std::optional<inner> in;
  std::vector<inner> list;
  std::array<int, 2> pair{};
  std::map<std::string, int> counts;
  std::unordered_map<std::string, std::vector<std::string>> tags;
  std::variant<shape_a, shape_b> shape;
  keel::json::mutable_document any;
  std::optional<std::vector<std::optional<int>>> maybe;
};
KEEL_FIELDS(outer, name, id, ok, f, small, m, in, list, pair, counts, tags, shape, any, maybe)

// Every member optional and named unlike any key of the suites: objects are walked and all their
// members skipped.
struct none {
  std::optional<int> zz_never;
};
KEEL_FIELDS(none, zz_never)

struct text_only {
  std::string s;
};
KEEL_FIELDS(text_only, s)

// A key that is only found once unescaped ("\u0069d" is "id"), and one renamed with a backslash.
struct odd {
  int id = 0;
  int back = 0;
};
KEEL_FIELDS(odd, id, back)

// A field named by the empty key (the skip files it under the byte after the key's opening quote).
struct blank {
  int x = 0;
  int e = 0;
};
KEEL_FIELDS(blank, x, e)

// A field whose name is longer than 63 bytes (the skip's filter files it by its length modulo
// 64: keys of 70 - 64 = 6 bytes, and of 70 + 64, are candidates that turn out not to be it).
struct long_name {
  int k = 0;
  int x = 0;
};
KEEL_FIELDS(long_name, k, x)

// One field of each type the direct read converts itself (strings without a backslash,
// true/false, non-negative integers of up to 19 digits), every other token left to stage 2.
struct leaves {
  std::uint64_t u = 0;
  std::int8_t i = 0;
  std::uint16_t w = 0;
  bool b = false;
  std::string s;
  std::optional<std::uint32_t> o;
  std::vector<std::int64_t> v;
};
KEEL_FIELDS(leaves, u, i, w, b, s, o, v)

}  // namespace paths

template <>
struct keel::json::enum_names<paths::mood> {
  static constexpr std::pair<paths::mood, std::string_view> values[] = {
      {paths::mood::calm, "calm"}, {paths::mood::wild, "wild"}};
};
template <>
struct keel::json::field_rename<paths::odd> {
  static constexpr std::pair<std::string_view, std::string_view> values[] = {{"back", "b\\k"}};
};
template <>
struct keel::json::field_rename<paths::long_name> {
  static constexpr std::pair<std::string_view, std::string_view> values[] = {
      {"k", "k123456789012345678901234567890123456789012345678901234567890123456789"}};
};
template <>
struct keel::json::field_rename<paths::blank> {
  static constexpr std::pair<std::string_view, std::string_view> values[] = {{"e", ""}};
};

namespace {

using namespace keel::json;
using no_ints = std::array<int, 0>;
using int_pair = std::array<int, 2>;
using counts = std::map<std::string, int>;
using shape = std::variant<paths::shape_a, paths::shape_b>;
using keel::json::test::corpus;
using keel::json::test::files_in;
using keel::json::test::slurp;

// What a read gave: accepted or not, and the values written back as text.
template <class T>
std::string shown(const T& v) {
  auto t = to_json(v);
  return t ? *t : std::string("(unwritable)");
}

// Reads text into T by both paths on every kernel set and expects them to agree. `exact`: the
// direct read must accept whatever the DOM read accepts (false for option sets the direct read
// leaves to the DOM). Returns whether the DOM read accepted it.
template <class T>
bool same_on_both_paths(std::string_view text, const parse_options& po = {}, read_options ro = {},
                        bool exact = true) {
  bool accepted = false;
  for (const keel::isa k : keel::all_isas) {
    if (!isa_supported(k)) continue;
    parse_options p = po;
    p.isa = k;
    parser dom_parser(p), direct_parser(p);
    T by_dom{}, by_direct{}, by_default{};
    ro.path = read_path::dom;
    const mapping_error dom_error = from_json(dom_parser, text, by_dom, ro);
    ro.path = read_path::direct;
    const bool direct_ok = detail::read_direct(direct_parser, text, by_direct, ro);
    accepted = !dom_error;
    if (direct_ok) {
      EXPECT_FALSE(dom_error) << isa_name(k) << " accepted only by the direct read: " << text;
    } else if (exact) {
      EXPECT_TRUE(dom_error) << isa_name(k) << " accepted only by the DOM read: " << text;
    }
    if (direct_ok && !dom_error) {
      EXPECT_EQ(shown(by_direct), shown(by_dom)) << isa_name(k) << ": " << text;
    }
    // from_json's default (direct, then the DOM for a failure) reports what the DOM read does.
    const mapping_error e = from_json(direct_parser, text, by_default, ro);
    EXPECT_EQ(e.code, dom_error.code) << isa_name(k) << ": " << text;
    EXPECT_EQ(e.pointer, dom_error.pointer) << isa_name(k) << ": " << text;
    EXPECT_EQ(e.line, dom_error.line) << isa_name(k) << ": " << text;
    EXPECT_EQ(e.column, dom_error.column) << isa_name(k) << ": " << text;
    if (!e && !dom_error) {
      EXPECT_EQ(shown(by_default), shown(by_dom)) << isa_name(k) << ": " << text;
    }
  }
  return accepted;
}

constexpr std::string_view kOuter =
    R"({"name":"caf\u00e9 \"x\"","id":18446744073709551615,"ok":true,"f":-1.5e-3,"small":-128,)"
    R"("m":"wild","in":{"a":1,"s":null,"v":[1,2.5,-0]},"unknown":{"deep":[[{}],[],{"k":"\ud83d\ude00"}]},)"
    R"("list":[{"a":2,"v":[]},{"s":"t","v":[1e2],"a":3}],"pair":[7,8],"counts":{"k":1,"k":2,"":3},)"
    R"("tags":{"t":["a","b"]},"shape":{"b":{"y":"why"}},"any":{"x":[null,true,1.25,"s"]},)"
    R"("maybe":[1,null,3],"skipped":-12.5e1,"more":[true,false,null]})";

TEST(MappingPaths, ValidModelsReadDirectly) {
  EXPECT_TRUE(same_on_both_paths<paths::outer>(kOuter));
  // The direct read itself took it (no fall back to the DOM).
  parser p;
  paths::outer o;
  ASSERT_TRUE(detail::read_direct(p, kOuter, o, {}));
  EXPECT_EQ(o.name, "caf\xc3\xa9 \"x\"");
  EXPECT_EQ(o.id, 18446744073709551615ull);
  EXPECT_EQ(o.list.size(), 2u);
  EXPECT_EQ(o.counts.at("k"), 2);
  EXPECT_EQ(std::get<paths::shape_b>(o.shape).y, "why");
  EXPECT_EQ(o.maybe->size(), 3u);
  EXPECT_EQ(*to_json(o.any), R"({"x":[null,true,1.25,"s"]})");

  EXPECT_TRUE(same_on_both_paths<paths::odd>(R"({"\u0069d":1,"b\\k":2})"));
  paths::odd d;
  ASSERT_TRUE(detail::read_direct(p, R"({"\u0069d":1,"b\\k":2,"b\\\\k":3})", d, {}));
  EXPECT_EQ(d.id, 1);
  EXPECT_EQ(d.back, 2);
  // The empty key: a field's name after skipped members, or a member skipped.
  const std::string pad(80, ' ');
  paths::blank e;
  ASSERT_TRUE(detail::read_direct(p, R"({"zz":1,"":5,"q":[],"x":2})" + pad, e, {}));
  EXPECT_EQ(e.e, 5);
  EXPECT_EQ(e.x, 2);
  EXPECT_TRUE(same_on_both_paths<paths::blank>(R"({"x":1,"":2})" + pad));
  EXPECT_FALSE(same_on_both_paths<paths::blank>(R"({"x":1,"y":2})" + pad));
  EXPECT_TRUE(same_on_both_paths<paths::inner>(R"({"":1,"a":1,"v":[],"":{}})" + pad));
  // A name of 70 bytes among keys of 6, 70 and 134 bytes with its first byte.
  const std::string name70 =
      "k123456789012345678901234567890123456789012345678901234567890123456789";
  const std::string long_text =
      R"({"k12345":1,")" + name70 + "1234567890123456789012345678901234567890" +
      R"(123456789012345678901234":[2],")" + name70 + R"(":3,"k23456":{},"x":4})" + pad;
  paths::long_name ln;
  ASSERT_TRUE(detail::read_direct(p, long_text, ln, {}));
  EXPECT_EQ(ln.k, 3);
  EXPECT_EQ(ln.x, 4);
  EXPECT_TRUE(same_on_both_paths<paths::long_name>(long_text));
  EXPECT_FALSE(same_on_both_paths<paths::long_name>(R"({"k12345":1,"x":4})" + pad));
  EXPECT_TRUE(same_on_both_paths<std::vector<paths::inner>>(R"([{"a":1,"v":[]}])"));
  EXPECT_TRUE(same_on_both_paths<no_ints>("[]"));
  EXPECT_TRUE(same_on_both_paths<std::optional<int>>(" null "));
  EXPECT_TRUE(same_on_both_paths<std::string>("\"a\\nb\""));
  EXPECT_TRUE(same_on_both_paths<std::vector<bool>>("[true, false,true ]"));
  EXPECT_TRUE(same_on_both_paths<std::vector<std::vector<bool>>>("[[],[false],[true,true]]"));
}

// A read into a struct that already holds values (longer and shorter vectors, set optionals,
// other alternatives) gives what a read into a new one gives, on both paths.
TEST(MappingPaths, ReadsOverPreviousValues) {
  constexpr std::string_view longer =
      R"({"name":"a long name that does not fit a short string","id":1,"ok":false,"f":2,)"
      R"("small":3,"m":"calm","in":{"a":9,"s":"set","v":[1,2,3,4,5,6]},)"
      R"("list":[{"a":1,"s":"x","v":[1]},{"a":2,"v":[2,2]},{"a":3,"v":[]},{"a":4,"v":[4]}],)"
      R"("pair":[1,1],"counts":{"z":9},"tags":{"q":["r"]},"shape":{"a":{"x":5}},"any":[1],)"
      R"("maybe":[null,null,null,null,null]})";
  constexpr std::string_view shorter =
      R"({"name":"","id":0,"ok":true,"f":0,"small":0,"m":"wild","list":[{"a":7,"v":[]}],)"
      R"("pair":[0,0],"counts":{},"tags":{},"shape":{"b":{"y":""}},"any":null})";
  for (const read_path path : {read_path::direct, read_path::dom}) {
    read_options ro;
    ro.path = path;
    for (const std::string_view first : {longer, shorter, kOuter}) {
      for (const std::string_view second : {longer, shorter, kOuter}) {
        paths::outer reused, fresh;
        ASSERT_FALSE(from_json(first, reused, ro)) << first;
        ASSERT_FALSE(from_json(second, reused, ro)) << second;
        ASSERT_FALSE(from_json(second, fresh, ro)) << second;
        EXPECT_EQ(shown(reused), shown(fresh)) << first << " then " << second;
      }
    }
  }
}

// A string field read over the one the struct holds: longer and shorter values, within its
// storage and beyond it, as written or escaped, each read equal to the value alone.
TEST(MappingPaths, StringFieldsReadOverTheirStorage) {
  const std::string pad(80, ' ');
  const std::vector<std::string> values = {"",
                                           "abc",
                                           std::string(15, 'p'),
                                           std::string(16, 'q'),
                                           std::string(40, 'r'),
                                           "ten chars!",
                                           "",
                                           std::string(40, 's'),
                                           "x",
                                           std::string(39, 't'),
                                           "esc\\u00e9\\n",
                                           std::string(70, 'u')};
  for (const read_path path : {read_path::direct, read_path::dom}) {
    read_options ro;
    ro.path = path;
    for (const bool padded : {true, false}) {
      paths::text_only reused;
      for (const std::string& s : values) {
        std::string text = R"({"zz":1,"s":")";
        text += s;
        text += "\"}";
        if (padded) text += pad;
        paths::text_only fresh;
        ASSERT_FALSE(from_json(text, reused, ro)) << text;
        ASSERT_FALSE(from_json(text, fresh, ro)) << text;
        EXPECT_EQ(reused.s, fresh.s) << text;
        EXPECT_EQ(reused.s.size(), fresh.s.size()) << text;
        EXPECT_EQ(reused.s, s.find('\\') == std::string::npos ? s : "esc\xc3\xa9\n") << text;
      }
    }
  }
}

TEST(MappingPaths, MappingErrorsAgree) {
  for (const char* text : {
           R"({"a":"1","v":[]})",         // type mismatch
           R"({"v":[]})",                 // missing field
           R"({"a":1,"v":[true]})",       // nested mismatch
           R"({"a":1,"v":[],"s":7})",     // optional of the wrong type
           R"({"a":2147483648,"v":[]})",  // out of int's range
           R"([1,2])",                    // not an object
       }) {
    EXPECT_FALSE(same_on_both_paths<paths::inner>(text)) << text;
  }
  EXPECT_FALSE(same_on_both_paths<std::vector<bool>>("[true,1]"));
  EXPECT_FALSE(same_on_both_paths<std::vector<bool>>("[true,fals]"));
  EXPECT_FALSE(same_on_both_paths<int_pair>("[1,2,3]"));
  EXPECT_FALSE(same_on_both_paths<int_pair>("[1]"));
  EXPECT_FALSE(same_on_both_paths<shape>(R"({"c":{}})"));
  EXPECT_FALSE(same_on_both_paths<shape>(R"({"a":{"x":1},"b":{}})"));
  EXPECT_FALSE(same_on_both_paths<paths::mood>(R"("sad")"));
  read_options strict;
  strict.reject_unknown_keys = true;
  EXPECT_FALSE(same_on_both_paths<paths::inner>(R"({"a":1,"v":[],"w":0})", {}, strict));
  EXPECT_TRUE(same_on_both_paths<paths::inner>(R"({"a":1,"v":[]})", {}, strict));
}

// Each leaf the direct read converts without stage 2, with valid, out-of-range, malformed and
// mistyped tokens, followed by each byte that may end it, at the end of the text and not.
TEST(MappingPaths, LeafValuesAgree) {
  const std::vector<std::string> integers = {"0",
                                             "7",
                                             "00",
                                             "01",
                                             "-0",
                                             "-1",
                                             "127",
                                             "128",
                                             "255",
                                             "256",
                                             "65535",
                                             "65536",
                                             "4294967295",
                                             "4294967296",
                                             "9223372036854775807",
                                             "9223372036854775808",
                                             "9999999999999999999",
                                             "18446744073709551615",
                                             "18446744073709551616",
                                             "12345678901234567890123",
                                             "1.0",
                                             "1e2",
                                             "1E2",
                                             "1x",
                                             "1-",
                                             "1.",
                                             "true",
                                             "null",
                                             R"("1")",
                                             "[1]",
                                             "{}"};
  const std::vector<std::string> bools = {"true",   "false",     "tru",    "truex", "true1", "fals",
                                          "falsey", "false0",    "t",      "f",     "null",  "0",
                                          "1",      R"("true")", "[true]", "True",  "FALSE"};
  const std::vector<std::string> strings = {
      R"("")", R"("a")", R"("caf\u00e9")", R"("a\"b")", R"("x\q")", R"("\ud800")", "1", "null",
      "true",  "[]",     "\"\xc3\xa9\"",   "\"\xff\"",  "\"\x01\""};
  const std::string base_u = "1", base_i = "-2", base_w = "3", base_b = "true", base_s = R"("s")",
                    base_o = "4", base_v = "[5,-6,7]";
  const auto doc = [](const std::string& u, const std::string& i, const std::string& w,
                      const std::string& b, const std::string& s, const std::string& o,
                      const std::string& v, const std::string& gap) {
    return "{\"u\":" + u + gap + ",\"i\":" + i + gap + ",\"w\":" + w + gap + ",\"b\":" + b + gap +
           ",\"s\":" + s + gap + ",\"o\":" + o + gap + ",\"v\":" + v + gap + "}";
  };
  std::size_t accepted = 0;
  for (const std::string gap : {"", " ", "\n", "\t", "\r"}) {
    for (const std::string& x : integers) {
      accepted += same_on_both_paths<paths::leaves>(
          doc(x, base_i, base_w, base_b, base_s, base_o, base_v, gap));
      accepted += same_on_both_paths<paths::leaves>(
          doc(base_u, x, base_w, base_b, base_s, base_o, base_v, gap));
      accepted += same_on_both_paths<paths::leaves>(
          doc(base_u, base_i, x, base_b, base_s, base_o, base_v, gap));
      accepted += same_on_both_paths<paths::leaves>(
          doc(base_u, base_i, base_w, base_b, base_s, x, base_v, gap));
      accepted += same_on_both_paths<paths::leaves>(
          doc(base_u, base_i, base_w, base_b, base_s, base_o, "[" + x + gap + "]", gap));
      accepted += same_on_both_paths<paths::leaves>(
          doc(base_u, base_i, base_w, base_b, base_s, base_o, "[0," + x + "]", gap));
      accepted += same_on_both_paths<std::uint64_t>(x + gap);
    }
    for (const std::string& x : bools) {
      accepted += same_on_both_paths<paths::leaves>(
          doc(base_u, base_i, base_w, x, base_s, base_o, base_v, gap));
      accepted += same_on_both_paths<bool>(x + gap);
    }
    for (const std::string& x : strings) {
      accepted += same_on_both_paths<paths::leaves>(
          doc(base_u, base_i, base_w, base_b, x, base_o, base_v, gap));
      accepted += same_on_both_paths<std::string>(x + gap);
    }
  }
  // Texts cut after a comma or colon: the reader is then at the sentinels after the last
  // position, whose byte is the last quote of the text.
  for (const char* text : {R"(["a",)", R"(["a","b",)", R"(["a", )"}) {
    EXPECT_FALSE(same_on_both_paths<std::vector<std::string>>(text)) << text;
    EXPECT_FALSE(same_on_both_paths<std::vector<std::optional<bool>>>(text)) << text;
    EXPECT_FALSE(same_on_both_paths<std::vector<std::uint64_t>>(text)) << text;
  }
  using names = std::map<std::string, std::string>;
  EXPECT_FALSE(same_on_both_paths<names>(R"({"a":"b","c":)"));
  EXPECT_FALSE(same_on_both_paths<paths::leaves>(R"({"u":1,"i":2,"w":3,"b":true,"s":)"));
  EXPECT_FALSE(same_on_both_paths<paths::leaves>(R"({"u":1,"i":2,"w":3,"b":true,"s":"x","o":)"));
  EXPECT_GT(accepted, 0u);
  // The values read, on the direct read itself.
  parser p;
  paths::leaves l;
  ASSERT_TRUE(detail::read_direct(
      p, R"({"u":18446744073709551615,"i":127,"w":0,"b":false,"s":"x y","o":9,"v":[]})", l, {}));
  EXPECT_EQ(l.u, 18446744073709551615ull);
  EXPECT_EQ(l.i, 127);
  EXPECT_EQ(l.w, 0);
  EXPECT_FALSE(l.b);
  EXPECT_EQ(l.s, "x y");
  EXPECT_EQ(l.o, 9u);
  ASSERT_TRUE(detail::read_direct(
      p, R"({"u":9999999999999999999,"i":0,"w":65535,"b":true,"s":"","o":null,"v":[1,2]})", l, {}));
  EXPECT_EQ(l.u, 9999999999999999999ull);
  EXPECT_EQ(l.w, 65535);
  EXPECT_TRUE(l.b);
  EXPECT_EQ(l.s, "");
  EXPECT_FALSE(l.o);
  EXPECT_EQ(l.v, (std::vector<std::int64_t>{1, 2}));
}

// The leaves the direct read converts itself with text after them (integers eight digits at a
// time, null of an optional), of every length and followed by every kind of byte.
TEST(MappingPaths, PaddedLeavesAgree) {
  const std::string pad(80, ' ');
  std::vector<std::string> integers;
  for (std::size_t len = 1; len <= 25; ++len) {
    for (const char* digits : {"9", "1234567890", "0", "10"}) {
      std::string x;
      for (std::size_t k = 0; k < len; ++k) x += digits[k % std::strlen(digits)];
      integers.push_back(x);
      integers.push_back("-" + x);
    }
  }
  integers.insert(integers.end(), {"18446744073709551615", "18446744073709551616", "255", "256",
                                   "65535", "65536", "4294967295", "4294967296"});
  // x in field `slot` of a leaves object, the others plain.
  const auto doc = [&pad](const std::string& x, const char* slot) {
    std::string t = "{";
    for (const char* f : {"u", "i", "w", "b", "s", "o", "v"}) {
      const std::string_view name = f;
      t += std::string(t.size() > 1 ? "," : "") + "\"" + f + "\":";
      if (name == slot) {
        t += x;
      } else {
        t += name == "b" ? "true" : name == "s" ? "\"\"" : name == "v" ? "[]" : "1";
      }
    }
    return t + "}" + pad;
  };
  std::size_t accepted = 0;
  for (const std::string& x : integers) {
    for (const char* after : {"", " ", "x", ".5", "e1", "\xba", "/", ":", "\"", "]"}) {
      for (const char* slot : {"u", "i", "w", "o"})
        accepted += same_on_both_paths<paths::leaves>(doc(x + after, slot));
      accepted += same_on_both_paths<paths::leaves>(doc("[" + x + after + "]", "v"));
    }
  }
  for (const char* x : {"null", "nul", "nulll", "null1", "nullx", "n", "nill", "null ", "null\t"}) {
    accepted += same_on_both_paths<paths::leaves>(doc(x, "o"));
    accepted += same_on_both_paths<paths::leaves>(doc(x, "u"));
    accepted += same_on_both_paths<std::vector<std::optional<int>>>("[1," + std::string(x) + "," +
                                                                    std::string(x) + "]" + pad);
  }
  EXPECT_GT(accepted, 300u);  // the valid ones among them are read
}

TEST(MappingPaths, ParseErrorsAgree) {
  for (const char* text : {
           "",
           " ",
           R"({"a":1,"v":[]} x)",
           R"({"a":1,"v":[],})",
           R"({"a":1 "v":[]})",
           R"({"a":1,"v":[],"zz":tru})",
           R"({"a":1,"v":[],"zz":"\x"})",
           R"({"title":"\u0*41f\u043e"})",
           R"({"a":1,"v":[],"zz":1e999})",
           R"({"a":1,"v":[],"zz":[1,]})",
           R"({"a":1,"v":[],"zz":{"q":01}})",
           R"({"a":1,"v":[1.]})",
           R"({"a":1,"v":[],"zz":"\ud800"})",
           R"({"a":1,"v":[],"zz" 1})",
           R"({"a":1,"v":[],1:1})",
           R"({"a":1,"v":[]}})",
           R"({"a":1,"v":[])",
           R"({"a":1,"v":[],"zz":"abc)",
           "{\"a\":1,\"v\":[],\"zz\":\"\xff\"}",
           "{\"a\":1,\"v\":[],\"zz\":\"\x01\"}",
           R"({"a":1,"v":[],"zz":[[[[[[[[[[]]]]]]]]]]})",
       }) {
    same_on_both_paths<paths::inner>(text);
  }
  parse_options shallow;
  shallow.max_depth = 3;
  EXPECT_FALSE(same_on_both_paths<paths::inner>(R"({"a":1,"v":[],"zz":[[[]]]})", shallow));
  EXPECT_TRUE(same_on_both_paths<paths::inner>(R"({"a":1,"v":[],"zz":[[]]})", shallow));
  // An empty container in a skipped value exactly at max_depth (accepted) and one level deeper
  // (rejected): the skip steps over an empty one without opening a level, but only where one
  // more level is allowed.
  for (const char* zz : {"[{}]", "[[],{}]", R"({"k":{}})", R"({"k":[]})"}) {
    EXPECT_TRUE(same_on_both_paths<paths::inner>(
        R"({"a":1,"v":[],"zz":)" + std::string(zz) + "}" + std::string(80, ' '), shallow))
        << zz;
  }
  for (const char* zz : {"[[{}]]", R"([[],[{}]])", R"({"k":{"j":{}}})", R"({"k":[{}]})",
                         R"([{"k":[]}])", R"({"k":{"j":[]}})"}) {
    EXPECT_FALSE(same_on_both_paths<paths::inner>(
        R"({"a":1,"v":[],"zz":)" + std::string(zz) + "}" + std::string(80, ' '), shallow))
        << zz;
  }
  using nested = std::vector<std::vector<std::vector<std::vector<int>>>>;
  EXPECT_TRUE(same_on_both_paths<nested>("[[[]]]", shallow));
  EXPECT_FALSE(same_on_both_paths<nested>("[[[[]]]]", shallow));
}

// Values in members no field has, skipped by the direct read without being parsed where their
// shape decides (strings without a backslash, literals, integers of up to 19 digits): valid and
// invalid ones, as a member, inside an array and an object, with the text padded so that no
// position is near its end (there, every token goes through stage 2).
TEST(MappingPaths, SkippedValuesAgree) {
  const std::string pad(80, ' ');
  const std::string s31(31, 'x'), s32(32, 'y'), s64(64, 'z'), s130(130, 'w');
  std::vector<std::string> values = {
      // valid
      R"("")",
      R"("plain")",
      R"("a\"b")",
      R"("\u00e9\/\\")",
      "\"" + s31 + "\"",
      "\"" + s32 + "\"",
      "\"" + s64 + "\"",
      "\"" + s130 + "\"",
      "\"" + s31 + "\\n\"",
      "\"" + s32 + "\\t\"",
      "\"" + s64 + "\\\"\"",
      "\"" + s130 + "\\u0041" + s31 + "\"",
      "0",
      "-0",
      "7",
      "-7",
      "123",
      "1234567890123456789",
      "-1234567890123456789",
      "9999999999999999999",
      "-9999999999999999999",
      "12345678901234567890",
      "123456789012345678901234",
      "1.5",
      "-0.0",
      "1e5",
      "1E+5",
      "2.5e-3",
      "true",
      "false",
      "null",
      "[]",
      "{}",
      "[[],{}]",
      R"({"k":[1,{"x":null}],"s":"t"})",
      R"([1,"a",true,null,{"q":[false]}])",
      "1" + std::string(400, '0') + "e-400",
      R"("\ud83d\ude00")",
      R"("\u00e9\u00E8\/\/\b\f\n\r\t")",
      R"("\\\\")",
      R"("a\\")",
      R"(["\"",{"\\":"\u0022"}])",
      // invalid
      "1" + std::string(400, '0'),
      "1e400",
      "-1e400",
      "tru",
      "truee",
      "trux",
      "nul",
      "nulll",
      "fals",
      "falsee",
      "01",
      "-01",
      "00",
      "-",
      "-a",
      "1.",
      ".5",
      "+1",
      "1x",
      "1-",
      "0x1",
      "--1",
      R"("\x")",
      R"("\u12")",
      R"("\u12g4")",
      R"("\ud800")",
      R"("\udc00")",
      "\"" + s64 + "\\q\"",
      "\"" + s31 + "\\",
      "[1,]",
      "[1 2]",
      R"({"k" 1})",
      R"({"k":1,})",
      R"({1:1})",
      "[}",
      "{]",
      "[1}",
      R"({"k":1])",
      "[,1]",
      "{,}",
      "[:]",
      R"({"k":})",
      R"({"k"})",
      "[",
      "{",
      "]",
      "}",
      "[[]",
      "[[1]]]",
      "NaN",
      "Infinity",
      "-Infinity",
      "x",
      R"(["a" "b"])",
      R"(["a":1])",
      R"("\ud83d\u0041")",
      R"("\ud83dx")",
      R"("\ud83d\ud83d")",
      R"("\ude00\ud83d")",
      R"("\u00e9\u00e")",
      R"("a\\\")",
      R"(\"x")",
      R"(\u0041)",
      R"(\)",
      R"(1\n)",
      R"(tru\e)",
      R"([1,\/])",
  };
  for (const std::string& x : values) {
    for (const std::string& text : {
             R"({"a":1,"zz":)" + x + R"(,"v":[]})" + pad,
             R"({"zz":)" + x + R"(,"a":1,"v":[]})" + pad,
             R"({"a":1,"v":[],"zz":[0,)" + x + R"(,"q"]})" + pad,
             R"({"a":1,"v":[],"zz":{"y":)" + x + R"(,"k":{}}})" + pad,
             R"({"a":1,"v":[],"zz":)" + x + "}" + pad,
         }) {
      same_on_both_paths<paths::inner>(text);
    }
  }
  parse_options trailing;
  trailing.allow_trailing_commas = true;
  for (const char* x : {"[1,]", R"({"k":1,})", "[1,,]", R"({"k":1,,})", "[,]", "{,}",
                        R"([{"k":[],},])", R"({"k":1,]})"}) {
    const std::string text = R"({"a":1,"zz":)" + std::string(x) + R"(,"v":[]})" + pad;
    same_on_both_paths<paths::inner>(text, trailing);
  }
  // Nesting deeper than the skip's own bookkeeping (64 levels) goes to stage 2's grammar.
  parse_options deep;
  deep.max_depth = 3000;
  for (const std::size_t levels : {63, 64, 65, 1000, 1023, 1024, 1025, 2000, 2999, 3000}) {
    const std::string nest = std::string(levels, '[') + std::string(levels, ']');
    const std::string text = R"({"a":1,"zz":)" + nest + R"(,"v":[]})" + pad;
    EXPECT_EQ(same_on_both_paths<paths::inner>(text, deep), levels < 3000) << levels;
    EXPECT_EQ(same_on_both_paths<paths::inner>(text), levels < 1024) << levels;
    const std::string cut =
        R"({"a":1,"zz":)" + nest.substr(0, 2 * levels - 1) + R"(,"v":[]})" + pad;
    EXPECT_FALSE(same_on_both_paths<paths::inner>(cut, deep)) << levels;
  }
}

// The escapes of a run of skipped members are checked 64 bytes at a time: a valid or invalid
// escape (or a pair of them) at every offset around the blocks' edges, in a string value, a key
// and a nested array, with and without text after the run.
TEST(MappingPaths, SkippedEscapesAtEveryOffset) {
  const std::string pad(80, ' ');
  for (std::size_t at = 0; at < 140; ++at) {
    for (const char* esc :
         {"\\n", "\\u00e9", "\\ud83d\\ude00", "\\/\\\\", "\\q", "\\u00g0", "\\ud83d", "\\ude00"}) {
      const bool valid = std::string_view(esc) != "\\q" && std::string_view(esc) != "\\u00g0" &&
                         std::string_view(esc) != "\\ud83d" && std::string_view(esc) != "\\ude00";
      std::string str(1, '"');  // (appended: "\"" + std::string trips GCC 12's -Wrestrict)
      str.append(at, 'x').append(esc).append(at % 7, 'y') += '"';
      for (const std::string& text : {
               R"({"zz":)" + str + R"(,"a":1,"v":[]})" + pad,
               R"({"a":1,"yy":true,"zz":)" + str + R"(,"v":[]})" + pad,
               R"({"a":1,)" + str + R"(:0,"v":[]})" + pad,
               R"({"a":1,"zz":[1,)" + str + "," + str + R"(],"v":[]})" + pad,
               R"({"a":1,"v":[],"zz":)" + str + "}",
           }) {
        EXPECT_EQ(same_on_both_paths<paths::inner>(text), valid) << text;
      }
    }
  }
}

// A block's runs of escapes are each checked from its one compare: a valid run, then a valid or
// invalid one 0-130 bytes after it (in the same string, or in the next skipped member), at
// offsets around the blocks' edges.
TEST(MappingPaths, LaterEscapeRunsInABlock) {
  const std::string pad(80, ' ');
  for (std::size_t at = 0; at < 70; ++at) {
    for (const std::size_t gap : {0, 1, 2, 5, 30, 61, 62, 63, 64, 65, 130}) {
      for (const char* second : {"\\t", "\\u00e9", "\\x", "\\u12"}) {
        const bool valid = second[1] == 't' || second[2] == '0';
        const std::string x(at, 'x'), y(gap, 'y');
        for (const std::string& text : {
                 R"({"zz":")" + x + R"(\/)" + y + second + R"(","a":1,"v":[]})" + pad,
                 R"({"a":1,"zz":")" + x + R"(\/\n","yy":")" + y + second + R"(","v":[]})" + pad,
                 R"({"a":1,"zz":[")" + x + R"(\u0041",")" + y + R"(\/",")" + second +
                     R"("],"v":[]})" + pad,
             }) {
          EXPECT_EQ(same_on_both_paths<paths::inner>(text), valid) << text;
        }
      }
    }
  }
}

// Stage 1 marks the 64-byte blocks that hold a backslash (a word of marks per 4096 bytes): an
// escape in a long run of skipped members, around the blocks' and the words' edges, with marked
// blocks before the run (in a field read) and after it.
TEST(MappingPaths, EscapesInLongSkippedRuns) {
  const std::string pad(80, ' ');
  const std::string filler = "\"" + std::string(46, 'f') + "\"";  // 48 bytes, then a comma
  for (const std::size_t at : {0, 1, 63, 64, 100, 4000, 4095, 4096, 4097, 4159, 4160, 8191, 8192,
                               8300, 12287, 12288, 12400}) {
    for (const char* esc : {"\\n", "\\u00e9", "\\q", "\\ud83d"}) {
      const bool valid = std::string_view(esc) == "\\n" || std::string_view(esc) == "\\u00e9";
      std::string run;
      while (run.size() < at) run += filler + ",";
      run.append(1, '"').append(at % 61, 'x').append(esc) += '"';
      for (int k = 0; k < 40; ++k) run += "," + filler;
      for (const std::string& text : {
               R"({"a":1,"zz":[)" + run + R"(],"v":[]})" + pad,
               R"({"a":1,"s":"b\/","zz":[)" + run + R"(],"v":[]})" + pad,
               R"({"zz":[)" + run + R"(],"s":"\u0041","v":[],"a":1,"yy":"\n"})" + pad,
           }) {
        EXPECT_EQ(same_on_both_paths<paths::inner>(text), valid) << at << esc;
      }
    }
  }
}

// A string field is taken as written when stage 1 marked none of its blocks: a backslash in any
// of them (at every offset around the blocks' and the map words' edges) is unescaped as the DOM
// path does.
TEST(MappingPaths, StringFieldsAroundMarkedBlocks) {
  const std::string pad(80, ' ');
  std::vector<std::size_t> shifts;
  for (std::size_t k = 0; k < 140; ++k) shifts.push_back(k);
  for (std::size_t k = 4000; k < 4140; k += 3) shifts.push_back(k);
  for (const std::size_t shift : shifts) {
    for (const std::size_t len : {0, 1, 30, 64, 70, 130}) {
      for (const std::size_t at : {std::size_t{0}, len / 2, len}) {
        const std::string s = std::string(at, 'y') + "\\n" + std::string(len - at, 'z');
        const std::string text = R"({"zz":")" + std::string(shift, 'x') + R"(","s":")" + s +
                                 R"(","a":1,"v":[],"s2":")" + std::string(len, 'w') + "\"}" + pad;
        EXPECT_TRUE(same_on_both_paths<paths::inner>(text)) << shift << " " << len << " " << at;
        const std::string plain = R"({"zz":")" + std::string(shift, 'x') + R"(\t","s":")" +
                                  std::string(len, 'w') + R"(","a":1,"v":[]})" + pad;
        EXPECT_TRUE(same_on_both_paths<paths::inner>(plain)) << shift << " " << len;
      }
    }
  }
}

// A string field with escapes is unescaped without stage 2 where the kernel set can (AVX-512: 64
// bytes at a time, the escaping backslashes of a block found from one compare, the odd-run rule
// carried across blocks; AVX2: one escape at a time, 32-byte chunks, contents of up to 1 KiB):
// every escape, runs of backslashes, and escapes left to stage 2 (\u) or rejected, at every
// offset of strings across the blocks' edges, padded or near the text's end, and in contents
// around AVX2's 1 KiB (longer ones are stage 2's).
TEST(MappingPaths, StringFieldsUnescapedByBlocks) {
  const std::string pad(80, ' ');
  struct escape {
    const char* text;
    bool valid;
  };
  const escape escapes[] = {
      {"\\n", true},         {"\\\"", true},           {"\\\\", true},
      {"\\/", true},         {"\\b\\f\\r\\t", true},   {"\\\\\\\\", true},
      {"\\\\\\n", true},     {"\\\\\\\\\\\"", true},   {"\\u00e9", true},
      {"\\n\\u00e9", true},  {"\\ud83d\\ude00", true}, {"\\q", false},
      {"\\\xc3\xa9", false}, {"\\ ", false},           {"\\u12", false},
      {"\\U0041", false},
  };
  for (const std::size_t len : {0, 1, 30, 62, 63, 64, 65, 127, 128, 129, 200}) {
    for (std::size_t at = 0; at <= len; ++at) {
      for (const escape& e : escapes) {
        std::string s = std::string(at, 'y') + e.text + std::string(len - at, 'z');
        if (at % 5 == 1) s += "\\t";  // a second escape, in the same block or a later one
        const std::string text = R"({"s":")" + s + "\"}";
        EXPECT_EQ(same_on_both_paths<paths::text_only>(text + pad), e.valid) << text;
        EXPECT_EQ(same_on_both_paths<paths::text_only>(text), e.valid) << text;
      }
    }
  }
  for (const std::size_t len : {1018, 1019, 1020, 1021, 1022, 1023, 1024, 1025, 1100}) {
    for (const std::size_t at : {std::size_t{0}, std::size_t{31}, len - 40, len - 6, len}) {
      for (const escape& e : escapes) {
        const std::string s = std::string(at, 'y') + e.text + std::string(len - at, 'z');
        const std::string text = R"({"s":")" + s + "\"}";
        EXPECT_EQ(same_on_both_paths<paths::text_only>(text + pad), e.valid) << text;
      }
    }
  }
  // Runs of 1-9 backslashes ending at every offset around a block's end, then a letter.
  for (std::size_t run = 1; run < 10; ++run) {
    for (std::size_t end = 55; end < 140; ++end) {
      if (end < run) continue;
      const std::string s = std::string(end - run, 'y') + std::string(run, '\\') + "n" + "tail";
      const std::string text = R"({"s":")" + s + "\"}";
      EXPECT_TRUE(same_on_both_paths<paths::text_only>(text + pad)) << text;
      const std::string in_list = R"({"a":1,"s":")" + s + R"(","v":[]})";
      EXPECT_TRUE(same_on_both_paths<paths::inner>(in_list + pad)) << in_list;
    }
  }
}

// skip_members keeps, from one call to the next, how far the text after the last key it looked
// up holds no backslash: a later object's escaped key ("\u0061" is "a") is still decoded when
// it lies past that point, wherever it falls around a block's end or a 4 KiB boundary.
// Each kernel set's unescape (the string fields of the direct read) run on its own: it unescapes
// one-character escapes at every position around its chunks, up to the AVX2 kernel's 1 KiB of
// contents, rather than leaving them to stage 2 (which would also give the right strings, so the
// tests above could not tell); \u escapes, rejected escapes and longer AVX2 contents it declines.
TEST(MappingPaths, KernelUnescapeRunsAndDeclines) {
  using keel::json::detail::kDeclined;
  for (const keel::isa which : keel::all_isas) {
    if (!keel::json::isa_supported(which)) continue;
    const auto unescape = keel::json::detail::kernel_set_for(which).unescape;
    if (unescape == nullptr) continue;
    SCOPED_TRACE(keel::isa_name(which));
    const auto run = [&](const std::string& contents) {
      std::string buf = contents + '"' + std::string(128, ' ');  // readable past the contents
      std::string out(contents.size(), '\0');
      const std::size_t r = unescape(reinterpret_cast<const std::uint8_t*>(buf.data()),
                                     contents.size(), reinterpret_cast<std::uint8_t*>(out.data()));
      return r == kDeclined ? std::string("declined") : out.substr(0, r);
    };
    for (const std::size_t n : {2, 3, 31, 32, 33, 34, 63, 64, 65, 100, 1023, 1024}) {
      for (std::size_t at = 0; at + 2 <= n; at += (at < 40 || at + 40 > n) ? 1 : 37) {
        const std::string tail(n - 2 - at, 'z');
        EXPECT_EQ(run(std::string(at, 'y') + "\\\"" + tail), std::string(at, 'y') + '"' + tail)
            << n << " " << at;
        if (at + 4 <= n) {
          const std::string t2(n - 4 - at, 'z');
          EXPECT_EQ(run(std::string(at, 'y') + "\\\\\\n" + t2), std::string(at, 'y') + "\\\n" + t2)
              << n << " " << at;
        }
      }
    }
    EXPECT_EQ(run("a\\u0041b"), "declined");
    EXPECT_EQ(run("a\\qb"), "declined");
    if (which == keel::isa::avx2) {
      EXPECT_EQ(run(std::string(1023, 'y') + "\\n"), "declined");
    }
  }
}

TEST(MappingPaths, EscapedKeyAfterACleanRunInAnEarlierObject) {
  const std::string pad(80, ' ');
  for (std::size_t n = 0; n < 4300; n += n < 140 || n >= 4000 ? 1 : 97) {
    const std::string text =
        R"([{"zz":")" + std::string(n, 'x') +
        R"(","a":1,"v":[]},{"zz":0,"\u0061":2,"v":[]},{"y":"\n","a":3,"v":[]}])";
    EXPECT_TRUE(same_on_both_paths<std::vector<paths::inner>>(text + pad)) << text;
  }
}

// The escapes of skipped members checked a block at a time (one-character escapes all
// at once from the block's compare, the odd-run rule in runs of backslashes; \u escapes and those
// that cross into the next block one by one): runs of 1-9 backslashes then a byte each would make
// an escape of (valid or not), ending at every offset around a block's end.
TEST(MappingPaths, SkippedBackslashRunsAtBlockEdges) {
  const std::string pad(80, ' ');
  for (std::size_t run = 1; run < 10; ++run) {
    for (const char after : {'n', '/', '"', 'q', 'u', ' '}) {
      // An even run escapes itself and leaves `after` as it is; an odd one escapes it. A quote
      // after an even run ends the string (then "tail" is a bad token); \u needs four hex digits.
      const bool valid = run % 2 == 0 ? after != '"' : after != 'q' && after != ' ';
      for (std::size_t end = 50; end < 140; ++end) {
        if (end < run) continue;
        std::string str = std::string(end - run, 'y') + std::string(run, '\\') + after;
        if (after == 'u') str += "00e9";
        str += "tail";
        for (const std::string& text : {
                 R"({"a":1,"zz":")" + str + R"(","v":[]})" + pad,
                 R"({"zz":[1,")" + str + R"(",")" + str + R"("],"a":1,"v":[]})" + pad,
             }) {
          EXPECT_EQ(same_on_both_paths<paths::inner>(text), valid) << text;
        }
      }
    }
  }
}

TEST(MappingPaths, OptionsAgree) {
  parse_options trailing;
  trailing.allow_trailing_commas = true;
  EXPECT_TRUE(same_on_both_paths<paths::inner>(R"({"a":1,"v":[1,2,],"zz":[1,],})", trailing));
  EXPECT_TRUE(same_on_both_paths<counts>(R"({"a":1,})", trailing));
  parser p(trailing);
  paths::inner in;
  EXPECT_TRUE(detail::read_direct(p, R"({"a":1,"v":[1,2,],"zz":{"y":1,},})", in, {}));
  // Left to the DOM read (not exact): a variant or a std::array with a trailing comma.
  same_on_both_paths<int_pair>("[1,2,]", trailing, {}, false);
  same_on_both_paths<shape>(R"({"a":{"x":1},})", trailing, {}, false);

  parse_options relaxed;
  relaxed.allow_nan_inf = relaxed.allow_bom = relaxed.big_integers_as_raw = true;
  relaxed.allow_invalid_utf8 = true;
  EXPECT_TRUE(same_on_both_paths<paths::inner>(
      "\xef\xbb\xbf{\"a\":1,\"v\":[NaN,-Infinity],\"zz\":123456789012345678901234567890,"
      "\"s\":\"\xff\"}",
      relaxed));
  parse_options comments;
  comments.allow_comments = true;
  same_on_both_paths<paths::inner>(R"({"a":1,/* c */"v":[]})", comments, {}, false);
  parse_options first;
  first.stop_after_first = true;
  same_on_both_paths<paths::inner>(R"({"a":1,"v":[]} {})", first, {}, false);
}

// Every cut and many one-byte changes of a valid model.
TEST(MappingPaths, MutationsAgree) {
  const std::string base(kOuter);
  int accepted = 0;
  for (std::size_t i = 0; i <= base.size(); ++i) {
    accepted += same_on_both_paths<paths::outer>(std::string_view(base).substr(0, i)) ? 1 : 0;
    if (i == base.size()) break;
    for (const char c : {'"', ',', ':', '{', '}', '[', ']', 'x', '1', ' ', '\\', 'e', '-', '.', 'n',
                         '\x80', '\0'}) {
      std::string m = base;
      m[i] = c;
      accepted += same_on_both_paths<paths::outer>(m) ? 1 : 0;
    }
  }
  EXPECT_GT(accepted, 1);  // the original (whole text) and harmless changes, e.g. inside strings
}

// JSONTestSuite: any JSON, arrays and objects of it, objects whose members are all skipped.
TEST(MappingPaths, JsonTestSuiteAgrees) {
  const auto files = files_in(corpus() / "JSONTestSuite" / "test_parsing");
  ASSERT_GT(files.size(), 300u) << "corpus missing: " << corpus();
  std::size_t accepted = 0;
  for (const auto& f : files) {
    const std::string text = slurp(f);
    SCOPED_TRACE(f.filename().string());
    const bool any = same_on_both_paths<mutable_document>(text);
    same_on_both_paths<std::vector<mutable_document>>(text);
    same_on_both_paths<std::map<std::string, mutable_document>>(text);
    same_on_both_paths<paths::none>(text);
    same_on_both_paths<std::vector<paths::none>>(text);
    const char kind = f.filename().string()[0];
    if (kind == 'y') {
      EXPECT_TRUE(any);
    } else if (kind == 'n') {
      EXPECT_FALSE(any);
    }
    accepted += any ? 1 : 0;
  }
  EXPECT_GT(accepted, 90u);
}

}  // namespace
