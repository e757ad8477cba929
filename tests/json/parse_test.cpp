// SPDX-License-Identifier: MIT
// Parser behaviour: grammar, numbers, strings, options, error positions, limits, reuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "keel/json.h"
#include "test_util.h"

namespace {

using namespace keel::json;

// Runs the check on every kernel set this CPU has.
class Parse : public ::testing::TestWithParam<isa> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam())) GTEST_SKIP();
    opt.isa = GetParam();
  }
  result<document> p(std::string_view text) { return parse(text, opt); }
  error_code code(std::string_view text) { return p(text).code(); }
  parse_options opt;
};

TEST_P(Parse, Scalars) {
  EXPECT_TRUE(p("null")->root().is_null());
  EXPECT_EQ(*p("true")->root().get<bool>(), true);
  EXPECT_EQ(*p(" false ")->root().get<bool>(), false);
  EXPECT_EQ(*p("\"x\"")->root().get<std::string_view>(), "x");
  EXPECT_EQ(*p("0")->root().get<std::int64_t>(), 0);
  EXPECT_EQ(*p("-12")->root().get<std::int64_t>(), -12);
  EXPECT_EQ(*p("1.5")->root().get<double>(), 1.5);
}

TEST_P(Parse, Integers) {
  EXPECT_EQ(*p("9223372036854775807")->root().get<std::int64_t>(), INT64_MAX);
  EXPECT_EQ(*p("-9223372036854775808")->root().get<std::int64_t>(), INT64_MIN);
  EXPECT_EQ(*p("18446744073709551615")->root().get<std::uint64_t>(), UINT64_MAX);
  auto big = p("18446744073709551616");
  ASSERT_TRUE(big.ok());
  EXPECT_TRUE(big->root().is_double());
  EXPECT_EQ(*big->root().get<double>(), 18446744073709551616.0);
  opt.big_integers_as_raw = true;
  EXPECT_EQ(p("[123456789012345678901234567890]")->root().at(0)->raw_string(),
            "123456789012345678901234567890");
  EXPECT_EQ(*p("[-5]")->root().at(0)->get<std::int64_t>(), -5);
  EXPECT_FALSE(p("-1")->root().get<std::uint64_t>().ok());
  EXPECT_EQ(*p("7")->root().get<std::uint64_t>(), 7u);
  EXPECT_EQ(*p("7")->root().get<double>(), 7.0);
}

TEST_P(Parse, DoublesCorrectlyRounded) {
  const char* cases[] = {"0.1",
                         "-65.613616999999977",
                         "2.2250738585072011e-308",
                         "4.9e-324",
                         "1.7976931348623157e308",
                         "3.14159265358979323846264338327950288",
                         "123456789012345678901234567890e-10",
                         "9007199254740993",
                         "1e22",
                         "1e23",
                         "0.000001",
                         "5e-324",
                         "2.4703282292062327e-324"};
  for (const char* c : cases) {
    auto r = p(c);
    ASSERT_TRUE(r.ok()) << c;
    EXPECT_EQ(*r->root().get<double>(), std::strtod(c, nullptr)) << c;
  }
  EXPECT_EQ(code("1e309"), error_code::number_out_of_range);
  EXPECT_EQ(code("-1e400"), error_code::number_out_of_range);
  EXPECT_EQ(*p("1e-400")->root().get<double>(), 0.0);
}

// Random numbers of every digit layout (0-20 integer digits, 0-20 fraction digits, optional
// exponent), alone and followed by each kind of terminator: each one reads as strtod /
// strtoll / strtoull read it.
TEST_P(Parse, RandomNumbersMatchStrtod) {
  std::mt19937_64 rng(11);
  const char* terms[] = {"", "]", ",1]", " ]", "\n]"};
  for (int i = 0; i < 20000; ++i) {
    std::string num = (rng() & 1) ? "-" : "";
    const int int_digits = 1 + static_cast<int>(rng() % 20);
    for (int k = 0; k < int_digits; ++k)
      num += static_cast<char>('0' + (k == 0 ? 1 + rng() % 9 : rng() % 10));
    if (rng() % 4 == 0) {
      num.resize(num.size() - static_cast<std::size_t>(int_digits));
      num += '0';
    }
    const int frac_digits = static_cast<int>(rng() % 21);
    if (frac_digits) {
      num += '.';
      for (int k = 0; k < frac_digits; ++k) num += static_cast<char>('0' + rng() % 10);
    }
    if (rng() % 3 == 0) {
      num += 'e';
      num.append(std::to_string(static_cast<int>(rng() % 40) - 20));
    }
    const char* term = terms[rng() % 5];
    std::string text;
    if (*term) text += '[';
    text.append(num);
    text.append(term);
    auto r = p(text);
    ASSERT_TRUE(r.ok()) << text;
    const value v = *term ? *r->root().at(0) : r->root();
    const bool is_int = num.find_first_of(".e") == std::string::npos;
    if (is_int && v.is_int64()) {
      EXPECT_EQ(*v.get<std::int64_t>(), std::strtoll(num.c_str(), nullptr, 10)) << text;
    } else if (is_int && v.type() == type::uint64) {
      EXPECT_EQ(*v.get<std::uint64_t>(), std::strtoull(num.c_str(), nullptr, 10)) << text;
    } else {
      ASSERT_TRUE(v.is_double()) << text;
      EXPECT_EQ(*v.get<double>(), std::strtod(num.c_str(), nullptr)) << text;
    }
  }
}

