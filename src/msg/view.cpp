// SPDX-License-Identifier: MIT
// keel::msg::view: lookups over the binary form without decoding it. Values are skipped by their
// sizes (nested maps and arrays by their 4-byte length prefix), so a lookup touches only the
// entries of the levels it walks; every length is checked against the bytes of its enclosing
// value first. A large body gets a hash index of its names when the view is opened.
#include "keel/msg/view.h"
#include "binary_read.h"
#include "name_hash.h"
#include "path.h"
#include "text.h"
#include "wire.h"

namespace keel::msg {

struct view_access {
  using u8 = std::uint8_t;

  static error fail(const u8* base, error_code c, const u8* at) {
    return error{c, static_cast<std::size_t>(at - base)};
  }

  static const u8* varint(const u8* base, const u8* p, const u8* end, std::uint64_t& v, error& e) {
    bool bad = false;
    const u8* q = detail::get_varint(p, end, v, bad);
    if (q == nullptr)
      e = fail(base, bad ? error_code::bad_varint : error_code::truncated, bad ? p : end);
    return q;
  }

  // The value whose tag is at p, inside [p, end).
  static error at(const u8* base, const u8* p, const u8* end, value_view& out) {
    error e;
    if (p >= end) return fail(base, error_code::truncated, end);
    const u8 tag = *p;
    if (tag > detail::kTagMax) return fail(base, error_code::bad_tag, p);
    out = value_view();
    out.base_ = base;
    out.tag_ = p;
    out.type_ = detail::type_of_tag(tag);
    const u8* q = p + 1;
    const type t = out.type_;
    if (t == type::null || t == type::boolean) {
      out.data_ = out.end_ = q;
      return e;
    }
    if (const std::size_t fs = detail::fixed_size(t)) {
      if (static_cast<std::size_t>(end - q) < fs) return fail(base, error_code::truncated, end);
      out.data_ = q;
      out.end_ = q + fs;
      return e;
    }
    std::uint64_t n = 0;
    switch (t) {
      case type::extension:
        if (q == end) return fail(base, error_code::truncated, end);
        out.code_ = static_cast<std::int8_t>(*q++);
        [[fallthrough]];
      case type::string:
      case type::bytes:
        if ((q = varint(base, q, end, n, e)) == nullptr) return e;
        if (n > static_cast<std::size_t>(end - q)) return fail(base, error_code::truncated, end);
        out.data_ = q;
        out.count_ = n;
        out.end_ = q + n;
        return e;
      case type::map:
      case type::array: {
        if (end - q < 4) return fail(base, error_code::truncated, end);
        const std::uint32_t len = detail::load<std::uint32_t>(q);
        q += 4;
        if (len > static_cast<std::size_t>(end - q))
          return fail(base, error_code::bad_length, q - 4);
        out.end_ = q + len;
        if ((q = varint(base, q, out.end_, n, e)) == nullptr) return e;
        if (n > static_cast<std::size_t>(out.end_ - q))
          return fail(base, error_code::bad_length, q);
        out.data_ = q;
        out.count_ = n;
        return e;
      }
      case type::int32_array:
      case type::int64_array:
      case type::float32_array:
      case type::float64_array: {
        if ((q = varint(base, q, end, n, e)) == nullptr) return e;
        const std::size_t es = detail::element_size(t);
        if (n > static_cast<std::size_t>(end - q) / es)
          return fail(base, error_code::bad_length, q);
        out.data_ = q;
        out.count_ = n;
        out.end_ = q + n * es;
        return e;
      }
      case type::tagged: {
        if ((q = varint(base, q, end, n, e)) == nullptr) return e;
        out.count_ = n;
        out.data_ = q;
        // The tagged value ends where the value it tags ends (a chain of tags is walked, not
        // recursed into).
        const u8* r = q;
        while (r < end && *r == detail::tag_of(type::tagged)) {
          std::uint64_t ignored;
          if ((r = varint(base, r + 1, end, ignored, e)) == nullptr) return e;
        }
        value_view last;
        if ((e = at(base, r, end, last))) return e;
        out.end_ = last.end_;
        return e;
      }
      default:
        return fail(base, error_code::bad_tag, p);
    }
  }

  // The entry of map m at p: its name and its value (checked); p moves past it.
  static error next_entry(const value_view& m, const u8*& p, std::string_view& key,
                          value_view& out) {
    error e;
    std::uint64_t n;
    if ((p = varint(m.base_, p, m.end_, n, e)) == nullptr) return e;
    if (n > static_cast<std::size_t>(m.end_ - p))
      return fail(m.base_, error_code::truncated, m.end_);
    key = {reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)};
    p += n;
    if ((e = at(m.base_, p, m.end_, out))) return e;
    p = out.end_;
    return e;
  }

