// SPDX-License-Identifier: MIT
// Numeric operations on every instruction-set path (forced): exact integer results, float results
// within the documented bound of a compensated scalar sum, min/max, scale, errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "keel/msg.h"

namespace keel::msg {
namespace {

__extension__ typedef __int128 i128;

std::vector<simd_isa> paths() {
  std::vector<simd_isa> out;
  for (simd_isa i : {simd_isa::scalar, simd_isa::avx2, simd_isa::avx512})
    if (keel::isa_supported(i)) out.push_back(i);
  return out;
}

const std::size_t kLengths[] = {0,  1,  2,  3,  7,   8,   15,  16,  17,   31,  32,
                                33, 63, 64, 65, 127, 128, 129, 255, 1000, 4099};

// Neumaier's compensated sum and the sum of magnitudes (for the bound).
struct reference {
  double sum = 0, c = 0, abs = 0;
  void add(double x) {
    const double t = sum + x;
    c += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
    abs += std::fabs(x);
  }
  double value() const { return sum + c; }
};

double bound(std::size_t n, simd_isa isa, double abs) {
  const double lanes = isa == simd_isa::avx512 ? 32 : isa == simd_isa::avx2 ? 16 : 8;
  return (static_cast<double>(n) / lanes + lanes + 1) * std::ldexp(1.0, -53) * abs;
}

TEST(MsgNumeric, IntegerSumsAndDotsAreExact) {
  std::mt19937_64 rng(1);
  for (simd_isa isa : paths()) {
    for (std::size_t n : kLengths) {
      std::vector<std::int32_t> a(n), b(n);
      std::vector<std::int64_t> c(n);
      i128 sa = 0, sc = 0, dab = 0;
      for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<std::int32_t>(rng());
        b[i] = i % 5 == 0 ? std::numeric_limits<std::int32_t>::min()
                          : static_cast<std::int32_t>(rng());
        c[i] = static_cast<std::int64_t>(rng()) >> (i % 3 == 0 ? 0 : 20);
        sa += a[i];
        sc += c[i];
        dab += static_cast<i128>(a[i]) * b[i];
      }
      EXPECT_EQ(*sum(std::span<const std::int32_t>(a), isa), static_cast<std::int64_t>(sa));
      auto s = sum(std::span<const std::int64_t>(c), isa);
      if (sc >= INT64_MIN && sc <= INT64_MAX)
        EXPECT_EQ(*s, static_cast<std::int64_t>(sc)) << isa_name(isa) << " " << n;
      else
        EXPECT_EQ(s.code(), error_code::out_of_range);
      auto d = dot(std::span<const std::int32_t>(a), std::span<const std::int32_t>(b), isa);
      if (dab >= INT64_MIN && dab <= INT64_MAX)
        EXPECT_EQ(*d, static_cast<std::int64_t>(dab)) << isa_name(isa) << " " << n;
      else
        EXPECT_EQ(d.code(), error_code::out_of_range);
    }
    // Partial sums that overflow int64 on the way but not at the end.
    std::vector<std::int64_t> big(100, std::numeric_limits<std::int64_t>::max());
    for (std::size_t i = 50; i < 100; ++i) big[i] = -std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(*sum(std::span<const std::int64_t>(big), isa), 0);
    big.push_back(1);
    EXPECT_EQ(*sum(std::span<const std::int64_t>(big), isa), 1);
    big.push_back(std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(sum(std::span<const std::int64_t>(big), isa).code(), error_code::out_of_range);
  }
}

template <class T>
void check_float_path(simd_isa isa, std::mt19937_64& rng) {
  for (std::size_t n : kLengths) {
    std::vector<T> a(n), b(n);
    reference rs, rd;
    std::uniform_real_distribution<double> u(-1e6, 1e6);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = static_cast<T>(u(rng) * (i % 7 == 0 ? 1e-9 : 1));
      b[i] = static_cast<T>(u(rng));
      rs.add(static_cast<double>(a[i]));
      rd.add(static_cast<double>(a[i]) * static_cast<double>(b[i]));  // exact for float inputs
    }
    const double s = *sum(std::span<const T>(a), isa);
    EXPECT_LE(std::fabs(s - rs.value()), bound(n, isa, rs.abs)) << isa_name(isa) << " n=" << n;
    const double d = *dot(std::span<const T>(a), std::span<const T>(b), isa);
    EXPECT_LE(std::fabs(d - rd.value()),
              bound(n, isa, rd.abs) + (sizeof(T) == 8 ? std::ldexp(rd.abs, -52) : 0))
        << isa_name(isa) << " n=" << n;
    if (n == 0) {
      EXPECT_EQ(min(std::span<const T>(a), isa).code(), error_code::not_found);
      EXPECT_EQ(mean(std::span<const T>(a), isa).code(), error_code::not_found);
      continue;
    }
    EXPECT_EQ(*min(std::span<const T>(a), isa), *std::min_element(a.begin(), a.end()));
    EXPECT_EQ(*max(std::span<const T>(a), isa), *std::max_element(a.begin(), a.end()));
    EXPECT_NEAR(*mean(std::span<const T>(a), isa), rs.value() / static_cast<double>(n),
                bound(n, isa, rs.abs) / static_cast<double>(n) + 1e-300);
    a[n / 2] = std::numeric_limits<T>::quiet_NaN();
    EXPECT_TRUE(std::isnan(*min(std::span<const T>(a), isa)));
    EXPECT_TRUE(std::isnan(*max(std::span<const T>(a), isa)));
    std::vector<T> c = b, want = b;
    for (T& x : want) x *= static_cast<T>(1.7);
    ASSERT_FALSE(scale(std::span<T>(c), static_cast<T>(1.7), isa));
    EXPECT_EQ(0, std::memcmp(c.data(), want.data(), n * sizeof(T)));  // the same bits on every path
  }
}

TEST(MsgNumeric, FloatResultsWithinTheBound) {
  std::mt19937_64 rng(2);
  for (simd_isa isa : paths()) {
    check_float_path<float>(isa, rng);
    check_float_path<double>(isa, rng);
  }
}

TEST(MsgNumeric, IntegerMinMaxScale) {
  std::mt19937_64 rng(3);
  for (simd_isa isa : paths()) {
    for (std::size_t n : kLengths) {
      if (n == 0) continue;
      std::vector<std::int32_t> a(n);
      std::vector<std::int64_t> c(n);
      for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<std::int32_t>(rng());
        c[i] = static_cast<std::int64_t>(rng());
      }
      EXPECT_EQ(*min(std::span<const std::int32_t>(a), isa), *std::min_element(a.begin(), a.end()));
      EXPECT_EQ(*max(std::span<const std::int32_t>(a), isa), *std::max_element(a.begin(), a.end()));
      EXPECT_EQ(*min(std::span<const std::int64_t>(c), isa), *std::min_element(c.begin(), c.end()));
      EXPECT_EQ(*max(std::span<const std::int64_t>(c), isa), *std::max_element(c.begin(), c.end()));
    }
    std::vector<std::int32_t> small{1, -2, 3};
    ASSERT_FALSE(scale(std::span<std::int32_t>(small), 3, isa));
    EXPECT_EQ(small, (std::vector<std::int32_t>{3, -6, 9}));
    std::vector<std::int32_t> over{1, std::numeric_limits<std::int32_t>::max()};
    EXPECT_EQ(scale(std::span<std::int32_t>(over), 2, isa).code, error_code::out_of_range);
    EXPECT_EQ(over[0], 1);  // unchanged
    std::vector<std::int64_t> l{INT64_MAX, 2};
    std::vector<std::int64_t> r{2, 2};
    EXPECT_EQ(dot(std::span<const std::int64_t>(l), std::span<const std::int64_t>(r), isa).code(),
              error_code::out_of_range);
    std::vector<std::int64_t> l2{5, -7};
    EXPECT_EQ(*dot(std::span<const std::int64_t>(l2), std::span<const std::int64_t>(r), isa), -4);
    std::vector<std::int64_t> three{1, 2, 3};
    EXPECT_EQ(
        dot(std::span<const std::int64_t>(l2), std::span<const std::int64_t>(three), isa).code(),
        error_code::bad_value);
  }
}