// Fractions of every layout around the one-step conversion (1-16 integer digits, 1-16 fraction
// digits, up to 14 digits in all; then 15-17 digits), both signs, among other numbers (read in
// place) and last (read from a padded copy), and numbers with exponents around the exact
// product / quotient (14 digits, |e| <= 22): bit for bit strtod's double, -0.0 included.
TEST_P(Parse, ShortFractionsBitExact) {
  std::mt19937_64 rng(29);
  for (int il = 1; il <= 16; ++il) {
    for (int fl = 1; fl <= 16 && il + fl <= 17; ++fl) {
      std::vector<std::string> nums;
      for (int i = 0; i < 60; ++i) {
        std::string num = (rng() & 1) ? "-" : "";
        for (int k = 0; k < il; ++k)
          num += static_cast<char>('0' + (il > 1 && k == 0 ? 1 + rng() % 9 : rng() % 10));
        num += '.';
        for (int k = 0; k < fl; ++k) num += static_cast<char>('0' + rng() % 10);
        if (i % 20 == 0) num.replace(num.find('.') + 1, std::string::npos, std::string(fl, '0'));
        if (i % 20 == 1) num.replace(num.find('.') + 1, std::string::npos, std::string(fl, '9'));
        if (i % 20 == 2 && il == 1)
          num = std::string(num[0] == '-' ? "-" : "") + "0." +
                std::string(static_cast<std::size_t>(fl), '0');
        nums.push_back(num);
      }
      std::string text = "[";
      for (const std::string& n : nums)
        text += n + (&n == &nums.back() ? "]" : (rng() & 1) ? ", " : ",");
      auto r = p(text);
      ASSERT_TRUE(r.ok()) << text;
      for (std::size_t k = 0; k < nums.size(); ++k) {
        const double want = std::strtod(nums[k].c_str(), nullptr);
        const double got = *r->root().at(k)->get<double>();
        EXPECT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want)) << nums[k];
      }
    }
  }
  // With exponents (the general reader): 1-17 digits, 10^-25 to 10^25 in all.
  for (int digits = 1; digits <= 17; ++digits) {
    for (int e = -25; e <= 25; ++e) {
      std::string num = (rng() & 1) ? "-" : "";
      for (int k = 0; k < digits; ++k)
        num += static_cast<char>('0' + (k == 0 ? 1 + rng() % 9 : rng() % 10));
      int e10 = e;
      if (digits > 1 && (rng() & 1)) {
        const int frac = 1 + static_cast<int>(rng() % static_cast<unsigned>(digits - 1));
        num.insert(num.size() - static_cast<std::size_t>(frac), ".");
        e10 += frac;  // the written exponent: the same value m * 10^e
      }
      num += (rng() & 1) ? "e" : "E";
      num += std::to_string(e10);
      const double want = std::strtod(num.c_str(), nullptr);
      auto r = p("[" + num + ",0]");
      ASSERT_TRUE(r.ok()) << num;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(*r->root().at(0)->get<double>()),
                std::bit_cast<std::uint64_t>(want))
          << num;
    }
  }
  for (const char* c :
       {"-0.0", "0.0", "-0.000000000000000", "-0e5", "0e-30", "1e22", "1e23", "-1e-22", "1e-23",
        "123456789012345e22", "123456789012345e-22", "9.99999999999999", "0.1", "-0.3",
        "999999999999999.9", "1.00000000000001", "123456789012.345"}) {
    const double want = std::strtod(c, nullptr);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(*p(c)->root().get<double>()),
              std::bit_cast<std::uint64_t>(want))
        << c;
  }
}

TEST_P(Parse, NumberGrammar) {
  for (const char* bad :
       {"01",  "-",      "+1",       "1.",     ".5",        "1e",    "1e+",  "0x10",  "1.0e",
        "--1", "1.2.3",  "Infinity", "NaN",    "-Infinity", "[1,-]", "1a",   "[01]",  "[1.e5]",
        "-01", "[1.5.]", "[12-]",    "[1.5x]", "[-00.5]",   "[0.]",  "[1.]", "[1.5e]"}) {
    EXPECT_FALSE(p(bad).ok()) << bad;
  }
  EXPECT_EQ(code("01"), error_code::invalid_number);
  for (const char* good : {"-0", "0e0", "0E+1", "1e-1", "-0.0e-0", "[0,1]", "[1.5]", "[-0.5,0.25]"})
    EXPECT_TRUE(p(good).ok()) << good;
}

TEST_P(Parse, Literals) {
  EXPECT_EQ(code("tru"), error_code::invalid_literal);
  EXPECT_EQ(code("truex"), error_code::invalid_literal);
  EXPECT_EQ(code("[nul]"), error_code::invalid_literal);
  EXPECT_EQ(code("True"), error_code::unexpected_character);
  EXPECT_TRUE(p("[true,false,null]").ok());
  // Far from the end of the input (the literal compare reads whole words there, not a padded
  // copy): every near miss is still an invalid literal.
  std::string tail;
  for (int k = 0; k < 64; ++k) tail.append("1,");
  tail.append("1]");
  const auto doc = [&](std::string_view head, std::string_view literal) {
    std::string d(head);
    d.append(literal);
    d.append(",");
    d.append(tail);
    return d;
  };
  for (const char* bad : {"tru", "trux", "truee", "fals", "falsx", "falsee", "fxlse", "nul", "nulx",
                          "nulll", "truefalse", "nulltrue"}) {
    EXPECT_EQ(code(doc("[", bad)), error_code::invalid_literal) << bad;
    EXPECT_EQ(code(doc("{\"k\":", bad)), error_code::invalid_literal) << bad;
  }
  EXPECT_TRUE(p(doc("[true,false,null,true ,false\t,", "null\n")).ok());
}

TEST_P(Parse, Strings) {
  auto r = p(R"("a\"b\\c\/d\be\ff\ng\rh\ti\u0041\u00e9\u20ac\ud83d\ude00")");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r->root().get<std::string_view>(),
            "a\"b\\c/d\be\ff\ng\rh\tiA\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  EXPECT_EQ(code(R"("\x")"), error_code::invalid_escape);
  EXPECT_EQ(code(R"("\u12")"), error_code::invalid_escape);
  EXPECT_EQ(code(R"("\u12G4")"), error_code::invalid_escape);
  EXPECT_EQ(code(R"("\ud800")"), error_code::invalid_surrogate);
  EXPECT_EQ(code(R"("\udc00\ud800")"), error_code::invalid_surrogate);
  EXPECT_EQ(code(R"("\ud800\u0041")"), error_code::invalid_surrogate);
  EXPECT_EQ(code("\"a\x01\""), error_code::control_character);
  EXPECT_EQ(code("\"a\tb\""), error_code::control_character);
  EXPECT_EQ(code("\"abc"), error_code::unterminated_string);
  EXPECT_EQ(code("[\"abc\\\"]"), error_code::unterminated_string);
  // Escapes crossing 64-byte blocks and long runs of backslashes.
  for (std::size_t pad = 0; pad < 70; ++pad) {
    std::string s = "\"";
    s.append(pad, 'x');
    s += "\\\\\\\"\\\\\"";
    auto q = p(s);
    ASSERT_TRUE(q.ok()) << pad;
    EXPECT_EQ(*q->root().get<std::string_view>(), std::string(pad, 'x') + "\\\"\\") << pad;
  }
}

