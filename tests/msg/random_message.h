// SPDX-License-Identifier: MIT
// Random messages holding every type (for the round-trip property tests of each form).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "keel/msg.h"

namespace keel::msg::test {

struct random_options {
  int max_depth = 3;
  int max_entries = 8;
  bool nonfinite = true;  // NaN and infinities in floats
  bool all_types = true;  // false: only the types plain JSON keeps (null, bool, int64,
                          // uint64 > INT64_MAX, float64, string, map, array)
  bool duplicate_names = true;
  // Also the values that stand for something else in a form unless it escapes them: extensions
  // of every type code (-1 with 4, 8 or 12 bytes is a MessagePack timestamp, 75 keel's ext,
  // -128 with one byte a CBOR simple value) and tags keel reads as its types (1, 1001, RFC 8746
  // typed arrays, 259 pairs, keel's CBOR tags) on contents that do and do not fit them.
  bool awkward = false;
};

class generator {
 public:
  explicit generator(std::uint64_t seed, random_options o = {}) : rng_(seed), o_(o) {}

  message make() {
    message m;
    if (o_.all_types) {
      m.header = {text(), text(), text(), text(), text(), text()};
    }
    fill(m, 0);
    return m;
  }

  std::string text() {
    static const char* const kPieces[] = {"a",
                                          "id",
                                          "\xc3\xa9",
                                          "\xe2\x82\xac",
                                          "\xf0\x9f\x98\x80",
                                          " ",
                                          "\"",
                                          "<",
                                          "&",
                                          "\\",
                                          "/",
                                          "~",
                                          "\n",
                                          "\t",
                                          "x1",
                                          ".",
                                          "-",
                                          "\x01",
                                          "]]>",
                                          "key"};
    std::string s;
    const int n = pick(0, 3) == 0 ? pick(0, 40) : pick(0, 6);
    for (int i = 0; i < n; ++i) s += kPieces[pick(0, 19)];
    return s;
  }

  value make_value(int depth) {
    const int hi = o_.all_types ? kTypeCount - 1 : 7;
    for (;;) {
      const int k = pick(0, hi);
      if (o_.all_types) {
        const auto t = static_cast<type>(k);
        if ((t == type::map || t == type::array || t == type::tagged) && depth >= o_.max_depth)
          continue;
        return of_type(t, depth);
      }
      // The plain JSON types.
      switch (k) {
        case 0:
          return value();
        case 1:
          return value(pick(0, 1) == 1);
        case 2:
          return value(static_cast<std::int64_t>(bits()));
        case 3:
          return value(std::uint64_t{bits() | (std::uint64_t{1} << 63)});
        case 4: {
          double d = finite_double();
          return value(d);
        }
        case 5:
          return value(text());
        case 6:
          if (depth >= o_.max_depth) continue;
          return of_type(type::map, depth);
        default:
          if (depth >= o_.max_depth) continue;
          return of_type(type::array, depth);
      }
    }
  }

  value of_type(type t, int depth) {
    switch (t) {
      case type::null:
        return value();
      case type::boolean:
        return value(pick(0, 1) == 1);
      case type::int8:
        return value(static_cast<std::int8_t>(bits()));
      case type::int16:
        return value(static_cast<std::int16_t>(bits()));
      case type::int32:
        return value(static_cast<std::int32_t>(bits()));
      case type::int64:
        return value(static_cast<std::int64_t>(bits() >> pick(0, 63)) * (pick(0, 1) ? 1 : -1));
      case type::uint8:
        return value(static_cast<std::uint8_t>(bits()));
      case type::uint16:
        return value(static_cast<std::uint16_t>(bits()));
      case type::uint32:
        return value(static_cast<std::uint32_t>(bits()));
      case type::uint64:
        return value(bits() >> pick(0, 63));
      case type::float32:
        return value(static_cast<float>(any_double()));
      case type::float64:
        return value(any_double());
      case type::string:
        return value(text());
      case type::bytes: {
        std::string b;
        const int n = pick(0, 40);
        for (int i = 0; i < n; ++i) b += static_cast<char>(bits());
        return value::bytes(b);
      }
      case type::timestamp: {
        const std::int64_t s = static_cast<std::int64_t>(bits()) >> pick(0, 63);
        const auto ns = static_cast<std::uint32_t>(pick(0, 2) == 0 ? 0 : bits() % 1000000000u);
        return value(timestamp{s, ns});
      }
      case type::extension: {
        extension e;
        e.code = static_cast<std::int8_t>(pick(0, 127));
        int n = pick(0, 3) == 0 ? pick(0, 300) : pick(0, 17);
        if (o_.awkward) {
          static constexpr int kCodes[] = {-1, 75, -128, 0, 127, -2};
          e.code = static_cast<std::int8_t>(pick(0, 1) == 0 ? kCodes[pick(0, 5)] : pick(-128, 127));
          if (pick(0, 1) == 0) n = pick(0, 3) * 4;
          if (e.code == -128 && pick(0, 1) == 0) n = 1;
        }
        for (int i = 0; i < n; ++i) e.data.push_back(static_cast<std::uint8_t>(bits()));
        return value(std::move(e));
      }
      case type::map: {
        map m;
        fill(m, depth + 1);
        return value(std::move(m));
      }
      case type::array: {
        array a;
        const int n = pick(0, o_.max_entries);
        for (int i = 0; i < n; ++i) a.push_back(make_value(depth + 1));
        return value(std::move(a));
      }
      case type::int32_array:
        return value(numbers<std::int32_t>());
      case type::int64_array:
        return value(numbers<std::int64_t>());
      case type::float32_array:
        return value(numbers<float>());
      case type::float64_array:
        return value(numbers<double>());
      case type::tagged: {
        if (o_.awkward && pick(0, 1) == 0) return awkward_tagged(depth);
        // Tag numbers that keel maps to no other type (not 1-3, 78-86, 259, 1001).
        std::uint64_t tag = bits() >> pick(0, 63);
        if (tag < 1100) tag += 1100;
        return value::tagged(tag, make_value(depth + 1));
      }
    }
    return value();
  }

