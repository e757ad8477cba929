// SPDX-License-Identifier: MIT
// JSON (plain and typed) and XML forms, detection and conversion: every type through every form,
// plain JSON unchanged through every form, and the text readers' errors with line and column.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "keel/msg.h"
#include "random_message.h"
#include "test_util.h"

namespace keel::msg {
namespace {

constexpr form kAllForms[] = {form::binary,  form::json, form::json_typed,    form::xml,
                              form::msgpack, form::cbor, form::msgpack_exact, form::cbor_exact};
// The form of every kind that keeps every keel value.
constexpr form kExactForms[] = {form::binary, form::json_typed, form::xml, form::msgpack_exact,
                                form::cbor_exact};

TEST(MsgJson, TypedKeepsEveryType) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::generator g(seed);
    const message m = g.make();
    for (bool pretty : {false, true}) {
      const std::string text = to_json(m, {.style = json_style::typed, .pretty = pretty});
      auto back = from_json(text);
      ASSERT_TRUE(back.ok()) << seed << ": " << back.error().to_string() << "\n" << text;
      ASSERT_EQ(*back, m) << seed << "\n" << text;
      EXPECT_EQ(to_json(*back, {.style = json_style::typed, .pretty = pretty}), text);
    }
  }
}

TEST(MsgJson, TypedExactText) {
  message m({.source_id = "a", .type = "t"});
  m.add("i", std::int8_t{-1});
  m.add("f", 1.0f);
  m.add("d", std::numeric_limits<double>::infinity());
  m.add("b", value::bytes(std::string_view("hi")));
  m.add("t", timestamp{5, 6});
  m.add("v", std::vector<std::int32_t>{1, 2});
  m.add("a", array{nullptr, true});
  m.add("g", value::tagged(7, value("x")));
  EXPECT_EQ(
      to_json(m, {.style = json_style::typed}),
      R"({"keel.msg":1,"header":{"source_id":"a","type":"t"},"body":[["i","int8",-1],)"
      R"(["f","float32",1.0],["d","float64","Infinity"],["b","bytes","aGk="],["t","timestamp",[5,6]],)"
      R"(["v","int32_array",[1,2]],["a","array",[["null",null],["bool",true]]],)"
      R"(["g","tagged",[7,"string","x"]]]})");
}

