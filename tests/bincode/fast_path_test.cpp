// SPDX-License-Identifier: MIT
// The whole-vector fast paths of encode() into a vector and decode_into() a vector (fixint, the
// machine's byte order, memcpy-able elements): every size around the inline-copy boundaries must
// give the bytes and the errors of the general path. The general path is reached through a
// one-field tuple, whose wire bytes are the vector's own.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "bincode/copy_kernel.h"
#include "keel/bincode.h"

namespace kb = keel::bincode;
using bytes = std::vector<std::uint8_t>;

namespace {

const kb::config fast_configs[] = {kb::legacy(), kb::v1_serialize(),
                                   kb::legacy().reject_trailing_bytes(),
                                   kb::v1_serialize().with_limit(1 << 20)};
const kb::config other_configs[] = {kb::standard(), kb::legacy().with_big_endian(),
                                    kb::v1_serialize().with_limit(40), kb::legacy().with_limit(40)};

template <class E>
std::vector<E> values(std::size_t n) {
  std::vector<E> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<E>(static_cast<std::uint64_t>(i + 1) * 0x9E3779B97F4A7C15ull >> 5);
  return v;
}

template <class V>
bytes general_encode(const V& v, const kb::config& c) {
  auto r = kb::encode_to_vector(std::tuple<V>(v), c);  // empty when over an encode limit
  return r.ok() ? *r : bytes{};
}

template <class E>
void check_encode(std::size_t n) {
  const auto v = values<E>(n);
  for (const auto& c : fast_configs) {
    const bytes want = general_encode(v, c);
    ASSERT_EQ(want.size(), 8 + n * sizeof(E));
    for (std::size_t extra : {0u, 1u, 100u}) {  // capacity exactly enough, and more
      kb::buffer out;
      out.reserve(want.size() + extra);
      out.assign(3, 0xAB);  // old contents are replaced
      auto r = kb::encode(v, out, c);
      ASSERT_TRUE(r.ok()) << r.error().to_string();
      EXPECT_EQ(*r, want.size());
      EXPECT_EQ(bytes(out.begin(), out.end()), want) << n;
      // A span of the same elements, and a std::vector<uint8_t> output (zero-filling allocator).
      std::vector<std::uint8_t> out2(want.size() + extra, 0xCD);
      r = kb::encode(std::span<const E>(v), out2, c);
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(out2, want);
    }
    kb::buffer small;  // no capacity: the general path grows it
    ASSERT_TRUE(kb::encode(v, small, c).ok());
    EXPECT_EQ(bytes(small.begin(), small.end()), want);
  }
  for (const auto& c : other_configs) {
    kb::buffer out;
    out.reserve(1024);
    auto r = kb::encode(v, out, c);
    auto g = kb::encode_to_vector(std::tuple<std::vector<E>>(v), c);
    ASSERT_EQ(r.ok(), g.ok());
    if (r.ok())
      EXPECT_EQ(bytes(out.begin(), out.end()), *g);
    else
      EXPECT_EQ(r.error(), g.error());
  }
}

template <class E>
void check_decode(std::size_t n) {
  const auto v = values<E>(n);
  for (const auto& c : std::array{fast_configs[0], fast_configs[1], fast_configs[2],
                                  fast_configs[3], other_configs[1], other_configs[2]}) {
    bytes b = general_encode(v, c);
    if (b.empty()) b = general_encode(v, kb::legacy());  // limit too small to encode
    b.push_back(7);                                      // one trailing byte
    // Every prefix (truncated, exact, trailing byte) and a forged length.
    for (std::size_t cut = 0; cut <= b.size(); ++cut) {
      const std::span<const std::uint8_t> in(b.data(), cut);
      std::vector<E> got(3, E{1});
      std::tuple<std::vector<E>> want;
      auto r = kb::decode_into(got, in, c);
      auto w = kb::decode_into(want, in, c);
      ASSERT_EQ(r.ok(), w.ok()) << n << " cut " << cut;
      if (r.ok()) {
        EXPECT_EQ(*r, *w);
        EXPECT_EQ(got, std::get<0>(want));
      } else {
        EXPECT_EQ(r.error(), w.error()) << n << " cut " << cut;
      }
    }
    bytes forged = b;
    ASSERT_GE(forged.size(), 8u);
    forged[7] = 0x40;  // length about 2^62 (little or big endian: a huge value either way)
    forged[0] = 0x40;
    std::vector<E> got;
    auto r = kb::decode_into(got, forged, c);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(got.capacity() < 1024);
  }
}

const std::size_t sizes[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,   15,  16,  17,   24,  31,
                             32, 33, 40, 48, 63, 64, 65, 100, 255, 256, 257, 1000, 4096};

TEST(BincodeFastPath, EncodeVectorsOfEveryWidth) {
  for (std::size_t n : sizes) {
    check_encode<std::uint8_t>(n);
    check_encode<std::uint16_t>(n);
    check_encode<std::int32_t>(n);
    if (n <= 1000) check_encode<std::uint64_t>(n);
  }
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 300u}) check_encode<double>(n);
}