// Strings made of random runs of escapes (\u of every UTF-8 length, surrogate pairs, both hex
// cases, one-character escapes) and plain bytes decode to the UTF-8 written beside them; every
// byte that is not a hex digit is rejected in every digit position.
TEST_P(Parse, EscapeRunsDecode) {
  std::mt19937 rng(7);
  const auto hex = [](unsigned v, bool upper) {
    char b[5];
    std::snprintf(b, sizeof b, upper ? "%04X" : "%04x", v);
    return std::string(b);
  };
  const auto utf8 = [](std::uint32_t cp) { return keel::json::test::utf8_of(cp); };
  static const char kShort[] = "\"\\/bfnrt";
  static const char kDecoded[] = "\"\\/\b\f\n\r\t";
  for (int doc_no = 0; doc_no < 200; ++doc_no) {
    std::string json = "[", want_all;
    std::vector<std::string> want;
    const int strings = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < strings; ++k) {
      std::string src, dec;
      const int items = static_cast<int>(rng() % 40);
      for (int i = 0; i < items; ++i) {
        const bool upper = rng() & 1;
        switch (rng() % 6) {
          case 0: {  // one-character escape
            const unsigned e = rng() % 8;
            src += '\\';
            src += kShort[e];
            dec += kDecoded[e];
            break;
          }
          case 1: {  // surrogate pair
            const std::uint32_t cp = 0x10000 + rng() % 0x100000;
            src += "\\u" + hex(0xd800 + ((cp - 0x10000) >> 10), upper) + "\\u" +
                   hex(0xdc00 + ((cp - 0x10000) & 0x3ff), !upper);
            dec += utf8(cp);
            break;
          }
          case 2:  // plain byte
            src += static_cast<char>('a' + rng() % 26);
            dec += src.back();
            break;
          default: {  // \u of 1, 2 or 3 UTF-8 bytes (U+0000 included)
            static const std::uint32_t lo[] = {0, 0x80, 0x800, 0xe000};
            static const std::uint32_t span[] = {0x80, 0x780, 0xd000, 0x2000};
            const unsigned r = rng() % 4;
            const std::uint32_t cp = lo[r] + rng() % span[r];
            src += "\\u" + hex(cp, upper);
            dec += utf8(cp);
          }
        }
      }
      json += (k ? ",\"" : "\"") + src + "\"";
      want.push_back(dec);
    }
    json += "]";
    auto d = p(json);
    ASSERT_TRUE(d.ok()) << json << ": " << d.error().to_string();
    std::size_t k = 0;
    for (value v : d->root().elements()) EXPECT_EQ(*v.get<std::string_view>(), want[k++]) << json;
  }
  for (int c = 0; c < 256; ++c) {
    if (std::isxdigit(c) || c == '"' || c == '\\' || c < 0x20 || c >= 0x80) continue;
    for (int pos = 0; pos < 4; ++pos) {
      std::string digits = "00e9";
      digits[pos] = static_cast<char>(c);
      EXPECT_EQ(code("[\"ab\\u" + digits + "\"]"), error_code::invalid_escape) << digits;
      EXPECT_EQ(code("[\"\\ud83d\\u" + digits + "\"]"), error_code::invalid_escape) << digits;
    }
  }
}

// Keys and values of every length up to 100 bytes (the one-step short copy, its 32-byte limit,
// one and several chunks), with no escape or one escape at every position, both far from the end
// of the input (the short copy reads and writes past the string) and right before it: the bytes
// must come back exactly, and nothing past a string may leak into the next one.
TEST_P(Parse, StringsOfEveryLengthKeepTheirBytes) {
  for (std::size_t len = 0; len <= 100; ++len) {
    std::string body(len, 'x');
    for (std::size_t i = 0; i < len; ++i) body[i] = static_cast<char>('a' + (i * 7) % 26);
    for (std::size_t pos = 0; pos <= len + 1; ++pos) {
      // (Built by concatenation: std::string::insert trips GCC 12's -Wrestrict here.)
      const std::string head = body.substr(0, pos), rest = pos <= len ? body.substr(pos) : "";
      const std::string src = pos <= len ? head + "\\n" + rest : body;
      const std::string want = pos <= len ? head + "\n" + rest : body;
      for (const std::size_t tail : {std::size_t{0}, std::size_t{100}}) {
        const std::string json =
            "{\"" + src + "\":\"" + src + "\",\"z\":\"" + src + "!\"}" + std::string(tail, ' ');
        auto d = p(json);
        ASSERT_TRUE(d.ok()) << json;
        const member m = *d->root().members().begin();
        ASSERT_EQ(m.key, want) << json;
        const std::string_view v = *m.value.get<std::string_view>();
        EXPECT_EQ(v, want) << json;
        EXPECT_EQ(v.data()[v.size()], '\0') << json;  // each string keeps its NUL
        EXPECT_EQ(*d->root()["z"]->get<std::string_view>(), want + "!") << json;
      }
    }
  }
}

// A member's string value is taken right after its key where it is short and has no escape
// (stage 2), the general way otherwise: the same values, errors and offsets in every mode, for
// lengths around the short-copy size, with an escape (or a bad one) at every place, and near the
// end of the input.
TEST_P(Parse, MemberStringValuesInEveryMode) {
  for (std::size_t len = 0; len <= 40; ++len) {
    std::string body(len, 'x');
    for (std::size_t i = 0; i < len; ++i) body[i] = static_cast<char>('a' + (i * 5) % 26);
    for (std::size_t pos = 0; pos <= len + 1; ++pos) {
      for (const char* esc : {"\\t", "\\q"}) {
        const bool bad = esc[1] == 'q';
        const std::string head = body.substr(0, pos), rest = pos <= len ? body.substr(pos) : "";
        const std::string src = pos <= len ? head + esc + rest : body;
        const std::string want = pos <= len ? head + "\t" + rest : body;
        for (const std::size_t tail : {std::size_t{0}, std::size_t{70}}) {
          const std::string json = "{\"k\":\"" + src + "\",\"n\":1,\"o\":{\"a\":\"" + src +
                                   "\"},\"z\":[\"" + src + "\"]}" + std::string(tail, ' ');
          const bool fails = bad && pos <= len;
          parser ps(opt);
          const auto r = ps.parse(json);
          ASSERT_EQ(r.ok(), !fails) << json;
          if (fails) {
            EXPECT_EQ(r.code(), error_code::invalid_escape) << json;
            EXPECT_EQ(r.error().offset, 6 + pos) << json;
          } else {
            EXPECT_EQ(*(*r)["k"]->get<std::string_view>(), want) << json;
            EXPECT_EQ(*(*(*r)["o"])["a"]->get<std::string_view>(), want) << json;
            EXPECT_EQ(*(*(*r)["z"])[0]->get<std::string_view>(), want) << json;
          }
          const error v = ps.validate(json);
          EXPECT_EQ(v.code, r.code()) << json;
          if (fails) {
            EXPECT_EQ(v.offset, r.error().offset) << json;
          }
          std::string buf = json + std::string(in_place_padding, ' ');
          const auto ip = ps.parse_in_place(buf.data(), json.size(), buf.size());
          ASSERT_EQ(ip.code(), r.code()) << json;
          if (fails) {
            EXPECT_EQ(ip.error().offset, 6 + pos) << json;
          } else {
            EXPECT_EQ(*(*ip)["k"]->get<std::string_view>(), want) << json;
            EXPECT_EQ(*(*(*ip)["o"])["a"]->get<std::string_view>(), want) << json;
          }
        }
      }
    }
  }
}

// The value at key (or the first element of the array there) of two documents: same type and
// value.
void expect_same_value(const value& a, const value& b, const char* key, const std::string& json) {
  const value x = *a[key], y = *b[key];
  const value vx = x.is_array() ? *x[0] : x, vy = y.is_array() ? *y[0] : y;
  ASSERT_EQ(vx.type(), vy.type()) << json;
  if (vx.is_bool()) {
    EXPECT_EQ(*vx.get<bool>(), *vy.get<bool>()) << json;
  } else if (!vx.is_null()) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(*vx.get<double>()),
              std::bit_cast<std::uint64_t>(*vy.get<double>()))
        << json;
  }
}

