// SPDX-License-Identifier: MIT
// The type mapping: codec<T> for every supported C++ type (docs/bincode.md, "C++ mapping").
// Each codec has, for a wire format F (detail::format<varint, big_endian>):
//   min_size<F>    fewest bytes a value can take (bounds forged lengths before allocating)
//   fixed_size<F>  bytes every value takes, or npos
//   size<F>(v)     encoded size;  encode<F>(sink, v);  decode<F>(reader, v) -> false on error
// Add a type by specialising keel::bincode::codec<T> with the same members.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "keel/bincode/detail/wire.h"
#include "keel/bincode/reflect.h"
#include "keel/detail/attributes.h"

namespace keel::bincode {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

template <class T>
struct codec;  // specialised below

namespace detail {

template <class F, class T>
inline constexpr std::size_t min_size_v = codec<std::remove_cv_t<T>>::template min_size<F>;
template <class F, class T>
inline constexpr std::size_t fixed_size_v = codec<std::remove_cv_t<T>>::template fixed_size<F>;

template <class F, class T>
KEEL_INLINE std::size_t size_of(const T& v) {
  if constexpr (fixed_size_v<F, T> != npos) {
    (void)v;
    return fixed_size_v<F, T>;
  } else {
    return codec<std::remove_cv_t<T>>::template size<F>(v);
  }
}
template <class F, class T, class W>
KEEL_INLINE void put(W& w, const T& v) {
  codec<std::remove_cv_t<T>>::template encode<F>(w, v);
}
template <class F, class T>
KEEL_INLINE bool get(reader& r, T& v) {
  return codec<T>::template decode<F>(r, v);
}

// Element types whose wire bytes equal their memory bytes under F (one memcpy for a block):
// scalars as below, and trivially copyable aggregates (declaration order, see reflect.h) whose
// fields all qualify and leave no padding. bool encodes by memcpy but decodes with a 0/1 check.
template <class T>
struct std_array_of {
  static constexpr bool value = false;
};
template <class T, std::size_t N>
struct std_array_of<std::array<T, N>> {
  static constexpr bool value = true;
  using element = T;
};

template <class F, class T, bool Decode>
constexpr bool block_copyable();
template <class F, class T>
inline constexpr bool memcpy_encodable = block_copyable<F, T, false>();
template <class F, class T>
inline constexpr bool memcpy_decodable = block_copyable<F, T, true>();

template <class F, class T, bool Decode>
constexpr bool block_copyable() {
  if constexpr (std::is_same_v<T, bool>) {
    return !Decode;
  } else if constexpr (wire_integer<T>) {
    return sizeof(T) == 1 || (!F::varint && F::native_order);
  } else if constexpr (std::is_floating_point_v<T>) {
    return (sizeof(T) == 4 || sizeof(T) == 8) && F::native_order &&
           std::numeric_limits<T>::is_iec559;
  } else if constexpr (std_array_of<T>::value) {
    return block_copyable<F, typename std_array_of<T>::element, Decode>();
  } else if constexpr (reflectable_aggregate<T> && std::is_trivially_copyable_v<T>) {
    using fields = decltype(tie_aggregate<field_count<T>()>(std::declval<T&>()));
    return []<class... R>(std::type_identity<std::tuple<R...>>) {
      return sizeof...(R) > 0 && (block_copyable<F, std::remove_cvref_t<R>, Decode>() && ...) &&
             (std::size_t{0} + ... + sizeof(std::remove_cvref_t<R>)) == sizeof(T);
    }(std::type_identity<fields>{});
  } else {
    return false;
  }
}

// Top-level values that encode as a u64 length and one block of elements (std::vector except
// vector<bool>, dynamic std::span): the fixint fast paths of encode() and decode_into().
template <class T>
struct length_prefixed_block {
  static constexpr bool value = false;
};
template <class E, class A>
struct length_prefixed_block<std::vector<E, A>> {
  static constexpr bool value = !std::is_same_v<E, bool>;
  static constexpr bool owning = true;  // decodes by copying (a span borrows instead)
  using element = E;
};
template <class E>
struct length_prefixed_block<std::span<E>> {
  static constexpr bool value = true;
  static constexpr bool owning = false;
  using element = std::remove_const_t<E>;
};
// The fixint format in the machine's byte order, and whether config `c` selects it.
using native_fixint = format<false, std::endian::native == std::endian::big>;
inline bool is_native_fixint(const config& c) noexcept {
  return c.ints == int_encoding::fixint &&
         (c.order == byte_order::big) == (std::endian::native == std::endian::big);
}

template <class F>
KEEL_INLINE std::size_t len_size(std::size_t n) {
  return int_size<F>(static_cast<std::uint64_t>(n));
}
template <class F, class W>
KEEL_INLINE void put_len(W& w, std::size_t n) {
  put_int<F>(w, static_cast<std::uint64_t>(n));
}
// Reads a length and checks that `len` elements of at least `min` bytes fit what is left. Elements
// that take no bytes (min 0) draw `memory` bytes each from the decode's zero-size budget instead.
template <class F>
KEEL_INLINE bool get_len(reader& r, std::size_t& len, std::size_t min, std::size_t memory = 1) {
  std::uint64_t n{};
  if (!get_int<F>(r, n)) return false;
  if (min == 0) {
    const std::size_t per = memory == 0 ? 1 : memory;
    if (n > r.zero_size_budget / per) return r.fail(error_code::limit_exceeded, r.p);
    r.zero_size_budget -= static_cast<std::size_t>(n) * per;
  } else if (n > r.remaining() / min) {
    return r.fail_need(
        n > static_cast<std::uint64_t>(npos) / min ? npos : static_cast<std::size_t>(n) * min);
  }
  len = static_cast<std::size_t>(n);
  return true;
}

// A contiguous run of elements (vector, span, array).
template <class F, class T>
std::size_t block_size(const T* p, std::size_t n) {
  if constexpr (fixed_size_v<F, T> != npos) {
    (void)p;
    return n * fixed_size_v<F, T>;
  } else {
    std::size_t s = 0;
    for (std::size_t i = 0; i < n; ++i) s += codec<T>::template size<F>(p[i]);
    return s;
  }
}
template <class F, class T, class W>
KEEL_INLINE void put_block(W& w, const T* p, std::size_t n) {
  if constexpr (memcpy_encodable<F, T>) {
    if (n) w.put_block(p, n * sizeof(T));
  } else {
    for (std::size_t i = 0; i < n; ++i) put<F>(w, p[i]);
  }
}
template <class F, class T>
KEEL_INLINE bool get_block(reader& r, T* p, std::size_t n) {
  if constexpr (memcpy_decodable<F, T>) {
    if (!r.need(n * sizeof(T))) return false;
    if (n) copy_block(p, r.p, n * sizeof(T));
    r.p += n * sizeof(T);
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!r.need(n)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t b = r.p[i];
      if (b > 1) return r.fail(error_code::invalid_bool, r.p + i);
      p[i] = b != 0;
    }
    r.p += n;
    return true;
  } else {
    for (std::size_t i = 0; i < n; ++i)
      if (!get<F>(r, p[i])) return false;
    return true;
  }
}

template <class F, class Tuple>
std::size_t tuple_size(const Tuple& t) {
  return std::apply([](const auto&... f) { return (std::size_t{0} + ... + size_of<F>(f)); }, t);
}
template <class F, class W, class Tuple>
KEEL_INLINE void put_tuple(W& w, const Tuple& t) {
  std::apply([&w](const auto&... f) { (put<F>(w, f), ...); }, t);
}
template <class F, class Tuple>
KEEL_INLINE bool get_tuple(reader& r, Tuple&& t) {
  return std::apply([&r](auto&... f) { return (get<F>(r, f) && ...); }, t);
}
template <class F, class... T>
constexpr std::size_t sum_min() {
  return (std::size_t{0} + ... + min_size_v<F, T>);
}
template <class F, class... T>
constexpr std::size_t sum_fixed() {
  return ((fixed_size_v<F, T> != npos) && ...) ? (std::size_t{0} + ... + fixed_size_v<F, T>) : npos;
}

template <class T>
struct unit_codec {
  template <class F>
  static constexpr std::size_t min_size = 0;
  template <class F>
  static constexpr std::size_t fixed_size = 0;
  template <class F>
  static std::size_t size(const T&) {
    return 0;
  }
  template <class F, class W>
  static void encode(W&, const T&) {}
  template <class F>
  static bool decode(reader&, T&) {
    return true;
  }
};

// Sequences with a length prefix whose elements are visited one by one (maps, sets, ...).
template <class C, class Insert>
struct collection_codec {
  using value = typename C::value_type;
  template <class F>
  static constexpr std::size_t min_size = 1;
  template <class F>
  static constexpr std::size_t fixed_size = npos;
  template <class F>
  static std::size_t size(const C& c) {
    std::size_t s = len_size<F>(c.size());
    for (const auto& e : c) s += size_of<F>(e);
    return s;
  }
  template <class F, class W>
  static void encode(W& w, const C& c) {
    put_len<F>(w, c.size());
    for (const auto& e : c) put<F>(w, e);
  }
};

}  // namespace detail

