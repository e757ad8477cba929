// SPDX-License-Identifier: MIT
// Batches: contiguous and separate encoding, parallel decoding, on a pool and serially; the
// contiguous output must equal the values encoded one by one, back to back.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "keel/bincode.h"
#include "keel/bincode/batch.h"
#include "keel/pool.h"

namespace kb = keel::bincode;

namespace {

struct order {
  std::uint64_t id;
  std::string sym;
  std::vector<std::int32_t> legs;
  std::optional<char32_t> mark;
  bool operator==(const order&) const = default;
};

std::vector<order> make_orders(std::size_t n) {
  std::vector<order> v;
  for (std::size_t i = 0; i < n; ++i)
    v.push_back({i * 977, std::string(i % 13, static_cast<char>('a' + i % 26)),
                 std::vector<std::int32_t>(i % 5, -static_cast<std::int32_t>(i)),
                 i % 3 ? std::optional<char32_t>(U'\u20ac') : std::nullopt});
  return v;
}

template <class Exec>
void contiguous_round_trip(Exec&& exec, const kb::config& c) {
  const auto orders = make_orders(5000);
  kb::buffer out;
  std::vector<std::size_t> offsets;
  auto st = kb::encode_batch(exec, std::span<const order>(orders), out, offsets, c);
  ASSERT_TRUE(st.ok());
  ASSERT_EQ(offsets.size(), orders.size() + 1);
  std::vector<std::uint8_t> serial;
  for (const auto& o : orders) ASSERT_TRUE(kb::encode_append(o, serial, c).ok());
  ASSERT_EQ(std::vector<std::uint8_t>(out.begin(), out.end()), serial);

  std::vector<order> back;
  st = kb::decode_batch(exec, std::span<const std::uint8_t>(out.data(), out.size()), offsets, back,
                        c);
  ASSERT_TRUE(st.ok()) << st.error.to_string();
  EXPECT_EQ(back, orders);
}

}  // namespace

TEST(BincodeBatch, ContiguousOnPool) {
  keel::pool::thread_pool pool(2);
  contiguous_round_trip(pool, kb::standard());
  contiguous_round_trip(pool, kb::legacy().with_big_endian());
}

TEST(BincodeBatch, ContiguousSerial) { contiguous_round_trip(kb::serial, kb::v1_options()); }

TEST(BincodeBatch, SeparateBuffers) {
  keel::pool::thread_pool pool(2);
  const auto orders = make_orders(3000);
  std::vector<kb::buffer> outs;
  ASSERT_TRUE(kb::encode_batch(pool, std::span<const order>(orders), outs, kb::standard()).ok());
  ASSERT_EQ(outs.size(), orders.size());
  for (std::size_t i = 0; i < orders.size(); i += 97) {
    auto one = kb::encode_to_vector(orders[i], kb::standard());
    EXPECT_EQ(std::vector<std::uint8_t>(outs[i].begin(), outs[i].end()), *one);
  }
  std::vector<order> back;
  ASSERT_TRUE(kb::decode_batch(pool, std::span<const kb::buffer>(outs), back, kb::standard()).ok());
  EXPECT_EQ(back, orders);
}