// tok as a member's value at the top, nested, and as an array element, far from and right before
// the end of the input: the values, errors and offsets of the scalar path in parse, validate and
// parse_in_place. Returns the documents of the two tails (empty results where the parse failed).
std::vector<result<document>> expect_member_value_as_scalar(const parse_options& opt,
                                                            const std::string& tok) {
  std::vector<result<document>> docs;
  for (const std::size_t tail : {std::size_t{0}, std::size_t{70}}) {
    const std::string json = "{\"k\":" + tok + ",\"o\":{\"a\":" + tok + "},\"z\":[" + tok + "]}" +
                             std::string(tail, ' ');
    parse_options scalar_opt = opt;
    scalar_opt.isa = isa::scalar;
    const auto ref = parse(json, scalar_opt);
    auto r = parse(json, opt);
    EXPECT_EQ(r.code(), ref.code()) << json;
    if (r.ok() && ref.ok()) {
      for (const char* key : {"k", "z"}) expect_same_value(r->root(), ref->root(), key, json);
      expect_same_value(*r->root()["o"], *ref->root()["o"], "a", json);
    } else if (!r.ok() && !ref.ok()) {
      EXPECT_EQ(r.error().offset, ref.error().offset) << json;
    }
    parser ps(opt);
    const error v = ps.validate(json);
    EXPECT_EQ(v.code, ref.code()) << json;
    if (!ref.ok()) {
      EXPECT_EQ(v.offset, ref.error().offset) << json;
    }
    std::string buf = json + std::string(in_place_padding, ' ');
    const auto ip = ps.parse_in_place(buf.data(), json.size(), buf.size());
    EXPECT_EQ(ip.code(), ref.code()) << json;
    if (!ip.ok() && !ref.ok()) {
      EXPECT_EQ(ip.error().offset, ref.error().offset) << json;
    } else if (ip.ok() && ref.ok()) {
      EXPECT_EQ((*ip)["k"]->type(), ref->root()["k"]->type()) << json;
    }
    docs.push_back(std::move(r));
  }
  return docs;
}

// A member's small integer value is taken right after its key (stage 2 of the vector kernel
// sets), the general way otherwise: integers of 1 to 20 digits (the one-step read stops at 15),
// with a leading zero, followed by what ends them or continues them as another number or an error.
TEST_P(Parse, MemberIntegerValuesInEveryMode) {
  const char* const afters[] = {"", " ", "\n", ".5", "e2", "E+1", "x", "-", "\"\"", "]", ":", "0"};
  for (int digits = 1; digits <= 20; ++digits) {
    for (const char lead : {'1', '0', '9'}) {
      std::string num(static_cast<std::size_t>(digits), '0');
      num[0] = lead;
      for (int i = 1; i < digits; ++i) num[i] = static_cast<char>('0' + (i * 7 + digits) % 10);
      for (const char* after : afters) {
        const bool plain = *after == 0 || *after == ' ' || *after == '\n';
        for (const auto& r : expect_member_value_as_scalar(opt, num + after)) {
          if (!plain || (lead == '0' && digits > 1)) continue;
          ASSERT_TRUE(r.ok()) << num << ": " << r.error().to_string();
          if (digits <= 18) {
            EXPECT_EQ(*r->root()["k"]->get<std::int64_t>(), std::stoll(num)) << num;
            EXPECT_EQ(*(*r->root()["o"])["a"]->get<std::int64_t>(), std::stoll(num)) << num;
          }
        }
      }
    }
  }
}

// Likewise true, false and null (one compare of their bytes), and words that only start like
// them, followed by what ends a token or continues it.
TEST_P(Parse, MemberLiteralValuesInEveryMode) {
  const char* const words[] = {"true", "false", "null",  "tru",  "fals", "nul", "t",   "f",
                               "n",    "truE",  "fAlse", "nulL", "g",    "s",   "NaN", "Infinity"};
  const char* const afters[] = {"", " ", "\n", "e", "x", "0", "-", "\"\"", ":", "]", "true"};
  for (const bool nan_inf : {false, true}) {
    opt.allow_nan_inf = nan_inf;
    for (const char* word : words) {
      for (const char* after : afters) {
        const std::string w = word;
        const bool plain = *after == 0 || *after == ' ' || *after == '\n';
        const bool literal = w == "true" || w == "false" || w == "null";
        for (const auto& r : expect_member_value_as_scalar(opt, w + after)) {
          if (!plain || !literal) continue;
          ASSERT_TRUE(r.ok()) << w << ": " << r.error().to_string();
          const value k = *r->root()["k"];
          EXPECT_EQ(k.is_null(), w == "null") << w;
          if (w != "null") {
            EXPECT_EQ(*k.get<bool>(), w == "true") << w;
          }
        }
      }
    }
  }
}

