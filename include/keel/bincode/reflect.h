// SPDX-License-Identifier: MIT
// Struct fields for the codec: a one-line field list (KEEL_BINCODE_FIELDS), or, without one,
// aggregate reflection (aggregates of up to 16 fields, none of them a C array).
//
//   struct trade { std::uint64_t id; std::string symbol; std::vector<double> fills; };
//   KEEL_BINCODE_FIELDS(trade, id, symbol, fills)   // at namespace scope, in trade's namespace
//
// Field-less enums (Rust `enum Side { Buy, Sell }`) need their variant count:
//   enum class side : std::uint8_t { buy, sell };
//   KEEL_BINCODE_ENUM(side, 2)                       // enumerator values must be 0 .. count-1
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

// clang-format off
#define KEEL_BINCODE_DETAIL_NARGS(...) KEEL_BINCODE_DETAIL_NARGS_(__VA_ARGS__, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define KEEL_BINCODE_DETAIL_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, N, ...) N
#define KEEL_BINCODE_DETAIL_CAT_(a, b) a##b
#define KEEL_BINCODE_DETAIL_CAT(a, b) KEEL_BINCODE_DETAIL_CAT_(a, b)
#define KEEL_BINCODE_DETAIL_P1(v, f) v.f
#define KEEL_BINCODE_DETAIL_P2(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P1(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P3(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P2(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P4(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P3(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P5(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P4(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P6(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P5(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P7(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P6(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P8(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P7(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P9(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P8(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P10(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P9(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P11(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P10(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P12(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P11(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P13(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P12(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P14(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P13(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P15(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P14(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P16(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P15(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P17(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P16(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P18(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P17(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P19(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P18(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P20(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P19(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P21(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P20(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P22(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P21(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P23(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P22(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_P24(v, f, ...) v.f, KEEL_BINCODE_DETAIL_P23(v, __VA_ARGS__)
#define KEEL_BINCODE_DETAIL_PREFIX(v, ...) \
  KEEL_BINCODE_DETAIL_CAT(KEEL_BINCODE_DETAIL_P, KEEL_BINCODE_DETAIL_NARGS(__VA_ARGS__))(v, __VA_ARGS__)
// clang-format on

// Declares the encoded fields of `Type`, in wire order.
#define KEEL_BINCODE_FIELDS(Type, ...)                                   \
  [[maybe_unused]] inline auto keel_bincode_fields(Type& keel_v) {       \
    return std::tie(KEEL_BINCODE_DETAIL_PREFIX(keel_v, __VA_ARGS__));    \
  }                                                                      \
  [[maybe_unused]] inline auto keel_bincode_fields(const Type& keel_v) { \
    return std::tie(KEEL_BINCODE_DETAIL_PREFIX(keel_v, __VA_ARGS__));    \
  }

// Declares a field-less enum with `count` variants (values 0 .. count-1).
#define KEEL_BINCODE_ENUM(Enum, count) \
  [[maybe_unused]] constexpr std::uint32_t keel_bincode_enum_count(const Enum*) { return (count); }

namespace keel::bincode::detail {

template <class T>
concept has_field_list = requires(T& v, const T& c) {
  keel_bincode_fields(v);
  keel_bincode_fields(c);
};

template <class E>
concept counted_enum = std::is_enum_v<E> && requires(const E* e) {
  { keel_bincode_enum_count(e) } -> std::convertible_to<std::uint32_t>;
};

// Converts to any field type; only used unevaluated, to count an aggregate's fields.
struct any_field {
  template <class U>
  operator U&() const&& noexcept;  // NOLINT: declared only
};

template <class T, std::size_t... I>
constexpr bool brace_constructible(std::index_sequence<I...>) {
  return requires { T{(void(I), any_field{})...}; };
}

template <class T, std::size_t N = 16>
constexpr std::size_t field_count() {
  if constexpr (N == 0) {
    return 0;
  } else if constexpr (brace_constructible<T>(std::make_index_sequence<N>{})) {
    return N;
  } else {
    return field_count<T, N - 1>();
  }
}

template <class T>
concept reflectable_aggregate = std::is_class_v<T> && std::is_aggregate_v<T> && !has_field_list<T>;

// A tuple of references to the fields of an aggregate with N fields.
template <std::size_t N, class T>
constexpr auto tie_aggregate(T& v) {
  if constexpr (N == 0) {
    (void)v;
    return std::tuple<>{};
  } else if constexpr (N == 1) {
    auto& [f0] = v;
    return std::tie(f0);
  } else if constexpr (N == 2) {
    auto& [f0, f1] = v;
    return std::tie(f0, f1);
  } else if constexpr (N == 3) {
    auto& [f0, f1, f2] = v;
    return std::tie(f0, f1, f2);
  } else if constexpr (N == 4) {
    auto& [f0, f1, f2, f3] = v;
    return std::tie(f0, f1, f2, f3);
  } else if constexpr (N == 5) {
    auto& [f0, f1, f2, f3, f4] = v;
    return std::tie(f0, f1, f2, f3, f4);
  } else if constexpr (N == 6) {
    auto& [f0, f1, f2, f3, f4, f5] = v;
    return std::tie(f0, f1, f2, f3, f4, f5);
  } else if constexpr (N == 7) {
    auto& [f0, f1, f2, f3, f4, f5, f6] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6);
  } else if constexpr (N == 8) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7);
  } else if constexpr (N == 9) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8);
  } else if constexpr (N == 10) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9);
  } else if constexpr (N == 11) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10);
  } else if constexpr (N == 12) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11);
  } else if constexpr (N == 13) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12);
  } else if constexpr (N == 14) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13);
  } else if constexpr (N == 15) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14);
  } else if constexpr (N == 16) {
    auto& [f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15] = v;
    return std::tie(f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15);
  } else {
    static_assert(N <= 16, "aggregate reflection handles up to 16 fields: use KEEL_BINCODE_FIELDS");
  }
}

template <class T>
constexpr auto fields_of(T& v) {
  using plain = std::remove_const_t<T>;
  if constexpr (has_field_list<plain>) {
    return keel_bincode_fields(v);
  } else {
    return tie_aggregate<field_count<plain>()>(v);
  }
}

}  // namespace keel::bincode::detail