// ---- scalars -----------------------------------------------------------------------------
template <>
struct codec<bool> {
  template <class F>
  static constexpr std::size_t min_size = 1;
  template <class F>
  static constexpr std::size_t fixed_size = 1;
  template <class F>
  static std::size_t size(bool) {
    return 1;
  }
  template <class F, class W>
  static void encode(W& w, bool v) {
    w.byte(v ? 1 : 0);
  }
  template <class F>
  static bool decode(detail::reader& r, bool& v) {
    if (!r.need(1)) return false;
    const std::uint8_t b = *r.p;
    if (b > 1) return r.fail(error_code::invalid_bool, r.p);
    ++r.p;
    v = b != 0;
    return true;
  }
};

template <detail::wire_integer T>
struct codec<T> {
  template <class F>
  static constexpr std::size_t min_size = F::varint ? 1 : sizeof(T);
  template <class F>
  static constexpr std::size_t fixed_size = (!F::varint || sizeof(T) == 1) ? sizeof(T) : npos;
  template <class F>
  static std::size_t size(T v) {
    return detail::int_size<F>(v);
  }
  template <class F, class W>
  static void encode(W& w, T v) {
    detail::put_int<F>(w, v);
  }
  template <class F>
  static bool decode(detail::reader& r, T& v) {
    return detail::get_int<F>(r, v);
  }
};

