// SPDX-License-Identifier: MIT
// keel binary form: exact bytes, round-trip properties over random messages of every type, and
// the reader's errors (truncation, forged lengths, bad tags, depth, UTF-8) with their offsets.
#include <gtest/gtest.h>

#include <string>

#include "keel/msg.h"
#include "random_message.h"
#include "test_util.h"

namespace keel::msg {
namespace {

using test::hex;
using test::unhex;

TEST(MsgBinary, ExactBytes) {
  message m(header{"s", "", "t", "", "ty", "1"});
  m.add("n", value());
  m.add("b", true);
  m.add("i", std::int16_t{-2});
  m.add("u", std::uint32_t{1});
  m.add("f", 1.0f);
  m.add("x", "hé");
  m.add("m", map{{"k", std::uint8_t{7}}});
  m.add("a", std::vector<std::int32_t>{1, -1});
  m.add("g", value::tagged(300, value()));
  // docs/msg-format.md walks through these bytes.
  EXPECT_EQ(hex(to_binary(m)),
            "4b4d534701000173000174000274790131"  // KMSG v1 flags 0; header strings
            "09"                                  // 9 entries
            "016e00"                              // n: null
            "016202"                              // b: true
            "016904feff"                          // i: int16 -2
            "01750901000000"                      // u: uint32 1
            "01660b0000803f"                      // f: float32 1.0
            "01780d0368c3a9"                      // x: string "hé"
            "016d1105000000"
            "01016b0707"  // m: map, 5 bytes: 1 entry k: uint8 7
            "016113"
            "02"
            "01000000ffffffff"  // a: int32[] of 2
            "016717"
            "ac02"
            "00");  // g: tag 300, null
}

TEST(MsgBinary, RoundTripRandomMessages) {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    test::generator g(seed);
    const message m = g.make();
    const std::string bytes = to_binary(m);
    auto back = from_binary(bytes);
    ASSERT_TRUE(back.ok()) << seed << ": " << back.error().to_string();
    ASSERT_EQ(*back, m) << seed;
    EXPECT_EQ(to_binary(*back), bytes) << seed;
  }
}

TEST(MsgBinary, BufferReuse) {
  test::generator g(7);
  std::string out;
  for (int i = 0; i < 20; ++i) {
    const message m = g.make();
    write_binary(m, out);
    EXPECT_EQ(out, to_binary(m));
    message back;
    ASSERT_FALSE(read_binary(
        bytes_view(reinterpret_cast<const std::uint8_t*>(out.data()), out.size()), back));
    EXPECT_EQ(back, m);
  }
}

// Reading into a message that holds another one reuses its storage: the result must be exactly
// the fresh read, whatever the old contents were (more or fewer entries, other types, heap or
// inline strings, nested maps and arrays of other sizes), and lookups must see the new entries.
TEST(MsgBinary, ReadingIntoAFullMessage) {
  test::random_options o;
  o.max_entries = 30;
  test::generator g(11, o);
  message into;
  for (int i = 0; i < 200; ++i) {
    const message m = g.make();
    const std::string bytes = to_binary(m);
    ASSERT_FALSE(read_binary(
        bytes_view(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), into));
    ASSERT_EQ(into, m) << i;
    EXPECT_EQ(to_binary(into), bytes) << i;
    for (const auto& e : m) {
      const value* found = into.find(e.name);
      ASSERT_NE(found, nullptr) << i << " " << e.name;
      EXPECT_EQ(*found, *m.find(e.name)) << i << " " << e.name;
    }
    EXPECT_FALSE(into.contains("\xff not a name"));
  }
}

TEST(MsgBinary, AFailedReadLeavesTheMessageEmpty) {
  test::generator g(5);
  message into = g.make();
  into.header.type = "old";
  into.add("x", 1);
  std::string bytes = to_binary(into);
  bytes.pop_back();
  EXPECT_TRUE(read_binary(
      bytes_view(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), into));
  EXPECT_EQ(into, message{});
}

TEST(MsgBinary, EveryPrefixIsTruncated) {
  test::generator g(99);
  const message m = g.make();
  const std::string bytes = to_binary(m);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = from_binary(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_LE(r.error().offset, n);
    EXPECT_TRUE(r.code() == error_code::truncated || r.code() == error_code::bad_length ||
                r.code() == error_code::invalid_utf8)
        << n << " " << r.error().to_string();
  }
}

TEST(MsgBinary, FlippedBytesNeverCrash) {
  test::generator g(5);
  const std::string bytes = to_binary(g.make());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string b = bytes;
      b[i] = static_cast<char>(b[i] ^ (1 << bit));
      auto r = from_binary(b);
      if (r.ok()) {
        EXPECT_EQ(to_binary(*r), b);  // canonical: whatever reads back writes the same bytes
      } else {
        EXPECT_LE(r.error().offset, b.size());
      }
    }
  }
}

