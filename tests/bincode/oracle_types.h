// SPDX-License-Identifier: MIT
// The oracle's types in C++ — the mirror of oracle/src/lib.rs — with the same canonical text
// form (Show) and a random value generator.
#pragma once

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "keel/bincode.h"

namespace oracle {

namespace kb = keel::bincode;

enum class color : std::uint8_t { red, green, blue };
KEEL_BINCODE_ENUM(color, 3)
enum class side : std::uint8_t { buy, sell };
KEEL_BINCODE_ENUM(side, 2)

struct rect {  // Shape::Rect { w, h } — aggregate reflection
  std::uint32_t w, h;
};
// enum Shape { Empty, Circle(f64), Rect { w, h }, Poly(Vec<(i16, i16)>), Named(String, char) }
using shape =
    std::variant<std::monostate, double, rect, std::vector<std::pair<std::int16_t, std::int16_t>>,
                 std::tuple<std::string, char32_t>>;
struct fill {
  double px;
  std::uint32_t qty;
};
struct trade {
  std::uint64_t id;
  std::int64_t ts;
  std::string symbol;
  oracle::side side;
  double price;
  std::uint32_t qty;
  std::optional<std::string> venue;
  std::vector<fill> fills;
  std::uint8_t flags;
  std::int32_t account;
};
KEEL_BINCODE_FIELDS(trade, id, ts, symbol, side, price, qty, venue, fills, flags, account)
struct unit_struct {};
using nested = std::vector<std::optional<std::pair<std::uint16_t, std::vector<std::string>>>>;
using deep = std::map<std::string, std::vector<shape>>;

// ---- canonical text ----------------------------------------------------------------------
inline void show(std::string& o, const std::string& s);

inline void show_u128(std::string& o, kb::uint128 v) {
  char buf[48];
  int i = 47;
  buf[i] = 0;
  do {
    buf[--i] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v);
  o += buf + i;
}

template <class T>
void show(std::string& o, const T& v);

template <class It>
void show_seq(std::string& o, It b, It e) {
  o += '[';
  for (It i = b; i != e; ++i) {
    if (i != b) o += ',';
    show(o, *i);
  }
  o += ']';
}

template <class Tuple>
void show_fields(std::string& o, const Tuple& t) {
  o += '(';
  bool first = true;
  std::apply([&](const auto&... f) { ((o += first ? "" : ",", first = false, show(o, f)), ...); },
             t);
  o += ')';
}

template <class T>
struct is_tuple_like : std::false_type {};
template <class... T>
struct is_tuple_like<std::tuple<T...>> : std::true_type {};
template <class A, class B>
struct is_tuple_like<std::pair<A, B>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_map : std::false_type {};
template <class K, class V>
struct is_map<std::map<K, V>> : std::true_type {};
template <class T>
struct is_set : std::false_type {};
template <class K>
struct is_set<std::set<K>> : std::true_type {};
template <class T>
struct is_array : std::false_type {};
template <class T, std::size_t N>
struct is_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_variant : std::false_type {};
template <class... T>
struct is_variant<std::variant<T...>> : std::true_type {};

template <class T>
void show(std::string& o, const T& v) {
  char buf[64];
  if constexpr (std::is_same_v<T, bool>) {
    o += v ? "true" : "false";
  } else if constexpr (std::is_same_v<T, char32_t>) {
    std::snprintf(buf, sizeof buf, "c%u", static_cast<unsigned>(v));
    o += buf;
  } else if constexpr (std::is_same_v<T, float>) {
    std::snprintf(buf, sizeof buf, "f%08x", std::bit_cast<std::uint32_t>(v));
    o += buf;
  } else if constexpr (std::is_same_v<T, double>) {
    std::snprintf(buf, sizeof buf, "d%016" PRIx64, std::bit_cast<std::uint64_t>(v));
    o += buf;
  } else if constexpr (std::is_same_v<T, kb::uint128>) {
    show_u128(o, v);
  } else if constexpr (std::is_same_v<T, kb::int128>) {
    if (v < 0) o += '-';
    show_u128(o,
              v < 0 ? kb::uint128(0) - static_cast<kb::uint128>(v) : static_cast<kb::uint128>(v));
  } else if constexpr (std::is_integral_v<T>) {
    o += std::to_string(v);
  } else if constexpr (std::is_enum_v<T>) {
    o += 'V' + std::to_string(static_cast<unsigned>(v));
  } else if constexpr (std::is_same_v<T, std::chrono::nanoseconds>) {
    o += '(' + std::to_string(v.count() / 1000000000) + ',' +
         std::to_string(v.count() % 1000000000) + ')';
  } else if constexpr (std::is_same_v<T, std::monostate>) {
    o += "()";
  } else if constexpr (is_vector<T>::value || is_array<T>::value || is_set<T>::value) {
    show_seq(o, v.begin(), v.end());
  } else if constexpr (is_map<T>::value) {
    o += '{';
    bool first = true;
    for (const auto& [k, x] : v) {
      if (!first) o += ',';
      first = false;
      show(o, k);
      o += ':';
      show(o, x);
    }
    o += '}';
  } else if constexpr (is_optional<T>::value) {
    if (!v) {
      o += 'N';
    } else {
      o += "S(";
      show(o, *v);
      o += ')';
    }
  } else if constexpr (is_tuple_like<T>::value) {
    show_fields(o, v);
  } else if constexpr (is_variant<T>::value) {
    o += 'V' + std::to_string(v.index());
    std::visit(
        [&o](const auto& x) {
          using A = std::remove_cvref_t<decltype(x)>;
          if constexpr (std::is_same_v<A, std::monostate>) {
          } else if constexpr (is_tuple_like<A>::value ||
                               (std::is_class_v<A> && std::is_aggregate_v<A>)) {
            show(o, x);
          } else {
            o += '(';
            show(o, x);
            o += ')';
          }
        },
        v);
  } else {  // structs
    show_fields(o, kb::detail::fields_of(v));
  }
}

inline void show(std::string& o, const std::string& s) {
  static const char* digits = "0123456789abcdef";
  o += '"';
  for (unsigned char c : s) {
    o += digits[c >> 4];
    o += digits[c & 15];
  }
  o += '"';
}

template <class T>
std::string show(const T& v) {
  std::string o;
  show(o, v);
  return o;
}

// ---- random values (splitmix64) ----------------------------------------------------------
struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  kb::uint128 wide() {
    const unsigned bits = static_cast<unsigned>(below(129));
    const kb::uint128 v = (static_cast<kb::uint128>(next()) << 64) | next();
    return bits == 0 ? 0 : bits >= 128 ? v : v & ((kb::uint128(1) << bits) - 1);
  }
  std::size_t len(int depth) {
    return depth > 1 ? below(3) : below(10) == 0 && depth == 0 ? below(200) : below(6);
  }
};

