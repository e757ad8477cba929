// SPDX-License-Identifier: MIT
// CBOR form: every example of RFC 8949 Appendix A decoded (and re-encoded to the same bytes where
// it is the preferred serialization), round trips, errors, and interop with libcbor both ways.
#include <gtest/gtest.h>

#include <cbor.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "keel/msg.h"
#include "random_message.h"
#include "test_util.h"

namespace keel::msg {
namespace {

using test::hex;
using test::unhex;

result<value> read_hex(std::string_view h) { return value_from_cbor(test::as_bytes(unhex(h))); }

std::string write_hex(const value& v) {
  std::string out;
  write_cbor(v, out);
  return hex(out);
}

struct example {
  const char* hex;
  bool preferred;  // the preferred serialization of its value: keel writes the same bytes
};

// RFC 8949 Appendix A, in the order of its table.
constexpr example kAppendixA[] = {
    {"00", true},
    {"01", true},
    {"0a", true},
    {"17", true},
    {"1818", true},
    {"1819", true},
    {"1864", true},
    {"1903e8", true},
    {"1a000f4240", true},
    {"1b000000e8d4a51000", true},
    {"1bffffffffffffffff", true},
    {"c249010000000000000000", true},
    {"3bffffffffffffffff", true},
    {"c349010000000000000000", true},
    {"20", true},
    {"29", true},
    {"3863", true},
    {"3903e7", true},
    {"f90000", true},
    {"f98000", true},
    {"f93c00", true},
    {"fb3ff199999999999a", true},
    {"f93e00", true},
    {"f97bff", true},
    {"fa47c35000", true},
    {"fa7f7fffff", true},
    {"fb7e37e43c8800759c", true},
    {"f90001", true},
    {"f90400", true},
    {"f9c400", true},
    {"fbc010666666666666", true},
    {"f97c00", true},
    {"f97e00", true},
    {"f9fc00", true},
    {"fa7f800000", false},
    {"fa7fc00000", false},
    {"faff800000", false},
    {"fb7ff0000000000000", false},
    {"fb7ff8000000000000", false},
    {"fbfff0000000000000", false},
    {"f4", true},
    {"f5", true},
    {"f6", true},
    {"f7", true},
    {"f0", true},
    {"f8ff", true},
    {"c074323031332d30332d32315432303a30343a30305a", true},
    {"c11a514b67b0", true},
    {"c1fb41d452d9ec200000", true},
    {"d74401020304", true},
    {"d818456449455446", true},
    {"d82076687474703a2f2f7777772e6578616d706c652e636f6d", true},
    {"40", true},
    {"4401020304", true},
    {"60", true},
    {"6161", true},
    {"6449455446", true},
    {"62225c", true},
    {"62c3bc", true},
    {"63e6b0b4", true},
    {"64f0908591", true},
    {"80", true},
    {"83010203", true},
    {"8301820203820405", true},
    {"98190102030405060708090a0b0c0d0e0f101112131415161718181819", true},
    {"a0", true},
    {"a201020304", true},
    {"a26161016162820203", true},
    {"826161a161626163", true},
    {"a56161614161626142616361436164614461656145", true},
    {"5f42010243030405ff", false},
    {"7f657374726561646d696e67ff", false},
    {"9fff", false},
    {"9f018202039f0405ffff", false},
    {"9f01820203820405ff", false},
    {"83018202039f0405ff", false},
    {"83019f0203ff820405", false},
    {"9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", false},
    {"bf61610161629f0203ffff", false},
    {"826161bf61626163ff", false},
    {"bf6346756ef563416d7421ff", false},
};

TEST(MsgCbor, Rfc8949AppendixA) {
  for (const example& e : kAppendixA) {
    auto v = read_hex(e.hex);
    ASSERT_TRUE(v.ok()) << e.hex << ": " << v.error().to_string();
    if (e.preferred) {
      EXPECT_EQ(write_hex(*v), e.hex);
    }
    // Whatever keel writes reads back equal.
    std::string again;
    write_cbor(*v, again);
    auto back = value_from_cbor(test::as_bytes(again));
    ASSERT_TRUE(back.ok()) << e.hex;
    EXPECT_EQ(*back, *v) << e.hex;
  }
}

TEST(MsgCbor, AppendixAValues) {
  EXPECT_EQ(*read_hex("1bffffffffffffffff"), value(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_EQ(*read_hex("3903e7"), value(std::int64_t{-1000}));
  EXPECT_EQ(*read_hex("f97bff"), value(65504.0));
  EXPECT_EQ(*read_hex("f90001"), value(5.960464477539063e-8));
  EXPECT_EQ(*read_hex("fa47c35000"), value(100000.0f));
  EXPECT_EQ(*read_hex("fbc010666666666666"), value(-4.1));
  EXPECT_TRUE(std::isnan(*read_hex("f97e00")->get<double>()));
  EXPECT_EQ(*read_hex("f9fc00"), value(-std::numeric_limits<double>::infinity()));
  EXPECT_EQ(*read_hex("c11a514b67b0"), value(timestamp{1363896240, 0}));
  EXPECT_EQ(read_hex("c074323031332d30332d32315432303a30343a30305a")->tag(), 0u);
  EXPECT_EQ(*read_hex("c249010000000000000000"),
            value::tagged(2, value::bytes(unhex("010000000000000000"))));
  EXPECT_EQ(*read_hex("3bffffffffffffffff"),
            value::tagged(3, value::bytes(unhex("ffffffffffffffff"))));
  EXPECT_EQ(*read_hex("64f0908591"), value("\xf0\x90\x85\x91"));
  EXPECT_EQ(*read_hex("f7"), value(extension{-128, {23}}));
  EXPECT_EQ(*read_hex("5f42010243030405ff"), value::bytes(unhex("0102030405")));
  EXPECT_EQ(*read_hex("7f657374726561646d696e67ff"), value("streaming"));
  EXPECT_EQ(*read_hex("bf6346756ef563416d7421ff"),
            value(map{{"Fun", true}, {"Amt", std::int64_t{-2}}}));
  EXPECT_EQ(*read_hex("9f018202039f0405ffff"), *read_hex("8301820203820405"));
}

TEST(MsgCbor, KeelTypesKeptByTags) {
  EXPECT_EQ(write_hex(value(std::vector<std::int32_t>{1, -1})), "d84e4801000000ffffffff");
  EXPECT_EQ(write_hex(value(std::vector<double>{})), "d85640");
  EXPECT_EQ(write_hex(value(timestamp{1, 5})), "d903e9a201012805");
  EXPECT_EQ(*read_hex("d903e9a201012805"), value(timestamp{1, 5}));
  EXPECT_EQ(write_hex(value(1.5f)), "fa3fc00000");              // float32 stays a single
  EXPECT_EQ(write_hex(value(100000.0)), "fb40f86a0000000000");  // float64 not a half: double
}

constexpr write_options kExactWrite{.mode = fidelity::exact};
constexpr read_options kExactRead{.mode = fidelity::exact};

std::string write_exact_hex(const value& v) {
  std::string out;
  write_cbor(v, out, kExactWrite);
  return hex(out);
}

result<value> read_exact_hex(std::string_view h) {
  return value_from_cbor(test::as_bytes(unhex(h)), kExactRead);
}

// keel's tags (docs/msg-format.md): 0x4B4D5300 + type number for integer widths, + 22 for the
// escape, 0x4B4D5400 + type code byte for extensions; tag heads da 4b4d53xx / da 4b4d54xx.
TEST(MsgCbor, ExtensionsKeepTheirTypeCode) {
  EXPECT_EQ(write_hex(value(extension{7, {1, 2}})), "da4b4d5407420102");
  EXPECT_EQ(write_hex(value(extension{-1, {}})), "da4b4d54ff40");
  EXPECT_EQ(*read_hex("da4b4d5407420102"), value(extension{7, {1, 2}}));
  EXPECT_EQ(*read_hex("da4b4d54ff40"), value(extension{-1, {}}));
  // A CBOR simple value stays one; extension -128 with a byte that is no simple value is tagged.
  EXPECT_EQ(write_hex(value(extension{-128, {16}})), "f0");
  EXPECT_EQ(write_hex(value(extension{-128, {21}})),
            "da4b4d548041"
            "15");
  EXPECT_EQ(*read_hex("da4b4d54804115"), value(extension{-128, {21}}));
  // The tag on anything but a byte string is a plain tagged value.
  EXPECT_EQ(*read_hex("da4b4d540701"), value::tagged(0x4B4D5407, value(std::int64_t{1})));
}

TEST(MsgCbor, TagsThatWouldReadAsOtherTypesAreEscaped) {
  // tag 1 on an integer is a timestamp: tagged(1, int64) goes in the escape tag, [1, value].
  EXPECT_EQ(write_hex(value::tagged(1, value(std::int64_t{5}))), "da4b4d5316820105");
  EXPECT_EQ(*read_hex("da4b4d5316820105"), value::tagged(1, value(std::int64_t{5})));
  EXPECT_EQ(write_hex(value::tagged(1, value("x"))), "c16178");  // no meaning: as it is
  EXPECT_EQ(write_hex(value::tagged(78, value::bytes(std::string_view("abcd")))),
            "da4b4d5316"
            "82184e4461626364");
  EXPECT_EQ(write_hex(value::tagged(78, value::bytes(std::string_view("abc")))), "d84e43616263");
  // 259 on pairs with string keys only would read back as a map.
  EXPECT_EQ(write_hex(value::tagged(259, value(array{array{"k", 1}}))), "d901038182616b01");
  EXPECT_EQ(*read_hex("d901038182616b01"),
            value::tagged(259, value(array{array{"k", std::int64_t{1}}})));
}

TEST(MsgCbor, ExactModeKeepsIntegerWidths) {
  EXPECT_EQ(write_exact_hex(value(std::int8_t{-1})), "da4b4d530220");
  EXPECT_EQ(write_exact_hex(value(std::uint8_t{5})), "da4b4d530605");
  EXPECT_EQ(write_exact_hex(value(std::uint16_t{500})), "da4b4d53071901f4");
  EXPECT_EQ(write_exact_hex(value(std::int32_t{5})), "da4b4d530405");
  EXPECT_EQ(write_exact_hex(value(std::uint64_t{5})), "da4b4d530905");
  // int64 and uint64 above INT64_MAX are what the plain integers read as: no tag.
  EXPECT_EQ(write_exact_hex(value(std::int64_t{-5})), "24");
  EXPECT_EQ(write_exact_hex(value(std::numeric_limits<std::uint64_t>::max())),
            "1bffffffffffffffff");
  EXPECT_EQ(*read_exact_hex("da4b4d530220"), value(std::int8_t{-1}));
  EXPECT_EQ(*read_exact_hex("da4b4d53071901f4"), value(std::uint16_t{500}));
  // Out of the width's range: the tag stays a tag. The standard mode keeps every width tag.
  EXPECT_EQ(*read_exact_hex("da4b4d53021901f4"),
            value::tagged(0x4B4D5302, value(std::int64_t{500})));
  EXPECT_EQ(*read_hex("da4b4d530220"), value::tagged(0x4B4D5302, value(std::int64_t{-1})));
  // So the exact writer escapes such a tag, the standard writer does not need to.
  const value t = value::tagged(0x4B4D5302, value(std::int64_t{-1}));
  EXPECT_EQ(write_exact_hex(t),
            "da4b4d531682"
            "1a4b4d5302"
            "20");
  EXPECT_EQ(write_hex(t), "da4b4d530220");
  EXPECT_EQ(*read_exact_hex(write_exact_hex(t)), t);
}

// Valid CBOR that libcbor 0.8 rejects as malformed somewhere in `v`: a simple value other than
// false, true, null and undefined (extension -128 holding 0..19 or 32..255, RFC 8949 section
// 3.3), or a tag number from 6 to 20 (one-byte heads c6..d4).
bool libcbor_rejects(const value& v) {
  if (v.type() == type::extension)
    return v.extension_code() == -128 && v.as_text().size() == 1 &&
           (static_cast<std::uint8_t>(v.as_text()[0]) < 20 ||
            static_cast<std::uint8_t>(v.as_text()[0]) >= 32);
  if (const map* m = v.as_map())
    return std::any_of(m->begin(), m->end(),
                       [](const map::entry& e) { return libcbor_rejects(e.value); });
  if (const array* a = v.as_array()) return std::any_of(a->begin(), a->end(), libcbor_rejects);
  if (v.type() == type::tagged)
    return (v.tag() >= 6 && v.tag() <= 20) || libcbor_rejects(v.tagged_value());
  return false;
}

// The example of docs/msg-format.md, byte for byte.
TEST(MsgCbor, ExactModeDocExample) {
  message m;
  m.add("u", std::uint8_t{5});
  m.add("e", extension{7, {1, 2}});
  m.add("g", value::tagged(1, value(std::int64_t{5})));
  const std::string want =
      "a3"
      "6175da4b4d530605"
      "6165da4b4d5407420102"
      "6167da4b4d5316820105";
  EXPECT_EQ(hex(to_cbor(m, kExactWrite)), want);
  EXPECT_EQ(*from_cbor(test::as_bytes(unhex(want)), kExactRead), m);
}

// The exact mode: every type (with the awkward values that stand for something else) comes back
// equal and writes back to the same bytes; libcbor reads the documents.
TEST(MsgCbor, ExactModeRoundTripsEveryType) {
  test::random_options o;
  o.awkward = true;
  int libcbor_read = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    test::generator g(seed, o);
    const message m = g.make();
    const std::string bytes = to_cbor(m, kExactWrite);
    auto back = from_cbor(test::as_bytes(bytes), kExactRead);
    ASSERT_TRUE(back.ok()) << seed << ": " << back.error().to_string();
    ASSERT_EQ(*back, m) << seed;
    EXPECT_EQ(to_cbor(*back, kExactWrite), bytes) << seed;
    if (libcbor_rejects(value(m.body()))) continue;
    cbor_load_result res;
    cbor_item_t* item =
        cbor_load(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &res);
    ASSERT_NE(item, nullptr) << seed << ": libcbor error " << res.error.code << " at "
                             << res.error.position << " of " << hex(bytes);
    EXPECT_EQ(res.read, bytes.size());
    cbor_decref(&item);
    ++libcbor_read;
  }
  EXPECT_GT(libcbor_read, 200);
}

// The standard mode: whatever it reads writes back to what reads back the same (values keel gives
// a meaning to are escaped), also with the awkward values.
TEST(MsgCbor, StandardModeRereadsWhatItReads) {
  test::random_options o;
  o.awkward = true;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::generator g(seed, o);
    const std::string bytes = to_cbor(g.make());
    auto first = from_cbor(test::as_bytes(bytes));
    ASSERT_TRUE(first.ok()) << seed << ": " << first.error().to_string();
    const std::string again = to_cbor(*first);
    auto second = from_cbor(test::as_bytes(again));
    ASSERT_TRUE(second.ok()) << seed;
    EXPECT_EQ(*second, *first) << seed;
    EXPECT_EQ(to_cbor(*second), again) << seed;
  }
}

TEST(MsgCbor, Errors) {
  const std::pair<const char*, error_code> cases[] = {
      {"", error_code::truncated},
      {"18", error_code::truncated},
      {"1c", error_code::bad_tag},
      {"ff", error_code::bad_tag},
      {"1f", error_code::bad_tag},
      {"df", error_code::bad_tag},
      {"62c3", error_code::truncated},
      {"61ff", error_code::invalid_utf8},
      {"5f4101", error_code::truncated},
      {"5f6161ff", error_code::bad_tag},  // a text chunk in a byte string
      {"9f01", error_code::truncated},
      {"9bffffffffffffffff", error_code::bad_length},
      {"bbffffffffffffffff", error_code::bad_length},
      {"f818", error_code::bad_value},  // simple value 24 in the two-byte form
      {"0000", error_code::trailing_bytes},
  };
  for (const auto& [h, code] : cases) {
    auto got = read_hex(h);
    EXPECT_EQ(got.code(), code) << h << ": " << got.error().to_string();
  }
  std::string deep(300, '\x81');
  deep += '\x00';
  EXPECT_EQ(value_from_cbor(test::as_bytes(deep)).code(), error_code::depth_exceeded);
  std::string tags(300, '\xc6');
  tags += '\x00';
  EXPECT_EQ(value_from_cbor(test::as_bytes(tags)).code(), error_code::depth_exceeded);
  EXPECT_EQ(from_cbor(test::as_bytes(unhex("01"))).code(), error_code::bad_value);
}

TEST(MsgCbor, RoundTripRandomMessages) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::generator g(seed);
    const message m = g.make();
    const std::string bytes = to_cbor(m);
    auto back = from_cbor(test::as_bytes(bytes));
    ASSERT_TRUE(back.ok()) << seed << ": " << back.error().to_string();
    EXPECT_EQ(*back, test::canonical(m, test::form_kind::cbor)) << seed;
    EXPECT_EQ(to_cbor(*back), bytes) << seed;
  }
}