TEST(BincodeBatch, ReportsLowestFailingIndex) {
  keel::pool::thread_pool pool(2);
  std::vector<char32_t> chars(2000, U'a');
  chars[1500] = 0xD800;  // a surrogate cannot be encoded
  chars[700] = 0x110000;
  kb::buffer out;
  std::vector<std::size_t> offsets;
  auto st = kb::encode_batch(pool, std::span<const char32_t>(chars), out, offsets, kb::standard());
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.failed, 700u);
  EXPECT_EQ(st.error.code, kb::error_code::invalid_char);

  // Option<bool>: Some(true) is {1, 1}
  std::vector<std::vector<std::uint8_t>> inputs(1000, std::vector<std::uint8_t>{1, 1});
  inputs[800] = {1, 2};
  inputs[900] = {1};
  inputs[950] = {1, 1, 0};  // trailing byte
  std::vector<std::optional<bool>> outs;
  auto d = kb::decode_batch(pool, std::span<const std::vector<std::uint8_t>>(inputs), outs,
                            kb::standard());
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.failed, 800u);
  EXPECT_EQ(d.error.code, kb::error_code::invalid_bool);
  inputs[800] = {0};
  d = kb::decode_batch(kb::serial, std::span<const std::vector<std::uint8_t>>(inputs), outs,
                       kb::standard());
  EXPECT_EQ(d.failed, 900u);
  EXPECT_EQ(d.error.code, kb::error_code::unexpected_end);
  inputs[900] = {1, 0};
  d = kb::decode_batch(pool, std::span<const std::vector<std::uint8_t>>(inputs), outs,
                       kb::standard());
  EXPECT_EQ(d.failed, 950u);
  EXPECT_EQ(d.error.code, kb::error_code::trailing_bytes);

  // Offsets outside the bytes are rejected before decoding.
  std::vector<std::uint8_t> bytes{0, 0};
  std::vector<std::size_t> offs{0, 1, 3};
  d = kb::decode_batch(kb::serial, std::span<const std::uint8_t>(bytes), offs, outs,
                       kb::standard());
  EXPECT_EQ(d.failed, 1u);
  offs = {0, 1, 2};
  d = kb::decode_batch(kb::serial, std::span<const std::uint8_t>(bytes), offs, outs,
                       kb::standard());
  EXPECT_TRUE(d.ok());
  EXPECT_EQ(outs, (std::vector<std::optional<bool>>{std::nullopt, std::nullopt}));
}

// A value whose codec throws (a user codec may): the batch on a pool rethrows once every thread
// stopped, and the pool stays usable.
namespace {
struct throws_at {
  std::uint32_t v;
};
}  // namespace

template <>
struct keel::bincode::codec<throws_at> {
  template <class F>
  [[maybe_unused]] static constexpr std::size_t min_size = 4;
  template <class F>
  static constexpr std::size_t fixed_size = npos;
  template <class F>
  static std::size_t size(const throws_at& t) {
    if (t.v == 7777) throw std::runtime_error("size of 7777");
    return 4;
  }
  template <class F, class W>
  static void encode(W& w, const throws_at& t) {
    w.raw(detail::ordered<F>(t.v));
  }
  template <class F>
  static bool decode(detail::reader& r, throws_at& t) {
    if (!r.need(4)) return false;
    t.v = detail::ordered<F>(r.take_raw<std::uint32_t>());
    return true;
  }
};

namespace {

TEST(BincodeBatch, BlocksCoverEveryIndexOnce) {
  keel::pool::thread_pool pool(2);
  for (std::size_t n : {0u, 1u, 2u, 255u, 256u, 257u, 1000u, 50000u}) {
    std::vector<throws_at> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i].v = static_cast<std::uint32_t>(i % 7000);
    kb::buffer out;
    std::vector<std::size_t> offsets;
    ASSERT_TRUE(
        kb::encode_batch(pool, std::span<const throws_at>(in), out, offsets, kb::legacy()).ok());
    ASSERT_EQ(out.size(), 4 * n);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t v;
      std::memcpy(&v, out.data() + 4 * i, 4);
      ASSERT_EQ(v, i % 7000) << n << " " << i;
    }
  }
}

TEST(BincodeBatch, ExceptionFromAValueIsRethrown) {
  keel::pool::thread_pool pool(1);
  std::vector<throws_at> in(20000);
  for (std::size_t i = 0; i < in.size(); ++i) in[i].v = static_cast<std::uint32_t>(i);
  kb::buffer out;
  std::vector<std::size_t> offsets;
  EXPECT_THROW(
      (void)kb::encode_batch(pool, std::span<const throws_at>(in), out, offsets, kb::legacy()),
      std::runtime_error);
  in[7777].v = 1;
  EXPECT_TRUE(
      kb::encode_batch(pool, std::span<const throws_at>(in), out, offsets, kb::legacy()).ok());
  EXPECT_EQ(out.size(), 4 * in.size());
}

}  // namespace