TEST_P(Parse, Utf8Validation) {
  EXPECT_TRUE(p("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"").ok());
  const char* bad[] = {"\"\xc0\xaf\"",          // overlong
                       "\"\xe0\x80\xaf\"",      // overlong 3
                       "\"\xf0\x80\x80\xaf\"",  // overlong 4
                       "\"\xed\xa0\x80\"",      // surrogate
                       "\"\xf4\x90\x80\x80\"",  // > U+10FFFF
                       "\"\xf5\x80\x80\x80\"", "\"\xff\"",    "\"\x80\"", "\"\xc3\"",
                       "\"\xe2\x82\"",         "\"\xc3\x28\""};
  for (const char* b : bad) EXPECT_EQ(code(b), error_code::invalid_utf8) << b;
  opt.allow_invalid_utf8 = true;
  EXPECT_EQ(*p("\"\xff\xfe\"")->root().get<std::string_view>(), "\xff\xfe");
  // Multi-byte sequences across a 64-byte block boundary.
  for (std::size_t pad = 55; pad < 66; ++pad) {
    std::string s = "\"";
    s.append(pad, 'a');
    s += "\xf0\x9f\x98\x80\xe2\x82\xac\"";
    EXPECT_TRUE(parse(s, parse_options{.isa = GetParam()}).ok()) << pad;
    std::string t = "\"";
    t.append(pad, 'a');
    t += "\xf0\x9f\x98\"";
    EXPECT_EQ(parse(t, parse_options{.isa = GetParam()}).code(), error_code::invalid_utf8) << pad;
  }
}

// Stage 1 skips the UTF-8 check on ASCII blocks after an ASCII block and tests control
// characters and UTF-8 behind one branch: an error at every position of the first three
// 64-byte blocks, after non-ASCII text, after an ASCII run, next to a control character.
TEST_P(Parse, Utf8ErrorAtEveryPosition) {
  const char* bad[] = {"\xff", "\x80", "\xc3(", "\xe2\x82(", "\xf0\x9f\x98("};
  const char* leads[] = {"", "\xc3\xa9", "\xe2\x82\xac\xf0\x9f\x98\x80"};  // before the filler
  for (const char* lead : leads) {
    for (std::size_t at = std::string_view(lead).size() + 1; at < 192; ++at) {
      for (const char* b : bad) {
        std::string s = "\"";
        s += lead;
        s.resize(at, 'a');
        s += b;
        s.append(200, 'z');
        s += "\"";
        auto r = p(s);
        ASSERT_EQ(r.code(), error_code::invalid_utf8) << at << " " << ::testing::PrintToString(s);
        ASSERT_EQ(r.error().offset, at) << ::testing::PrintToString(s);
        // A control character in the same or a later block: the earlier error is reported.
        for (std::size_t ctl : {at - 1, at + std::string_view(b).size(), at + 70}) {
          if (ctl <= std::string_view(lead).size()) continue;
          std::string c = s;
          c[ctl] = '\x01';
          auto q = p(c);
          ASSERT_EQ(q.code(), ctl < at ? error_code::control_character : error_code::invalid_utf8)
              << at << " " << ctl;
          ASSERT_EQ(q.error().offset, std::min(ctl, at)) << at << " " << ctl;
        }
      }
      // Valid sequences at the same position: accepted, the string kept.
      std::string v = "\"";
      v += lead;
      v.resize(at, 'a');
      v += "\xf0\x9f\x98\x80\xe2\x82\xac";
      v.append(200, 'z');
      v += "\"";
      auto r = p(v);
      ASSERT_TRUE(r.ok()) << at;
      EXPECT_EQ(*r->root().get<std::string_view>(), v.substr(1, v.size() - 2));
    }
  }
}

// The AVX2 set finds control characters and non-ASCII bytes with one compare and takes the
// non-ASCII bytes out only in blocks that have some: a control character at every offset (but a
// continuation byte's) of strings full of non-ASCII text (valid, or invalid with
// allow_invalid_utf8) is reported there, and the text without it is accepted, its non-ASCII
// bytes never taken for control characters (bytes 0x80-0xff, 0x7f and the space beside them).
TEST_P(Parse, ControlCharacterAmongNonAscii) {
  const std::string text = "\xc3\xa9\x7f \xe2\x82\xac\xf0\x9f\x98\x80\xc2\x80\xef\xbf\xbf\xdf\xbf";
  const std::string junk = "\xff\x80\xfe \xc3\x7f\xf8";
  for (const std::string& fill : {text, junk}) {
    opt.allow_invalid_utf8 = fill == junk;
    std::string body;
    while (body.size() < 200) body += fill;
    std::string ok = "[\"" + body + "\",\"" + body + "\"]";
    auto r = p(ok);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_EQ(*r->root()[1].get<std::string_view>(), body);
    for (std::size_t at = 2; at < ok.size() - 2; ++at) {
      if (ok[at] == '"' || ok[at] == ',') continue;
      // (In valid text, not a continuation byte: its sequence would be the earlier error.)
      const auto byte = static_cast<unsigned char>(ok[at]);
      if (!opt.allow_invalid_utf8 && byte >= 0x80 && byte < 0xc0) continue;
      for (char c : {'\x01', '\x1f', '\n', '\t'}) {
        std::string s = ok;
        s[at] = c;
        auto e = p(s);
        ASSERT_EQ(e.code(), error_code::control_character) << at;
        EXPECT_EQ(e.error().offset, at);
      }
    }
  }
}

// The vector UTF-8 check's error is tested at a control character and at the end of the input,
// not after each block: an invalid sequence many blocks before a later error of any kind (a
// second invalid sequence, a control character, a grammar error, an unterminated string, a cut
// sequence at the end) is still the error reported, at its own offset.
TEST_P(Parse, Utf8ErrorBeforeLaterErrors) {
  const char* later[] = {"\"\xc3(\"]", "\"a\x01\"]", "]]", "\"abc", "\"\xe2\x82"};
  for (std::size_t at : {2u, 63u, 64u, 130u}) {
    for (const char* bad : {"\xff", "\xc3(", "\xe2\x82\xac\x80"}) {
      std::string head = "[\"";
      head.resize(at, 'a');
      head += bad;
      head += "\"";
      for (const char* tail : later) {
        std::string s = head;
        for (int k = 0; k < 40; ++k) s += ",\"caf\xc3\xa9 \xe2\x82\xac plain text\"";
        s += ",";
        s += tail;
        auto r = p(s);
        ASSERT_EQ(r.code(), error_code::invalid_utf8) << at << " " << ::testing::PrintToString(s);
        const std::size_t want = std::string_view(bad) == "\xe2\x82\xac\x80" ? at + 3 : at;
        EXPECT_EQ(r.error().offset, want) << at << " " << ::testing::PrintToString(s);
      }
    }
  }
}

TEST_P(Parse, Structure) {
  EXPECT_EQ(code(""), error_code::empty_document);
  EXPECT_EQ(code("  \n "), error_code::empty_document);
  EXPECT_EQ(code("[1,2"), error_code::unexpected_end);
  EXPECT_EQ(code("[1,]"), error_code::unexpected_character);
  EXPECT_EQ(code("{\"a\":1,}"), error_code::unexpected_character);
  EXPECT_EQ(code("{\"a\" 1}"), error_code::unexpected_character);
  EXPECT_EQ(code("{1:1}"), error_code::unexpected_character);
  EXPECT_EQ(code("[1}"), error_code::unexpected_character);
  EXPECT_EQ(code("[1] 2"), error_code::trailing_content);
  EXPECT_EQ(code("{} x"), error_code::trailing_content);
  EXPECT_EQ(code("[\"a\"\"b\"]"), error_code::unexpected_character);
  EXPECT_EQ(code("\xef\xbb\xbf[]"), error_code::unexpected_character);
  EXPECT_EQ(code("[\x01]"), error_code::unexpected_character);
}

TEST_P(Parse, ErrorPositions) {
  auto r = p("{\n  \"a\": [1, 2,\n        x]\n}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.code(), error_code::unexpected_character);
  EXPECT_EQ(r.error().line, 3u);
  EXPECT_EQ(r.error().column, 9u);
  EXPECT_EQ(r.error().offset, 24u);
  EXPECT_EQ(r.error().to_string(), "3:9: unexpected character");
  auto u = p("[\"ok\",\n\"\xff\"]");
  EXPECT_EQ(u.code(), error_code::invalid_utf8);
  EXPECT_EQ(u.error().line, 2u);
  EXPECT_EQ(u.error().column, 2u);
}

TEST_P(Parse, Depth) {
  std::string deep(1024, '[');
  deep += std::string(1024, ']');
  EXPECT_TRUE(p(deep).ok());
  std::string deeper(1025, '[');
  deeper += std::string(1025, ']');
  EXPECT_EQ(code(deeper), error_code::depth_exceeded);
  opt.max_depth = 4;
  EXPECT_TRUE(p("[[[{}]]]").ok());
  EXPECT_EQ(code("[[[[{}]]]]"), error_code::depth_exceeded);
  opt.max_depth = 100000;
  std::string very(50000, '[');
  very += std::string(50000, ']');
  EXPECT_TRUE(p(very).ok());
  EXPECT_EQ(code(std::string(60000, '[')), error_code::unexpected_end);
}

TEST_P(Parse, Options) {
  opt.allow_comments = true;
  auto c = p("// lead\n[1, /* two */ 2 /* \n */, \"//not\" ] // end");
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_EQ(c->root().size(), 3u);
  EXPECT_EQ(*c->root().at(2)->get<std::string_view>(), "//not");
  EXPECT_EQ(code("[1 /* open"), error_code::unterminated_comment);
  // A comment's text is part of the document: valid UTF-8 unless allow_invalid_utf8.
  EXPECT_TRUE(p("// caf\xc3\xa9 \xf0\x9f\x98\x80\n[1 /* \xe2\x82\xac */]").ok());
  {
    auto bad = p("[1] /* ok \xff */");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, error_code::invalid_utf8);
    EXPECT_EQ(bad.error().offset, 10u);
  }
  EXPECT_EQ(code("[1] // \xed\xa0\x80"), error_code::invalid_utf8);  // a surrogate
  EXPECT_EQ(code("[1] /* \xc3 */"), error_code::invalid_utf8);       // cut short
  EXPECT_EQ(code("[1] /* \xe2\x82"), error_code::invalid_utf8);      // cut by the end
  opt.allow_invalid_utf8 = true;
  EXPECT_TRUE(p("[1] /* \xff */ // \xc0\xaf").ok());
  opt.allow_invalid_utf8 = false;
  opt.allow_comments = false;
  EXPECT_FALSE(p("[1] // x").ok());

  opt.allow_trailing_commas = true;
  EXPECT_EQ(p("[1,2,]")->root().size(), 2u);
  EXPECT_EQ(p("{\"a\":1,}")->root().size(), 1u);
  EXPECT_FALSE(p("[,]").ok());
  EXPECT_FALSE(p("[1,,]").ok());
  EXPECT_FALSE(p("{,}").ok());
  EXPECT_FALSE(p("{\"a\":1,,}").ok());
  EXPECT_FALSE(p("{\"a\":]").ok());
  EXPECT_FALSE(p("{\"a\":1,]").ok());
  EXPECT_FALSE(p("[1,}").ok());
  EXPECT_FALSE(p("]").ok());
  EXPECT_FALSE(p("1,]").ok());
  auto t = p("{\"a\":[1,[],[2,],{\"b\":{},},],\"c\":3,}");
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->root().size(), 2u);
  EXPECT_EQ(t->root().find("a")->size(), 4u);
  EXPECT_EQ(t->root().find("a")->at(2)->size(), 1u);
  EXPECT_EQ(*t->root().find("c")->get<std::int64_t>(), 3);
  opt.allow_trailing_commas = false;

  opt.allow_nan_inf = true;
  auto n = p("[NaN, Infinity, -Infinity, 1]");
  ASSERT_TRUE(n.ok()) << n.error().to_string();
  EXPECT_TRUE(std::isnan(*n->root().at(0)->get<double>()));
  EXPECT_EQ(*n->root().at(1)->get<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(*n->root().at(2)->get<double>(), -std::numeric_limits<double>::infinity());
  opt.allow_nan_inf = false;

  opt.allow_bom = true;
  auto b = p("\xef\xbb\xbf{\"a\":\nx}");
  EXPECT_EQ(b.error().offset, 9u);  // offsets count the BOM
  EXPECT_TRUE(p("\xef\xbb\xbf[]").ok());
  opt.allow_bom = false;

  opt.stop_after_first = true;
  parser ps(opt);
  const std::string two = "{\"a\":1} [2] 3 \"unterminated";
  auto first = ps.parse(two);
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  EXPECT_EQ(ps.consumed(), 7u);
  auto second = ps.parse(two.substr(8));
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(ps.consumed(), 3u);
  auto third = ps.parse(two.substr(12));
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(*third->get<std::int64_t>(), 3);
  EXPECT_EQ(ps.consumed(), 1u);
  EXPECT_FALSE(ps.parse(two.substr(14)).ok());
}

TEST_P(Parse, LargeStringsAndDocuments) {
  // A 1 MiB string with escapes scattered through it.
  std::string body;
  for (int i = 0; i < 100000; ++i) body += (i % 1000 == 0) ? "\\n\\u00e9" : "abcdefghij";
  auto r = p("[\"" + body + "\"]");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const std::string_view s = *r->root().at(0)->get<std::string_view>();
  EXPECT_EQ(s.size(), 99900u * 10 + 100u * 3);
  EXPECT_EQ(s.substr(0, 4),
            "\n\xc3\xa9"
            "a");
  // Many values.
  std::string arr = "[";
  for (int i = 0; i < 200000; ++i) arr += std::to_string(i) + ",";
  arr.back() = ']';
  auto a = p(arr);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->root().size(), 200000u);
  EXPECT_EQ(*a->root().at(199999)->get<std::int64_t>(), 199999);
}

TEST_P(Parse, ReusedParserKeepsItsBuffers) {
  parser ps(opt);
  const std::string doc = R"({"a":[1,2,3,"xyz",{"b":null}],"c":"\u00e9"})";
  ASSERT_TRUE(ps.parse(doc).ok());
  const detail::node* nodes = ps.doc().root().node_ptr();
  for (int i = 0; i < 10; ++i) {
    auto r = ps.parse(doc);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->node_ptr(), nodes);  // same storage: nothing reallocated
  }
  EXPECT_EQ(ps.last_isa(), GetParam());
}