TEST(MsgJson, PlainJsonSurvivesEveryForm) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::random_options o;
    o.all_types = false;
    o.nonfinite = false;
    test::generator g(seed, o);
    const message m = g.make();
    const std::string text = to_json(m);
    auto first = from_json(text);
    ASSERT_TRUE(first.ok()) << seed << ": " << first.error().to_string() << "\n" << text;
    EXPECT_EQ(*first, m) << seed << "\n" << text;
    for (form f : kAllForms) {
      auto again = read(test::as_bytes(to_form(*first, f)), f);
      ASSERT_TRUE(again.ok()) << form_name(f) << ": " << again.error().to_string();
      EXPECT_EQ(to_json(*again), text) << seed << " via " << form_name(f);
    }
  }
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(MsgJson, CorpusObjectsSurviveEveryForm) {
  const char* c = std::getenv("KEEL_CORPUS");
  const std::filesystem::path dir =
      std::filesystem::path(c != nullptr ? c : KEEL_SOURCE_DIR "/../shared/corpus") / "json";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no corpus at " << dir;
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.file_size() > (8u << 20)) continue;
    const std::string text = slurp(entry.path());
    auto m = from_json(text);
    if (!m.ok()) continue;  // not an object (a top-level array or scalar is not a message)
    const std::string want = to_json(*m);
    for (form f : kAllForms) {
      auto again = read(test::as_bytes(to_form(*m, f)), f);
      ASSERT_TRUE(again.ok()) << entry.path() << " " << form_name(f) << ": "
                              << again.error().to_string();
      EXPECT_EQ(to_json(*again), want) << entry.path() << " via " << form_name(f);
    }
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(MsgJson, PlainMapping) {
  auto m = from_json(R"({"a": 1, "b": -2, "c": 18446744073709551615, "d": 1.5, "e": [true, null],
                         "f": {"g": "h"}, "a": 3})");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(*m->find("a"), value(std::int64_t{1}));
  EXPECT_EQ(*m->find("c"), value(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_EQ(*m->find("d"), value(1.5));
  EXPECT_EQ(m->size(), 7u);  // the repeated name is kept
  EXPECT_EQ(
      to_json(*m),
      R"({"a":1,"b":-2,"c":18446744073709551615,"d":1.5,"e":[true,null],"f":{"g":"h"},"a":3})");
  message h({.source_id = "s"});
  h.add("x", 1.0);
  EXPECT_EQ(to_json(h), R"([{"source_id":"s"},{"x":1.0}])");
  EXPECT_EQ(*from_json(to_json(h)), h);
}

TEST(MsgJson, Errors) {
  auto e = from_json("{\n  \"a\": [1,\n   2,]\n}");
  EXPECT_EQ(e.code(), error_code::syntax_error);
  EXPECT_EQ(e.error().line, 3u);
  e = from_json("[1, 2]");
  EXPECT_EQ(e.code(), error_code::bad_value);
  EXPECT_EQ(e.error().line, 1u);
  EXPECT_EQ(e.error().column, 1u);
  // A typed value that does not fit its type is reported where it is.
  e = from_json(
      "{\"keel.msg\": 1, \"body\": [\n  [\"x\", \"int8\", 1],\n  [\"y\", \"int8\", 300]]}");
  EXPECT_EQ(e.code(), error_code::bad_value);
  EXPECT_EQ(e.error().line, 3u);
  EXPECT_EQ(e.error().column, 17u);
  e = from_json("{\"keel.msg\": 1, \"body\": [[\"x\", \"int9\", 1]]}");
  EXPECT_EQ(e.code(), error_code::bad_value);
  EXPECT_EQ(e.error().column, 32u);
  e = from_json("{\"keel.msg\": 1, \"body\": [[\"x\", \"bytes\", \"a===\"]]}");
  EXPECT_EQ(e.code(), error_code::bad_value);
  e = from_json("{\"keel.msg\": 1, \"body\": [[\"x\", \"timestamp\", [1, 1000000000]]]}");
  EXPECT_EQ(e.code(), error_code::bad_value);
  e = from_json("{\"keel.msg\": 2, \"body\": []}");
  EXPECT_EQ(e.code(), error_code::bad_value);
  std::string deep(300, '[');
  deep += std::string(300, ']');
  EXPECT_EQ(from_json("{\"a\":" + deep + "}").code(), error_code::depth_exceeded);
}

TEST(MsgXml, KeepsEveryType) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::generator g(seed);
    const message m = g.make();
    const std::string text = to_xml(m);
    auto back = from_xml(text);
    ASSERT_TRUE(back.ok()) << seed << ": " << back.error().to_string() << "\n" << text;
    ASSERT_EQ(*back, m) << seed << "\n" << text;
    EXPECT_EQ(to_xml(*back), text);
  }
}

TEST(MsgXml, ExactText) {
  message m({.type = "t<1>"});
  m.add("a b", "x & y");
  m.add("ctl", "\x01");
  m.add("\t", std::vector<double>{1.5, -0.0});
  m.add("n", map{{"k", value()}});
  EXPECT_EQ(to_xml(m),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<message type=\"t&lt;1&gt;\">\n"
            "  <string name=\"a b\">x &amp; y</string>\n"
            "  <string name=\"ctl\" base64=\"1\">AQ==</string>\n"
            "  <float64_array name=\"&#9;\">1.5 -0.0</float64_array>\n"
            "  <map name=\"n\">\n    <null name=\"k\"/>\n  </map>\n"
            "</message>\n");
}

