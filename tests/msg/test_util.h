// SPDX-License-Identifier: MIT
// Helpers shared by the keel::msg tests: hex, and what a message becomes after a trip through a
// form that keeps values but not every keel type (docs/msg-format.md lists each mapping).
#pragma once

#include <string>
#include <string_view>

#include "keel/msg.h"

namespace keel::msg::test {

inline std::string hex(std::string_view s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

inline std::string unhex(std::string_view h) {
  std::string out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2)
    out += static_cast<char>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16));
  return out;
}

inline bytes_view as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

enum class form_kind { msgpack, cbor, json_plain };

// An integer as the document forms read it back: int64, or uint64 above INT64_MAX.
inline value plain_integer(const value& v) {
  if (v.is_signed()) return value(v.as_int());
  return v.as_uint() <= INT64_MAX ? value(static_cast<std::int64_t>(v.as_uint()))
                                  : value(v.as_uint());
}

inline value canonical(const value& v, form_kind f);

inline map canonical(const map& m, form_kind f) {
  map out;
  for (const auto& e : m) out.add(e.name, canonical(e.value, f));
  return out;
}

template <class T>
value numbers_as_array(const std::vector<T>& a) {
  array out;
  for (T x : a) {
    if constexpr (std::is_integral_v<T>)
      out.emplace_back(std::int64_t{x});
    else
      out.emplace_back(x);
  }
  return value(std::move(out));
}

inline value canonical(const value& v, form_kind f) {
  if (v.is_integer()) return plain_integer(v);
  switch (v.type()) {
    case type::map:
      return value(canonical(*v.as_map(), f));
    case type::array: {
      array out;
      for (const value& e : *v.as_array()) out.push_back(canonical(e, f));
      return value(std::move(out));
    }
    case type::int32_array:
      return f == form_kind::cbor ? v : numbers_as_array(*v.as_numeric<std::int32_t>());
    case type::int64_array:
      return f == form_kind::cbor ? v : numbers_as_array(*v.as_numeric<std::int64_t>());
    case type::float32_array:
      return f == form_kind::cbor ? v : numbers_as_array(*v.as_numeric<float>());
    case type::float64_array:
      return f == form_kind::cbor ? v : numbers_as_array(*v.as_numeric<double>());
    case type::tagged:
      if (f == form_kind::msgpack) return canonical(v.tagged_value(), f);
      return value::tagged(v.tag(), canonical(v.tagged_value(), f));
    default:
      return v;
  }
}

inline message canonical(const message& m, form_kind f) {
  message out(m.header);
  out.body() = canonical(m.body(), f);
  return out;
}

}  // namespace keel::msg::test