  static error find(const value_view& m, std::string_view name, value_view& out) {
    if (m.type_ != type::map) return error{error_code::type_mismatch, m.offset()};
    const u8* p = m.data_;
    for (std::size_t i = 0; i < m.count_; ++i) {
      std::string_view key;
      if (error e = next_entry(m, p, key, out)) return e;
      if (key == name) return {};
    }
    return error{error_code::not_found, m.offset()};
  }

  static constexpr std::size_t kScanMax = 8;
  static constexpr std::uint64_t kHashMask = 0xffffffff00000000ull;

  static bool same_name(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && detail::same_short(a.data(), b.data(), a.size());
  }

  // The end of the value whose tag is at p, for a walk that only steps over values: nullptr if
  // it is not well framed inside [p, end) (at() then says why).
  static const u8* value_end(const u8* p, const u8* end) noexcept {
    for (;;) {  // a chain of tags is walked, not recursed into
      if (p >= end || *p > detail::kTagMax) return nullptr;
      const type t = detail::type_of_tag(*p);
      const u8* q = p + 1;
      if (const std::size_t fs = detail::fixed_size(t))
        return static_cast<std::size_t>(end - q) < fs ? nullptr : q + fs;
      std::uint64_t n = 0;
      bool bad = false;
      switch (t) {
        case type::null:
        case type::boolean:
          return q;
        case type::extension:
          if (q == end) return nullptr;
          ++q;
          [[fallthrough]];
        case type::string:
        case type::bytes:
          if ((q = detail::get_varint(q, end, n, bad)) == nullptr) return nullptr;
          return n > static_cast<std::size_t>(end - q) ? nullptr : q + n;
        case type::map:
        case type::array: {
          if (end - q < 4) return nullptr;
          const std::uint32_t len = detail::load<std::uint32_t>(q);
          q += 4;
          if (len > static_cast<std::size_t>(end - q)) return nullptr;
          // The count must fit the length (at() checks it the same way).
          const u8* c = detail::get_varint(q, q + len, n, bad);
          if (c == nullptr || n > static_cast<std::size_t>(q + len - c)) return nullptr;
          return q + len;
        }
        case type::int32_array:
        case type::int64_array:
        case type::float32_array:
        case type::float64_array: {
          if ((q = detail::get_varint(q, end, n, bad)) == nullptr) return nullptr;
          const std::size_t es = detail::element_size(t);
          return n > static_cast<std::size_t>(end - q) / es ? nullptr : q + n * es;
        }
        case type::tagged:
          if ((p = detail::get_varint(q, end, n, bad)) == nullptr) return nullptr;
          continue;
        default:
          return nullptr;
      }
    }
  }

  // The name of the entry at p (already checked by index_body).
  static std::string_view name_at(const u8* p, const u8* end, const u8*& after) {
    std::uint64_t n = 0;
    bool bad = false;
    p = detail::get_varint(p, end, n, bad);
    after = p + n;
    return {reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)};
  }

  // Walks the body's entries once (checking each name's length and each value's extent) and
  // builds the view's index of the first entry of each name.
  static error index_body(view& v) {
    const value_view& m = v.body_;
    if (m.count_ <= kScanMax || m.end_ - m.base_ >= std::ptrdiff_t{UINT32_MAX}) return {};
    std::size_t cap = 32;
    while (cap < m.count_ * 2) cap *= 2;
    try {
      v.index_.assign(cap, 0);
    } catch (...) {
      v.index_.clear();  // out of memory: lookups scan
      return {};
    }
    const std::size_t mask = cap - 1;
    const u8* p = m.data_;
    for (std::size_t i = 0; i < m.count_; ++i) {
      const u8* entry = p;
      std::uint64_t n = 0;
      bool bad = false;
      const u8* name = detail::get_varint(p, m.end_, n, bad);
      const u8* next = name != nullptr && n <= static_cast<std::size_t>(m.end_ - name)
                           ? value_end(name + n, m.end_)
                           : nullptr;
      std::string_view key;
      if (next != nullptr) {
        key = {reinterpret_cast<const char*>(name), static_cast<std::size_t>(n)};
        p = next;
      } else {  // not well framed: the full step reports where and why
        value_view out;
        if (error e = next_entry(m, p, key, out)) return e;
      }
      const std::uint64_t h = detail::hash_name(key);
      for (std::size_t s = h & mask;; s = (s + 1) & mask) {
        const std::uint64_t slot = v.index_[s];
        if (slot == 0) {
          v.index_[s] = (h & kHashMask) | static_cast<std::uint64_t>(entry - m.base_ + 1);
          break;
        }
        const u8* ignored;
        if ((slot & kHashMask) == (h & kHashMask) &&
            same_name(name_at(m.base_ + (slot & 0xffffffffu) - 1, m.end_, ignored), key))
          break;  // a later entry of a name already indexed
      }
    }
    return {};
  }

  static error find_indexed(const view& v, std::string_view name, value_view& out) {
    const value_view& m = v.body_;
    const std::size_t mask = v.index_.size() - 1;
    const std::uint64_t h = detail::hash_name(name);
    for (std::size_t s = h & mask;; s = (s + 1) & mask) {
      const std::uint64_t slot = v.index_[s];
      if (slot == 0) return error{error_code::not_found, m.offset()};
      const u8* value_at;
      if ((slot & kHashMask) == (h & kHashMask) &&
          same_name(name_at(m.base_ + (slot & 0xffffffffu) - 1, m.end_, value_at), name))
        return at(m.base_, value_at, m.end_, out);
    }
  }

  static error index(const value_view& a, std::size_t i, value_view& out) {
    if (a.type_ != type::array) return error{error_code::type_mismatch, a.offset()};
    if (i >= a.count_) return error{error_code::not_found, a.offset()};
    const u8* p = a.data_;
    for (std::size_t k = 0;; ++k) {
      if (error e = at(a.base_, p, a.end_, out)) return e;
      if (k == i) return {};
      p = out.end_;
    }
  }
};

