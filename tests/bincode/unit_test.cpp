// SPDX-License-Identifier: MIT
// Unit tests: the examples of bincode's own spec (2.0.1 docs/spec.md), the type mapping, and the
// error cases (truncation at every position, forged lengths, bad tags, limits, trailing bytes).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <sstream>

#include "keel/bincode.h"

namespace kb = keel::bincode;
using bytes = std::vector<std::uint8_t>;

namespace {

template <class T>
bytes enc(const T& v, const kb::config& c) {
  auto r = kb::encode_to_vector(v, c);
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return r.ok() ? *r : bytes{};
}

template <class T>
void round_trip(const T& v, const kb::config& c) {
  const bytes b = enc(v, c);
  EXPECT_EQ(kb::encoded_size(v, c), b.size());
  auto d = kb::decode<T>(b, c);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(*d, v);
}

const kb::config all_configs[] = {kb::v1_serialize(),
                                  kb::v1_options(),
                                  kb::standard(),
                                  kb::legacy(),
                                  kb::standard().with_big_endian(),
                                  kb::legacy().with_big_endian(),
                                  kb::v1_options().with_big_endian(),
                                  kb::v1_serialize().with_big_endian()};

struct some_struct_a {};
struct foo {
  std::uint8_t first, second;
  bool operator==(const foo&) const = default;
};
// The spec's enum SomeEnum { A, B(u32), C { value: u32 } }.
struct variant_c {
  std::uint32_t value;
  bool operator==(const variant_c&) const = default;
};
using some_enum = std::variant<std::monostate, std::tuple<std::uint32_t>, variant_c>;

enum class side : std::uint8_t { buy, sell };
KEEL_BINCODE_ENUM(side, 2)

struct trade {
  std::uint64_t id;
  std::string symbol;
  std::vector<double> fills;
  std::optional<std::int32_t> venue;
  side s;
  bool operator==(const trade&) const = default;
};
KEEL_BINCODE_FIELDS(trade, id, symbol, fills, venue, s)

struct nested {  // aggregate reflection
  std::int16_t a;
  std::string b;
  std::optional<std::vector<std::uint32_t>> c;
  std::map<std::string, std::int64_t> d;
  std::pair<char32_t, bool> e;
  bool operator==(const nested&) const = default;
};

}  // namespace

// ---- bincode's spec examples ------------------------------------------------------------

TEST(BincodeSpec, TupleLegacy) {
  auto t = std::make_tuple(std::uint32_t{0}, std::int32_t{2147483647});
  EXPECT_EQ(enc(t, kb::legacy()), (bytes{0, 0, 0, 0, 255, 255, 255, 127}));
}

