// SPDX-License-Identifier: MIT
// JSONTestSuite test_transform: what keel::json does with each case, as documented in
// docs/json-transform.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "keel/json.h"
#include "test_util.h"

namespace {

using namespace keel::json;
using keel::json::test::corpus;
using keel::json::test::slurp;

std::string file(const char* name) {
  return slurp(corpus() / "JSONTestSuite" / "test_transform" / name);
}

// Parses the case (which must exist) and returns the document.
document parsed(const char* name, const parse_options& o = {}) {
  const std::string text = file(name);
  EXPECT_FALSE(text.empty()) << name;
  auto r = parse(text, o);
  EXPECT_TRUE(r.ok()) << name << ": " << r.error().to_string();
  return r.ok() ? std::move(*r) : document();
}

value first(const document& d) { return *d.root().at(0); }

std::string written(const document& d) { return *write(d.root()); }

TEST(Transform, Numbers) {
  {
    auto d = parsed("number_-9223372036854775808.json");
    EXPECT_EQ(*first(d).get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(written(d), "[-9223372036854775808]");
  }
  {
    auto d = parsed("number_-9223372036854775809.json");
    EXPECT_TRUE(first(d).is_double());
    EXPECT_EQ(*first(d).get<double>(), -9223372036854775809.0);
    EXPECT_EQ(written(d), "[-9223372036854776000.0]");
    parse_options raw;
    raw.big_integers_as_raw = true;
    auto r = parsed("number_-9223372036854775809.json", raw);
    EXPECT_TRUE(first(r).is_raw_number());
    EXPECT_EQ(first(r).raw_string(), "-9223372036854775809");
    EXPECT_EQ(written(r), "[-9223372036854775809]");
  }
  {
    auto d = parsed("number_1.0.json");
    EXPECT_TRUE(first(d).is_double());
    EXPECT_EQ(written(d), "[1.0]");
  }
  {
    auto d = parsed("number_1.000000000000000005.json");
    EXPECT_EQ(*first(d).get<double>(), 1.0);
    EXPECT_EQ(written(d), "[1.0]");
  }
  {
    auto d = parsed("number_1000000000000000.json");
    EXPECT_EQ(*first(d).get<std::int64_t>(), 1000000000000000);
    EXPECT_EQ(written(d), "[1000000000000000]");
  }
  {
    auto d = parsed("number_10000000000000000999.json");
    EXPECT_TRUE(first(d).is_uint64());
    EXPECT_EQ(*first(d).get<std::uint64_t>(), 10000000000000000999ULL);
    EXPECT_FALSE(first(d).get<std::int64_t>().ok());
    EXPECT_EQ(written(d), "[10000000000000000999]");
  }
  {
    auto d = parsed("number_1e-999.json");
    EXPECT_EQ(*first(d).get<double>(), 0.0);
    EXPECT_EQ(written(d), "[0.0]");
  }
  {
    auto d = parsed("number_1e6.json");
    EXPECT_EQ(*first(d).get<double>(), 1e6);
    EXPECT_EQ(written(d), "[1000000.0]");
  }
  {
    auto d = parsed("number_9223372036854775807.json");
    EXPECT_EQ(*first(d).get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
  }
  {
    auto d = parsed("number_9223372036854775808.json");
    EXPECT_TRUE(first(d).is_uint64());
    EXPECT_EQ(*first(d).get<std::uint64_t>(), 9223372036854775808ULL);
    EXPECT_EQ(written(d), "[9223372036854775808]");
  }
}

TEST(Transform, Keys) {
  // Keys are compared byte for byte: NFC and NFD forms are different keys, kept in order.
  for (const char* name : {"object_key_nfc_nfd.json", "object_key_nfd_nfc.json"}) {
    auto d = parsed(name);
    EXPECT_EQ(d.root().size(), 2u);
    EXPECT_EQ(*d.root().find("\xc3\xa9")->get<std::string_view>(), "NFC");
    EXPECT_EQ(*d.root().find("e\xcc\x81")->get<std::string_view>(), "NFD");
    EXPECT_EQ(written(d), file(name).substr(0, written(d).size()));
  }
  // Duplicate keys are all kept, in document order; find() returns the first.
  {
    auto d = parsed("object_same_key_different_values.json");
    EXPECT_EQ(d.root().size(), 2u);
    EXPECT_EQ(*d.root().find("a")->get<std::int64_t>(), 1);
    EXPECT_EQ(written(d), "{\"a\":1,\"a\":2}");
  }
  {
    auto d = parsed("object_same_key_same_value.json");
    EXPECT_EQ(written(d), "{\"a\":1,\"a\":1}");
  }
  {
    // -0 is an integer: it reads as int64 0 and is written as 0.
    auto d = parsed("object_same_key_unclear_values.json");
    EXPECT_EQ(written(d), "{\"a\":0,\"a\":0}");
  }
}

TEST(Transform, Strings) {
  // Lone surrogates in \u escapes are rejected.
  for (const char* name :
       {"string_1_escaped_invalid_codepoint.json", "string_2_escaped_invalid_codepoints.json",
        "string_3_escaped_invalid_codepoints.json"}) {
    auto r = parse(file(name));
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.code(), error_code::invalid_surrogate) << name;
  }
  // Raw UTF-8-encoded surrogates are invalid UTF-8: rejected, or kept as is on request.
  for (const char* name : {"string_1_invalid_codepoint.json", "string_2_invalid_codepoints.json",
                           "string_3_invalid_codepoints.json"}) {
    auto r = parse(file(name));
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.code(), error_code::invalid_utf8) << name;
    EXPECT_EQ(r.error().offset, 2u) << name;
    parse_options keep;
    keep.allow_invalid_utf8 = true;
    auto d = parsed(name, keep);
    EXPECT_EQ(written(d), file(name)) << name;
    // Escaping non-ASCII needs valid UTF-8: the writer reports it.
    write_options esc;
    esc.escape_unicode = true;
    EXPECT_EQ(write(d.root(), esc).code(), error_code::invalid_utf8);
  }
  {
    auto d = parsed("string_with_escaped_NULL.json");
    EXPECT_EQ(*first(d).get<std::string_view>(), std::string_view("A\0B", 3));
    EXPECT_EQ(written(d), "[\"A\\u0000B\"]");
  }
}

}  // namespace