TEST(MsgCbor, LibcborReadsKeel) {
  message m;
  m.add("n", std::int64_t{-10});
  m.add("u", std::uint64_t{1} << 40);
  m.add("s", "h\xc3\xa9");
  m.add("b", value::bytes(std::string_view("\x01\x02", 2)));
  m.add("d", 1.1);
  m.add("a", array{true, nullptr});
  m.add("t", value::tagged(32, value("http://x")));
  const std::string bytes = to_cbor(m);
  cbor_load_result res;
  cbor_item_t* item =
      cbor_load(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &res);
  ASSERT_NE(item, nullptr);
  ASSERT_EQ(res.error.code, CBOR_ERR_NONE);
  ASSERT_TRUE(cbor_isa_map(item));
  ASSERT_EQ(cbor_map_size(item), 7u);
  cbor_pair* pairs = cbor_map_handle(item);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(cbor_string_handle(pairs[0].key)),
                        cbor_string_length(pairs[0].key)),
            "n");
  EXPECT_TRUE(cbor_isa_negint(pairs[0].value));
  EXPECT_EQ(cbor_get_int(pairs[0].value), 9u);  // -1 - 9
  EXPECT_EQ(cbor_get_int(pairs[1].value), std::uint64_t{1} << 40);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(cbor_string_handle(pairs[2].value)),
                        cbor_string_length(pairs[2].value)),
            "h\xc3\xa9");
  EXPECT_TRUE(cbor_isa_bytestring(pairs[3].value));
  EXPECT_EQ(cbor_bytestring_length(pairs[3].value), 2u);
  EXPECT_EQ(cbor_float_get_float(pairs[4].value), 1.1);
  EXPECT_TRUE(cbor_isa_array(pairs[5].value));
  EXPECT_TRUE(cbor_get_bool(cbor_array_handle(pairs[5].value)[0]));
  EXPECT_TRUE(cbor_isa_tag(pairs[6].value));
  EXPECT_EQ(cbor_tag_value(pairs[6].value), 32u);
  cbor_decref(&item);
}