TEST(BincodeSpec, EnumLegacy) {
  EXPECT_EQ(enc(some_enum{std::monostate{}}, kb::legacy()), (bytes{0, 0, 0, 0}));
  EXPECT_EQ(enc(some_enum{std::tuple<std::uint32_t>{0}}, kb::legacy()),
            (bytes{1, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(enc(some_enum{variant_c{0}}, kb::legacy()), (bytes{2, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(BincodeSpec, OptionLegacy) {
  EXPECT_EQ(enc(std::optional<std::uint32_t>{123}, kb::legacy()), (bytes{1, 123, 0, 0, 0}));
  EXPECT_EQ(enc(std::optional<std::uint32_t>{}, kb::legacy()), (bytes{0}));
}

TEST(BincodeSpec, VecLegacy) {
  EXPECT_EQ(enc(std::vector<std::uint8_t>{0, 1, 2}, kb::legacy()),
            (bytes{3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2}));
}

TEST(BincodeSpec, StringLegacy) {
  EXPECT_EQ(enc(std::string_view("Hello \xF0\x9F\x8C\x8D"), kb::legacy()),
            (bytes{10, 0, 0, 0, 0, 0, 0, 0, 'H', 'e', 'l', 'l', 'o', ' ', 0xF0, 0x9F, 0x8C, 0x8D}));
}

// Strings of every length around the inline copy's moves (1, 2, 4, 8 bytes, up to 16; memcpy
// above): the length, then exactly the bytes, nothing written past them.
TEST(BincodeSpec, StringsOfEveryShortLength) {
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string str;
    bytes want(1, static_cast<std::uint8_t>(n));
    for (std::size_t i = 0; i < n; ++i) {
      str.push_back(static_cast<char>('a' + i % 26));
      want.push_back(static_cast<std::uint8_t>('a' + i % 26));
    }
    EXPECT_EQ(enc(str, kb::standard()), want) << n;
    kb::buffer out(want.size() + 8, 0xEE);  // room after the value: must stay untouched
    ASSERT_TRUE(kb::encode(str, std::span<std::uint8_t>(out.data(), out.size())).ok());
    EXPECT_EQ(bytes(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(want.size())), want);
    EXPECT_EQ(bytes(out.begin() + static_cast<std::ptrdiff_t>(want.size()), out.end()),
              bytes(8, 0xEE))
        << n;
    auto back = kb::decode<std::string>(want);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, str);
  }
}

TEST(BincodeSpec, ArraysLegacy) {
  EXPECT_EQ(enc(std::array<std::uint8_t, 5>{10, 20, 30, 40, 50}, kb::legacy()),
            (bytes{10, 20, 30, 40, 50}));
  EXPECT_EQ(enc(std::array<foo, 2>{foo{10, 20}, foo{30, 40}}, kb::legacy()),
            (bytes{10, 20, 30, 40}));
}

TEST(BincodeSpec, ReadmeWorldStandard) {
  // World(vec![Entity { x: 0.0, y: 4.0 }, Entity { x: 10.0, y: 20.5 }]): 1 + 4 * 4 bytes.
  struct entity {
    float x, y;
  };
  std::vector<entity> world{{0.0f, 4.0f}, {10.0f, 20.5f}};
  EXPECT_EQ(kb::encoded_size(world, kb::standard()), 1u + 4 * 4);
}

TEST(BincodeSpec, VarintBoundaries) {
  const auto s = kb::standard();
  EXPECT_EQ(enc(std::uint64_t{250}, s), (bytes{250}));
  EXPECT_EQ(enc(std::uint64_t{251}, s), (bytes{251, 251, 0}));
  EXPECT_EQ(enc(std::uint64_t{65535}, s), (bytes{251, 255, 255}));
  EXPECT_EQ(enc(std::uint64_t{65536}, s), (bytes{252, 0, 0, 1, 0}));
  EXPECT_EQ(enc(std::uint64_t{1} << 32, s), (bytes{253, 0, 0, 0, 0, 1, 0, 0, 0}));
  bytes u128max(17, 255);
  u128max[0] = 254;
  EXPECT_EQ(enc(~static_cast<kb::uint128>(0), s), u128max);
  EXPECT_EQ(enc(std::uint8_t{255}, s), (bytes{255}));  // u8 is never varint
  EXPECT_EQ(enc(std::int8_t{-1}, s), (bytes{255}));
  // zigzag
  EXPECT_EQ(enc(std::int32_t{0}, s), (bytes{0}));
  EXPECT_EQ(enc(std::int32_t{-1}, s), (bytes{1}));
  EXPECT_EQ(enc(std::int32_t{1}, s), (bytes{2}));
  EXPECT_EQ(enc(std::int32_t{-2}, s), (bytes{3}));
  EXPECT_EQ(enc(std::int64_t{INT64_MIN}, s), (bytes{253, 255, 255, 255, 255, 255, 255, 255, 255}));
  EXPECT_EQ(enc(std::uint16_t{0x1234}, s.with_big_endian()), (bytes{251, 0x12, 0x34}));
}

TEST(BincodeSpec, CharIsUtf8) {
  EXPECT_EQ(enc(U'a', kb::legacy()), (bytes{'a'}));
  EXPECT_EQ(enc(U'\u00e9', kb::legacy()), (bytes{0xC3, 0xA9}));
  EXPECT_EQ(enc(U'\u20ac', kb::legacy()), (bytes{0xE2, 0x82, 0xAC}));
  EXPECT_EQ(enc(U'\U0001F30D', kb::standard()), (bytes{0xF0, 0x9F, 0x8C, 0x8D}));
  EXPECT_EQ(kb::encode_to_vector(char32_t{0xD800}).error().code, kb::error_code::invalid_char);
  EXPECT_EQ(kb::encode_to_vector(char32_t{0x110000}).error().code, kb::error_code::invalid_char);
}

TEST(BincodeSpec, DurationAndFloats) {
  using namespace std::chrono;
  EXPECT_EQ(enc(nanoseconds{1'500'000'001}, kb::legacy()),
            (bytes{1, 0, 0, 0, 0, 0, 0, 0, 1, 0x65, 0xCD, 0x1D}));
  EXPECT_EQ(enc(seconds{3}, kb::standard()), (bytes{3, 0}));
  EXPECT_EQ(enc(1.0f, kb::standard()), (bytes{0, 0, 0x80, 0x3F}));
  EXPECT_EQ(enc(1.0, kb::standard().with_big_endian()), (bytes{0x3F, 0xF0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(kb::encode_to_vector(seconds{-1}).error().code, kb::error_code::invalid_duration);
  // nanos >= 1e9 carries into seconds (Duration::new); overflow is an error.
  auto d = kb::decode<nanoseconds>(bytes{1, 0xFB, 0xE8, 0x03}, kb::standard());  // 1 s + 1000 ns
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->count(), 1'000'001'000);
  auto carried = kb::decode<seconds>(bytes{1, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x94, 0x35, 0x77},
                                     kb::legacy());  // 2e9 ns
  ASSERT_TRUE(carried.ok());
  EXPECT_EQ(carried->count(), 3);
  EXPECT_EQ(kb::decode<seconds>(bytes{1, 1}, kb::standard()).error().code,
            kb::error_code::invalid_duration);
  bytes over(12, 0xFF);
  EXPECT_EQ(kb::decode<nanoseconds>(over, kb::legacy()).error().code,
            kb::error_code::invalid_duration);
}

// ---- the type mapping round-trips under every config ------------------------------------

TEST(BincodeTypes, RoundTripEverything) {
  using namespace std::chrono_literals;
  for (const auto& c : all_configs) {
    round_trip(true, c);
    round_trip(std::uint16_t{60000}, c);
    round_trip(std::int16_t{-300}, c);
    round_trip(std::int64_t{INT64_MIN}, c);
    // u64 values with the top bits set: decode<std::uint64_t> is a plain result<T>, never the
    // one-word size_result of encode/decode_into (whose top 4 bits hold an error code).
    round_trip(std::uint64_t{UINT64_MAX}, c);
    round_trip(std::uint64_t{0xF000000000000001}, c);
    round_trip(std::size_t{1} << 63, c);
    round_trip(static_cast<kb::int128>(-1) << 100, c);
    round_trip(~static_cast<kb::uint128>(5), c);
    round_trip(std::nextafter(1.0f, 2.0f), c);
    round_trip(-0.0, c);
    round_trip(U'\U0010FFFF', c);
    round_trip(std::string("h\xC3\xA9llo"), c);
    round_trip(std::vector<std::uint64_t>{1, 2, 1ull << 60}, c);
    round_trip(std::vector<bool>{true, false, true}, c);
    round_trip(std::vector<std::string>{"a", "", "ccc"}, c);
    round_trip(std::array<std::int32_t, 3>{-1, 0, 1}, c);
    round_trip(std::optional<std::string>{"x"}, c);
    round_trip(std::pair<std::uint8_t, double>{7, 2.5}, c);
    round_trip(std::tuple<std::int8_t, std::string, std::uint32_t>{-3, "t", 70000}, c);
    round_trip(some_enum{variant_c{12345}}, c);
    round_trip(side::sell, c);
    round_trip(std::monostate{}, c);
    round_trip(std::map<std::uint32_t, std::string>{{1, "one"}, {300, "three hundred"}}, c);
    round_trip(std::unordered_map<std::string, std::int8_t>{{"a", 1}, {"b", -1}}, c);
    round_trip(std::set<std::int64_t>{-5, 0, 99999}, c);
    round_trip(std::unordered_set<std::uint16_t>{1, 2, 3}, c);
    round_trip(std::chrono::milliseconds{123456}, c);
    round_trip(trade{42, "EURUSD", {1.5, 2.25}, 7, side::buy}, c);
    round_trip(nested{-7, "n", std::vector<std::uint32_t>{1, 2}, {{"k", -1}}, {U'\u20ac', true}},
               c);
  }
}

// A packed trivially copyable aggregate is copied as one block where its layout matches the wire;
// the bytes must equal the field-by-field encoding (a tuple of the same fields) in every config.
struct plain_point {
  std::int32_t x, y;
  float z;
  std::array<std::uint8_t, 4> tag;
  bool operator==(const plain_point&) const = default;
};
struct padded {
  std::uint8_t a;
  std::uint32_t b;
  bool operator==(const padded&) const = default;
};
static_assert(kb::detail::memcpy_encodable<kb::detail::format<false, false>, plain_point>);
static_assert(!kb::detail::memcpy_encodable<kb::detail::format<true, false>, plain_point>);
static_assert(!kb::detail::memcpy_encodable<kb::detail::format<false, true>, plain_point>);
static_assert(!kb::detail::memcpy_encodable<kb::detail::format<false, false>, padded>);
static_assert(
    kb::detail::memcpy_decodable<kb::detail::format<true, false>, std::array<std::uint8_t, 100>>);
static_assert(!kb::detail::memcpy_decodable<kb::detail::format<false, false>, std::array<bool, 3>>);

TEST(BincodeTypes, PackedStructBlocks) {
  std::vector<plain_point> pts;
  std::vector<std::tuple<std::int32_t, std::int32_t, float, std::array<std::uint8_t, 4>>> tuples;
  for (int i = 0; i < 50; ++i) {
    pts.push_back(
        {i * -7, i << 20, static_cast<float>(i) / 3, {1, 2, static_cast<std::uint8_t>(i), 4}});
    tuples.emplace_back(pts.back().x, pts.back().y, pts.back().z, pts.back().tag);
  }
  std::vector<padded> pads{{1, 70000}, {255, 3}};
  for (const auto& c : all_configs) {
    EXPECT_EQ(enc(pts, c), enc(tuples, c));
    round_trip(pts, c);
    round_trip(pads, c);
    EXPECT_EQ(kb::encoded_size(pads, c), enc(pads, c).size());
  }
}

TEST(BincodeTypes, EmptyStructIsUnit) {
  EXPECT_EQ(kb::encoded_size(some_struct_a{}, kb::legacy()), 0u);
  EXPECT_EQ(enc(std::vector<std::monostate>(3), kb::legacy()), (bytes{3, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(BincodeTypes, ZeroCopyViews) {
  const bytes b =
      enc(std::make_tuple(std::string("abc"), std::vector<std::uint8_t>{9, 8}), kb::standard());
  auto d =
      kb::decode<std::tuple<std::string_view, std::span<const std::uint8_t>>>(b, kb::standard());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(std::get<0>(*d), "abc");
  EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(std::get<0>(*d).data()),
            b.data() + 1);  // borrows
  EXPECT_EQ(std::get<1>(*d).data(), b.data() + 5);
  EXPECT_EQ(std::get<1>(*d).size(), 2u);
}

TEST(BincodeTypes, SpanEncodesLikeVec) {
  std::vector<std::uint32_t> v{1, 2, 300};
  EXPECT_EQ(enc(std::span<const std::uint32_t>(v), kb::standard()), enc(v, kb::standard()));
}

TEST(BincodeTypes, MapRepeatedKeyKeepsLast) {
  // len 2, (1, 10), (1, 20)
  auto d = kb::decode<std::map<std::uint8_t, std::uint8_t>>(bytes{2, 1, 10, 1, 20}, kb::standard());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->size(), 1u);
  EXPECT_EQ(d->at(1), 20);
}

// ---- outputs -----------------------------------------------------------------------------

TEST(BincodeEncode, ReusesVectorCapacity) {
  kb::buffer out;
  out.reserve(1024);
  const auto* p = out.data();
  trade t{1, "ABC", {1.0, 2.0, 3.0}, std::nullopt, side::sell};
  for (int i = 0; i < 3; ++i) {
    auto r = kb::encode(t, out, kb::standard());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, out.size());
    EXPECT_EQ(out.data(), p);
  }
  EXPECT_EQ(bytes(out.begin(), out.end()), enc(t, kb::standard()));
}

TEST(BincodeEncode, FixedBufferAndStream) {
  trade t{1, "ABC", {1.0}, 3, side::buy};
  const bytes want = enc(t, kb::legacy());
  std::vector<std::uint8_t> buf(want.size());
  auto ok = kb::encode(t, std::span<std::uint8_t>(buf), kb::legacy());
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(buf, want);
  auto small = kb::encode(t, std::span<std::uint8_t>(buf.data(), buf.size() - 1), kb::legacy());
  ASSERT_FALSE(small.ok());
  EXPECT_EQ(small.error().code, kb::error_code::buffer_too_small);
  EXPECT_EQ(small.error().offset, want.size());

  std::ostringstream os;
  std::vector<std::uint8_t> big(10000, 7);
  auto r = kb::encode(std::make_pair(t, big), os, kb::legacy());
  ASSERT_TRUE(r.ok());
  const std::string s = os.str();
  EXPECT_EQ(bytes(s.begin(), s.end()), enc(std::make_pair(t, big), kb::legacy()));
  EXPECT_EQ(*r, s.size());
}

TEST(BincodeEncode, FailingStreamIsAnError) {
  std::ostringstream os;
  os.setstate(std::ios::badbit);
  auto r = kb::encode(std::vector<std::uint8_t>(10000, 1), os, kb::standard());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, kb::error_code::stream_error);
}

TEST(BincodeEncode, AppendAndThrowingValue) {
  std::vector<std::uint8_t> out{0xAA};
  ASSERT_TRUE(kb::encode_append(std::uint32_t{300}, out, kb::standard()).ok());
  EXPECT_EQ(out, (bytes{0xAA, 251, 0x2C, 0x01}));
  EXPECT_THROW((void)kb::decode<std::uint32_t>(bytes{}, kb::standard()).value(), kb::exception);
}

// ---- errors ------------------------------------------------------------------------------

TEST(BincodeErrors, TruncatedAtEveryPosition) {
  nested n{-7,
           "a string",
           std::vector<std::uint32_t>{1, 70000, 3},
           {{"k", -1}, {"kk", 1ll << 40}},
           {U'\u20ac', true}};
  for (const auto& c : all_configs) {
    const bytes b = enc(n, c);
    for (std::size_t cut = 0; cut < b.size(); ++cut) {
      auto d = kb::decode<nested>(std::span<const std::uint8_t>(b.data(), cut), c);
      ASSERT_FALSE(d.ok()) << cut;
      // 1.3.3 reports a char cut short as InvalidCharEncoding.
      EXPECT_TRUE(d.error().code == kb::error_code::unexpected_end ||
                  (c.gen == kb::generation::v1 && d.error().code == kb::error_code::invalid_char))
          << cut << " " << d.error().to_string();
      EXPECT_LE(d.error().offset, cut);
    }
  }
}

TEST(BincodeErrors, ForgedHugeLengths) {
  // u64::MAX elements / bytes announced, nothing behind: rejected before allocating.
  bytes forged{253, 255, 255, 255, 255, 255, 255, 255, 255};
  EXPECT_EQ(kb::decode<std::vector<std::uint64_t>>(forged, kb::standard()).error().code,
            kb::error_code::unexpected_end);
  EXPECT_EQ(kb::decode<std::string>(forged, kb::standard()).error().code,
            kb::error_code::unexpected_end);
  EXPECT_EQ(kb::decode<std::vector<std::string>>(forged, kb::standard()).error().code,
            kb::error_code::unexpected_end);
  EXPECT_EQ((kb::decode<std::map<std::uint8_t, std::uint8_t>>(forged, kb::standard()).error().code),
            kb::error_code::unexpected_end);
  EXPECT_EQ(kb::decode<std::vector<std::monostate>>(forged, kb::standard()).error().code,
            kb::error_code::limit_exceeded);
  bytes fix{0, 0, 0, 0, 0, 0, 0, 0x40};
  EXPECT_EQ(kb::decode<std::vector<std::uint32_t>>(fix, kb::legacy()).error().code,
            kb::error_code::unexpected_end);
  // A length that fits the input is fine; one byte more is not.
  EXPECT_TRUE(kb::decode<std::vector<std::uint16_t>>(bytes{2, 1, 2}, kb::standard()).ok());
  EXPECT_EQ(kb::decode<std::vector<std::uint16_t>>(bytes{3, 1, 2}, kb::standard()).error().code,
            kb::error_code::unexpected_end);
}

TEST(BincodeErrors, VarintTags) {
  EXPECT_EQ(kb::decode<std::uint64_t>(bytes{255, 0, 0}, kb::standard()).error().code,
            kb::error_code::invalid_integer_type);
  EXPECT_EQ(kb::decode<std::uint64_t>(bytes{255}, kb::v1_options()).error().code,
            kb::error_code::invalid_integer_type);
  // 2.0.1 is tag based: u16 with a u32 tag fails even for a small value; 1.3.3 is value based.
  const bytes wide{252, 5, 0, 0, 0};
  EXPECT_EQ(kb::decode<std::uint16_t>(wide, kb::standard()).error().code,
            kb::error_code::invalid_integer_type);
  EXPECT_EQ(*kb::decode<std::uint16_t>(wide, kb::v1_options()), 5);
  EXPECT_EQ(kb::decode<std::uint16_t>(bytes{252, 0, 0, 1, 0}, kb::v1_options()).error().code,
            kb::error_code::invalid_integer_type);
  EXPECT_EQ(kb::decode<std::int16_t>(bytes{252, 0, 0, 1, 0}, kb::v1_options()).error().code,
            kb::error_code::invalid_integer_type);
  // non-shortest but narrower tags are accepted by both
  EXPECT_EQ(*kb::decode<std::uint64_t>(bytes{251, 5, 0}, kb::standard()), 5u);
  // u128 tag on a u64: both reject; on a u128 both accept
  bytes t128(17, 0);
  t128[0] = 254;
  t128[1] = 9;
  EXPECT_FALSE(kb::decode<std::uint64_t>(t128, kb::v1_options()).ok());
  EXPECT_FALSE(kb::decode<std::uint64_t>(t128, kb::standard()).ok());
  EXPECT_EQ(static_cast<int>(*kb::decode<kb::uint128>(t128, kb::v1_options())), 9);
}

TEST(BincodeErrors, BadValues) {
  const auto s = kb::standard();
  auto b = kb::decode<bool>(bytes{2}, s);
  EXPECT_EQ(b.error(), (kb::error{kb::error_code::invalid_bool, 0}));
  EXPECT_EQ(kb::decode<std::vector<bool>>(bytes{2, 1, 7}, s).error(),
            (kb::error{kb::error_code::invalid_bool, 2}));
  EXPECT_EQ(kb::decode<char32_t>(bytes{0x80}, s).error().code, kb::error_code::invalid_char);
  EXPECT_EQ(kb::decode<char32_t>(bytes{0xED, 0xA0, 0x80}, s).error().code,
            kb::error_code::invalid_char);  // surrogate
  EXPECT_EQ(kb::decode<char32_t>(bytes{0xC0, 0x80}, s).error().code,
            kb::error_code::invalid_char);  // overlong
  EXPECT_EQ(kb::decode<char32_t>(bytes{0xF4, 0x90, 0x80, 0x80}, s).error().code,
            kb::error_code::invalid_char);
  EXPECT_EQ(kb::decode<char32_t>(bytes{0xE2, 0x82}, s).error().code,
            kb::error_code::unexpected_end);
  EXPECT_EQ(kb::decode<char32_t>(bytes{0xE2, 0x82}, kb::v1_options()).error().code,
            kb::error_code::invalid_char);
  EXPECT_EQ(kb::decode<std::string>(bytes{2, 0xC3, 0x28}, s).error(),
            (kb::error{kb::error_code::invalid_utf8, 0}));
  EXPECT_EQ(kb::decode<std::string_view>(bytes{1, 0xFF}, s).error().code,
            kb::error_code::invalid_utf8);
  EXPECT_EQ(kb::decode<std::optional<std::uint8_t>>(bytes{2, 0}, s).error(),
            (kb::error{kb::error_code::unexpected_variant, 0}));
  EXPECT_EQ(kb::decode<some_enum>(bytes{3}, s).error(),
            (kb::error{kb::error_code::unexpected_variant, 0}));
  EXPECT_EQ(kb::decode<some_enum>(bytes{3, 0, 0, 0}, kb::legacy()).error().code,
            kb::error_code::unexpected_variant);
  EXPECT_EQ(kb::decode<side>(bytes{2}, s).error().code, kb::error_code::unexpected_variant);
  EXPECT_EQ(kb::encode_to_vector(static_cast<side>(5)).error().code,
            kb::error_code::unexpected_variant);
}

TEST(BincodeErrors, LimitAndTrailing) {
  const bytes b = enc(std::string("hello"), kb::standard());  // 6 bytes
  EXPECT_TRUE(kb::decode<std::string>(b, kb::standard().with_limit(6)).ok());
  EXPECT_EQ(kb::decode<std::string>(b, kb::standard().with_limit(5)).error().code,
            kb::error_code::limit_exceeded);
  // A forged length larger than the limit is a limit error even when the input is short too.
  EXPECT_EQ(kb::decode<std::string>(bytes{100, 'a'}, kb::standard().with_limit(10)).error().code,
            kb::error_code::limit_exceeded);
  EXPECT_EQ(kb::decode<std::uint64_t>(bytes{1, 2, 3, 4, 5, 6, 7, 8}, kb::legacy().with_limit(7))
                .error()
                .code,
            kb::error_code::limit_exceeded);
  // 1.3.3 applies its limit when encoding; 2.0.1 does not.
  EXPECT_EQ(kb::encode_to_vector(std::string("hello"), kb::v1_options().with_limit(5)).error().code,
            kb::error_code::limit_exceeded);
  EXPECT_TRUE(kb::encode_to_vector(std::string("hello"), kb::standard().with_limit(5)).ok());

  bytes tail = enc(std::uint32_t{7}, kb::v1_options());
  tail.push_back(0);
  EXPECT_EQ(kb::decode<std::uint32_t>(tail, kb::v1_options()).error(),
            (kb::error{kb::error_code::trailing_bytes, 1}));
  auto used = kb::decode_into(*std::make_unique<std::uint32_t>(), tail, kb::standard());
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(*used, 1u);
  EXPECT_TRUE(kb::decode<std::uint8_t>(bytes{1, 2}, kb::v1_serialize()).ok());
}