template <class T>
void gen(rng& r, T& v, int d);

inline char32_t gen_char(rng& r) {
  for (;;) {
    const std::uint64_t lim[] = {0x80, 0x800, 0x10000, 0x110000};
    const auto c = static_cast<char32_t>(r.below(lim[r.below(4)]));
    if (c < 0xD800 || c > 0xDFFF) return c;
  }
}
inline void append_utf8(std::string& s, char32_t c) {
  auto b = kb::encode_to_vector(c, kb::standard());
  s.append(b->begin(), b->end());
}

template <class T>
void gen(rng& r, T& v, int d) {
  if constexpr (std::is_same_v<T, bool>) {
    v = r.next() & 1;
  } else if constexpr (std::is_same_v<T, char32_t>) {
    v = gen_char(r);
  } else if constexpr (std::is_same_v<T, float>) {
    v = std::bit_cast<float>(static_cast<std::uint32_t>(r.next()));
  } else if constexpr (std::is_same_v<T, double>) {
    v = std::bit_cast<double>(r.next());
  } else if constexpr (kb::detail::wire_integer<T>) {
    v = static_cast<T>(r.wide());
  } else if constexpr (std::is_enum_v<T>) {
    v = static_cast<T>(r.below(keel_bincode_enum_count(static_cast<const T*>(nullptr))));
  } else if constexpr (std::is_same_v<T, std::string>) {
    v.clear();
    const std::size_t n = d == 0 && r.below(8) == 0 ? r.below(300) : r.below(12);
    for (std::size_t i = 0; i < n; ++i) {
      if (r.below(4) == 0)
        append_utf8(v, gen_char(r));
      else
        v += static_cast<char>('a' + r.below(26));
    }
  } else if constexpr (std::is_same_v<T, std::chrono::nanoseconds>) {
    v = std::chrono::nanoseconds(static_cast<std::int64_t>(r.next() >> 1));
  } else if constexpr (std::is_same_v<T, std::monostate>) {
  } else if constexpr (is_vector<T>::value) {
    v.resize(r.len(d));
    for (std::size_t i = 0; i < v.size(); ++i) {
      typename T::value_type x{};
      gen(r, x, d + 1);
      v[i] = x;
    }
  } else if constexpr (is_array<T>::value) {
    for (auto& x : v) gen(r, x, d + 1);
  } else if constexpr (is_set<T>::value || is_map<T>::value) {
    v.clear();
    const std::size_t n = r.len(d);
    for (std::size_t i = 0; i < n; ++i) {
      typename T::value_type x{};
      if constexpr (is_map<T>::value) {
        gen(r, const_cast<typename T::key_type&>(x.first), d + 1);
        gen(r, x.second, d + 1);
      } else {
        gen(r, x, d + 1);
      }
      v.insert(std::move(x));
    }
  } else if constexpr (is_optional<T>::value) {
    if (r.below(3) == 0) {
      v.reset();
    } else {
      v.emplace();
      gen(r, *v, d + 1);
    }
  } else if constexpr (is_tuple_like<T>::value) {
    std::apply([&](auto&... f) { (gen(r, f, d + 1), ...); }, v);
  } else if constexpr (is_variant<T>::value) {
    const std::size_t i = r.below(std::variant_size_v<T>);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      static_cast<void>(
          ((i == I ? (v.template emplace<I>(), gen(r, std::get<I>(v), d + 1), true) : false) ||
           ...));
    }
    (std::make_index_sequence<std::variant_size_v<T>>{});
  } else {
    std::apply([&](auto&... f) { (gen(r, f, d + 1), ...); }, kb::detail::fields_of(v));
  }
}

