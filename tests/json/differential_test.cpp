// SPDX-License-Identifier: MIT
// Differential tests against nlohmann-json (Debian) on generated documents: the same values,
// the same accept/reject decisions on mutated text (and the scalar set's error and offset), on
// every kernel set.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "keel/json.h"
#include "test_util.h"

namespace {

using namespace keel::json;
using nl = nlohmann::json;

class gen {
 public:
  explicit gen(std::uint64_t seed) : rng_(seed) {}

  nl value(int depth) {
    const int pick = static_cast<int>(rng_() % (depth > 5 ? 6 : 8));
    switch (pick) {
      case 0:
        return nullptr;
      case 1:
        return rng_() % 2 == 0;
      case 2:
        return static_cast<std::int64_t>(rng_()) >> (rng_() % 64);
      case 3:
        return rng_() | (1ULL << 63);
      case 4: {
        // Doubles of every magnitude that a double can print and read back.
        const double mant = static_cast<double>(rng_() % 10000000) / 997.0 + 0.5;
        return (rng_() % 2 ? -1 : 1) * mant * std::pow(10.0, static_cast<int>(rng_() % 400) - 200);
      }
      case 5:
        return string();
      case 6: {
        nl a = nl::array();
        for (int i = static_cast<int>(rng_() % 6); i > 0; --i) a.push_back(value(depth + 1));
        return a;
      }
      default: {
        nl o = nl::object();
        for (int i = static_cast<int>(rng_() % 6); i > 0; --i)
          o[string() + std::to_string(i)] = value(depth + 1);
        return o;
      }
    }
  }

  std::string string() {
    static const char* pieces[] = {"a",
                                   "xyz",
                                   " ",
                                   "\"",
                                   "\\",
                                   "/",
                                   "\n",
                                   "\t",
                                   "\x01",
                                   "\x1f",
                                   "\xc3\xa9",
                                   "\xe2\x82\xac",
                                   "\xf0\x9f\x98\x80",
                                   "\xef\xbf\xbf",
                                   "\xed\x9f\xbf",
                                   "0",
                                   "{",
                                   "]"};
    std::string s;
    for (int i = static_cast<int>(rng_() % 12); i > 0; --i) s += pieces[rng_() % std::size(pieces)];
    if (rng_() % 20 == 0) s += std::string(rng_() % 200, 'q');
    return s;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

// keel's DOM holds the same values as nlohmann's.
::testing::AssertionResult same(const value& k, const nl& n) {
  switch (k.type()) {
    case type::null:
      if (n.is_null()) return ::testing::AssertionSuccess();
      break;
    case type::boolean:
      if (n.is_boolean() && n.get<bool>() == *k.get<bool>()) return ::testing::AssertionSuccess();
      break;
    case type::int64:
      if ((n.is_number_integer() && !n.is_number_unsigned() &&
           n.get<std::int64_t>() == *k.get<std::int64_t>()) ||
          (n.is_number_unsigned() && *k.get<std::int64_t>() >= 0 &&
           n.get<std::uint64_t>() == static_cast<std::uint64_t>(*k.get<std::int64_t>())))
        return ::testing::AssertionSuccess();
      break;
    case type::uint64:
      if (n.is_number_unsigned() && n.get<std::uint64_t>() == *k.get<std::uint64_t>())
        return ::testing::AssertionSuccess();
      break;
    case type::double_:
      if (n.is_number_float() && n.get<double>() == *k.get<double>())
        return ::testing::AssertionSuccess();
      break;
    case type::string:
      if (n.is_string() && n.get<std::string>() == *k.get<std::string_view>())
        return ::testing::AssertionSuccess();
      break;
    case type::array: {
      if (!n.is_array() || n.size() != k.size()) break;
      std::size_t i = 0;
      for (const value e : k.elements()) {
        auto r = same(e, n[i++]);
        if (!r) return r;
      }
      return ::testing::AssertionSuccess();
    }
    case type::object: {
      if (!n.is_object() || n.size() != k.size()) break;
      for (const member m : k.members()) {
        auto it = n.find(std::string(m.key));
        if (it == n.end()) return ::testing::AssertionFailure() << "missing key " << m.key;
        auto r = same(m.value, *it);
        if (!r) return r;
      }
      return ::testing::AssertionSuccess();
    }
    default:
      break;
  }
  return ::testing::AssertionFailure() << "differs: nlohmann " << n.dump();
}

class Differential : public ::testing::TestWithParam<isa> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam())) GTEST_SKIP();
  }
};

