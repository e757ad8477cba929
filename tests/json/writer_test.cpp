// SPDX-License-Identifier: MIT
// Writer: minified and pretty output, number formatting, escaping options, NaN/Infinity policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <dragonbox/dragonbox.h>

#include "keel/json.h"
#include "test_util.h"

namespace {

using namespace keel::json;

std::string w(std::string_view in, write_options o = {}, parse_options po = {}) {
  auto d = parse(in, po);
  EXPECT_TRUE(d.ok()) << in << ": " << d.error().to_string();
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

// Strings without escapes (copied without a scan) as keys and values of every length across the
// block sizes of the copy (16, 32, 64 bytes), each next to other strings: the text comes back
// unchanged, on every kernel set.
TEST(Writer, PlainStringsEveryLength) {
  std::string doc = "[";
  for (std::size_t n = 0; n <= 100; ++n) {
    std::string key, value;
    for (std::size_t i = 0; i < n; ++i) {
      key += static_cast<char>('a' + (i * 7 + n) % 26);
      value += static_cast<char>('A' + (i * 5 + n) % 26);
    }
    if (n > 0) doc += ',';
    doc += "{\"" + key + "\":\"" + value + "\",\"k\":\"" + value + "\"},\"" + value + "\"";
  }
  doc += ']';
  for (const isa which : {isa::scalar, isa::avx2, isa::avx512}) {
    if (!isa_supported(which)) continue;
    EXPECT_EQ(w(doc, {.isa = which}), doc) << isa_name(which);
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

// Streamed writes hand on the same text as write(), in pieces, for every option set and kernel
// set, from immutable and mutable documents; a sink that refuses stops the write with io_error.
TEST(Writer, StreamedEqualsWhole) {
  // About 3 MB of text: many pieces, and strings longer than a piece (the buffer grows for them).
  std::string text = "[";
  for (int i = 0; i < 20000; ++i) {
    text += R"({"id":)" + std::to_string(i * 7919) + R"(,"name":"caf\u00e9 \"x\"/)" +
            std::to_string(i) + R"(","v":[1.5,-2e-7,true,null,{}],"s":"é/")" + "}";
    text += i % 5000 == 4999 ? ",\"" + std::string(200000, 'z') + "\"," : ",";
  }
  text += "0]";
  auto d = parse(text);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  const mutable_document m(d->root());
  for (isa k : keel::all_isas) {
    if (!isa_supported(k)) continue;
    for (int variant = 0; variant < 4; ++variant) {
      write_options o;
      o.isa = k;
      o.pretty = variant & 1;
      o.escape_unicode = o.escape_slash = (variant & 2) != 0;
      writer whole(o), streamed(o);
      const std::string expect(*whole.write(d->root()));
      std::string got;
      std::size_t pieces = 0, largest = 0;
      auto collect = [&](std::string_view piece) {
        got += piece;
        ++pieces;
        largest = std::max(largest, piece.size());
        return true;
      };
      auto r = streamed.write_to(d->root(), collect);
      ASSERT_TRUE(r.ok()) << r.error().message();
      EXPECT_EQ(*r, expect.size());
      EXPECT_TRUE(got == expect) << isa_name(k) << " variant " << variant;
      EXPECT_GT(pieces, 10u);
      // Pieces are the buffer's size (64 KiB) unless a long string needed more room.
      EXPECT_LT(largest, 6 * 200000 + 4096u);
      got.clear();
      auto rm = streamed.write_to(m.root(), collect);
      ASSERT_TRUE(rm.ok());
      EXPECT_TRUE(got == std::string(*whole.write(m.root()))) << isa_name(k);
      // The same writer still writes whole texts, and streams in pieces again after that.
      EXPECT_EQ(*streamed.write(d->root()), expect);
      got.clear();
      largest = 0;
      ASSERT_TRUE(streamed.write_to(d->root(), collect).ok());
      EXPECT_TRUE(got == expect);
      EXPECT_LT(largest, 6 * 200000 + 4096u);
    }
  }
  writer wr;
  int calls = 0;
  auto refuse = wr.write_to(d->root(), [&](std::string_view) { return ++calls < 3; });
  EXPECT_EQ(refuse.code(), error_code::io_error);
  EXPECT_EQ(calls, 3);  // nothing handed on after the refusal
  auto throws = wr.write_to(d->root(), [](std::string_view) -> bool { throw 1; });
  EXPECT_EQ(throws.code(), error_code::io_error);
  EXPECT_EQ(wr.write_to(value(), [](std::string_view) { return true; }).code(),
            error_code::not_found);
  // A NaN under nonfinite_policy::error is the same error streamed.
  parse_options po;
  po.allow_nan_inf = true;
  auto nan = parse("[1,NaN]", po);
  ASSERT_TRUE(nan.ok());
  EXPECT_EQ(wr.write_to(nan->root(), [](std::string_view) { return true; }).code(),
            error_code::nonfinite_number);
}

TEST(Writer, StreamedToFile) {
  auto d = parse(R"({"a":[1,2,"x"],"b":{"c":null}})");
  ASSERT_TRUE(d.ok());
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  writer wr;
  auto r = wr.write_to(d->root(), f);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 30u);
  std::rewind(f);
  char buf[64] = {};
  EXPECT_EQ(std::fread(buf, 1, sizeof buf, f), 30u);
  EXPECT_STREQ(buf, R"({"a":[1,2,"x"],"b":{"c":null}})");
  std::fclose(f);
  // A stream that cannot be written: io_error.
  std::FILE* full = std::fopen("/dev/full", "wb");
  if (full != nullptr) {
    std::setvbuf(full, nullptr, _IONBF, 0);
    EXPECT_EQ(wr.write_to(d->root(), full).code(), error_code::io_error);
    std::fclose(full);
  }
}

// Reference formatting of a double, independent of the writer's code: Dragonbox's shortest digits
// (its default policies, trailing zeros removed) placed by the rules in docs/json.md.
std::string reference_double(double d) {
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  const auto r = jkj::dragonbox::to_decimal(d);
  const std::string digits = std::to_string(r.significand);
  const int k = static_cast<int>(digits.size());
  const int point = k + r.exponent;
  std::string out = r.is_negative ? "-" : "";
  if (point > 0 && point <= 21) {
    if (point >= k) {
      out += digits;
      out.append(static_cast<std::size_t>(point - k), '0');
      out += ".0";
    } else {
      out += digits.substr(0, static_cast<std::size_t>(point));
      out += '.';
      out += digits.substr(static_cast<std::size_t>(point));
    }
  } else if (point <= 0 && point > -6) {
    out += "0.";
    out.append(static_cast<std::size_t>(-point), '0');
    out += digits;
  } else {
    out += digits.substr(0, 1);
    if (k > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += std::to_string(point - 1);
  }
  return out;
}

// Writes the doubles as one array with the given kernel set and compares every element with the
// reference text.
void expect_doubles_match(const std::vector<double>& ds, isa which) {
  std::string text = "[";
  for (double d : ds) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    text += buf;
    if (!std::strpbrk(buf, ".en")) text += ".0";
    text += ',';
  }
  text.back() = ']';
  auto doc = parse(text);
  ASSERT_TRUE(doc.ok()) << doc.error().to_string();
  writer wr({.isa = which});
  auto out = wr.write(doc->root());
  ASSERT_TRUE(out.ok());
  std::string expect = "[";
  for (double d : ds) expect += reference_double(d) + ",";
  expect.back() = ']';
  if (*out == expect) return;
  // Find the first differing element for the message.
  std::size_t a = 1, b = 1;
  for (double d : ds) {
    const std::size_t ea = out->find_first_of(",]", a),
                      eb = expect.find(',', b) == std::string::npos ? expect.size() - 1
                                                                    : expect.find(',', b);
    ASSERT_EQ(out->substr(a, ea - a), expect.substr(b, eb - b)) << "double " << d;
    a = ea + 1;
    b = eb + 1;
  }
}

std::vector<isa> supported_isas() {
  std::vector<isa> v;
  for (isa i : keel::all_isas)
    if (isa_supported(i)) v.push_back(i);
  return v;
}

// The writer's digit generation (digit registers, trailing zeros dropped from the register)
// gives exactly Dragonbox's shortest output, on random bit patterns, data-like decimals and
// edge values.
TEST(Writer, DoublesEqualDragonboxReference) {
  std::mt19937_64 rng(2026);
  std::vector<double> ds = {1.0,
                            0.1,
                            1e21,
                            1e22,
                            1e-7,
                            1e-6,
                            5e-324,
                            1e16,
                            1e17,
                            1e23,
                            123.0,
                            1e300,
                            2e-308,
                            -0.0,
                            0.5,
                            9007199254740993.0,
                            std::numeric_limits<double>::max(),
                            std::numeric_limits<double>::min(),
                            std::numeric_limits<double>::denorm_min()};
  for (int e = -325; e <= 308; ++e) ds.push_back(std::pow(10.0, e));
  for (int i = 0; i < 60000; ++i) {
    double d;
    do {
      const std::uint64_t bits = rng();
      std::memcpy(&d, &bits, sizeof d);
    } while (!std::isfinite(d));
    ds.push_back(d);
  }
  for (int i = 0; i < 60000; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 17);
    const int exp10 = static_cast<int>(rng() % 40) - 12;
    char text[64];
    std::snprintf(text, sizeof text, "%.*e", digits - 1,
                  std::ldexp(static_cast<double>(rng() >> 11), -53) * std::pow(10.0, exp10));
    ds.push_back((rng() & 1) ? -std::strtod(text, nullptr) : std::strtod(text, nullptr));
  }
  for (std::uint64_t v = 1; v < 100000000000000000ULL; v *= 10) {  // integral doubles
    ds.push_back(static_cast<double>(v));
    ds.push_back(static_cast<double>(v * 7 + 3));
  }
  // Around the integers' own path (below 2^53) and its ends.
  for (const double base : {0x1p52, 0x1p53, 1.0, 0x1p-1})
    for (int i = -4; i <= 4; ++i) ds.push_back(base + i * std::ldexp(base, -52));
  // Every power of two (the double below is half as far away as the one above).
  for (int e = -1074; e <= 1023; ++e) ds.push_back(std::ldexp(1.0, e));
  // The doubles next to short decimals of every magnitude: their shortest text lies at an edge
  // of the interval that reads back to them.
  for (int i = 0; i < 30000; ++i) {
    std::uint64_t digits = rng() % 100000000000000000ULL;  // up to 17 digits
    for (auto drop = rng() % 17; drop > 0; --drop) digits /= 10;
    char text[64];
    std::snprintf(text, sizeof text, "%llue%d", static_cast<unsigned long long>(digits),
                  static_cast<int>(rng() % 620) - 320);
    const double v = std::strtod(text, nullptr);
    if (!std::isfinite(v) || v == 0) continue;
    ds.push_back(v);
    ds.push_back(std::nextafter(v, 0.0));
    ds.push_back(std::nextafter(v, std::numeric_limits<double>::infinity()));
  }
  for (isa which : supported_isas()) {
    expect_doubles_match(ds, which);
    if (HasFatalFailure()) return;
  }
}

