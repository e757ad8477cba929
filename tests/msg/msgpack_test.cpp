// SPDX-License-Identifier: MIT
// MessagePack form: exact smallest encodings, every encoding accepted, round trips, errors, and
// interop with msgpack-cxx in both directions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>
#include <msgpack.hpp>
#include <string>

#include "keel/msg.h"
#include "random_message.h"
#include "test_util.h"

namespace keel::msg {
namespace {

using test::hex;
using test::unhex;

std::string mp(const value& v) {
  std::string out;
  write_msgpack(v, out);
  return hex(out);
}

TEST(MsgPack, SmallestEncodings) {
  EXPECT_EQ(mp(value()), "c0");
  EXPECT_EQ(mp(value(true)), "c3");
  EXPECT_EQ(mp(value(false)), "c2");
  EXPECT_EQ(mp(value(std::int64_t{0})), "00");
  EXPECT_EQ(mp(value(std::int64_t{127})), "7f");
  EXPECT_EQ(mp(value(std::int64_t{128})), "cc80");
  EXPECT_EQ(mp(value(std::int64_t{256})), "cd0100");
  EXPECT_EQ(mp(value(std::int64_t{65536})), "ce00010000");
  EXPECT_EQ(mp(value(std::int64_t{1} << 32)), "cf0000000100000000");
  EXPECT_EQ(mp(value(std::int64_t{-1})), "ff");
  EXPECT_EQ(mp(value(std::int64_t{-32})), "e0");
  EXPECT_EQ(mp(value(std::int64_t{-33})), "d0df");
  EXPECT_EQ(mp(value(std::int64_t{-129})), "d1ff7f");
  EXPECT_EQ(mp(value(std::int64_t{-32769})), "d2ffff7fff");
  EXPECT_EQ(mp(value(std::numeric_limits<std::int64_t>::min())), "d38000000000000000");
  EXPECT_EQ(mp(value(std::uint8_t{200})), "ccc8");
  EXPECT_EQ(mp(value(std::numeric_limits<std::uint64_t>::max())), "cfffffffffffffffff");
  EXPECT_EQ(mp(value(1.5f)), "ca3fc00000");
  EXPECT_EQ(mp(value(1.5)), "cb3ff8000000000000");
  EXPECT_EQ(mp(value("")), "a0");
  EXPECT_EQ(mp(value(std::string(31, 'a'))).substr(0, 2), "bf");
  EXPECT_EQ(mp(value(std::string(32, 'a'))).substr(0, 4), "d920");
  EXPECT_EQ(mp(value(std::string(256, 'a'))).substr(0, 6), "da0100");
  EXPECT_EQ(mp(value(std::string(65536, 'a'))).substr(0, 10), "db00010000");
  EXPECT_EQ(mp(value::bytes(std::string_view("\x01", 1))), "c40101");
  EXPECT_EQ(mp(value::bytes(std::string(256, 'a'))).substr(0, 6), "c50100");
  EXPECT_EQ(mp(value(timestamp{1, 0})), "d6ff00000001");
  EXPECT_EQ(mp(value(timestamp{1, 1})), "d7ff0000000400000001");
  EXPECT_EQ(mp(value(timestamp{-1, 0})), "c70cff00000000ffffffffffffffff");
  EXPECT_EQ(mp(value(extension{5, {1}})), "d40501");
  EXPECT_EQ(mp(value(extension{5, {1, 2, 3}})),
            "c7030501"
            "0203");
  EXPECT_EQ(mp(value(extension{5, std::vector<std::uint8_t>(16, 0)})).substr(0, 4), "d805");
  EXPECT_EQ(mp(value(array{1, 2})), "920102");
  EXPECT_EQ(mp(value(map{{"a", 1}})), "81a16101");
  EXPECT_EQ(mp(value(std::vector<float>{1.0f})), "91ca3f800000");
}

result<value> read_hex(std::string_view h) { return value_from_msgpack(test::as_bytes(unhex(h))); }

TEST(MsgPack, EveryEncodingRead) {
  const std::pair<const char*, value> cases[] = {
      {"05", value(std::int64_t{5})},
      {"cc05", value(std::int64_t{5})},
      {"cd0005", value(std::int64_t{5})},
      {"ce00000005", value(std::int64_t{5})},
      {"cf0000000000000005", value(std::int64_t{5})},
      {"cfffffffffffffffff", value(std::numeric_limits<std::uint64_t>::max())},
      {"fb", value(std::int64_t{-5})},
      {"d005", value(std::int64_t{5})},
      {"d1fffb", value(std::int64_t{-5})},
      {"d2fffffffb", value(std::int64_t{-5})},
      {"d3fffffffffffffffb", value(std::int64_t{-5})},
      {"a161", value("a")},
      {"d90161", value("a")},
      {"da000161", value("a")},
      {"db0000000161", value("a")},
      {"c401ff", value::bytes(std::string_view("\xff", 1))},
      {"c50001ff", value::bytes(std::string_view("\xff", 1))},
      {"c600000001ff", value::bytes(std::string_view("\xff", 1))},
      {"ca3fc00000", value(1.5f)},
      {"cb3ff8000000000000", value(1.5)},
      {"9101", value(array{std::int64_t{1}})},
      {"dc000101", value(array{std::int64_t{1}})},
      {"dd0000000101", value(array{std::int64_t{1}})},
      {"81a16101", value(map{{"a", std::int64_t{1}}})},
      {"de0001a16101", value(map{{"a", std::int64_t{1}}})},
      {"df00000001a16101", value(map{{"a", std::int64_t{1}}})},
      {"d40501", value(extension{5, {1}})},
      {"d5050102", value(extension{5, {1, 2}})},
      {"c700ff", value(extension{-1, {}})},
      {"c8000105ee", value(extension{5, {0xee}})},
      {"c90000000105ee", value(extension{5, {0xee}})},
      {"d6ff00000001", value(timestamp{1, 0})},
      {"d7ff0000000400000001", value(timestamp{1, 1})},
      {"c70cff00000000ffffffffffffffff", value(timestamp{-1, 0})},
      // A map with a key that is not a string: pairs (written back as the same map).
      {"8101a161", value::tagged(259, value(array{array{std::int64_t{1}, "a"}}))},
  };
  for (const auto& [h, want] : cases) {
    auto got = read_hex(h);
    ASSERT_TRUE(got.ok()) << h << ": " << got.error().to_string();
    EXPECT_EQ(*got, want) << h;
  }
  std::string out;
  write_msgpack(*read_hex("8101a161"), out);
  EXPECT_EQ(hex(out), "8101a161");
}

TEST(MsgPack, Errors) {
  const std::pair<const char*, error_code> cases[] = {
      {"", error_code::truncated},
      {"c1", error_code::bad_tag},
      {"cd00", error_code::truncated},
      {"a2 61", error_code::truncated},
      {"a1ff", error_code::invalid_utf8},
      {"dbffffffff", error_code::truncated},
      {"ddffffffff", error_code::bad_length},
      {"dfffffffff", error_code::bad_length},
      {"d7ffffffffffffffffff", error_code::bad_value},  // nanoseconds above 999999999
      {"0000", error_code::trailing_bytes},
  };
  for (const auto& [h, code] : cases) {
    std::string clean;
    for (const char* c = h; *c != 0; ++c)
      if (*c != ' ') clean += *c;
    auto got = read_hex(clean);
    EXPECT_EQ(got.code(), code) << h << ": " << got.error().to_string();
  }
  EXPECT_EQ(read_hex("81a16101").ok(), true);
  EXPECT_EQ(from_msgpack(test::as_bytes(unhex("05"))).code(), error_code::bad_value);  // not a map
  std::string deep(200, '\x91');
  deep += '\xc0';
  EXPECT_EQ(value_from_msgpack(test::as_bytes(deep)).code(), error_code::depth_exceeded);
}

TEST(MsgPack, RoundTripRandomMessages) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::generator g(seed);
    const message m = g.make();
    const std::string bytes = to_msgpack(m);
    auto back = from_msgpack(test::as_bytes(bytes));
    ASSERT_TRUE(back.ok()) << seed << ": " << back.error().to_string();
    EXPECT_EQ(*back, test::canonical(m, test::form_kind::msgpack)) << seed;
    EXPECT_EQ(to_msgpack(*back), bytes) << seed;
  }
}

