// SPDX-License-Identifier: MIT
// Base64 (RFC 4648, standard alphabet, padded) for bytes in the JSON and XML forms.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace keel::msg::detail {

inline void base64_append(std::string& out, std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto* p = reinterpret_cast<const std::uint8_t*>(in.data());
  std::size_t n = in.size();
  for (; n >= 3; n -= 3, p += 3) {
    const std::uint32_t x = (std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2];
    out += kAlphabet[x >> 18];
    out += kAlphabet[(x >> 12) & 63];
    out += kAlphabet[(x >> 6) & 63];
    out += kAlphabet[x & 63];
  }
  if (n != 0) {
    const std::uint32_t x = (std::uint32_t{p[0]} << 16) | (n == 2 ? std::uint32_t{p[1]} << 8 : 0);
    out += kAlphabet[x >> 18];
    out += kAlphabet[(x >> 12) & 63];
    out += n == 2 ? kAlphabet[(x >> 6) & 63] : '=';
    out += '=';
  }
}

// Strict decoding: length a multiple of 4, padding only at the end, unused bits zero (so each
// byte string has exactly one encoding).
inline bool base64_decode(std::string_view in, std::string& out) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  out.clear();
  if (in.size() % 4 != 0) return false;
  out.reserve(in.size() / 4 * 3);
  for (std::size_t i = 0; i < in.size(); i += 4) {
    const bool last = i + 4 == in.size();
    const int pad = last ? (in[i + 3] == '=') + (in[i + 2] == '=') : 0;
    if (pad == 1 && in[i + 2] == '=') return false;
    int v[4];
    for (int k = 0; k < 4 - pad; ++k)
      if ((v[k] = val(in[i + k])) < 0) return false;
    const std::uint32_t x = (std::uint32_t(v[0]) << 18) | (std::uint32_t(v[1]) << 12) |
                            (pad < 2 ? std::uint32_t(v[2]) << 6 : 0) |
                            (pad < 1 ? std::uint32_t(v[3]) : 0);
    out += static_cast<char>(x >> 16);
    if (pad < 2) out += static_cast<char>((x >> 8) & 0xff);
    if (pad < 1) out += static_cast<char>(x & 0xff);
    if ((pad == 1 && (x & 0xff) != 0) || (pad == 2 && (x & 0xffff) != 0)) return false;
  }
  return true;
}

}  // namespace keel::msg::detail