// Run by ctest once per KEEL_MSG_ISA value (msg.env_isa_*): automatic follows the variable.
TEST(MsgNumeric, EnvChoosesThePath) {
  const char* env = std::getenv("KEEL_MSG_ISA");
  if (env == nullptr) GTEST_SKIP() << "KEEL_MSG_ISA not set";
  const simd_isa wanted = keel::parse_isa(env);
  EXPECT_EQ(numeric_isa(), keel::isa_supported(wanted) ? wanted : keel::best_isa());
  std::vector<double> a(100, 0.5);
  EXPECT_EQ(*sum(std::span<const double>(a)), 50.0);
}

TEST(MsgNumeric, OnTypedArrayValues) {
  value v(std::vector<double>{1.5, 2.5, -1.0});
  auto s = v.get<std::span<const double>>();
  EXPECT_EQ(*sum(*s), 3.0);
  EXPECT_EQ(*max(*s), 2.5);
  EXPECT_EQ(*mean(*s), 1.0);
  auto* w = v.as_numeric<double>();
  ASSERT_TRUE(w != nullptr);
  ASSERT_FALSE(scale(std::span<double>(*w), 2.0));
  EXPECT_EQ(v, value(std::vector<double>{3.0, 5.0, -2.0}));
  std::vector<float> a{1, 2}, b{1};
  EXPECT_EQ(dot(std::span<const float>(a), std::span<const float>(b)).code(),
            error_code::bad_value);
}

}  // namespace
}  // namespace keel::msg