constexpr write_options kExactWrite{.mode = fidelity::exact};
constexpr read_options kExactRead{.mode = fidelity::exact};

std::string mp_exact(const value& v) {
  std::string out;
  write_msgpack(v, out, kExactWrite);
  return hex(out);
}

TEST(MsgPack, ExactModeEncodings) {
  EXPECT_EQ(mp_exact(value(std::int8_t{-1})), "d0ff");
  EXPECT_EQ(mp_exact(value(std::int16_t{5})), "d10005");
  EXPECT_EQ(mp_exact(value(std::int32_t{5})), "d200000005");
  EXPECT_EQ(mp_exact(value(std::int64_t{5})), "05");  // an int64 that fits a fixint
  EXPECT_EQ(mp_exact(value(std::int64_t{-32})), "e0");
  EXPECT_EQ(mp_exact(value(std::int64_t{200})), "d300000000000000c8");
  EXPECT_EQ(mp_exact(value(std::uint8_t{5})), "cc05");
  EXPECT_EQ(mp_exact(value(std::uint16_t{5})), "cd0005");
  EXPECT_EQ(mp_exact(value(std::uint32_t{5})), "ce00000005");
  EXPECT_EQ(mp_exact(value(std::uint64_t{5})), "cf0000000000000005");
  // Typed arrays: keel ext (type 75 = 0x4b), kind, little-endian elements.
  EXPECT_EQ(mp_exact(value(std::vector<float>{1.0f})), "c7054b140000803f");
  EXPECT_EQ(mp_exact(value(std::vector<std::int32_t>{1, -1})), "c7094b1201000000ffffffff");
  EXPECT_EQ(mp_exact(value(std::vector<std::int64_t>{})), "d44b13");
  EXPECT_EQ(mp_exact(value(std::vector<double>{1.0})), "c7094b15000000000000f03f");
  // A tag: [keel ext (tagged, tag number big-endian), value].
  EXPECT_EQ(mp_exact(value::tagged(32, value("x"))), "92c7094b160000000000000020a178");
  // Extensions that would read as something else go in a keel ext; others stay as they are.
  EXPECT_EQ(mp_exact(value(extension{75, {1}})), "c7034b0f4b01");
  EXPECT_EQ(mp_exact(value(extension{-1, {0, 0, 0, 1}})), "c7064b0fff00000001");
  EXPECT_EQ(mp_exact(value(extension{-1, {1}})), "d4ff01");
  EXPECT_EQ(mp_exact(value(extension{5, {1}})), "d40501");
  // Unchanged from the standard mode: floats, strings, timestamps, maps with a non-string key.
  EXPECT_EQ(mp_exact(value(1.5f)), "ca3fc00000");
  EXPECT_EQ(mp_exact(value(timestamp{1, 0})), "d6ff00000001");
  EXPECT_EQ(mp_exact(value::tagged(259, value(array{array{std::int64_t{1}, "a"}}))), "8101a161");
  // ... but pairs whose keys are all strings would read back as a map: they stay tagged.
  EXPECT_EQ(mp_exact(value::tagged(259, value(array{array{"k", "a"}}))),
            "92c7094b16000000000000010391"
            "92a16ba161");
}