// Integers of every length (and at every power-of-ten boundary) against std::to_chars.
TEST(Writer, IntegersEveryLength) {
  std::mt19937_64 rng(99);
  std::vector<std::int64_t> is = {0,
                                  1,
                                  -1,
                                  9,
                                  10,
                                  99,
                                  100,
                                  std::numeric_limits<std::int64_t>::max(),
                                  std::numeric_limits<std::int64_t>::min()};
  std::int64_t p = 1;
  for (int k = 1; k <= 18; ++k) {
    p *= 10;
    for (std::int64_t v : {p - 1, p, p + 1}) {
      is.push_back(v);
      is.push_back(-v);
    }
    for (int i = 0; i < 200; ++i) {
      const auto v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(p));
      is.push_back(v);
      is.push_back(-v);
    }
  }
  // Nine digits have their own fixed-point path (verified exhaustively once; sampled here).
  for (int i = 0; i < 50000; ++i)
    is.push_back(100000000 + static_cast<std::int64_t>(rng() % 900000000));
  for (std::int64_t v = 100000000; v < 1000000000; v += 99999989) {
    is.push_back(v);
    is.push_back(v + 99999999 - v % 100000000);
  }
  // Below 10^4 (their own branch-free path and the writer loop's inline one): every value.
  for (std::int64_t v = 0; v < 10000; ++v) {
    is.push_back(v);
    is.push_back(-v);
  }
  std::vector<std::uint64_t> us = {std::numeric_limits<std::uint64_t>::max(),
                                   10000000000000000000ULL, 9999999999999999999ULL + 1};
  for (int i = 0; i < 200; ++i) us.push_back((rng() | (1ULL << 63)));
  std::string text = "[", expect = "[";
  auto add = [&](auto v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    text.append(buf, r.ptr);
    text += ',';
    expect.append(buf, r.ptr);
    expect += ',';
  };
  for (auto v : is) add(v);
  for (auto v : us) add(v);
  text.back() = ']';
  expect.back() = ']';
  auto doc = parse(text);
  ASSERT_TRUE(doc.ok());
  for (isa which : supported_isas()) {
    writer wr({.isa = which});
    EXPECT_EQ(*wr.write(doc->root()), expect) << isa_name(which);
  }
}