result<view> view::open(bytes_view in) noexcept {
  using u8 = std::uint8_t;
  const u8* base = in.data();
  const u8* end = base + in.size();
  if (in.size() < detail::kPreamble) {
    if (!in.empty() && std::memcmp(base, detail::kMagic, std::min<std::size_t>(in.size(), 4)) != 0)
      return error{error_code::bad_magic, 0};
    return error{error_code::truncated, in.size()};
  }
  if (std::memcmp(base, detail::kMagic, 4) != 0) return error{error_code::bad_magic, 0};
  if (base[4] != kBinaryVersion) return error{error_code::bad_version, 4};
  if (base[5] != 0) return error{error_code::bad_tag, 5};
  view v;
  const u8* p = base + detail::kPreamble;
  error e;
  for (auto& h : v.head_) {
    std::uint64_t n;
    if ((p = view_access::varint(base, p, end, n, e)) == nullptr) return e;
    if (n > static_cast<std::size_t>(end - p))
      return view_access::fail(base, error_code::truncated, end);
    if (!detail::utf8_ok(p, n)) return view_access::fail(base, error_code::invalid_utf8, p);
    h = {reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)};
    p += n;
  }
  std::uint64_t n;
  const u8* at = p;
  if ((p = view_access::varint(base, p, end, n, e)) == nullptr) return e;
  if (n > static_cast<std::size_t>(end - p) / 2)
    return view_access::fail(base, error_code::bad_length, at);
  v.body_.base_ = base;
  v.body_.tag_ = at;
  v.body_.data_ = p;
  v.body_.end_ = end;
  v.body_.count_ = n;
  v.body_.type_ = type::map;
  if ((e = view_access::index_body(v))) return e;
  return v;
}

result<value_view> view::find(std::string_view name) const noexcept {
  if (index_.empty()) return body_.find(name);
  value_view out;
  if (error e = view_access::find_indexed(*this, name, out)) return e;
  return out;
}

result<value_view> view::find_path(std::string_view path) const noexcept {
  std::string_view rest = path, seg;
  std::string name;
  if (index_.empty() || !detail::next_segment(rest, seg) || !detail::segment_name(seg, name))
    return body_.find_path(path);
  auto first = find(name);
  if (!first || rest.empty()) return first;
  return first->find_path(rest);
}

result<value_view> value_view::find(std::string_view name) const noexcept {
  value_view out;
  if (error e = view_access::find(*this, name, out)) return e;
  return out;
}

result<value_view> value_view::at(std::size_t i) const noexcept {
  value_view out;
  if (error e = view_access::index(*this, i, out)) return e;
  return out;
}

result<value_view> value_view::inner() const noexcept {
  if (type_ != msg::type::tagged) return error{error_code::type_mismatch, offset()};
  value_view out;
  if (error e = view_access::at(base_, data_, end_, out)) return e;
  return out;
}

result<value_view> value_view::find_path(std::string_view path) const noexcept {
  if (path.empty()) return error{error_code::not_found, offset()};
  value_view cur = *this;
  std::string name;
  std::string_view seg;
  while (!path.empty()) {
    if (!detail::next_segment(path, seg)) return error{error_code::not_found, cur.offset()};
    result<value_view> next = error_code::not_found;
    std::size_t idx = 0;
    if (cur.type_ == msg::type::map && detail::segment_name(seg, name)) {
      next = cur.find(name);
    } else if (cur.type_ == msg::type::array && detail::segment_index(seg, idx)) {
      next = cur.at(idx);
    } else {
      return error{error_code::not_found, cur.offset()};
    }
    if (!next) return next.error();
    cur = *next;
  }
  return cur;
}