TEST_P(Differential, GeneratedDocumentsSameValues) {
  gen g(1234);
  parser p;
  p.options().isa = GetParam();
  for (int i = 0; i < 1500; ++i) {
    const nl doc = g.value(0);
    const bool ascii = i % 2 == 0;
    const std::string text = i % 3 == 0 ? doc.dump(2, ' ', ascii) : doc.dump(-1, ' ', ascii);
    auto r = p.parse(text);
    ASSERT_TRUE(r.ok()) << text << "\n" << r.error().to_string();
    ASSERT_TRUE(same(*r, nl::parse(text))) << text;
    // And keel's own output reads the same in nlohmann.
    auto out = write(*r);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE(same(*r, nl::parse(*out))) << *out;
  }
}

TEST_P(Differential, MutatedDocumentsSameVerdict) {
  gen g(99);
  parser p, scalar;
  p.options().isa = GetParam();
  scalar.options().isa = isa::scalar;
  static const char kBytes[] = "{}[],:\"\\ \n0123456789-+.eEtrufalsn/u\x01\x80\xc3\xa9\xff";
  int rejected = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string text = g.value(0).dump(-1, ' ', i % 2 == 0);
    const int edits = 1 + static_cast<int>(g.rng()() % 3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = g.rng()() % text.size();
      const char c = kBytes[g.rng()() % (sizeof kBytes - 1)];
      switch (g.rng()() % 3) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          text.erase(at, 1);
          break;
      }
    }
    const bool theirs = nl::accept(text);
    auto r = p.parse(text);
    // Every kernel set gives the scalar one's verdict, error code and offset.
    auto s = scalar.parse(text);
    ASSERT_EQ(r.code(), s.code()) << text;
    if (!r.ok()) {
      ASSERT_EQ(r.error().offset, s.error().offset) << text;
    }
    if (r.ok() != theirs) {
      // nlohmann reads numbers beyond the double range as infinity; keel reports
      // number_out_of_range. Nothing else may differ.
      ASSERT_EQ(r.code(), error_code::number_out_of_range) << text;
      continue;
    }
    if (r.ok()) {
      ASSERT_TRUE(same(*r, nl::parse(text))) << text;
    }
    rejected += !r.ok();
  }
  EXPECT_GT(rejected, 1000);
}

// A plain ASCII start (64 bytes to past 4 KiB: a kernel set may choose its stage 1 by the first
// blocks) followed by a generated tail with control and non-ASCII bytes and mutations there, in
// strings and outside them: the scalar set's verdict, error code and offset, and the same values.
TEST_P(Differential, PlainStartThenMutatedTail) {
  gen g(4242);
  parser p, scalar;
  p.options().isa = GetParam();
  scalar.options().isa = isa::scalar;
  static const char kBytes[] =
      "{}[],:\"\\ \n0-.etu\x01\x1f\x7f\x80\xbf\xc3\xa9\xe2\xed\xf0\xf4\xff";
  int rejected = 0;
  for (int i = 0; i < 1500; ++i) {
    const std::size_t want = 64 + g.rng()() % 5000;
    std::string text = "[";
    while (text.size() < want) text += R"({"key":"plain text","n":12345,"f":[1.5,true,null]},)";
    const std::size_t tail = text.size();
    text += g.value(1).dump(-1, ' ', false);
    text += ']';
    const int edits = static_cast<int>(g.rng()() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = tail + g.rng()() % (text.size() - tail);
      const char c = kBytes[g.rng()() % (sizeof kBytes - 1)];
      if (g.rng()() % 2 == 0) {
        text[at] = c;
      } else {
        text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
      }
    }
    auto r = p.parse(text);
    auto s = scalar.parse(text);
    ASSERT_EQ(r.code(), s.code()) << text.substr(tail);
    if (!r.ok()) {
      ASSERT_EQ(r.error().offset, s.error().offset) << text.substr(tail);
      ++rejected;
    } else {
      ASSERT_EQ(write(*r).value(), write(*s).value()) << text.substr(tail);
    }
  }
  EXPECT_GT(rejected, 300);
}

// Strings dense in escapes (\uXXXX of every UTF-8 length in either case, surrogate pairs, every
// one-character escape) mixed with plain ASCII and UTF-8 bytes, long enough for the block decoders
// and at every offset from the end of the input: decoded as a reference decoder does, and with a
// bad escape put anywhere, the same error and offset as the scalar path.
class escape_gen {
 public:
  explicit escape_gen(std::uint64_t seed) : rng_(seed) {}