// JSON string text of s (its bytes valid UTF-8), independent of the writer: the required
// escapes, plus '/' and non-ASCII (\uXXXX, surrogate pairs) when asked.
std::string reference_escape(std::string_view s, bool slash, bool unicode) {
  std::string out = "\"";
  char buf[16];
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '/':
        out += slash ? "\\/" : "/";
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else if (c < 0x80 || !unicode) {
      out += static_cast<char>(c);
    } else {
      const int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      std::uint32_t cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
      for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
      i += static_cast<std::size_t>(n - 1);
      if (cp >= 0x10000) {
        std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xd800 + ((cp - 0x10000) >> 10),
                      0xdc00 + ((cp - 0x10000) & 0x3ff));
      } else {
        std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      }
      out += buf;
    }
  }
  out += '"';
  return out;
}

// {"<s>":["<s>"]}: the string as a key and as a value.
std::string wrap(const std::string& quoted) {
  std::string t = "{";
  t += quoted;
  t += ":[";
  t += quoted;
  t += "]}";
  return t;
}

class WriterIsa : public ::testing::TestWithParam<isa> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam())) GTEST_SKIP() << "CPU lacks " << isa_name(GetParam());
  }
};

// Strings of every length up to 200 bytes (short, one block, several 16/32/64-byte blocks) with
// each kind of character needing attention at every position, as values and as keys, under every
// escaping option: the text equals the reference escaping.
TEST_P(WriterIsa, StringsEveryLengthAndPosition) {
  const std::vector<std::string> specials = {
      "\"",  "\\", "\n", "\x01", "\x1f", "/", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
      "\x7f"};
  for (int opt = 0; opt < 3; ++opt) {
    const bool slash = opt >= 1, unicode = opt == 2;
    writer wr({.escape_unicode = unicode, .escape_slash = slash, .isa = GetParam()});
    for (std::size_t len = 0; len <= 200; ++len) {
      for (std::size_t pos = 0; pos <= len; pos += (len < 70 ? 1 : 7)) {
        for (const std::string& sp : specials) {
          std::string s(len, 'a');
          for (std::size_t i = 0; i < len; ++i) s[i] = static_cast<char>('a' + (i * 7) % 26);
          s.insert(pos, sp);
          const std::string plain = reference_escape(s, false, false);
          auto doc = parse(wrap(plain));
          ASSERT_TRUE(doc.ok()) << plain;
          const std::string want = reference_escape(s, slash, unicode);
          auto out = wr.write(doc->root());
          ASSERT_TRUE(out.ok());
          ASSERT_EQ(*out, wrap(want)) << "len " << len << " pos " << pos << " option " << opt;
        }
        if (len == 0) break;
      }
    }
  }
}

