// SPDX-License-Identifier: MIT
// What the MessagePack and CBOR readers share: bounds, offsets, depth, UTF-8 checks, and the map
// builder that keeps string-keyed maps as keel maps (filled in place) and any other map as pairs
// (shape.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "fill.h"
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
  // A big-endian float32 (U = std::uint32_t) or float64 (std::uint64_t) at p, into v. Always
  // inlined: both readers then compile as they did with these lines in each case (objdump).
  template <class U>
  [[gnu::always_inline]] bool float_be(value& v) {
    if (!need(sizeof(U))) return false;
    value_access::set_bits(v, sizeof(U) == 4 ? type::float32 : type::float64, load_be<U>(p));
    p += sizeof(U);
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

// Builds a map entry by entry into a value: a keel map while every key is a string (filled in
// place, reusing the map the value held: fill.h), pairs once one is not.
class map_builder {
 public:
  map_builder(value& target, std::size_t n)
      : target_(target), m_(value_access::reuse_map(target)), f_(m_, n) {}
  value& named(std::string_view k) {
    if (!any_) {
      if (value* v = f_.same(k)) return *v;
      return f_.next(k);
    }
    pairs_.emplace_back(value(k), value());
    return pairs_.back().second;
  }
  value& keyed(value&& k) {
    if (k.type() == type::string) return named(k.as_text());
    if (!any_) {
      any_ = true;
      f_.finish();
      for (std::size_t i = 0; i < m_.size(); ++i)
        pairs_.emplace_back(value(m_[i].name), std::move(m_.value_at(i)));
      m_.clear();
    }
    pairs_.emplace_back(std::move(k), value());
    return pairs_.back().second;
  }
  // Completes the value: the map, or tagged(kAnyKeyMap, [[key, value], ...]).
  void finish() {
    if (!any_) {
      f_.finish();
      return;
    }
    array a;
    a.reserve(pairs_.size());
    for (auto& [k, v] : pairs_) a.emplace_back(array{std::move(k), std::move(v)});
    target_ = value::tagged(kAnyKeyMap, value(std::move(a)));  // replaces the map m_
  }

 private:
  value& target_;
  map& m_;
  map_filler f_;
  std::vector<std::pair<value, value>> pairs_;
  bool any_ = false;
};

// One map entry into m, then its value: a text key of n bytes at r.p (UTF-8 checked) when
// text_key, else a key of any type read by item(). Reader: a byte_reader with item(value&).
template <class Reader>
bool read_entry(Reader& r, map_builder& m, bool text_key, std::uint64_t n) {
  if (text_key) {
    std::string_view k;
    return r.take(n, k, true) && r.item(m.named(k));
  }
  value k;
  return r.item(k) && r.item(m.keyed(std::move(k)));
}

// A whole input read as one value, checked for size and trailing bytes.
template <class Reader>
result<value> read_value(bytes_view in, const read_options& options) {
  Reader r(in, options);
  value v;
  if (r.too_large() || !r.item(v) || !r.finished()) return r.err;
  return v;
}

// A whole document read as a message: the top-level value is filled in place over out's storage
// (document_shell), checked for size and trailing bytes, then taken apart into header and body;
// on an error `out` is left empty. Reader: a byte_reader with item(value&).
template <class Reader>
error read_document(bytes_view in, message& out, const read_options& options) {
  value v = document_shell(out);
  Reader r(in, options);
  if (r.too_large() || !r.item(v) || !r.finished()) {
    clear_message(out);
    return r.err;
  }
  return message_from_value(std::move(v), out);
}

}  // namespace keel::msg::detail
