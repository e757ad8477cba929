// SPDX-License-Identifier: MIT
// Numbers as text for the JSON and XML forms: the shortest decimal that reads back to the same
// float (std::to_chars), always with a '.' or an exponent so it never reads back as an integer;
// non-finite values as "NaN", "Infinity", "-Infinity", and a NaN with another payload as its bits
// in hexadecimal ("0x7ff8000000000001"), so every bit pattern survives.
#pragma once

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

namespace keel::msg::detail {

template <class F>
bool is_plain_number(F x) {
  return std::isfinite(x);
}

// Appends a finite float's shortest text.
template <class F>
void append_finite(std::string& out, F x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  std::string_view s(buf, static_cast<std::size_t>(r.ptr - buf));
  out.append(s);
  if (s.find_first_of(".e") == std::string_view::npos) out.append(".0");
}

// The text of a non-finite float.
template <class F>
std::string nonfinite_text(F x) {
  using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  const U bits = std::bit_cast<U>(x);
  if (std::isinf(x)) return x < 0 ? "-Infinity" : "Infinity";
  if (bits == std::bit_cast<U>(std::numeric_limits<F>::quiet_NaN())) return "NaN";
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(sizeof(F) * 2),
                static_cast<unsigned long long>(bits));
  return buf;
}

// A non-finite float from its text (as written above).
template <class F>
bool nonfinite_from_text(std::string_view s, F& x) {
  using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  if (s == "NaN") {
    x = std::numeric_limits<F>::quiet_NaN();
  } else if (s == "Infinity") {
    x = std::numeric_limits<F>::infinity();
  } else if (s == "-Infinity") {
    x = -std::numeric_limits<F>::infinity();
  } else if (s.size() == 2 + sizeof(F) * 2 && s[0] == '0' && s[1] == 'x') {
    U bits = 0;
    const auto r = std::from_chars(s.data() + 2, s.data() + s.size(), bits, 16);
    if (r.ec != std::errc{} || r.ptr != s.data() + s.size()) return false;
    x = std::bit_cast<F>(bits);
    return std::isnan(x);
  } else {
    return false;
  }
  return true;
}

// A float from decimal text (the XML form; JSON numbers come from keel::json).
template <class F>
bool float_from_text(std::string_view s, F& x) {
  if (nonfinite_from_text(s, x)) return true;
  if (s.empty()) return false;
  const char* b = s.data();
  const auto r = std::from_chars(b, b + s.size(), x);
  return r.ec == std::errc{} && r.ptr == b + s.size() && std::isfinite(x);
}

}  // namespace keel::msg::detail