template <class T>
result<T> value_view::get() const noexcept {
  if constexpr (std::is_same_v<T, std::string_view>) {
    if (type_ != msg::type::string) return error_code::type_mismatch;
    if (!detail::utf8_ok(data_, count_))
      return error{error_code::invalid_utf8, static_cast<std::size_t>(data_ - base_)};
    return std::string_view(reinterpret_cast<const char*>(data_), count_);
  } else if constexpr (std::is_same_v<T, bytes_view>) {
    if (type_ != msg::type::bytes) return error_code::type_mismatch;
    return bytes_view(data_, count_);
  } else if constexpr (std::is_same_v<T, extension_view>) {
    if (type_ != msg::type::extension) return error_code::type_mismatch;
    return extension_view{code_, bytes_view(data_, count_)};
  } else {
    if (type_ == msg::type::timestamp) {
      const timestamp ts{detail::load<std::int64_t>(data_), detail::load<std::uint32_t>(data_ + 8)};
      if (ts.nanoseconds >= 1000000000u) return error{error_code::bad_value, offset() + 9};
      return value(ts).get<T>();
    }
    if (type_ == msg::type::boolean) return value(*tag_ == detail::kTagTrue).get<T>();
    const std::size_t fs = detail::fixed_size(type_);
    if (fs == 0 || type_ == msg::type::timestamp) return error_code::type_mismatch;
    value v;
    switch (type_) {
      case msg::type::int8:
        v = value(detail::load<std::int8_t>(data_));
        break;
      case msg::type::int16:
        v = value(detail::load<std::int16_t>(data_));
        break;
      case msg::type::int32:
        v = value(detail::load<std::int32_t>(data_));
        break;
      case msg::type::int64:
        v = value(detail::load<std::int64_t>(data_));
        break;
      case msg::type::uint8:
        v = value(detail::load<std::uint8_t>(data_));
        break;
      case msg::type::uint16:
        v = value(detail::load<std::uint16_t>(data_));
        break;
      case msg::type::uint32:
        v = value(detail::load<std::uint32_t>(data_));
        break;
      case msg::type::uint64:
        v = value(detail::load<std::uint64_t>(data_));
        break;
      case msg::type::float32:
        v = value(detail::load<float>(data_));
        break;
      default:
        v = value(detail::load<double>(data_));
        break;
    }
    return v.get<T>();
  }
}

template <numeric_element E>
result<E> value_view::element(std::size_t i) const noexcept {
  if (type_ != array_type_of<E>()) return error_code::type_mismatch;
  if (i >= count_) return error_code::not_found;
  return detail::load<E>(data_ + i * sizeof(E));
}

result<value> value_view::decode(const read_options& options) const {
  value v;
  if (error e = detail::read_binary_value(base_, tag_, end_, v, options)) return e;
  return v;
}

template result<bool> value_view::get<bool>() const noexcept;
template result<std::int8_t> value_view::get<std::int8_t>() const noexcept;
template result<std::int16_t> value_view::get<std::int16_t>() const noexcept;
template result<std::int32_t> value_view::get<std::int32_t>() const noexcept;
template result<std::int64_t> value_view::get<std::int64_t>() const noexcept;
template result<long long> value_view::get<long long>() const noexcept;
template result<std::uint8_t> value_view::get<std::uint8_t>() const noexcept;
template result<std::uint16_t> value_view::get<std::uint16_t>() const noexcept;
template result<std::uint32_t> value_view::get<std::uint32_t>() const noexcept;
template result<std::uint64_t> value_view::get<std::uint64_t>() const noexcept;
template result<unsigned long long> value_view::get<unsigned long long>() const noexcept;
template result<float> value_view::get<float>() const noexcept;
template result<double> value_view::get<double>() const noexcept;
template result<timestamp> value_view::get<timestamp>() const noexcept;
template result<std::string_view> value_view::get<std::string_view>() const noexcept;
template result<bytes_view> value_view::get<bytes_view>() const noexcept;
template result<extension_view> value_view::get<extension_view>() const noexcept;
template result<std::int32_t> value_view::element<std::int32_t>(std::size_t) const noexcept;
template result<std::int64_t> value_view::element<std::int64_t>(std::size_t) const noexcept;
template result<float> value_view::element<float>(std::size_t) const noexcept;
template result<double> value_view::element<double>(std::size_t) const noexcept;

}  // namespace keel::msg