std::string cat(std::string_view a, std::string_view b) {
  std::string r;
  r.reserve(a.size() + b.size());
  r.append(a).append(b);
  return r;
}

error_code read_code(std::string_view h, std::size_t* offset = nullptr, read_options o = {}) {
  auto r = from_binary(unhex(h), o);
  if (offset != nullptr) *offset = r.error().offset;
  return r.code();
}

constexpr std::string_view kEmptyHead = "4b4d53470100000000000000";  // preamble, 6 empty strings

TEST(MsgBinary, Errors) {
  std::size_t off = 0;
  EXPECT_EQ(read_code(""), error_code::truncated);
  EXPECT_EQ(read_code("4b4d"), error_code::truncated);
  EXPECT_EQ(read_code("4b4e", &off), error_code::bad_magic);
  EXPECT_EQ(read_code("7b7d"), error_code::bad_magic);
  EXPECT_EQ(read_code("4b4d534702000000000000000000", &off), error_code::bad_version);
  EXPECT_EQ(off, 4u);
  EXPECT_EQ(read_code("4b4d534701010000000000000000", &off), error_code::bad_tag);
  EXPECT_EQ(off, 5u);
  const std::string h(kEmptyHead);
  EXPECT_EQ(read_code(cat(h, "00")), error_code::ok);
  EXPECT_EQ(read_code(cat(h, "0000"), &off), error_code::trailing_bytes);
  EXPECT_EQ(off, 13u);
  // One entry "a" with an unknown tag.
  EXPECT_EQ(read_code(cat(h, "01016119"), &off), error_code::bad_tag);
  EXPECT_EQ(off, 15u);
  // A string length beyond the input.
  EXPECT_EQ(read_code(cat(h, "0101610d05616263"), &off), error_code::truncated);
  // A forged count: a billion entries in 4 bytes is refused before anything is allocated.
  EXPECT_EQ(read_code(cat(h, "8094ebdc03"), &off), error_code::bad_length);
  EXPECT_EQ(off, 12u);
  // Typed array count larger than the bytes left.
  EXPECT_EQ(read_code(cat(h, "01016116ffffffff0f")), error_code::bad_length);
  // Non-minimal and overlong varints.
  EXPECT_EQ(read_code(cat(h, "8000")), error_code::bad_varint);
  EXPECT_EQ(read_code(cat(h, "ffffffffffffffffffff01")), error_code::bad_varint);
  // Invalid UTF-8 in a name and in a string value; bytes may hold anything.
  EXPECT_EQ(read_code(cat(h, "0101ff00"), &off), error_code::invalid_utf8);
  EXPECT_EQ(off, 14u);
  EXPECT_EQ(read_code(cat(h, "0101610d02c328")), error_code::invalid_utf8);
  EXPECT_EQ(read_code(cat(h, "0101610e02c328")), error_code::ok);
  // Nested length that does not match its contents, and one past the end.
  EXPECT_EQ(read_code(cat(h, "010161110200000000")), error_code::bad_length);
  EXPECT_EQ(read_code(cat(h, "0101611101000000")), error_code::bad_length);
  EXPECT_EQ(read_code(cat(h, "01016111ffffff0000")), error_code::bad_length);
  // Timestamp nanoseconds out of range.
  EXPECT_EQ(read_code(cat(h, "0101610f00000000000000000000ca9a3b")), error_code::bad_value);
  // Booleans have no payload; false is 01.
  EXPECT_EQ(read_code(cat(h, "01016101")), error_code::ok);
}

TEST(MsgBinary, DepthLimit) {
  // 200 nested arrays; the default limit is 128, and 300 tags in a chain are refused the same way.
  map inner;
  value v(array{});
  for (int i = 0; i < 200; ++i) v = value(array{std::move(v)});
  message m;
  m.add("deep", v);
  const std::string bytes = to_binary(m);
  EXPECT_EQ(from_binary(bytes).code(), error_code::depth_exceeded);
  read_options o;
  o.max_depth = 300;
  EXPECT_TRUE(from_binary(bytes, o).ok());
  value t = value();
  for (int i = 0; i < 300; ++i) t = value::tagged(1, std::move(t));
  message mt;
  mt.add("t", t);
  EXPECT_EQ(from_binary(to_binary(mt)).code(), error_code::depth_exceeded);
  o.max_depth = 400;
  EXPECT_TRUE(from_binary(to_binary(mt), o).ok());
}

TEST(MsgBinary, SizeLimit) {
  message m;
  m.add("s", std::string(1000, 'x'));
  read_options o;
  o.max_size = 100;
  EXPECT_EQ(from_binary(to_binary(m), o).code(), error_code::too_large);
}

}  // namespace
}  // namespace keel::msg