result<value> read_exact_hex(std::string_view h) {
  return value_from_msgpack(test::as_bytes(unhex(h)), kExactRead);
}

// The example of docs/msg-format.md, byte for byte.
TEST(MsgPack, ExactModeDocExample) {
  message m;
  m.add("v", std::vector<float>{1.0f});
  m.add("g", value::tagged(32, value("x")));
  m.add("n", std::uint16_t{5});
  const std::string want =
      "83"
      "a176c7054b140000803f"
      "a16792c7094b160000000000000020a178"
      "a16ecd0005";
  EXPECT_EQ(hex(to_msgpack(m, kExactWrite)), want);
  EXPECT_EQ(*from_msgpack(test::as_bytes(unhex(want)), kExactRead), m);
}

TEST(MsgPack, ExactModeReads) {
  EXPECT_EQ(*read_exact_hex("d0ff"), value(std::int8_t{-1}));
  EXPECT_EQ(*read_exact_hex("cd0005"), value(std::uint16_t{5}));
  EXPECT_EQ(*read_exact_hex("05"), value(std::int64_t{5}));  // fixints are int64
  EXPECT_EQ(*read_exact_hex("c7094b1201000000ffffffff"), value(std::vector<std::int32_t>{1, -1}));
  EXPECT_EQ(*read_exact_hex("92c7094b160000000000000020a178"), value::tagged(32, value("x")));
  EXPECT_EQ(*read_exact_hex("c7034b0f4b01"), value(extension{75, {1}}));
  // The standard mode reads the same bytes as plain MessagePack.
  EXPECT_EQ(*read_hex("cd0005"), value(std::int64_t{5}));
  EXPECT_EQ(*read_hex("c7034b0f4b01"), value(extension{75, {0x0f, 0x4b, 0x01}}));
  EXPECT_EQ(*read_hex("92c7094b160000000000000020a178"),
            value(array{extension{75, {0x16, 0, 0, 0, 0, 0, 0, 0, 0x20}}, "x"}));
  const std::pair<const char*, std::size_t> bad[] = {
      {"d44b00", 0},                            // a keel ext of an unknown kind
      {"c7004b", 0},                            // without a kind
      {"c7034b1201ff00", 0},                    // int32 elements of 2 bytes
      {"d44b0f", 0},                            // an extension without its code
      {"c7094b160000000000000020", 0},          // a tag number alone
      {"93c7094b160000000000000020a178c0", 1},  // ... or in an array of three
  };
  for (const auto& [h, offset] : bad) {
    auto r = read_exact_hex(h);
    EXPECT_EQ(r.code(), error_code::bad_value) << h;
    EXPECT_EQ(r.error().offset, offset) << h;
  }
}