template <class T>
requires(std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) struct codec<T> {
  using bits = detail::uint_t<T>;
  template <class F>
  static constexpr std::size_t min_size = sizeof(T);
  template <class F>
  static constexpr std::size_t fixed_size = sizeof(T);
  template <class F>
  static std::size_t size(T) {
    return sizeof(T);
  }
  template <class F, class W>
  static void encode(W& w, T v) {
    w.raw(detail::ordered<F>(std::bit_cast<bits>(v)));
  }
  template <class F>
  static bool decode(detail::reader& r, T& v) {
    if (!r.need(sizeof(T))) return false;
    v = std::bit_cast<T>(detail::ordered<F>(r.take_raw<bits>()));
    return true;
  }
};

// char32_t is Rust's `char`: UTF-8, 1 to 4 bytes.
template <>
struct codec<char32_t> {
  static constexpr bool valid(char32_t c) { return c < 0xD800 || (c > 0xDFFF && c <= 0x10FFFF); }
  template <class F>
  static constexpr std::size_t min_size = 1;
  template <class F>
  static constexpr std::size_t fixed_size = npos;
  template <class F>
  static std::size_t size(char32_t c) {
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? (valid(c) ? 3 : 1) : valid(c) ? 4 : 1;
  }
  template <class F, class W>
  static void encode(W& w, char32_t c) {
    if (c < 0x80) {
      w.byte(static_cast<std::uint8_t>(c));
    } else if (!valid(c)) {
      w.byte(0);  // keeps the sink consistent with size(); the whole encode fails
      w.fail(error_code::invalid_char);
    } else {
      std::uint8_t b[4];
      std::size_t n{};
      if (c < 0x800) {
        b[0] = static_cast<std::uint8_t>(0xC0 | (c >> 6));
        n = 2;
      } else if (c < 0x10000) {
        b[0] = static_cast<std::uint8_t>(0xE0 | (c >> 12));
        b[1] = static_cast<std::uint8_t>(0x80 | ((c >> 6) & 0x3F));
        n = 3;
      } else {
        b[0] = static_cast<std::uint8_t>(0xF0 | (c >> 18));
        b[1] = static_cast<std::uint8_t>(0x80 | ((c >> 12) & 0x3F));
        b[2] = static_cast<std::uint8_t>(0x80 | ((c >> 6) & 0x3F));
        n = 4;
      }
      b[n - 1] = static_cast<std::uint8_t>(0x80 | (c & 0x3F));
      w.put(b, n);
    }
  }
  template <class F>
  static bool decode(detail::reader& r, char32_t& c) {
    if (!r.need(1)) return false;
    const std::uint8_t* at = r.p;
    const std::size_t width = detail::utf8_width(*at);
    if (width == 0) return r.fail(error_code::invalid_char, at);
    if (width == 1) {
      c = *r.p++;
      return true;
    }
    if (r.remaining() < width) {
      // 1.3.3 reports a short char as InvalidCharEncoding; 2.0.1 as UnexpectedEnd / LimitExceeded.
      if (r.v1 && static_cast<std::size_t>(r.input_end - at) < width)
        return r.fail(error_code::invalid_char, at);
      return r.fail_need(width);
    }
    if (!keel::utf8_valid(at, width)) return r.fail(error_code::invalid_char, at);
    char32_t v = at[0] & (0x7F >> width);
    for (std::size_t i = 1; i < width; ++i) v = (v << 6) | (at[i] & 0x3F);
    c = v;
    r.p += width;
    return true;
  }
};