TEST(MsgXml, Errors) {
  auto e =
      from_xml("<message>\n  <int8 name=\"a\">1</int8>\n  <int8 name=\"b\">1</int9>\n</message>");
  EXPECT_EQ(e.code(), error_code::syntax_error);
  EXPECT_EQ(e.error().line, 3u);
  e = from_xml("<message>\n  <int8 name=\"a\">1</int8>\n  <int8 name=\"b\">300</int8>\n</message>");
  EXPECT_EQ(e.code(), error_code::bad_value);
  EXPECT_EQ(e.error().line, 3u);
  EXPECT_EQ(e.error().column, 3u);
  // pugixml reports some truncated documents past their end; the error stays inside the input.
  const std::string cut("\n\xff\xff\n\xff\n\n\xff\xff\n<\xff\xff\nZ", 15);
  e = from_xml(cut);
  EXPECT_EQ(e.code(), error_code::syntax_error);
  EXPECT_LE(e.error().offset, cut.size());
  EXPECT_EQ(from_xml("<msg/>").code(), error_code::bad_value);
  EXPECT_EQ(from_xml("<message><int8>1</int8></message>").code(),
            error_code::bad_value);  // no name
  EXPECT_EQ(from_xml("<message><int8 name=\"a\" x=\"1\">1</int8></message>").code(),
            error_code::bad_value);
  EXPECT_EQ(from_xml("<message><string name=\"a\">\xff</string></message>").code(),
            error_code::bad_value);
  EXPECT_EQ(from_xml("<message><bool name=\"a\">yes</bool></message>").code(),
            error_code::bad_value);
  EXPECT_EQ(from_xml("<message>text</message>").code(), error_code::bad_value);
  std::string deep = "<message>";
  for (int i = 0; i < 200; ++i) deep += "<array name=\"a\">";
  EXPECT_EQ(from_xml(deep).code(), error_code::syntax_error);
  deep = "<message><array name=\"a\">";
  for (int i = 0; i < 200; ++i) deep += "<array>";
  for (int i = 0; i < 200; ++i) deep += "</array>";
  deep += "</array></message>";
  EXPECT_EQ(from_xml(deep).code(), error_code::depth_exceeded);
}

TEST(MsgForms, DetectAndConvertBetweenAnyTwo) {
  test::generator g(42);
  message m = g.make();
  m.header = {"s", "", "", "", "t", ""};
  for (form from : kAllForms) {
    const std::string bytes = to_form(m, from);
    auto f = detect(test::as_bytes(bytes));
    ASSERT_TRUE(f.ok()) << form_name(from);
    // The exact modes are detected as their standard forms.
    const form seen = from == form::msgpack_exact ? form::msgpack
                      : from == form::cbor_exact  ? form::cbor
                                                  : from;
    EXPECT_EQ(*f, seen) << form_name(from);
    for (form to : kAllForms) {
      auto out = convert(test::as_bytes(bytes), to);
      ASSERT_TRUE(out.ok()) << form_name(from) << " -> " << form_name(to) << ": "
                            << out.error().to_string();
      auto back = read(test::as_bytes(*out), to);
      ASSERT_TRUE(back.ok());
      EXPECT_EQ(back->header, m.header);
      EXPECT_EQ(back->size(), m.size());
    }
  }
  // Without a header, a MessagePack map of two entries starts with 0x82 too.
  message two;
  two.add("a", 1);
  two.add("b", 2);
  EXPECT_EQ(*detect(test::as_bytes(to_msgpack(two))), form::msgpack);
  EXPECT_EQ(detect(test::as_bytes("hello")).code(), error_code::unknown_form);
  form f{};
  EXPECT_TRUE(form_from_name("json-typed", f));
  EXPECT_EQ(f, form::json_typed);
  EXPECT_TRUE(form_from_name("msgpack-exact", f));
  EXPECT_EQ(f, form::msgpack_exact);
  EXPECT_STREQ(form_name(form::cbor_exact), "cbor-exact");
  EXPECT_FALSE(form_from_name("yaml", f));
}

// message -> form -> message is exact in one form of each kind (binary, JSON typed, XML,
// MessagePack and CBOR in the exact mode), for random messages of every type, including the
// values that stand for something else in some form; and a conversion between any two of them
// keeps the message.
TEST(MsgForms, EveryKindHasAnExactForm) {
  test::random_options o;
  o.awkward = true;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    test::generator g(seed, o);
    const message m = g.make();
    for (form f : kExactForms) {
      const std::string bytes = to_form(m, f);
      auto back = read(test::as_bytes(bytes), f);
      ASSERT_TRUE(back.ok()) << seed << " " << form_name(f) << ": " << back.error().to_string();
      ASSERT_EQ(*back, m) << seed << " " << form_name(f);
      EXPECT_EQ(to_form(*back, f), bytes) << seed << " " << form_name(f);
      for (form to : kExactForms) {
        auto out = convert(test::as_bytes(bytes), f, to);
        ASSERT_TRUE(out.ok()) << form_name(f) << " -> " << form_name(to);
        EXPECT_EQ(*read(test::as_bytes(*out), to), m) << form_name(f) << " -> " << form_name(to);
      }
    }
  }
}

}  // namespace
}  // namespace keel::msg