TEST(BincodeFastPath, DecodeVectorsMatchTheGeneralPath) {
  for (std::size_t n : {0u, 1u, 3u, 7u, 8u, 9u, 16u, 33u, 64u, 65u, 70u}) {
    check_decode<std::uint8_t>(n);
    check_decode<std::uint64_t>(n);
  }
  for (std::size_t n : {0u, 5u, 8u, 40u}) check_decode<float>(n);
}

TEST(BincodeFastPath, DecodeReusesCapacity) {
  const auto v = values<std::uint64_t>(8);
  const bytes b = general_encode(v, kb::legacy());
  std::vector<std::uint64_t> got;
  got.reserve(64);
  const auto* data = got.data();
  auto r = kb::decode_into(got, b, kb::legacy());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 72u);
  EXPECT_EQ(got, v);
  EXPECT_EQ(got.data(), data);
}

// The block copies (copy.cpp: the chosen set's kernels for copy_kernel_min .. 16384 bytes,
// memcpy otherwise) at every size around the kernels' boundaries and shapes, at every
// destination offset within a 64-byte line (the kernels align their stores to it) and several
// source offsets: the bytes equal the source and nothing around the destination changes.
// The encoder's put_length_prefixed_block writes the u64 length before the payload (8 + n bytes).
constexpr std::size_t copy_sizes[] = {0,    1,    64,   65,   71,    72,    120,   128,   129,
                                      136,  160,  161,  192,  193,   248,   255,   256,   257,
                                      264,  320,  321,  504,  1024,  1025,  1032,  2112,  2113,
                                      2176, 2368, 4096, 4097, 10000, 16376, 16383, 16384, 16385};
constexpr std::size_t copy_dst_offsets[] = {0, 1, 8, 31, 56, 57, 63};
constexpr std::size_t copy_src_offsets[] = {0, 8, 33};

// The destination's placement relative to the source modulo 4 KiB, fixed (not left to the heap):
// 128 bytes ahead puts every offset pair 95..199 bytes ahead (the kernels' backward body, under
// 256: copy_kernel.h, aliases_forward), 2048 ahead the forward body.
constexpr std::size_t copy_dst_ahead[] = {128, 2048};

template <class Copy>
void check_copy_with(Copy&& copy, std::size_t prefix) {
  constexpr std::size_t src_size = 16385 + 128, dst_size = 16385 + 512;
  constexpr std::size_t src_span = (src_size + 4095) / 4096 * 4096;
  // The source at a 4 KiB boundary of mem, the destination region src_span + ahead after it.
  std::vector<std::uint8_t> mem(4096 + src_span + 4096 + dst_size);
  std::uint8_t* const src =
      mem.data() + ((4096 - (reinterpret_cast<std::uintptr_t>(mem.data()) & 4095)) & 4095);
  for (std::size_t i = 0; i < src_size; ++i) src[i] = static_cast<std::uint8_t>(i * 131 + 7);
  const std::uint64_t len = 0x0102030405060708ull;
  for (std::size_t ahead : copy_dst_ahead) {
    std::uint8_t* const dst = src + src_span + ahead - 64;  // base (dst + 64) is `ahead` ahead
    std::uint8_t* const base = dst + 64;
    for (std::size_t n : copy_sizes) {
      for (std::size_t d_off : copy_dst_offsets) {
        for (std::size_t s_off : copy_src_offsets) {
          std::fill(dst, dst + dst_size, std::uint8_t{0xEE});
          copy(base + d_off, len, src + s_off, n);
          for (std::size_t i = 0; i < dst_size; ++i) {
            const std::size_t start = 64 + d_off;
            std::uint8_t want = 0xEE;
            if (i >= start && i < start + prefix)
              want = static_cast<std::uint8_t>(len >> (8 * (i - start)));
            else if (i >= start + prefix && i < start + prefix + n)
              want = src[s_off + i - start - prefix];
            ASSERT_EQ(dst[i], want) << "n " << n << " dst+" << d_off << " src+" << s_off
                                    << " ahead " << ahead << " at " << i;
          }
        }
      }
    }
  }
}