// The exact mode: every type (with the awkward values that stand for something else) comes
// back equal, and writes back to the same bytes.
TEST(MsgPack, ExactModeRoundTripsEveryType) {
  test::random_options o;
  o.awkward = true;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    test::generator g(seed, o);
    const message m = g.make();
    const std::string bytes = to_msgpack(m, kExactWrite);
    auto back = from_msgpack(test::as_bytes(bytes), kExactRead);
    ASSERT_TRUE(back.ok()) << seed << ": " << back.error().to_string();
    ASSERT_EQ(*back, m) << seed;
    EXPECT_EQ(to_msgpack(*back, kExactWrite), bytes) << seed;
    // Any MessagePack reader reads it: msgpack-cxx takes the whole document.
    msgpack::object_handle oh = msgpack::unpack(bytes.data(), bytes.size());
    EXPECT_TRUE(oh.get().type == msgpack::type::MAP || oh.get().type == msgpack::type::ARRAY);
  }
}

// Reading MessagePack or CBOR into a message that holds another one (of other shapes: headers or
// none, more or fewer entries, maps with non-string keys) gives exactly the fresh read; a failed
// read leaves the message empty.
TEST(MsgPack, ReadingIntoAFullMessageAlsoCbor) {
  using reader = error (*)(bytes_view, message&, const read_options&);
  using writer = std::string (*)(const message&);
  const std::pair<writer, reader> forms[] = {
      {[](const message& m) { return to_msgpack(m); }, read_msgpack},
      {[](const message& m) { return to_cbor(m); }, read_cbor},
  };
  for (const auto& [write, read] : forms) {
    test::random_options o;
    o.max_entries = 20;
    test::generator g(3, o);
    message into;
    for (int i = 0; i < 200; ++i) {
      message m = g.make();
      if (i % 3 == 0) m.header.type = "t" + std::to_string(i);
      if (i % 7 == 0)  // a map with a non-string key
        m.add("pairs", value::tagged(259, value(array{value(array{std::int64_t{1}, "x"})})));
      const std::string bytes = write(m);
      message fresh;
      ASSERT_FALSE(read(test::as_bytes(bytes), fresh, {})) << i;
      ASSERT_FALSE(read(test::as_bytes(bytes), into, {})) << i;
      ASSERT_EQ(into, fresh) << i;
      for (const auto& e : fresh) EXPECT_EQ(*into.find(e.name), *fresh.find(e.name)) << i;
    }
    EXPECT_TRUE(read(test::as_bytes(std::string("\xc1")), into, {}));
    EXPECT_EQ(into, message{});
  }
}