// The corpus files and a deep nesting written identically by every kernel set, minified and
// pretty, and read back to an equal document.
TEST_P(WriterIsa, CorpusSameOnEveryKernelSet) {
  for (const char* f : {"twitter.json", "canada.json", "citm_catalog.json", "gsoc-2018.json"}) {
    const std::string text = test::slurp(test::corpus() / "json" / f);
    if (text.empty()) GTEST_SKIP() << "corpus missing";
    auto doc = parse(text);
    ASSERT_TRUE(doc.ok()) << f;
    for (bool pretty : {false, true}) {
      writer ref({.pretty = pretty, .isa = isa::scalar});
      writer wr({.pretty = pretty, .isa = GetParam()});
      auto a = ref.write(doc->root());
      auto b = wr.write(doc->root());
      ASSERT_TRUE(a.ok() && b.ok()) << f;
      EXPECT_EQ(*a, *b) << f;
      EXPECT_EQ(wr.last_isa(), GetParam());
      auto back = parse(*b);
      ASSERT_TRUE(back.ok()) << f;
      EXPECT_TRUE(back->root() == doc->root()) << f;
    }
  }
  std::string deep(3000, '[');
  deep += std::string(3000, ']');
  auto d = parse(deep, {.max_depth = 4000});
  ASSERT_TRUE(d.ok());
  writer wr({.isa = GetParam()});
  EXPECT_EQ(*wr.write(d->root()), deep);
}