// ---- strings and byte views --------------------------------------------------------------
namespace detail {
// The sizes of a value that starts with its length (strings, vectors, spans): at least the
// length's one byte (varint) or eight (fixint), and no fixed size.
struct length_prefixed_sizes {
  template <class F>
  static constexpr std::size_t min_size = F::varint ? 1 : 8;
  template <class F>
  static constexpr std::size_t fixed_size = npos;
};

template <class S>
struct string_codec : length_prefixed_sizes {
  template <class F>
  static std::size_t size(const S& s) {
    return len_size<F>(s.size()) + s.size();
  }
  template <class F, class W>
  static void encode(W& w, const S& s) {
    put_len<F>(w, s.size());
    w.put(s.data(), s.size());
  }
  // Reads the length and validates the bytes; returns their start, or null on error.
  template <class F>
  static const std::uint8_t* take(reader& r, std::size_t& len) {
    const std::uint8_t* at = r.p;
    if (!get_len<F>(r, len, 1)) return nullptr;
    const std::uint8_t* s = r.p;
    if (!keel::utf8_valid(s, len)) {
      r.fail(error_code::invalid_utf8, at);
      return nullptr;
    }
    r.p += len;
    return s;
  }
};
}  // namespace detail

template <class A>
struct codec<std::basic_string<char, std::char_traits<char>, A>>
    : detail::string_codec<std::basic_string<char, std::char_traits<char>, A>> {
  using S = std::basic_string<char, std::char_traits<char>, A>;
  template <class F>
  static bool decode(detail::reader& r, S& s) {
    std::size_t len{};
    const std::uint8_t* p = detail::string_codec<S>::template take<F>(r, len);
    if (!p) return false;
    s.assign(reinterpret_cast<const char*>(p), len);
    return true;
  }
};

