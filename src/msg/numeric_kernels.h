// SPDX-License-Identifier: MIT
// The numeric kernels over typed arrays, written once with GCC/Clang vector extensions and
// compiled per instruction set: numeric_scalar.cpp (W = 16: SSE2, part of every x86-64 CPU),
// numeric_avx2.cpp (W = 32, -mavx2) and numeric_avx512.cpp (W = 64, -mavx512f/dq/vl). Each
// loop keeps kAcc independent accumulators of W bytes, then reduces them in a fixed order.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "numeric_dispatch.h"

namespace keel::msg::detail {

// The vector types of a width (GCC needs a constant vector_size, so one specialisation per width).
template <int W>
struct vectors;
#define KEEL_MSG_VECTORS(W)                                         \
  template <>                                                       \
  struct vectors<W> {                                               \
    typedef double vd __attribute__((vector_size((W))));            \
    typedef std::int64_t vl __attribute__((vector_size((W))));      \
    typedef float vf __attribute__((vector_size((W) / 2)));         \
    typedef std::int32_t vi __attribute__((vector_size((W) / 2)));  \
    typedef float vf_full __attribute__((vector_size((W))));        \
    typedef std::int32_t vi_full __attribute__((vector_size((W)))); \
  };
KEEL_MSG_VECTORS(16)
KEEL_MSG_VECTORS(32)
KEEL_MSG_VECTORS(64)
#undef KEEL_MSG_VECTORS

template <int W>
struct numeric_impl {
  static constexpr std::size_t kAcc = 4;
  static constexpr std::size_t kD = W / 8;  // 64-bit lanes
  using vd = typename vectors<W>::vd;
  using vl = typename vectors<W>::vl;
  using vf = typename vectors<W>::vf;            // kD floats, widened to vd
  using vi = typename vectors<W>::vi;            // kD int32, widened to vl
  using vf_full = typename vectors<W>::vf_full;  // 2 * kD floats (min/max/scale)
  using vi_full = typename vectors<W>::vi_full;