// Strings flagged kNoEscape (docs/json-dom.md) are copied without a scan under the default
// escaping: the same DOM with every flag cleared (a copy of its nodes) must give the same text
// under every write option, for the corpus files, every y_ file of JSONTestSuite and the i_ files
// parsed keeping invalid UTF-8.
TEST_P(WriterIsa, NoEscapeFlagSameOutput) {
  std::vector<std::pair<std::string, parse_options>> docs;
  for (const char* f : {"twitter.json", "canada.json", "citm_catalog.json", "gsoc-2018.json"})
    docs.emplace_back(test::slurp(test::corpus() / "json" / f), parse_options{});
  for (const auto& f : test::files_in(test::corpus() / "JSONTestSuite" / "test_parsing")) {
    const char kind = f.filename().string()[0];
    if (kind == 'y' || kind == 'i')
      docs.emplace_back(test::slurp(f), parse_options{.allow_invalid_utf8 = kind == 'i'});
  }
  ASSERT_GT(docs.size(), 120u) << "corpus missing";
  const write_options opts[] = {{},
                                {.escape_unicode = true},
                                {.escape_slash = true},
                                {.pretty = true},
                                {.pretty = true, .escape_unicode = true, .escape_slash = true}};
  std::size_t flagged = 0, written = 0;
  for (const auto& [text, po] : docs) {
    auto doc = parse(text, po);
    if (!doc.ok()) continue;  // an i_ file rejected
    const value root = doc->root();
    std::vector<detail::node> cleared(root.node_ptr(), root.node_ptr() + root.node_count());
    for (detail::node& n : cleared) {
      flagged += (n.tag & detail::kNoEscape) != 0;
      n.tag &= ~detail::kNoEscape;
    }
    const value plain(cleared.data(), root.string_area());
    for (write_options o : opts) {
      o.isa = GetParam();
      writer a(o), b(o);
      auto x = a.write(root);
      auto y = b.write(plain);
      ASSERT_EQ(x.ok(), y.ok()) << text.substr(0, 200);
      if (!x.ok()) {
        EXPECT_EQ(x.code(), y.code());
        continue;
      }
      ++written;
      EXPECT_EQ(*x, *y) << text.substr(0, 200);
    }
  }
  EXPECT_GT(flagged, 50000u);  // the flagged path was taken
  EXPECT_GT(written, 500u);
}

INSTANTIATE_TEST_SUITE_P(Isa, WriterIsa, ::testing::ValuesIn(keel::all_isas), test::isa_test_name);

TEST(Writer, UnavailableIsa) {
  auto d = parse("[1]");
  ASSERT_TRUE(d.ok());
  for (isa which : keel::all_isas) {
    writer wr({.isa = which});
    if (isa_supported(which))
      EXPECT_EQ(*wr.write(d->root()), "[1]");
    else
      EXPECT_EQ(wr.write(d->root()).code(), error_code::isa_unavailable);
  }
}

}  // namespace