// A map of (key, item) built and serialized by libcbor (which takes the items).
std::string libcbor_map(std::initializer_list<std::pair<const char*, cbor_item_t*>> entries) {
  cbor_item_t* root = cbor_new_definite_map(entries.size());
  for (const auto& [k, v] : entries)
    EXPECT_TRUE(cbor_map_add(root, cbor_pair{cbor_move(cbor_build_string(k)), cbor_move(v)}));
  unsigned char* buf = nullptr;
  std::size_t cap = 0;
  const std::size_t len = cbor_serialize_alloc(root, &buf, &cap);
  std::string bytes(reinterpret_cast<const char*>(buf), len);
  free(buf);  // NOLINT: libcbor allocates with malloc
  cbor_decref(&root);
  return bytes;
}

TEST(MsgCbor, KeelReadsLibcbor) {
  const std::string bytes = libcbor_map({
      {"u8", cbor_build_uint8(200)},
      {"neg", cbor_build_negint32(99999)},
      {"half", cbor_build_float2(1.5f)},
      {"f32", cbor_build_float4(0.1f)},
      {"bytes", cbor_build_bytestring(reinterpret_cast<const unsigned char*>("\x00\x01\x02"), 3)},
      {"tag", cbor_build_tag(1, cbor_move(cbor_build_uint32(1700000000)))},
  });
  ASSERT_FALSE(bytes.empty());
  auto m = from_cbor(test::as_bytes(bytes));
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(*m->get<int>("u8"), 200);
  EXPECT_EQ(*m->get<std::int64_t>("neg"), -100000);
  EXPECT_EQ(*m->get<double>("half"), 1.5);
  EXPECT_EQ(*m->get<float>("f32"), 0.1f);
  EXPECT_EQ(m->get<bytes_view>("bytes")->size(), 3u);
  EXPECT_EQ(*m->get<timestamp>("tag"), (timestamp{1700000000, 0}));
  // libcbor writes the preferred forms too, so keel gives back the same bytes.
  EXPECT_EQ(hex(to_cbor(*m)), hex(bytes));
}