// Decoding a string_view borrows the input (valid while the input is).
template <>
struct codec<std::string_view> : detail::string_codec<std::string_view> {
  template <class F>
  static bool decode(detail::reader& r, std::string_view& s) {
    std::size_t len{};
    const std::uint8_t* p = detail::string_codec<std::string_view>::template take<F>(r, len);
    if (!p) return false;
    s = std::string_view(reinterpret_cast<const char*>(p), len);
    return true;
  }
};

// ---- sequences ---------------------------------------------------------------------------
template <class T, class A>
struct codec<std::vector<T, A>> : detail::length_prefixed_sizes {
  using V = std::vector<T, A>;
  template <class F>
  static std::size_t size(const V& v) {
    if constexpr (std::is_same_v<T, bool>) {
      return detail::len_size<F>(v.size()) + v.size();
    } else {
      return detail::len_size<F>(v.size()) + detail::block_size<F>(v.data(), v.size());
    }
  }
  template <class F, class W>
  static void encode(W& w, const V& v) {
    detail::put_len<F>(w, v.size());
    if constexpr (std::is_same_v<T, bool>) {
      for (bool b : v) w.byte(b ? 1 : 0);
    } else {
      detail::put_block<F>(w, v.data(), v.size());
    }
  }
  template <class F>
  static bool decode(detail::reader& r, V& v) {
    std::size_t n{};
    if (!detail::get_len<F>(r, n, detail::min_size_v<F, T>, sizeof(T))) return false;
    v.resize(n);
    if constexpr (std::is_same_v<T, bool>) {
      for (std::size_t i = 0; i < n; ++i) {
        bool b{};
        if (!codec<bool>::decode<F>(r, b)) return false;
        v[i] = b;
      }
      return true;
    } else {
      return detail::get_block<F>(r, v.data(), n);
    }
  }
};

// A span encodes like a Vec. Decoding borrows the input, so only byte spans decode.
template <class T>
struct codec<std::span<T>> : detail::length_prefixed_sizes {
  using S = std::span<T>;
  using E = std::remove_const_t<T>;
  template <class F>
  static std::size_t size(const S& s) {
    return detail::len_size<F>(s.size()) + detail::block_size<F>(s.data(), s.size());
  }
  template <class F, class W>
  static void encode(W& w, const S& s) {
    detail::put_len<F>(w, s.size());
    detail::put_block<F>(w, s.data(), s.size());
  }
  template <class F>
  static bool decode(detail::reader& r, S& s) {
    static_assert(
        std::is_const_v<T> && sizeof(E) == 1 && !std::is_same_v<E, bool>,
        "only std::span<const uint8_t/std::byte/char> decode (zero-copy, borrowing the input)");
    std::size_t n{};
    if (!detail::get_len<F>(r, n, 1)) return false;
    s = S(reinterpret_cast<T*>(r.p), n);
    r.p += n;
    return true;
  }
};

namespace detail {
// N elements of T in a row, without a length (std::array<T, N> and T[N]: Arr).
template <class Arr, class T, std::size_t N>
struct fixed_array_codec {
  template <class F>
  static constexpr std::size_t min_size = N* min_size_v<F, T>;
  template <class F>
  static constexpr std::size_t fixed_size =
      fixed_size_v<F, T> == npos ? npos : N* fixed_size_v<F, T>;
  template <class F>
  static std::size_t size(const Arr& a) {
    return block_size<F>(std::data(a), N);
  }
  template <class F, class W>
  static void encode(W& w, const Arr& a) {
    put_block<F>(w, std::data(a), N);
  }
  template <class F>
  static bool decode(reader& r, Arr& a) {
    return get_block<F>(r, std::data(a), N);
  }
};
}  // namespace detail

