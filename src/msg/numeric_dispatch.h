// SPDX-License-Identifier: MIT
// The table of numeric kernels one instruction set provides (numeric_kernels.h) and the three
// tables (numeric_scalar.cpp, numeric_avx2.cpp, numeric_avx512.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace keel::msg::detail {

// Exact integer sums and dots end in 128 bits (a GCC/Clang extension, hence __extension__).
__extension__ typedef __int128 i128;

struct numeric_kernels {
  i128 (*sum_i32)(const std::int32_t*, std::size_t);
  i128 (*sum_i64)(const std::int64_t*, std::size_t);
  double (*sum_f32)(const float*, std::size_t);
  double (*sum_f64)(const double*, std::size_t);
  i128 (*dot_i32)(const std::int32_t*, const std::int32_t*, std::size_t);
  double (*dot_f32)(const float*, const float*, std::size_t);
  double (*dot_f64)(const double*, const double*, std::size_t);
  void (*minmax_i32)(const std::int32_t*, std::size_t, std::int32_t&, std::int32_t&);
  void (*minmax_i64)(const std::int64_t*, std::size_t, std::int64_t&, std::int64_t&);
  void (*minmax_f32)(const float*, std::size_t, float&, float&);
  void (*minmax_f64)(const double*, std::size_t, double&, double&);
  void (*scale_f32)(float*, std::size_t, float);
  void (*scale_f64)(double*, std::size_t, double);
};

extern const numeric_kernels kNumericScalar;
extern const numeric_kernels kNumericAvx2;
extern const numeric_kernels kNumericAvx512;

}  // namespace keel::msg::detail