message interop_sample() {
  message m;
  m.add("int", std::int64_t{-123456789});
  m.add("big", std::numeric_limits<std::uint64_t>::max());
  m.add("small", std::int64_t{7});
  m.add("f32", 0.25f);
  m.add("f64", 3.141592653589793);
  m.add("str", "h\xc3\xa9llo");
  m.add("bin", value::bytes(std::string_view("\x00\xff", 2)));
  m.add("arr", array{std::int64_t{1}, "two", nullptr, true});
  m.add("map", map{{"k", std::int64_t{1}}});
  m.add("ext", extension{42, {1, 2, 3}});
  m.add("ts", timestamp{1700000000, 123456789});
  return m;
}

TEST(MsgPack, MsgpackCxxReadsKeel) {
  const std::string bytes = to_msgpack(interop_sample());
  msgpack::object_handle oh = msgpack::unpack(bytes.data(), bytes.size());
  const msgpack::object& o = oh.get();
  ASSERT_EQ(o.type, msgpack::type::MAP);
  ASSERT_EQ(o.via.map.size, 11u);
  const msgpack::object_kv* kv = o.via.map.ptr;
  EXPECT_EQ(kv[0].key.as<std::string>(), "int");
  EXPECT_EQ(kv[0].val.as<std::int64_t>(), -123456789);
  EXPECT_EQ(kv[1].val.as<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(kv[2].val.as<int>(), 7);
  EXPECT_EQ(kv[3].val.type, msgpack::type::FLOAT32);
  EXPECT_EQ(kv[3].val.as<float>(), 0.25f);
  EXPECT_EQ(kv[4].val.type, msgpack::type::FLOAT64);
  EXPECT_EQ(kv[4].val.as<double>(), 3.141592653589793);
  EXPECT_EQ(kv[5].val.as<std::string>(), "h\xc3\xa9llo");
  EXPECT_EQ(kv[6].val.type, msgpack::type::BIN);
  EXPECT_EQ(kv[6].val.via.bin.size, 2u);
  EXPECT_EQ(kv[7].val.type, msgpack::type::ARRAY);
  EXPECT_EQ(kv[7].val.via.array.ptr[1].as<std::string>(), "two");
  EXPECT_EQ(kv[8].val.type, msgpack::type::MAP);
  EXPECT_EQ(kv[9].val.type, msgpack::type::EXT);
  EXPECT_EQ(kv[9].val.via.ext.type(), 42);
  EXPECT_EQ(kv[9].val.via.ext.size, 3u);
  const auto ts = kv[10].val.as<timespec>();
  EXPECT_EQ(ts.tv_sec, 1700000000);
  EXPECT_EQ(ts.tv_nsec, 123456789);
}

TEST(MsgPack, KeelReadsMsgpackCxx) {
  msgpack::sbuffer buf;
  msgpack::packer<msgpack::sbuffer> pk(&buf);
  pk.pack_map(9);
  pk.pack(std::string("int"));
  pk.pack(std::int64_t{-123456789});
  pk.pack(std::string("big"));
  pk.pack(std::numeric_limits<std::uint64_t>::max());
  pk.pack(std::string("f32"));
  pk.pack(0.25f);
  pk.pack(std::string("f64"));
  pk.pack(3.141592653589793);
  pk.pack(std::string("str"));
  pk.pack(std::string(300, 'x'));
  pk.pack(std::string("bin"));
  pk.pack_bin(2);
  pk.pack_bin_body("\x00\xff", 2);
  pk.pack(std::string("arr"));
  pk.pack(std::vector<int>{1, 2, 3});
  pk.pack(std::string("ts"));
  pk.pack(timespec{1700000000, 5});
  pk.pack(std::string("ext"));
  pk.pack_ext(2, 7);
  pk.pack_ext_body("\x01\x02", 2);
  auto m = from_msgpack(bytes_view(reinterpret_cast<const std::uint8_t*>(buf.data()), buf.size()));
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(*m->get<std::int64_t>("int"), -123456789);
  EXPECT_EQ(*m->get<std::uint64_t>("big"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(*m->get<float>("f32"), 0.25f);
  EXPECT_EQ(*m->get<double>("f64"), 3.141592653589793);
  EXPECT_EQ(*m->get<std::string>("str"), std::string(300, 'x'));
  EXPECT_EQ(m->get<bytes_view>("bin")->size(), 2u);
  EXPECT_EQ(*m->find("arr"), value(array{std::int64_t{1}, std::int64_t{2}, std::int64_t{3}}));
  EXPECT_EQ(*m->get<timestamp>("ts"), (timestamp{1700000000, 5}));
  EXPECT_EQ(m->get<extension_view>("ext")->code, 7);
  // And keel writes it back byte for byte (msgpack-cxx also writes the smallest encodings).
  EXPECT_EQ(to_msgpack(*m), std::string(buf.data(), buf.size()));
}

TEST(MsgPack, MsgpackCxxReadsTheExactMode) {
  message m = interop_sample();
  m.add("u16", std::uint16_t{300});
  m.add("i8", std::int8_t{-5});
  m.add("v", std::vector<double>{1.5, -2.0});
  m.add("g", value::tagged(32, value("http://x")));
  const std::string bytes = to_msgpack(m, kExactWrite);
  msgpack::object_handle oh = msgpack::unpack(bytes.data(), bytes.size());
  const msgpack::object& o = oh.get();
  ASSERT_EQ(o.type, msgpack::type::MAP);
  ASSERT_EQ(o.via.map.size, 15u);
  const msgpack::object_kv* kv = o.via.map.ptr;
  EXPECT_EQ(kv[0].val.as<std::int64_t>(), -123456789);
  EXPECT_EQ(kv[1].val.as<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(kv[2].val.as<int>(), 7);
  EXPECT_EQ(kv[11].val.as<int>(), 300);
  EXPECT_EQ(kv[12].val.as<int>(), -5);
  EXPECT_EQ(kv[13].val.type, msgpack::type::EXT);  // the typed array: keel ext 75
  EXPECT_EQ(kv[13].val.via.ext.type(), 75);
  EXPECT_EQ(kv[13].val.via.ext.size, 17u);
  double second = 0;
  std::memcpy(&second, kv[13].val.via.ext.data() + 9, 8);
  EXPECT_EQ(second, -2.0);
  ASSERT_EQ(kv[14].val.type, msgpack::type::ARRAY);  // [keel ext, "http://x"]
  EXPECT_EQ(kv[14].val.via.array.ptr[1].as<std::string>(), "http://x");
  const auto ts = kv[10].val.as<timespec>();
  EXPECT_EQ(ts.tv_nsec, 123456789);
  // And it reads back equal in the exact mode.
  EXPECT_EQ(*from_msgpack(test::as_bytes(bytes), kExactRead), m);
}

TEST(MsgPack, ExactModeReadsMsgpackCxx) {
  msgpack::sbuffer buf;
  msgpack::packer<msgpack::sbuffer> pk(&buf);
  pk.pack_map(4);
  pk.pack(std::string("small"));
  pk.pack(7);
  pk.pack(std::string("u8"));
  pk.pack(200);
  pk.pack(std::string("neg"));
  pk.pack(-1000);
  pk.pack(std::string("f"));
  pk.pack(0.5);
  auto m = from_msgpack(bytes_view(reinterpret_cast<const std::uint8_t*>(buf.data()), buf.size()),
                        kExactRead);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  // Values as in the standard mode; the width is the one msgpack-cxx chose.
  EXPECT_EQ(*m->find("small"), value(std::int64_t{7}));
  EXPECT_EQ(*m->find("u8"), value(std::uint8_t{200}));
  EXPECT_EQ(*m->find("neg"), value(std::int16_t{-1000}));
  EXPECT_EQ(*m->get<double>("f"), 0.5);
  // Written back in the exact mode: the same bytes.
  EXPECT_EQ(hex(to_msgpack(*m, kExactWrite)), hex(std::string(buf.data(), buf.size())));
}

}  // namespace
}  // namespace keel::msg