// Inputs of every length up to a few blocks, ending at every position (no padding needed).
TEST_P(Parse, EveryLengthNoPadding) {
  std::string base = R"([1,"two",{"three":3.5e1,"four":[true,false,null]},"\u00e9\n",-7])";
  for (std::size_t ws = 0; ws < 140; ++ws) {
    const std::string text = std::string(ws, ' ') + base;
    std::string copy = text;  // exact-size heap buffer: ASan catches reads past the end
    auto* heap = new char[copy.size()];
    std::copy(copy.begin(), copy.end(), heap);
    parser ps(opt);
    auto r = ps.parse(heap, copy.size());
    EXPECT_TRUE(r.ok()) << ws;
    auto num = ps.parse(heap + copy.size() - 3, 2);  // "-7"
    EXPECT_TRUE(num.ok());
    EXPECT_EQ(*num->get<std::int64_t>(), -7);
    delete[] heap;
  }
}

// Stage 1 writes each 64-byte block's positions in steps: a block holding any number of them,
// 0 to 64, yields every one (the array's size) at its exact offset (the error after it).
TEST_P(Parse, EveryPositionCountInABlock) {
  for (std::size_t k = 0; k <= 64; ++k) {
    std::string block(64, ' ');
    for (std::size_t i = 0; i < k; ++i) block[i] = i % 2 == 0 ? '0' : ',';
    const bool comma_last = k > 0 && k % 2 == 0;
    const std::string head = "[" + std::string(63, ' ') + block;
    auto r = p(head + (comma_last ? "0]" : "]"));
    ASSERT_TRUE(r.ok()) << k << ": " << r.error().to_string();
    EXPECT_EQ(r->root().size(), (k + 1) / 2 + (comma_last ? 1 : 0)) << k;
    auto bad = p(head + (comma_last ? "0}" : "}"));
    ASSERT_FALSE(bad.ok()) << k;
    EXPECT_EQ(bad.error().code, error_code::unexpected_character) << k;
    EXPECT_EQ(bad.error().offset, comma_last ? 129u : 128u) << k;
  }
}