template <class T, std::size_t N>
struct codec<std::array<T, N>> : detail::fixed_array_codec<std::array<T, N>, T, N> {};
template <class T, std::size_t N>
struct codec<T[N]> : detail::fixed_array_codec<T[N], T, N> {};

// ---- option, tuples, unit ----------------------------------------------------------------
template <class T>
struct codec<std::optional<T>> {
  template <class F>
  static constexpr std::size_t min_size = 1;
  template <class F>
  static constexpr std::size_t fixed_size = npos;
  template <class F>
  static std::size_t size(const std::optional<T>& o) {
    return o ? 1 + detail::size_of<F>(*o) : 1;
  }
  template <class F, class W>
  static void encode(W& w, const std::optional<T>& o) {
    w.byte(o ? 1 : 0);
    if (o) detail::put<F>(w, *o);
  }
  template <class F>
  static bool decode(detail::reader& r, std::optional<T>& o) {
    if (!r.need(1)) return false;
    const std::uint8_t tag = *r.p;
    if (tag > 1) return r.fail(error_code::unexpected_variant, r.p);
    ++r.p;
    if (tag == 0) {
      o.reset();
      return true;
    }
    if (!o) o.emplace();
    return detail::get<F>(r, *o);
  }
};

template <class A, class B>
struct codec<std::pair<A, B>> {
  template <class F>
  static constexpr std::size_t min_size = detail::sum_min<F, A, B>();
  template <class F>
  static constexpr std::size_t fixed_size = detail::sum_fixed<F, A, B>();
  template <class F>
  static std::size_t size(const std::pair<A, B>& p) {
    return detail::size_of<F>(p.first) + detail::size_of<F>(p.second);
  }
  template <class F, class W>
  static void encode(W& w, const std::pair<A, B>& p) {
    detail::put<F>(w, p.first);
    detail::put<F>(w, p.second);
  }
  template <class F>
  static bool decode(detail::reader& r, std::pair<A, B>& p) {
    return detail::get<F>(r, p.first) && detail::get<F>(r, p.second);
  }
};

template <class... T>
struct codec<std::tuple<T...>> {
  template <class F>
  static constexpr std::size_t min_size = detail::sum_min<F, T...>();
  template <class F>
  static constexpr std::size_t fixed_size = detail::sum_fixed<F, T...>();
  template <class F>
  static std::size_t size(const std::tuple<T...>& t) {
    return detail::tuple_size<F>(t);
  }
  template <class F, class W>
  static void encode(W& w, const std::tuple<T...>& t) {
    detail::put_tuple<F>(w, t);
  }
  template <class F>
  static bool decode(detail::reader& r, std::tuple<T...>& t) {
    return detail::get_tuple<F>(r, t);
  }
};

template <>
struct codec<std::monostate> : detail::unit_codec<std::monostate> {};

// ---- enums and variants ------------------------------------------------------------------
template <detail::counted_enum E>
struct codec<E> {
  static constexpr std::uint32_t count = keel_bincode_enum_count(static_cast<const E*>(nullptr));
  template <class F>
  static constexpr std::size_t min_size = F::varint ? 1 : 4;
  template <class F>
  static constexpr std::size_t fixed_size = F::varint ? (count <= 251 ? 1 : npos) : 4;
  template <class F>
  static std::size_t size(E e) {
    return detail::int_size<F>(static_cast<std::uint32_t>(e));
  }
  template <class F, class W>
  static void encode(W& w, E e) {
    const auto i = static_cast<std::uint32_t>(e);
    if (i >= count) w.fail(error_code::unexpected_variant);
    detail::put_int<F>(w, i);
  }
  template <class F>
  static bool decode(detail::reader& r, E& e) {
    const std::uint8_t* at = r.p;
    std::uint32_t i{};
    if (!detail::get_int<F>(r, i)) return false;
    if (i >= count) return r.fail(error_code::unexpected_variant, at);
    e = static_cast<E>(i);
    return true;
  }
};