// Every oracle type, by the name both sides use: fn.template operator()<T>(name).
template <class Fn>
void each_type(Fn&& fn) {
  fn.template operator()<std::uint8_t>("u8");
  fn.template operator()<std::uint16_t>("u16");
  fn.template operator()<std::uint32_t>("u32");
  fn.template operator()<std::uint64_t>("u64");
  fn.template operator()<kb::uint128>("u128");
  fn.template operator()<std::int8_t>("i8");
  fn.template operator()<std::int16_t>("i16");
  fn.template operator()<std::int32_t>("i32");
  fn.template operator()<std::int64_t>("i64");
  fn.template operator()<kb::int128>("i128");
  fn.template operator()<bool>("bool");
  fn.template operator()<float>("f32");
  fn.template operator()<double>("f64");
  fn.template operator()<char32_t>("char");
  fn.template operator()<std::string>("string");
  fn.template operator()<std::vector<std::uint8_t>>("bytes");
  fn.template operator()<std::vector<std::uint64_t>>("vec_u64");
  fn.template operator()<std::vector<std::int32_t>>("vec_i32");
  fn.template operator()<std::vector<double>>("vec_f64");
  fn.template operator()<std::vector<std::string>>("vec_string");
  fn.template operator()<std::vector<bool>>("vec_bool");
  fn.template operator()<std::optional<std::uint32_t>>("opt_u32");
  fn.template operator()<std::optional<std::string>>("opt_string");
  fn.template operator()<std::tuple<std::uint8_t, std::int64_t, std::string>>("tuple");
  fn.template operator()<std::array<std::uint16_t, 4>>("arr_u16_4");
  fn.template operator()<std::map<std::uint32_t, std::string>>("map_u32_string");
  fn.template operator()<std::set<std::int64_t>>("set_i64");
  fn.template operator()<std::chrono::nanoseconds>("duration");
  fn.template operator()<std::monostate>("unit");
  fn.template operator()<unit_struct>("unit_struct");
  fn.template operator()<color>("color");
  fn.template operator()<shape>("shape");
  fn.template operator()<trade>("trade");
  fn.template operator()<nested>("nested");
  fn.template operator()<deep>("deep");
  fn.template operator()<std::vector<char32_t>>("vec_char");
  fn.template operator()<std::pair<kb::int128, kb::uint128>>("pair_i128_u128");
}

struct named_config {
  const char* name;
  kb::config cfg;
};
inline const named_config configs[] = {
    {"v1_fixint_le", kb::v1_serialize()},
    {"v1_varint_le", kb::v1_options()},
    {"v1_fixint_be", kb::v1_serialize().with_big_endian()},
    {"v1_varint_be", kb::v1_options().with_big_endian()},
    {"v2_standard", kb::standard()},
    {"v2_legacy", kb::legacy()},
    {"v2_standard_be", kb::standard().with_big_endian()},
    {"v2_legacy_be", kb::legacy().with_big_endian()},
};

}  // namespace oracle