  // Appends one item to `text` (JSON source) and its decoded bytes to `want`.
  void item(std::string& text, std::string& want) {
    const auto hex4 = [&](unsigned u) {
      static const char* const digits[2] = {"0123456789abcdef", "0123456789ABCDEF"};
      const char* d = digits[rng_() % 2];
      text += "\\u";
      for (int sh = 12; sh >= 0; sh -= 4) text += d[(u >> sh) & 15];
    };
    const auto utf8 = [&](unsigned cp) { want += keel::json::test::utf8_of(cp); };
    switch (rng_() % 10) {
      case 0:
      case 1: {  // a pair, edges of the ranges included
        const unsigned cp = rng_() % 4 == 0 ? (rng_() % 2 ? 0x10000u : 0x10ffffu)
                                            : 0x10000u + static_cast<unsigned>(rng_() % 0x100000);
        hex4(0xd800 + ((cp - 0x10000) >> 10));
        hex4(0xdc00 + ((cp - 0x10000) & 0x3ff));
        utf8(cp);
        break;
      }
      case 2: {  // a one-character escape
        static const char from[] = "\"\\/bfnrt";
        static const char to[] = "\"\\/\b\f\n\r\t";
        const auto k = rng_() % 8;
        text += '\\';
        text += from[k];
        want += to[k];
        break;
      }
      case 3: {  // plain bytes
        const char c = static_cast<char>('a' + rng_() % 26);
        text += c;
        want += c;
        if (rng_() % 4 == 0) {
          text += "\xc3\xa9";
          want += "\xc3\xa9";
        }
        break;
      }
      default: {  // a BMP code point: 1, 2 or 3 UTF-8 bytes, boundaries included
        static const unsigned edges[] = {0, 1, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xffff};
        unsigned cp;
        switch (rng_() % 4) {
          case 0:
            cp = edges[rng_() % std::size(edges)];
            break;
          case 1:
            cp = static_cast<unsigned>(rng_() % 0x80);
            break;
          case 2:
            cp = 0x80 + static_cast<unsigned>(rng_() % 0x780);
            break;
          default:
            cp = 0x800 + static_cast<unsigned>(rng_() % 0xf7ff);
            if (cp >= 0xd800 && cp < 0xe000) cp += 0x800;
        }
        hex4(cp);
        utf8(cp);
      }
    }
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

TEST_P(Differential, EscapeRunsSameOnEveryPath) {
  escape_gen g(7);
  parser p;
  p.options().isa = GetParam();
  parser ref;
  ref.options().isa = isa::scalar;
  for (int i = 0; i < 3000; ++i) {
    // An array of strings, the last ones within a few bytes of the end of the input.
    std::string text = "[";
    std::vector<std::string> want;
    const int strings = 1 + static_cast<int>(g.rng()() % 4);
    for (int k = 0; k < strings; ++k) {
      if (k) text += ',';
      text += '"';
      std::string w;
      const int items = static_cast<int>(g.rng()() % 60);
      for (int j = 0; j < items; ++j) g.item(text, w);
      text += '"';
      want.push_back(std::move(w));
    }
    text += std::string(g.rng()() % 3, ' ');
    text += ']';
    auto r = p.parse(text);
    ASSERT_TRUE(r.ok()) << text << "\n" << r.error().to_string();
    ASSERT_EQ(r->size(), want.size());
    std::size_t k = 0;
    for (const value e : r->elements()) ASSERT_EQ(*e.get<std::string_view>(), want[k++]) << text;

    // One byte of it changed (in an escape most of the time): the verdict, error and offset of
    // the scalar path.
    for (int m = 0; m < 4; ++m) {
      std::string bad = text;
      std::size_t at = g.rng()() % bad.size();
      const auto bs = bad.find('\\', at);
      if (bs != std::string::npos && g.rng()() % 4 != 0) at = bs + 1 + g.rng()() % 11;
      if (at >= bad.size()) continue;
      static const char kBytes[] = "\\u\"gGxdDcC89aAbBfF0 /n";
      bad[at] = kBytes[g.rng()() % (sizeof kBytes - 1)];
      auto a = p.parse(bad);
      auto b = ref.parse(bad);
      ASSERT_EQ(a.ok(), b.ok()) << bad;
      if (!a.ok()) {
        ASSERT_EQ(a.error(), b.error()) << bad;
      } else {
        ASSERT_EQ(write(*a).value(), write(*b).value()) << bad;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Isa, Differential, ::testing::ValuesIn(keel::all_isas),
                         keel::json::test::isa_test_name);

}  // namespace