TEST(MsgCbor, LibcborReadsTheExactMode) {
  message m;
  m.add("u8", std::uint8_t{200});
  m.add("i64", std::int64_t{-10});
  m.add("e", extension{9, {1, 2, 3}});
  const std::string bytes = to_cbor(m, kExactWrite);
  cbor_load_result res;
  cbor_item_t* item =
      cbor_load(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &res);
  ASSERT_NE(item, nullptr);
  ASSERT_EQ(cbor_map_size(item), 3u);
  cbor_pair* pairs = cbor_map_handle(item);
  ASSERT_TRUE(cbor_isa_tag(pairs[0].value));  // keel's uint8 tag on the integer
  EXPECT_EQ(cbor_tag_value(pairs[0].value), 0x4B4D5306u);
  cbor_item_t* u8 = cbor_tag_item(pairs[0].value);
  EXPECT_EQ(cbor_get_int(u8), 200u);
  cbor_decref(&u8);
  EXPECT_TRUE(cbor_isa_negint(pairs[1].value));  // int64: a plain integer
  ASSERT_TRUE(cbor_isa_tag(pairs[2].value));     // extension 9: keel's tag, a byte string
  EXPECT_EQ(cbor_tag_value(pairs[2].value), 0x4B4D5409u);
  cbor_item_t* b = cbor_tag_item(pairs[2].value);
  EXPECT_EQ(cbor_bytestring_length(b), 3u);
  cbor_decref(&b);
  cbor_decref(&item);
  EXPECT_EQ(*from_cbor(test::as_bytes(bytes), kExactRead), m);
}

TEST(MsgCbor, ExactModeReadsLibcbor) {
  const std::string bytes = libcbor_map({
      {"u8", cbor_build_uint8(200)},
      {"w", cbor_build_tag(0x4B4D5303, cbor_move(cbor_build_negint16(299)))},  // int16 -300
      {"a",
       cbor_build_tag(85, cbor_move(cbor_build_bytestring(
                              reinterpret_cast<const unsigned char*>("\x00\x00\x80\x3f"), 4)))},
  });
  ASSERT_FALSE(bytes.empty());
  auto m = from_cbor(test::as_bytes(bytes), kExactRead);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(*m->find("u8"), value(std::int64_t{200}));  // a plain integer: int64
  EXPECT_EQ(*m->find("w"), value(std::int16_t{-300}));
  EXPECT_EQ(*m->find("a"), value(std::vector<float>{1.0f}));
}

}  // namespace
}  // namespace keel::msg