// Stage 2 runs past the last position onto sentinel positions: every prefix of a document, and
// documents made only of brackets and commas (no byte the sentinel can point at), must end in
// the error the grammar state calls for. Exact-size heap copies let ASan see any over-read.
TEST_P(Parse, TruncatedAtEveryByte) {
  const std::string doc =
      R"({"a":[1,-2.5e3,"x\"y",true,null,{"b":{}},[[]]],"long string over sixteen bytes":)"
      R"("\u00e9 and more text",  "k" : [ 123456789012345678 , false ] , "z":"")"
      "}\n";
  for (std::size_t n = 1; n <= doc.size(); ++n) {
    auto* heap = new char[n];
    std::copy(doc.begin(), doc.begin() + static_cast<std::ptrdiff_t>(n), heap);
    parser ps(opt);
    const auto r = ps.parse(heap, n);
    if (n >= doc.size() - 1) {
      EXPECT_TRUE(r.ok()) << n;
    } else {
      EXPECT_FALSE(r.ok()) << n;
      const error_code c = r.code();
      EXPECT_TRUE(c == error_code::unexpected_end || c == error_code::unterminated_string ||
                  c == error_code::invalid_literal || c == error_code::invalid_escape ||
                  c == error_code::invalid_number)
          << n << " " << static_cast<int>(c);
    }
    delete[] heap;
  }
  for (const char* text : {"[", "[[", "{", "[[],", "[[],[]", "[{},{", "{[", "[{"}) {
    const std::string t(text);
    auto* heap = new char[t.size()];
    std::copy(t.begin(), t.end(), heap);
    parser ps(opt);
    const auto r = ps.parse(heap, t.size());
    const bool end = t != "{[";
    EXPECT_EQ(r.code(), end ? error_code::unexpected_end : error_code::unexpected_character) << t;
    delete[] heap;
  }
  EXPECT_EQ(code("{\"a\""), error_code::unexpected_end);
  EXPECT_EQ(code("{\"a\":"), error_code::unexpected_end);
  EXPECT_EQ(code("{\"a\":1,"), error_code::unexpected_end);
  EXPECT_EQ(code("[1,2]]"), error_code::trailing_content);
  EXPECT_EQ(code("[[]],"), error_code::trailing_content);
  EXPECT_TRUE(p("[[],[{}]]").ok());
  EXPECT_TRUE(p("{}").ok());
}

INSTANTIATE_TEST_SUITE_P(Isa, Parse, ::testing::ValuesIn(keel::all_isas),
                         keel::json::test::isa_test_name);

TEST(ParseIsa, ForcedUnavailableOrAutomatic) {
  parse_options o;
  EXPECT_TRUE(parse("[]", o).ok());
  for (isa k : keel::all_isas) {
    o.isa = k;
    EXPECT_EQ(parse("[]", o).ok(), isa_supported(k));
    if (!isa_supported(k)) {
      EXPECT_EQ(parse("[]", o).code(), error_code::isa_unavailable);
    }
  }
  EXPECT_TRUE(isa_supported(default_isa()));
}

}  // namespace

namespace {

// The kernel sets this CPU has besides the scalar one.
std::vector<isa> supported_vector_isas() {
  std::vector<isa> v;
  for (isa k : keel::all_isas) {
    if (k != isa::scalar && isa_supported(k)) v.push_back(k);
  }
  return v;
}

// The vector UTF-8 check (AVX2, AVX-512, NEON) and the scalar one agree on the verdict and the
// offset.
TEST(Utf8Kernels, AgreeWithScalar) {
  const std::vector<isa> vector_isas = supported_vector_isas();
  if (vector_isas.empty()) GTEST_SKIP();
  auto check = [&](const std::string& text) {
    const auto ref = parse(text, parse_options{.isa = isa::scalar});
    for (isa k : vector_isas) {
      const auto r = parse(text, parse_options{.isa = k});
      ASSERT_EQ(r.code(), ref.code()) << isa_name(k) << " " << ::testing::PrintToString(text);
      ASSERT_EQ(r.error().offset, ref.error().offset)
          << isa_name(k) << " " << ::testing::PrintToString(text);
    }
  };
  // Every two-byte pair after a lead-in that puts it at each position around a block boundary.
  for (int a = 0x80; a < 0x100; ++a) {
    for (int b = 0; b < 0x100; b += (b < 0x80 ? 0x1f : 1)) {
      std::string t = "\"";
      t.append(static_cast<std::size_t>(60 + (a + b) % 6), 'x');
      t += static_cast<char>(a);
      t += static_cast<char>(b);
      t += "\"";
      check(t);
    }
  }
  // Random mixtures of interesting bytes and whole sequences.
  static const char* pieces[] = {"a",
                                 "\x80",
                                 "\x8f",
                                 "\x90",
                                 "\x9f",
                                 "\xa0",
                                 "\xbf",
                                 "\xc0",
                                 "\xc1",
                                 "\xc2",
                                 "\xdf",
                                 "\xe0",
                                 "\xe1",
                                 "\xed",
                                 "\xef",
                                 "\xf0",
                                 "\xf1",
                                 "\xf4",
                                 "\xf5",
                                 "\xff",
                                 "\xc3\xa9",
                                 "\xe2\x82\xac",
                                 "\xf0\x9f\x98\x80",
                                 "\xed\x9f\xbf",
                                 "\xf4\x8f\xbf\xbf"};
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string t = "[\"";
    t.append(rng() % 70, 'y');
    const int n = static_cast<int>(rng() % 8);
    for (int k = 0; k < n; ++k) t += pieces[rng() % std::size(pieces)];
    t += rng() % 2 ? "\"]" : "";
    check(t);
  }
}

