// Writer: minified and pretty output, number formatting, escaping options, NaN/Infinity policy.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "keel/json.h"

namespace {

using namespace keel::json;

std::string w(std::string_view in, write_options o = {}, parse_options po = {}) {
  auto d = parse(in, po);
  EXPECT_TRUE(d.ok()) << in << ": " << d.err().to_string();
  auto r = write(d->root(), o);
  EXPECT_TRUE(r.ok()) << in;
  return r.ok() ? *r : std::string();
}

TEST(Writer, Minified) {
  EXPECT_EQ(w(" { \"a\" : [ 1 , 2 , { } , [ ] ] , \"b\" : null } "),
            R"({"a":[1,2,{},[]],"b":null})");
  EXPECT_EQ(w("true"), "true");
  EXPECT_EQ(w("\"\""), "\"\"");
  EXPECT_EQ(w("[[[]]]"), "[[[]]]");
}

TEST(Writer, Pretty) {
  write_options o;
  o.pretty = true;
  EXPECT_EQ(
      w(R"({"a":[1,{"b":2}],"c":{},"d":[]})", o),
      "{\n  \"a\": [\n    1,\n    {\n      \"b\": 2\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}");
  o.indent = 4;
  EXPECT_EQ(w("[1]", o), "[\n    1\n]");
  o.indent = 0;
  EXPECT_EQ(w("[1,2]", o), "[\n1,\n2\n]");
}

TEST(Writer, Numbers) {
  EXPECT_EQ(w("[0,-1,9223372036854775807,-9223372036854775808,18446744073709551615]"),
            "[0,-1,9223372036854775807,-9223372036854775808,18446744073709551615]");
  EXPECT_EQ(w("[0.0,-0.0,1.5,0.1,100.0,1e21,1e22,1e-7,0.000001,123.456e-300,5e-324,1."
              "7976931348623157e308]"),
            "[0.0,-0.0,1.5,0.1,100.0,1e21,1e22,1e-7,0.000001,1.23456e-298,5e-324,1."
            "7976931348623157e308]");
  EXPECT_EQ(w("[1e20, 12345678901234567890.0, -65.613616999999977]"),
            "[100000000000000000000.0,12345678901234567000.0,-65.61361699999998]");
}

TEST(Writer, ShortestRoundTripRandomDoubles) {
  std::mt19937_64 rng(42);
  writer wr;
  for (int i = 0; i < 20000; ++i) {
    double d;
    do {
      const std::uint64_t bits = rng();
      std::memcpy(&d, &bits, sizeof d);
    } while (!std::isfinite(d));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    auto doc = parse(std::string("[") + buf + (std::strpbrk(buf, ".en") ? "" : ".0") + "]");
    ASSERT_TRUE(doc.ok()) << buf;
    auto out = wr.write(doc->root());
    ASSERT_TRUE(out.ok());
    auto back = parse(*out);
    ASSERT_TRUE(back.ok()) << *out;
    EXPECT_EQ(*back->root().at(0)->get<double>(), d) << buf << " -> " << *out;
    // Shortest: the nearest decimal with one significant digit fewer does not read back to d.
    std::string_view s = *out;
    s = s.substr(0, s.find('e'));
    std::string sig;
    for (char c : s) {
      if (c >= '0' && c <= '9') sig += c;
    }
    sig.erase(0, sig.find_first_not_of('0'));
    sig.erase(sig.find_last_not_of('0') + 1);
    if (sig.size() > 1) {
      char shorter[64];
      std::snprintf(shorter, sizeof shorter, "%.*e", static_cast<int>(sig.size()) - 2, d);
      EXPECT_NE(std::strtod(shorter, nullptr), d) << *out << " vs " << shorter;
    }
  }
}

// Doubles as they appear in data (a few to 17 significant digits, magnitudes 1e-8 to 1e21,
// where the writer uses plain notation): they read back exactly and match %.17g's value.
TEST(Writer, RoundTripDecimalDoubles) {
  std::mt19937_64 rng(7);
  writer wr;
  for (int i = 0; i < 20000; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 17);
    const int exp10 = static_cast<int>(rng() % 30) - 8;
    char text[64];
    std::snprintf(text, sizeof text, "%s%.*e", (rng() & 1) ? "-" : "", digits - 1,
                  std::ldexp(static_cast<double>(rng() >> 11), -53) * std::pow(10.0, exp10));
    const double d = std::strtod(text, nullptr);
    auto doc = parse(std::string("[") + text + "]");
    ASSERT_TRUE(doc.ok()) << text;
    ASSERT_EQ(*doc->root().at(0)->get<double>(), d) << text;
    auto out = wr.write(doc->root());
    ASSERT_TRUE(out.ok());
    auto back = parse(*out);
    ASSERT_TRUE(back.ok()) << *out;
    EXPECT_EQ(*back->root().at(0)->get<double>(), d) << text << " -> " << *out;
  }
}

TEST(Writer, Escaping) {
  EXPECT_EQ(w(R"(["a\"b\\c\/d\b\f\n\r\t\u0001\u001f é €"])"),
            "[\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0001\\u001f \xc3\xa9 \xe2\x82\xac\"]");
  write_options o;
  o.escape_slash = true;
  EXPECT_EQ(w(R"(["a/b"])", o), R"(["a\/b"])");
  o.escape_unicode = true;
  EXPECT_EQ(w("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80/x\"]", o),
            R"(["\u00e9\u20ac\ud83d\ude00\/x"])");
  // Invalid UTF-8 (kept by allow_invalid_utf8) in a key or a value cannot be escaped: an error.
  parse_options keep;
  keep.allow_invalid_utf8 = true;
  for (const char* bad : {"{\"k\xff\":1}", "{\"k\":\"v\xff\"}", "[\"\xc3\"]"}) {
    auto d = parse(bad, keep);
    ASSERT_TRUE(d.ok()) << bad;
    EXPECT_EQ(write(d->root(), o).code(), error_code::invalid_utf8) << bad;
  }
  // Long strings: the 16-byte fast path with escapes at every offset.
  for (std::size_t pad = 0; pad < 40; ++pad) {
    std::string in = "\"";
    in.append(pad, 'x');
    in += "\\n";
    in.append(pad, 'y');
    in += '"';
    EXPECT_EQ(w(in), in);
  }
}

TEST(Writer, NonFinitePolicy) {
  parse_options po;
  po.allow_nan_inf = true;
  auto d = parse("[NaN,Infinity,-Infinity]", po);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(write(d->root()).code(), error_code::nonfinite_number);
  write_options o;
  o.nonfinite = nonfinite_policy::null;
  EXPECT_EQ(*write(d->root(), o), "[null,null,null]");
  o.nonfinite = nonfinite_policy::literal;
  EXPECT_EQ(*write(d->root(), o), "[NaN,Infinity,-Infinity]");
  EXPECT_TRUE(parse(*write(d->root(), o), po).ok());
}

TEST(Writer, SubtreeAndReuse) {
  auto d = parse(R"({"a":{"b":[1,2]},"c":3})");
  ASSERT_TRUE(d.ok());
  writer wr;
  EXPECT_EQ(*wr.write(*d->root()["a"]), R"({"b":[1,2]})");
  const char* first = wr.write(d->root())->data();
  EXPECT_EQ(*wr.write(d->root()), R"({"a":{"b":[1,2]},"c":3})");
  EXPECT_EQ(wr.write(d->root())->data(), first);  // the buffer is reused
  EXPECT_EQ(wr.write(value()).code(), error_code::not_found);
}

}  // namespace