  void fill(map& m, int depth) {
    const int n = pick(0, o_.max_entries);
    for (int i = 0; i < n; ++i) {
      std::string name = text();
      if (!o_.duplicate_names) {
        name += '#';
        name.append(std::to_string(i));
      }
      m.add(name, make_value(depth));
    }
  }

  std::uint64_t bits() { return rng_(); }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

 private:
  // A tag keel gives a meaning to, on a content that fits that meaning or not.
  value awkward_tagged(int depth) {
    constexpr std::uint64_t kKeel = 0x4B4D5300;  // docs/msg-format.md, CBOR
    switch (pick(0, 9)) {
      case 0:  // timestamp tags
        return value::tagged(
            1, pick(0, 1) ? value(static_cast<std::int64_t>(bits())) : make_value(depth + 1));
      case 1: {
        array pairs{value(array{std::int64_t{1}, std::int64_t{5}}),
                    value(array{std::int64_t{-9}, std::int64_t{pick(0, 1) ? 7 : -7}})};
        return value::tagged(1001, value::tagged(259, value(std::move(pairs))));
      }
      case 2: {  // RFC 8746 typed arrays
        static constexpr std::uint64_t kTags[] = {78, 79, 85, 86};
        std::string b(static_cast<std::size_t>(pick(0, 3) * 4 + pick(0, 1)), 'x');
        return value::tagged(kTags[pick(0, 3)], value::bytes(b));
      }
      case 3: {  // 259 on pairs with and without a key that is not a string
        array pairs;
        const int n = pick(0, 3);
        for (int i = 0; i < n; ++i)
          pairs.emplace_back(
              array{pick(0, 1) ? value(text()) : value(std::int64_t{i}), make_value(depth + 1)});
        return value::tagged(259, value(std::move(pairs)));
      }
      case 4:  // keel's integer width tags
        return value::tagged(kKeel + static_cast<std::uint64_t>(pick(2, 9)),
                             pick(0, 1) ? value(static_cast<std::int64_t>(bits() >> pick(0, 63)))
                                        : make_value(depth + 1));
      case 5:  // keel's escape tag
        return value::tagged(
            kKeel + 22, pick(0, 1) ? value(array{std::int64_t{pick(0, 100)}, make_value(depth + 1)})
                                   : make_value(depth + 1));
      case 6:  // keel's extension tags
        return value::tagged(kKeel + 0x100 + static_cast<std::uint64_t>(pick(0, 255)),
                             pick(0, 1) ? value::bytes(text()) : make_value(depth + 1));
      case 7:  // a negative bignum
        return value::tagged(3, value::bytes(std::string(static_cast<std::size_t>(pick(7, 9)),
                                                         static_cast<char>(pick(0, 255)))));
      default:
        return value::tagged(static_cast<std::uint64_t>(pick(0, 300)), make_value(depth + 1));
    }
  }

  template <class T>
  std::vector<T> numbers() {
    std::vector<T> v(static_cast<std::size_t>(pick(0, 20)));
    for (auto& x : v) {
      if constexpr (std::is_integral_v<T>)
        x = static_cast<T>(bits());
      else
        x = static_cast<T>(any_double());
    }
    return v;
  }
  double finite_double() {
    switch (pick(0, 3)) {
      case 0:
        return static_cast<double>(pick(-1000, 1000)) / 8.0;
      case 1:
        return std::ldexp(static_cast<double>(bits() >> 11), pick(-1074, 960));
      case 2:
        return -std::ldexp(static_cast<double>(bits() >> 11), pick(-200, 200));
      default:
        return 0.1 * pick(-100, 100);
    }
  }
  double any_double() {
    if (o_.nonfinite) {
      switch (pick(0, 12)) {
        case 0:
          return std::numeric_limits<double>::quiet_NaN();
        case 1:
          return std::numeric_limits<double>::infinity();
        case 2:
          return -std::numeric_limits<double>::infinity();
        case 3:
          return -0.0;
        default:
          break;
      }
    }
    return finite_double();
  }

  std::mt19937_64 rng_;
  random_options o_;
};

}  // namespace keel::msg::test
