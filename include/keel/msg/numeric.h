// SPDX-License-Identifier: MIT
// Numeric operations over the typed numeric arrays (int32, int64, float32, float64), vectorised:
// AVX-512, AVX2 or SSE2 kernels written once and compiled per instruction set, chosen at run time
// by the shared CPU dispatch (keel/cpu.h, KEEL_MSG_ISA) or forced through `isa`.
//
// Results:
// - Integer sums and dots are exact: int32 and int64 sums and int32 dots are accumulated without
//   overflow (128-bit at the end) and fail with out_of_range only if the exact result does not
//   fit int64. The int64 dot is computed in 128 bits by the scalar code on every path.
// - Float sums, dots and means are accumulated in double (float32 elements widened first) in
//   4 x (vector width / 8) independent lanes, so they may differ from a sequential sum in the last
//   bits. Bound: |result - exact| <= (n / L + L + 1) * 2^-53 * sum(|x_i|) (dot: sum(|x_i * y_i|)),
//   L the number of lanes (8 scalar — SSE2, part of every x86-64 —, 16 AVX2, 32 AVX-512); the tests
//   hold every path to it against a compensated (Neumaier) scalar sum.
// - min and max are exact; for floats the result is NaN if any element is NaN (the sign of a zero
//   result may be either when both 0.0 and -0.0 are present).
// - scale multiplies every element in place (IEEE multiplication per element: the same bits on
//   every path); integer arrays are checked for overflow first and left unchanged on error.
// - An empty array has no min, max or mean (not_found); arrays of different lengths have no dot
//   (bad_value).
#pragma once

#include <cstdint>
#include <span>

#include "keel/cpu.h"
#include "keel/msg/error.h"

namespace keel::msg {

// The instruction set of the kernels (keel/cpu.h): automatic, scalar (SSE2), avx2, avx512.
using simd_isa = keel::isa;
// The set `automatic` resolves to: KEEL_MSG_ISA when it names a set this CPU runs, else the best
// it has (read once). A forced set this CPU lacks is an error (bad_value).
simd_isa numeric_isa() noexcept;

result<std::int64_t> sum(std::span<const std::int32_t> a, simd_isa isa = simd_isa::automatic);
result<std::int64_t> sum(std::span<const std::int64_t> a, simd_isa isa = simd_isa::automatic);
result<double> sum(std::span<const float> a, simd_isa isa = simd_isa::automatic);
result<double> sum(std::span<const double> a, simd_isa isa = simd_isa::automatic);

template <class T>
result<T> min(std::span<const T> a, simd_isa isa = simd_isa::automatic);
template <class T>
result<T> max(std::span<const T> a, simd_isa isa = simd_isa::automatic);
template <class T>
result<double> mean(std::span<const T> a, simd_isa isa = simd_isa::automatic);

result<std::int64_t> dot(std::span<const std::int32_t> a, std::span<const std::int32_t> b,
                         simd_isa isa = simd_isa::automatic);
result<std::int64_t> dot(std::span<const std::int64_t> a, std::span<const std::int64_t> b,
                         simd_isa isa = simd_isa::automatic);
result<double> dot(std::span<const float> a, std::span<const float> b,
                   simd_isa isa = simd_isa::automatic);
result<double> dot(std::span<const double> a, std::span<const double> b,
                   simd_isa isa = simd_isa::automatic);

error scale(std::span<std::int32_t> a, std::int32_t factor, simd_isa isa = simd_isa::automatic);
error scale(std::span<std::int64_t> a, std::int64_t factor, simd_isa isa = simd_isa::automatic);
error scale(std::span<float> a, float factor, simd_isa isa = simd_isa::automatic);
error scale(std::span<double> a, double factor, simd_isa isa = simd_isa::automatic);

}  // namespace keel::msg
