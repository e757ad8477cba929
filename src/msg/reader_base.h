// SPDX-License-Identifier: MIT
// What the MessagePack and CBOR readers share: bounds, offsets, depth, UTF-8 checks, and the map
// builder that keeps string-keyed maps as keel maps and any other map as pairs (shape.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "keel/msg/binary.h"
#include "shape.h"
#include "text.h"
#include "wire.h"

namespace keel::msg::detail {

struct byte_reader {
  byte_reader(bytes_view in, const read_options& o)
      : begin(in.data()), p(in.data()), end(in.data() + in.size()), opts(o) {}

  bool fail(error_code c, const std::uint8_t* at) {
    err.code = c;
    err.offset = static_cast<std::size_t>(at - begin);
    return false;
  }
  std::size_t left() const noexcept { return static_cast<std::size_t>(end - p); }
  bool need(std::size_t n) { return n <= left() || fail(error_code::truncated, end); }
  bool enter(const std::uint8_t* at) {
    return ++depth <= opts.max_depth || fail(error_code::depth_exceeded, at);
  }
  void leave() noexcept { --depth; }
  // n bytes of text (checked against the input left), UTF-8 checked if `utf8`.
  bool take(std::uint64_t n, std::string_view& s, bool utf8) {
    if (n > left()) return fail(error_code::truncated, end);
    s = {reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)};
    if (utf8 && !utf8_ok(p, s.size())) return fail(error_code::invalid_utf8, p);
    p += n;
    return true;
  }
  // A whole input must be one value: checks the size limit first and trailing bytes after.
  bool too_large() {
    return static_cast<std::size_t>(end - begin) > opts.max_size &&
           !fail(error_code::too_large, begin);
  }
  bool finished() { return p == end || fail(error_code::trailing_bytes, p); }

  const std::uint8_t* begin;
  const std::uint8_t* p;
  const std::uint8_t* end;
  const read_options& opts;
  std::uint32_t depth = 0;
  error err;
};

// Builds a map entry by entry: a keel map while every key is a string, pairs once one is not.
class map_builder {
 public:
  explicit map_builder(std::size_t n) { m_.reserve(n); }
  value& named(std::string_view k) {
    if (!any_) return m_.add(k, value());
    pairs_.emplace_back(value(k), value());
    return pairs_.back().second;
  }
  value& keyed(value&& k) {
    if (k.type() == type::string) return named(k.as_text());
    if (!any_) {
      any_ = true;
      for (const auto& e : m_) pairs_.emplace_back(value(e.name), e.value);
      m_.clear();
    }
    pairs_.emplace_back(std::move(k), value());
    return pairs_.back().second;
  }
  value finish() {
    if (!any_) return value(std::move(m_));
    array a;
    a.reserve(pairs_.size());
    for (auto& [k, v] : pairs_) a.emplace_back(array{std::move(k), std::move(v)});
    return value::tagged(kAnyKeyMap, value(std::move(a)));
  }

 private:
  map m_;
  std::vector<std::pair<value, value>> pairs_;
  bool any_ = false;
};

}  // namespace keel::msg::detail