  template <class V, class T>
  static V load(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  // NaN test (x != x), lane by lane or for one element.
  template <class V>
  static auto unordered(V a, V b) {
    return a != b;
  }

  // Exact sums of int64 lanes: each value split into a signed high and an unsigned low half,
  // summed separately (no overflow for fewer than 2^31 values), joined in 128 bits at the end.
  struct exact {
    vl hi{}, lo{};
    void add(vl x) {
      hi += x >> 32;
      lo += x & 0xffffffff;
    }
    i128 total() const {
      i128 t = 0;
      for (std::size_t i = 0; i < kD; ++i) t += (static_cast<i128>(hi[i]) << 32) + lo[i];
      return t;
    }
  };

  static i128 sum_i32(const std::int32_t* p, std::size_t n) {
    vl acc[kAcc] = {};
    std::size_t i = 0;
    for (; i + kAcc * kD <= n; i += kAcc * kD)
      for (std::size_t a = 0; a < kAcc; ++a)
        acc[a] += __builtin_convertvector(load<vi>(p + i + a * kD), vl);
    i128 t = 0;
    for (std::size_t a = 0; a < kAcc; ++a)
      for (std::size_t k = 0; k < kD; ++k) t += acc[a][k];
    for (; i < n; ++i) t += p[i];
    return t;
  }

  static i128 sum_i64(const std::int64_t* p, std::size_t n) {
    exact acc[kAcc];
    std::size_t i = 0;
    for (; i + kAcc * kD <= n; i += kAcc * kD)
      for (std::size_t a = 0; a < kAcc; ++a) acc[a].add(load<vl>(p + i + a * kD));
    i128 t = 0;
    for (std::size_t a = 0; a < kAcc; ++a) t += acc[a].total();
    for (; i < n; ++i) t += p[i];
    return t;
  }

  static i128 dot_i32(const std::int32_t* x, const std::int32_t* y, std::size_t n) {
    exact acc[kAcc];
    std::size_t i = 0;
    for (; i + kAcc * kD <= n; i += kAcc * kD)
      for (std::size_t a = 0; a < kAcc; ++a)
        acc[a].add(__builtin_convertvector(load<vi>(x + i + a * kD), vl) *
                   __builtin_convertvector(load<vi>(y + i + a * kD), vl));
    i128 t = 0;
    for (std::size_t a = 0; a < kAcc; ++a) t += acc[a].total();
    for (; i < n; ++i) t += static_cast<i128>(x[i]) * y[i];
    return t;
  }

  // Float sums and dots accumulate in double lanes (float32 input widened first).
  template <class T>
  static vd widen(const T* p) {
    if constexpr (sizeof(T) == 4)
      return __builtin_convertvector(load<vf>(p), vd);
    else
      return load<vd>(p);
  }
  static double reduce(const vd* acc) {
    double t = 0;
    for (std::size_t k = 0; k < kD; ++k)
      for (std::size_t a = 0; a < kAcc; ++a) t += acc[a][k];
    return t;
  }
  template <class T>
  static double sum_f(const T* p, std::size_t n) {
    vd acc[kAcc] = {};
    std::size_t i = 0;
    for (; i + kAcc * kD <= n; i += kAcc * kD)
      for (std::size_t a = 0; a < kAcc; ++a) acc[a] += widen(p + i + a * kD);
    double t = reduce(acc);
    for (; i < n; ++i) t += static_cast<double>(p[i]);
    return t;
  }
  template <class T>
  static double dot_f(const T* x, const T* y, std::size_t n) {
    vd acc[kAcc] = {};
    std::size_t i = 0;
    for (; i + kAcc * kD <= n; i += kAcc * kD)
      for (std::size_t a = 0; a < kAcc; ++a)
        acc[a] += widen(x + i + a * kD) * widen(y + i + a * kD);
    double t = reduce(acc);
    for (; i < n; ++i) t += static_cast<double>(x[i]) * static_cast<double>(y[i]);
    return t;
  }

  // Minimum and maximum (n >= 1); for floats, NaN if any element is NaN.
  template <class T, class V>
  static void minmax(const T* p, std::size_t n, T& lo, T& hi) {
    constexpr std::size_t L = W / sizeof(T);
    std::size_t i = 0;
    T l = p[0], h = p[0];
    bool nan = false;
    if (n >= L) {
      V vlo = load<V>(p), vhi = vlo;
      auto anynan = unordered(vlo, vlo);
      for (i = L; i + L <= n; i += L) {
        const V x = load<V>(p + i);
        vlo = x < vlo ? x : vlo;
        vhi = x > vhi ? x : vhi;
        anynan |= unordered(x, x);
      }
      for (std::size_t k = 0; k < L; ++k) {
        l = vlo[k] < l ? vlo[k] : l;
        h = vhi[k] > h ? vhi[k] : h;
        nan = nan || anynan[k] != 0;
      }
    }
    for (; i < n; ++i) {
      l = p[i] < l ? p[i] : l;
      h = p[i] > h ? p[i] : h;
      nan = nan || unordered(p[i], p[i]);
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (nan) l = h = std::numeric_limits<T>::quiet_NaN();
    }
    lo = l;
    hi = h;
  }

  template <class T, class V>
  static void scale(T* p, std::size_t n, T f) {
    constexpr std::size_t L = W / sizeof(T);
    const V vf2 = V{} + f;  // f in every lane
    std::size_t i = 0;
    for (; i + L <= n; i += L) {
      V x = load<V>(p + i);
      x *= vf2;
      std::memcpy(p + i, &x, sizeof x);
    }
    for (; i < n; ++i) p[i] *= f;
  }

  static constexpr numeric_kernels table() {
    return {
        sum_i32,
        sum_i64,
        sum_f<float>,
        sum_f<double>,
        dot_i32,
        dot_f<float>,
        dot_f<double>,
        minmax<std::int32_t, vi_full>,
        minmax<std::int64_t, vl>,
        minmax<float, vf_full>,
        minmax<double, vd>,
        scale<float, vf_full>,
        scale<double, vd>,
    };
  }
};

}  // namespace keel::msg::detail