template <class... T>
struct codec<std::variant<T...>> {
  using V = std::variant<T...>;
  static constexpr std::uint32_t count = sizeof...(T);
  template <class F>
  static constexpr std::size_t min_size =
      (F::varint ? 1 : 4) + std::min({detail::min_size_v<F, T>...});
  template <class F>
  static constexpr std::size_t fixed_size = npos;
  template <class F>
  static std::size_t size(const V& v) {
    return detail::int_size<F>(static_cast<std::uint32_t>(v.index())) +
           std::visit([](const auto& x) { return detail::size_of<F>(x); }, v);
  }
  template <class F, class W>
  static void encode(W& w, const V& v) {
    detail::put_int<F>(w, static_cast<std::uint32_t>(v.index()));
    std::visit([&w](const auto& x) { detail::put<F>(w, x); }, v);
  }
  template <class F, std::size_t I>
  static bool decode_alt(detail::reader& r, V& v) {
    if (v.index() != I) v.template emplace<I>();
    return detail::get<F>(r, *std::get_if<I>(&v));
  }
  template <class F>
  static bool decode(detail::reader& r, V& v) {
    const std::uint8_t* at = r.p;
    std::uint32_t i{};
    if (!detail::get_int<F>(r, i)) return false;
    if (i >= count) return r.fail(error_code::unexpected_variant, at);
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      bool ok = false;
      static_cast<void>(((i == I ? (ok = decode_alt<F, I>(r, v), true) : false) || ...));
      return ok;
    }
    (std::index_sequence_for<T...>{});
  }
};

// ---- maps and sets -----------------------------------------------------------------------
namespace detail {
template <class M>
struct map_codec : collection_codec<M, void> {
  using K = typename M::key_type;
  using V = typename M::mapped_type;
  template <class F>
  static bool decode(reader& r, M& m) {
    std::size_t n{};
    if (!get_len<F>(r, n, sum_min<F, K, V>())) return false;
    m.clear();
    for (std::size_t i = 0; i < n; ++i) {
      K k{};
      V v{};
      if (!get<F>(r, k) || !get<F>(r, v)) return false;
      m.insert_or_assign(std::move(k), std::move(v));  // a repeated key keeps the last value
    }
    return true;
  }
};
template <class S>
struct set_codec : collection_codec<S, void> {
  using K = typename S::key_type;
  template <class F>
  static bool decode(reader& r, S& s) {
    std::size_t n{};
    if (!get_len<F>(r, n, min_size_v<F, K>)) return false;
    s.clear();
    for (std::size_t i = 0; i < n; ++i) {
      K k{};
      if (!get<F>(r, k)) return false;
      s.insert(std::move(k));
    }
    return true;
  }
};
}  // namespace detail

template <class K, class V, class C, class A>
struct codec<std::map<K, V, C, A>> : detail::map_codec<std::map<K, V, C, A>> {};
template <class K, class V, class H, class E, class A>
struct codec<std::unordered_map<K, V, H, E, A>>
    : detail::map_codec<std::unordered_map<K, V, H, E, A>> {};
template <class K, class C, class A>
struct codec<std::set<K, C, A>> : detail::set_codec<std::set<K, C, A>> {};
template <class K, class H, class E, class A>
struct codec<std::unordered_set<K, H, E, A>> : detail::set_codec<std::unordered_set<K, H, E, A>> {};

// ---- Duration ----------------------------------------------------------------------------
// std::chrono::duration is Rust's Duration { secs: u64, nanos: u32 }.
template <class Rep, class Period>
struct codec<std::chrono::duration<Rep, Period>> {
  static_assert(std::is_integral_v<Rep>, "only integral chrono durations map to Rust's Duration");
  static_assert(Period::den <= 1000000000 && Period::num <= 1000000000000,
                "the duration's period must be a whole number of nanoseconds (at most 10^12 s)");
  using D = std::chrono::duration<Rep, Period>;
  using i128 = detail::i128;
  using u128 = detail::u128;
  static constexpr std::uint64_t giga = 1000000000;