template <class Copy>
void check_copy(Copy&& copy) {
  check_copy_with([&copy](void* d, std::uint64_t, const void* s, std::size_t n) { copy(d, s, n); },
                  0);
}

void check_copy_prefixed() {
  check_copy_with(
      [](void* d, std::uint64_t len, const void* s, std::size_t n) {
        kb::detail::put_length_prefixed_block(static_cast<std::uint8_t*>(d), s, len, n);
      },
      8);
}

// The vector kernel sets this CPU runs (the scalar path copies with memcpy).
std::vector<std::pair<keel::isa, kb::detail::copy_fn>> kernel_sets() {
  std::vector<std::pair<keel::isa, kb::detail::copy_fn>> out;
  if (keel::isa_supported(keel::isa::avx2))
    out.emplace_back(keel::isa::avx2, kb::detail::copy_kernel_avx2);
  if (keel::isa_supported(keel::isa::avx512))
    out.emplace_back(keel::isa::avx512, kb::detail::copy_kernel_avx512);
  return out;
}

// Every path this CPU runs.
std::vector<keel::isa> paths() {
  std::vector<keel::isa> out{keel::isa::scalar};
  for (const auto& [which, kernels] : kernel_sets()) out.push_back(which);
  return out;
}

// Runs `body` with every path's copies forced in turn (then restores the automatic choice).
template <class Body>
void on_every_path(Body&& body) {
  for (const keel::isa which : paths()) {
    SCOPED_TRACE(keel::isa_name(which));
    ASSERT_EQ(kb::detail::set_copy_block_isa(which), which);
    EXPECT_STREQ(kb::detail::copy_block_isa(), keel::isa_name(which));
    body();
  }
  kb::detail::set_copy_block_isa(keel::isa::automatic);
}

// Run by ctest once per KEEL_BINCODE_ISA value (bincode.env_isa_*): the switch picks the copy
// (a set this CPU lacks: the best it runs), and every size and offset is still copied right
// through it.
TEST(BincodeEnvIsa, SelectsTheCopy) {
  const char* want = std::getenv("KEEL_BINCODE_ISA");
  if (!want) GTEST_SKIP() << "KEEL_BINCODE_ISA not set";
  const keel::isa named = keel::parse_isa(want);
  ASSERT_NE(named, keel::isa::automatic) << want;
  const keel::isa expect = keel::isa_supported(named) ? named : keel::best_isa();
  EXPECT_STREQ(kb::detail::copy_block_isa(), keel::isa_name(expect));
  check_copy(kb::detail::copy_block);
  check_copy_prefixed();
}

// Forcing a set: the one named if the CPU runs it; `automatic` returns to the default choice.
TEST(BincodeFastPath, SetCopyBlockIsa) {
  for (const keel::isa which : paths()) EXPECT_EQ(kb::detail::set_copy_block_isa(which), which);
  const keel::isa automatic = kb::detail::set_copy_block_isa(keel::isa::automatic);
  EXPECT_TRUE(keel::isa_supported(automatic));
  EXPECT_NE(automatic, keel::isa::automatic);
  EXPECT_STREQ(kb::detail::copy_block_isa(), keel::isa_name(automatic));
  if (!keel::isa_supported(keel::isa::avx512)) {
    EXPECT_EQ(kb::detail::set_copy_block_isa(keel::isa::avx512), automatic);
  }
}