// The scalar set's one pass reads a copy of the text in the string area, ended by a quote and
// zeros, leaves strings without escapes there (a NUL over the closing quote), and decodes those
// with escapes in place, restoring the copy after them. Every edge of that agrees with the two
// passes of the vector sets: value or error and its offset, consumed(), in every mode.
TEST(ScalarOnePass, AgreesWithTwoPassesAtEdges) {
  const std::vector<isa> others = supported_vector_isas();
  if (others.empty()) GTEST_SKIP();
  std::vector<std::string> texts = {
      R"("a\nb",1)",
      R"(["a\nb",1])",
      R"(["\u00e9x","y"])",
      R"({"k\"":"v\\","k2":[true,"\ud83d\ude00z"]})",
      R"(["x\ty"   ,   "z"])",
      R"("abc")",
      R"("abc)",
      R"(["abc)",
      R"(["ab\)",
      R"(["ab\")",
      R"(["ab\u12)",
      R"(["ab\q",1])",
      R"(["ab\q)",
      R"({"a")",
      R"({"a":)",
      R"({"a" )",
      R"([1,)",
      R"([1)",
      R"(tru)",
      R"(true)",
      R"(-)",
      R"(123)",
      R"(12345678901234567890123)",
      R"([-12345678901234567890123,1])",
      R"([1e400])",
      R"("x" "y")",
      R"({"a":1}   {"b":2})",
      "[\"a\x01b\"]",
      "[\"a\xff\"]",
      "[\"\\n\xe2\x82\xac\xe2\x82\"]",
      "",
      "   ",
      "[\"\"]",
      "\"",
  };
  // As many nodes as a text of its length can make, valid or not (the node area has no check
  // per value): containers left open at every depth up to max_depth, then short values.
  for (const std::size_t depth : {1u, 2u, 3u, 700u, 1023u, 1024u}) {
    std::string many;
    for (int i = 0; i < 3000; ++i) many += i % 3 == 0 ? "1," : i % 3 == 1 ? "\"\"," : "[],";
    texts.push_back(std::string(depth, '['));  // a node a byte
    texts.push_back(std::string(depth, '[') + "1");
    texts.push_back(std::string(depth, '[') + many);
    texts.push_back(std::string(depth, '[') + many.substr(0, many.size() - 1));
    texts.push_back(std::string(depth, '[') + many.substr(0, many.size() - 1) +
                    std::string(depth, ']'));
    std::string keys;
    for (std::size_t i = 0; i < depth; ++i) keys += "{\"\":";
    texts.push_back(keys + "1");
    texts.push_back(keys + "[" + many);
  }
  // Escapes at every distance from the string's end and the text's end, with tails that the
  // 16-byte stores of the decoding reach.
  for (std::size_t before = 0; before < 20; ++before) {
    for (std::size_t after = 0; after < 20; ++after) {
      const std::string s = std::string(before, 'a') + "\\\"" + std::string(after, 'b');
      texts.push_back("[\"" + s + "\",\"" + s + "\",[1,2.5,null]]");
      texts.push_back("[\"" + s + "\",\"" + s + "\",[1,2.5,null,\"abcdefghijklmnopqrstuvwxyz\"]]");
      texts.push_back("{\"" + s + "\":\"" + s + "\"}");
      texts.push_back("\"" + s + "\"");
      texts.push_back("[\"" + s + "\"");
    }
  }
  for (const std::string& text : texts) {
    for (int o = 0; o < 4; ++o) {
      parse_options po;
      po.stop_after_first = o == 1;
      po.big_integers_as_raw = o == 2;
      po.allow_invalid_utf8 = o == 3;
      po.allow_nan_inf = o == 3;
      po.isa = isa::scalar;
      parser ps(po);
      const auto ref = ps.parse(text);
      const error ref_valid = validate(text, po);  // another parser: ref stays valid
      for (isa k : others) {
        const std::string at = isa_name(k) + std::string(" option ") + std::to_string(o) + " " +
                               ::testing::PrintToString(text);
        po.isa = k;
        parser pk(po);
        const auto r = pk.parse(text);
        ASSERT_EQ(r.ok(), ref.ok()) << at;
        EXPECT_EQ(validate(text, po), ref_valid) << at;
        if (!r.ok()) {
          EXPECT_EQ(r.code(), ref.code()) << at;
          EXPECT_EQ(r.error().offset, ref.error().offset) << at;
          continue;
        }
        EXPECT_TRUE(*r == *ref) << at;
        EXPECT_EQ(pk.consumed(), ps.consumed()) << at;
        // In place: the same values, or the same error.
        std::string buf = text;
        buf.append(in_place_padding, 'x');
        po.isa = isa::scalar;
        parser pi(po);
        const auto q = pi.parse_in_place(buf.data(), text.size(), buf.size());
        ASSERT_TRUE(q.ok()) << at;
        EXPECT_TRUE(*q == *ref) << at;
      }
    }
  }
}

// The one pass finds a string's end eight bytes at a time (the first quote, backslash, control
// character or, checking UTF-8, non-ASCII byte of a word): every byte value, and a pair of bytes
// where a stop's borrow reaches the next byte, at every position of a key's and a value's first
// words agrees with the two passes on value or error and its offset.
TEST(ScalarOnePass, EveryByteAtEveryPlaceOfAString) {
  const std::vector<isa> others = supported_vector_isas();
  if (others.empty()) GTEST_SKIP();
  std::vector<std::string> runs;
  for (std::size_t at = 0; at < 34; ++at) {
    for (int b = 0; b < 0x100; ++b) {
      runs.push_back(std::string(at, 'a') + static_cast<char>(b) + "bc");
    }
    for (const int b : {0x00, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0xc3}) {
      for (int c = 0; c < 0x100; c += 3) {
        runs.push_back(std::string(at, 'a') + static_cast<char>(b) + static_cast<char>(c) + "x");
      }
    }
  }
  for (const std::string& run : runs) {
    for (const std::string& text :
         {"{\"" + run + "\":\"" + run + "\",\"k\":[1]}", "[\"" + run + "\",\"z\"]"}) {
      for (const bool allow : {false, true}) {
        parse_options po;
        po.allow_invalid_utf8 = allow;
        po.isa = isa::scalar;
        parser ps(po);
        const auto ref = ps.parse(text);
        for (isa k : others) {
          po.isa = k;
          parser pk(po);
          const auto r = pk.parse(text);
          const std::string at = isa_name(k) +
                                 std::string(allow ? " invalid UTF-8 allowed " : " ") +
                                 ::testing::PrintToString(text);
          ASSERT_EQ(r.ok(), ref.ok()) << at;
          if (!r.ok()) {
            ASSERT_EQ(r.code(), ref.code()) << at;
            ASSERT_EQ(r.error().offset, ref.error().offset) << at;
          } else {
            ASSERT_TRUE(*r == *ref) << at;
          }
        }
      }
    }
  }
}

// Strings stay in the string area's copy of the text, each followed by a NUL; a string decoded
// in place leaves the text after it as it was.
TEST(ScalarOnePass, StringsNulTerminatedInTheCopy) {
  parse_options po;
  po.isa = isa::scalar;
  const std::string text = R"({"key":"va\"lue","n":[1,"x\u00e9y",{"z":"\\"}],"e":""})";
  auto d = parse(text, po);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  const value root = d->root();
  for (const char* ptr : {"/key", "/n/1", "/n/2/z", "/e"}) {
    const std::string_view s = *root.at_pointer(ptr)->get<std::string_view>();
    EXPECT_EQ(s.data()[s.size()], '\0') << ptr;
  }
  EXPECT_EQ(*root["key"]->get<std::string_view>(), "va\"lue");
  EXPECT_EQ(*root.at_pointer("/n/1")->get<std::string_view>(), "x\xc3\xa9y");
  EXPECT_EQ(*root.at_pointer("/n/2/z")->get<std::string_view>(), "\\");
  EXPECT_EQ(*root.at_pointer("/n/0")->get<std::int64_t>(), 1);
  EXPECT_EQ(d->string_bytes(), text.size());
}

}  // namespace