  // {secs, nanos}, or false when negative or out of Duration's range or not whole nanoseconds.
  static bool split(const D& d, std::uint64_t& secs, std::uint32_t& nanos) {
    const i128 scaled = static_cast<i128>(d.count()) * Period::num * static_cast<i128>(giga);
    if (scaled < 0 || scaled % Period::den != 0) return false;
    const auto ns = static_cast<u128>(scaled / Period::den);
    if (ns / giga > std::numeric_limits<std::uint64_t>::max()) return false;
    secs = static_cast<std::uint64_t>(ns / giga);
    nanos = static_cast<std::uint32_t>(ns % giga);
    return true;
  }
  template <class F>
  static constexpr std::size_t min_size = F::varint ? 2 : 12;
  template <class F>
  static constexpr std::size_t fixed_size = F::varint ? npos : 12;
  template <class F>
  static std::size_t size(const D& d) {
    std::uint64_t s = 0;
    std::uint32_t n = 0;
    if (!split(d, s, n)) s = 0, n = 0;
    return detail::int_size<F>(s) + detail::int_size<F>(n);
  }
  template <class F, class W>
  static void encode(W& w, const D& d) {
    std::uint64_t s = 0;
    std::uint32_t n = 0;
    if (!split(d, s, n)) {
      s = 0, n = 0;
      w.fail(error_code::invalid_duration);
    }
    detail::put_int<F>(w, s);
    detail::put_int<F>(w, n);
  }
  template <class F>
  static bool decode(detail::reader& r, D& d) {
    const std::uint8_t* at = r.p;
    std::uint64_t s{};
    std::uint32_t n{};
    if (!detail::get_int<F>(r, s) || !detail::get_int<F>(r, n)) return false;
    // Rust: secs + nanos / 10^9 must not overflow; Duration::new carries nanos into secs.
    if (s > std::numeric_limits<std::uint64_t>::max() - n / giga)
      return r.fail(error_code::invalid_duration, at);
    const u128 ns = static_cast<u128>(s) * giga + n;
    const u128 unit = static_cast<u128>(Period::num) * giga;  // nanoseconds per tick, times den
    const u128 scaled = ns * static_cast<u128>(Period::den);
    if (scaled % unit != 0) return r.fail(error_code::invalid_duration, at);
    const u128 ticks = scaled / unit;
    if (ticks > static_cast<u128>(std::numeric_limits<Rep>::max()))
      return r.fail(error_code::invalid_duration, at);
    d = D(static_cast<Rep>(ticks));
    return true;
  }
};

// ---- structs -----------------------------------------------------------------------------
// A struct with KEEL_BINCODE_FIELDS, or an aggregate (fields by reflection); no fields = unit.
template <class T>
requires(std::is_class_v<T> &&
         (detail::has_field_list<T> || detail::reflectable_aggregate<T>)) struct codec<T> {
  using fields = decltype(detail::fields_of(std::declval<T&>()));
  template <class Tuple>
  struct plain;
  template <class... R>
  struct plain<std::tuple<R...>> {
    template <class F>
    static constexpr std::size_t min = detail::sum_min<F, std::remove_cvref_t<R>...>();
    template <class F>
    static constexpr std::size_t fixed = detail::sum_fixed<F, std::remove_cvref_t<R>...>();
  };
  template <class F>
  static constexpr std::size_t min_size = plain<fields>::template min<F>;
  template <class F>
  static constexpr std::size_t fixed_size = plain<fields>::template fixed<F>;
  template <class F>
  static std::size_t size(const T& v) {
    return detail::tuple_size<F>(detail::fields_of(v));
  }
  template <class F, class W>
  static void encode(W& w, const T& v) {
    detail::put_tuple<F>(w, detail::fields_of(v));
  }
  template <class F>
  static bool decode(detail::reader& r, T& v) {
    return detail::get_tuple<F>(r, detail::fields_of(v));
  }
};

}  // namespace keel::bincode