TEST(BincodeFastPath, BlockCopyEverySizeAndOffset) {
  on_every_path([] {
    check_copy(kb::detail::copy_block);
    check_copy_prefixed();
  });
  // The kernels alone, at every size they take (more than 64 bytes; dispatched from
  // copy_kernel_min).
  for (const auto& [which, kernel] : kernel_sets()) {
    SCOPED_TRACE(keel::isa_name(which));
    const kb::detail::copy_fn k = kernel;
    check_copy([k](void* d, const void* s, std::size_t n) {
      if (n > 64 && n <= kb::detail::copy_kernel_max)
        k(static_cast<std::uint8_t*>(d), static_cast<const std::uint8_t*>(s), n);
      else
        std::memcpy(d, s, n);
    });
  }
}

// The whole-vector fast paths give the general path's bytes on every path's kernels.
TEST(BincodeFastPath, VectorsOnEveryPath) {
  on_every_path([] {
    for (std::size_t n : {65u, 100u, 257u, 1000u, 2049u, 4096u}) check_encode<std::uint8_t>(n);
    for (std::size_t n : {9u, 100u, 300u, 2048u}) check_encode<std::uint64_t>(n);
    for (std::size_t n : {9u, 65u, 70u}) check_decode<std::uint64_t>(n);
  });
}

// The kernels read only the source: a source that starts right after an inaccessible page, or
// ends right before one, must not fault.
TEST(BincodeFastPath, KernelsReadNothingOutsideTheSource) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* m = mmap(nullptr, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* base = static_cast<std::uint8_t*>(m);
  ASSERT_EQ(mprotect(base, page, PROT_NONE), 0);
  ASSERT_EQ(mprotect(base + 2 * page, page, PROT_NONE), 0);
  std::uint8_t* const mid = base + page;  // readable: [mid, mid + page)
  for (std::size_t i = 0; i < page; ++i) mid[i] = static_cast<std::uint8_t>(i * 7 + 1);
  std::vector<std::uint8_t> dst(page + 128);
  for (const auto& [which, kernel] : kernel_sets()) {
    SCOPED_TRACE(keel::isa_name(which));
    for (std::size_t n :
         {std::size_t{65}, std::size_t{127}, std::size_t{128}, std::size_t{160}, std::size_t{257},
          std::size_t{320}, std::size_t{1024}, std::size_t{1031}, page}) {
      for (const std::uint8_t* src : {mid, mid + page - n}) {
        kernel(dst.data() + 1, src, n);
        EXPECT_EQ(std::memcmp(dst.data() + 1, src, n), 0) << n;
      }
    }
  }
  munmap(m, 3 * page);
}

}  // namespace

namespace {

// size_result is one word (code in the top 4 bits): every code and offset round-trips.
TEST(BincodeResult, SizeResultIsOneWordAndRoundTrips) {
  static_assert(sizeof(kb::size_result) == 8);
  static_assert(std::is_trivially_copyable_v<kb::size_result>);
  const kb::size_result ok = std::size_t{(std::uint64_t{1} << 60) - 1};
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(*ok, (std::uint64_t{1} << 60) - 1);
  EXPECT_EQ(ok.value(), (std::uint64_t{1} << 60) - 1);
  EXPECT_EQ(ok.error(), (kb::error{kb::error_code::ok, 0}));
  for (int c = 1; c <= static_cast<int>(kb::error_code::out_of_memory); ++c) {
    for (std::size_t off : {std::size_t{0}, std::size_t{12345}, std::size_t{1} << 59}) {
      const kb::error e{static_cast<kb::error_code>(c), off};
      const kb::size_result r = e;
      EXPECT_FALSE(r.ok());
      EXPECT_FALSE(static_cast<bool>(r));
      EXPECT_EQ(r.error(), e);
      EXPECT_THROW((void)r.value(), kb::exception);
    }
  }
  // Through the API: a truncated input reports where the bytes were missing.
  const std::uint8_t bad[] = {5, 0, 0, 0, 0, 0, 0, 0, 1, 2};
  std::vector<std::uint64_t> v;
  const auto r = kb::decode_into(v, bad, kb::legacy());
  EXPECT_EQ(r.error().code, kb::error_code::unexpected_end);
}

}  // namespace
