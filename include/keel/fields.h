// SPDX-License-Identifier: MIT
// Field lists with names, shared by every component that maps C++ structs (bincode's codec, JSON
// struct mapping, msg): one line per type gives its fields, in order, and their names.
//
//   struct trade { std::uint64_t id; std::string symbol; std::vector<double> fills; };
//   KEEL_FIELDS(trade, id, symbol, fills)   // at namespace scope, in trade's namespace
//
//   keel::field_names<trade>()            -> std::array{"id", "symbol", "fills"}
//   keel::fields_of(t)                    -> std::tuple<std::uint64_t&, std::string&, ...>
//   keel::for_each_field(t, [](std::string_view name, auto& field) { ... });
//
// Up to 32 fields. Without a list, keel::fields_of falls back to aggregate reflection (aggregates
// of up to 16 fields, none a C array); such fields have no names (has_fields<T> is false).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

// clang-format off
#define KEEL_DETAIL_NARGS(...) KEEL_DETAIL_NARGS_(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define KEEL_DETAIL_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, N, ...) N
#define KEEL_DETAIL_CAT_(a, b) a##b
#define KEEL_DETAIL_CAT(a, b) KEEL_DETAIL_CAT_(a, b)
#define KEEL_DETAIL_M1(m, v, f) m(v, f)
#define KEEL_DETAIL_M2(m, v, f, ...) m(v, f), KEEL_DETAIL_M1(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M3(m, v, f, ...) m(v, f), KEEL_DETAIL_M2(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M4(m, v, f, ...) m(v, f), KEEL_DETAIL_M3(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M5(m, v, f, ...) m(v, f), KEEL_DETAIL_M4(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M6(m, v, f, ...) m(v, f), KEEL_DETAIL_M5(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M7(m, v, f, ...) m(v, f), KEEL_DETAIL_M6(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M8(m, v, f, ...) m(v, f), KEEL_DETAIL_M7(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M9(m, v, f, ...) m(v, f), KEEL_DETAIL_M8(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M10(m, v, f, ...) m(v, f), KEEL_DETAIL_M9(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M11(m, v, f, ...) m(v, f), KEEL_DETAIL_M10(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M12(m, v, f, ...) m(v, f), KEEL_DETAIL_M11(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M13(m, v, f, ...) m(v, f), KEEL_DETAIL_M12(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M14(m, v, f, ...) m(v, f), KEEL_DETAIL_M13(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M15(m, v, f, ...) m(v, f), KEEL_DETAIL_M14(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M16(m, v, f, ...) m(v, f), KEEL_DETAIL_M15(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M17(m, v, f, ...) m(v, f), KEEL_DETAIL_M16(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M18(m, v, f, ...) m(v, f), KEEL_DETAIL_M17(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M19(m, v, f, ...) m(v, f), KEEL_DETAIL_M18(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M20(m, v, f, ...) m(v, f), KEEL_DETAIL_M19(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M21(m, v, f, ...) m(v, f), KEEL_DETAIL_M20(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M22(m, v, f, ...) m(v, f), KEEL_DETAIL_M21(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M23(m, v, f, ...) m(v, f), KEEL_DETAIL_M22(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M24(m, v, f, ...) m(v, f), KEEL_DETAIL_M23(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M25(m, v, f, ...) m(v, f), KEEL_DETAIL_M24(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M26(m, v, f, ...) m(v, f), KEEL_DETAIL_M25(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M27(m, v, f, ...) m(v, f), KEEL_DETAIL_M26(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M28(m, v, f, ...) m(v, f), KEEL_DETAIL_M27(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M29(m, v, f, ...) m(v, f), KEEL_DETAIL_M28(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M30(m, v, f, ...) m(v, f), KEEL_DETAIL_M29(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M31(m, v, f, ...) m(v, f), KEEL_DETAIL_M30(m, v, __VA_ARGS__)
#define KEEL_DETAIL_M32(m, v, f, ...) m(v, f), KEEL_DETAIL_M31(m, v, __VA_ARGS__)
#define KEEL_DETAIL_MAP(m, v, ...) KEEL_DETAIL_CAT(KEEL_DETAIL_M, KEEL_DETAIL_NARGS(__VA_ARGS__))(m, v, __VA_ARGS__)
#define KEEL_DETAIL_MEMBER(v, f) v.f
#define KEEL_DETAIL_NAME(v, f) std::string_view(#f)
// clang-format on

// Declares the fields of `Type`, in order; their names are the member names as written.
#define KEEL_FIELDS(Type, ...)                                                 \
  [[maybe_unused]] inline auto keel_fields(Type& keel_v) {                     \
    return std::tie(KEEL_DETAIL_MAP(KEEL_DETAIL_MEMBER, keel_v, __VA_ARGS__)); \
  }                                                                            \
  [[maybe_unused]] inline auto keel_fields(const Type& keel_v) {               \
    return std::tie(KEEL_DETAIL_MAP(KEEL_DETAIL_MEMBER, keel_v, __VA_ARGS__)); \
  }                                                                            \
  [[maybe_unused]] constexpr auto keel_field_names(const Type*) {              \
    return std::array{KEEL_DETAIL_MAP(KEEL_DETAIL_NAME, _, __VA_ARGS__)};      \
  }

namespace keel {

// T has a KEEL_FIELDS list (found by argument-dependent lookup).
template <class T>
concept has_fields = requires(T& v, const T& c, const T* p) {
  keel_fields(v);
  keel_fields(c);
  keel_field_names(p);
};

namespace detail {

template <class T>
concept has_field_list = has_fields<T>;

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
    static_assert(N <= 16, "aggregate reflection handles up to 16 fields: use KEEL_FIELDS");
  }
}

}  // namespace detail

// A tuple of references to v's fields: its KEEL_FIELDS list, else its aggregate members.
template <class T>
constexpr auto fields_of(T& v) {
  using plain = std::remove_const_t<T>;
  if constexpr (has_fields<plain>) {
    return keel_fields(v);
  } else {
    return detail::tie_aggregate<detail::field_count<plain>()>(v);
  }
}

// The names of T's fields (T needs a KEEL_FIELDS list).
template <has_fields T>
constexpr auto field_names() {
  return keel_field_names(static_cast<const T*>(nullptr));
}

// Number of fields fields_of(v) gives for a T.
template <class T>
inline constexpr std::size_t field_count_v =
    std::tuple_size_v<decltype(fields_of(std::declval<T&>()))>;

// Calls f(name, field) for each field of v in order (T needs a KEEL_FIELDS list).
template <class T, class F>
constexpr void for_each_field(T& v, F&& f) {
  using plain = std::remove_const_t<T>;
  constexpr auto names = field_names<plain>();
  auto refs = fields_of(v);
  [&]<std::size_t... I>(std::index_sequence<I...>) { (f(names[I], std::get<I>(refs)), ...); }
  (std::make_index_sequence<names.size()>{});
}

}  // namespace keel
