// SPDX-License-Identifier: MIT
// keel::msg numeric operations: argument checks and the choice of kernel table.
#include "keel/msg/numeric.h"

#include <limits>

#include "common/options.h"
#include "numeric_dispatch.h"

namespace keel::msg {

namespace {

using detail::i128;

// The kernel table for `isa`, or nullptr when this CPU cannot run it.
const detail::numeric_kernels* table(simd_isa isa) {
  if (isa == simd_isa::automatic) isa = numeric_isa();
  if (!keel::isa_supported(isa)) return nullptr;
  switch (isa) {
    case simd_isa::avx512:
      return &detail::kNumericAvx512;
    case simd_isa::avx2:
      return &detail::kNumericAvx2;
    default:
      return &detail::kNumericScalar;
  }
}

const error kNoIsa{error_code::bad_value};

result<std::int64_t> fit(i128 t) {
  if (t < std::numeric_limits<std::int64_t>::min() || t > std::numeric_limits<std::int64_t>::max())
    return error_code::out_of_range;
  return static_cast<std::int64_t>(t);
}

template <class T>
void minmax_of(const detail::numeric_kernels& k, std::span<const T> a, T& lo, T& hi) {
  if constexpr (std::is_same_v<T, std::int32_t>) k.minmax_i32(a.data(), a.size(), lo, hi);
  if constexpr (std::is_same_v<T, std::int64_t>) k.minmax_i64(a.data(), a.size(), lo, hi);
  if constexpr (std::is_same_v<T, float>) k.minmax_f32(a.data(), a.size(), lo, hi);
  if constexpr (std::is_same_v<T, double>) k.minmax_f64(a.data(), a.size(), lo, hi);
}

template <class T>
error scale_int(std::span<T> a, T f) {
  for (T x : a) {
    T r;
    if (__builtin_mul_overflow(x, f, &r)) return error{error_code::out_of_range};
  }
  for (T& x : a) x *= f;
  return {};
}

}  // namespace

simd_isa numeric_isa() noexcept {
  static const simd_isa chosen = keel::detail::choose_isa("KEEL_MSG_ISA");
  return chosen;
}

result<std::int64_t> sum(std::span<const std::int32_t> a, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  return fit(k->sum_i32(a.data(), a.size()));
}
result<std::int64_t> sum(std::span<const std::int64_t> a, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  return fit(k->sum_i64(a.data(), a.size()));
}
result<double> sum(std::span<const float> a, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  return k->sum_f32(a.data(), a.size());
}
result<double> sum(std::span<const double> a, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  return k->sum_f64(a.data(), a.size());
}

template <class T>
result<T> min(std::span<const T> a, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  if (a.empty()) return error_code::not_found;
  T lo, hi;
  minmax_of(*k, a, lo, hi);
  return lo;
}
template <class T>
result<T> max(std::span<const T> a, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  if (a.empty()) return error_code::not_found;
  T lo, hi;
  minmax_of(*k, a, lo, hi);
  return hi;
}
template <class T>
result<double> mean(std::span<const T> a, simd_isa isa) {
  if (a.empty()) return error_code::not_found;
  auto s = sum(a, isa);
  if (!s) return s.error();
  return static_cast<double>(*s) / static_cast<double>(a.size());
}

result<std::int64_t> dot(std::span<const std::int32_t> a, std::span<const std::int32_t> b,
                         simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  if (a.size() != b.size()) return error_code::bad_value;
  return fit(k->dot_i32(a.data(), b.data(), a.size()));
}
result<std::int64_t> dot(std::span<const std::int64_t> a, std::span<const std::int64_t> b,
                         simd_isa isa) {
  if (table(isa) == nullptr) return kNoIsa;
  if (a.size() != b.size()) return error_code::bad_value;
  i128 t = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    i128 p = static_cast<i128>(a[i]) * b[i];
    if (__builtin_add_overflow(t, p, &t)) return error_code::out_of_range;
  }
  return fit(t);
}
result<double> dot(std::span<const float> a, std::span<const float> b, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  if (a.size() != b.size()) return error_code::bad_value;
  return k->dot_f32(a.data(), b.data(), a.size());
}
result<double> dot(std::span<const double> a, std::span<const double> b, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  if (a.size() != b.size()) return error_code::bad_value;
  return k->dot_f64(a.data(), b.data(), a.size());
}

error scale(std::span<std::int32_t> a, std::int32_t factor, simd_isa isa) {
  if (table(isa) == nullptr) return kNoIsa;
  return scale_int(a, factor);
}
error scale(std::span<std::int64_t> a, std::int64_t factor, simd_isa isa) {
  if (table(isa) == nullptr) return kNoIsa;
  return scale_int(a, factor);
}
error scale(std::span<float> a, float factor, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  k->scale_f32(a.data(), a.size(), factor);
  return {};
}
error scale(std::span<double> a, double factor, simd_isa isa) {
  const auto* k = table(isa);
  if (k == nullptr) return kNoIsa;
  k->scale_f64(a.data(), a.size(), factor);
  return {};
}

#define KEEL_MSG_NUMERIC(T)                                \
  template result<T> min<T>(std::span<const T>, simd_isa); \
  template result<T> max<T>(std::span<const T>, simd_isa); \
  template result<double> mean<T>(std::span<const T>, simd_isa);
KEEL_MSG_NUMERIC(std::int32_t)
KEEL_MSG_NUMERIC(std::int64_t)
KEEL_MSG_NUMERIC(float)
KEEL_MSG_NUMERIC(double)
#undef KEEL_MSG_NUMERIC

}  // namespace keel::msg
