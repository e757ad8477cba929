// SPDX-License-Identifier: MIT
// keel binary form: the writer (docs/msg-format.md). One pass; a nested map or array gets a
// 4-byte length placeholder that is filled in once its contents are written.
#include "keel/msg/binary.h"
#include "wire.h"

namespace keel::msg {

namespace {

using detail::sink;

// A text (varint length, bytes) at p, which has room for 10 + s.size() bytes.
inline std::uint8_t* put_text_at(std::uint8_t* p, std::string_view s) noexcept {
  const std::size_t n = s.size();
  if (n <= 32) {
    *p++ = static_cast<std::uint8_t>(n);
    detail::copy_short(p, s.data(), n);
    return p + n;
  }
  p = detail::put_varint(p, n);
  std::memcpy(p, s.data(), n);
  return p + n;
}

// An entry's name at p, which has room for 17 + name.size() bytes. A std::string can be read
// for capacity() + 1 bytes, so a name of up to 16 bytes in a string of capacity >= 15 (every
// libstdc++ and libc++ string) is moved with one 16-byte load and store, whatever its length.
inline std::uint8_t* put_name_at(std::uint8_t* p, const std::string& name) noexcept {
  const std::size_t n = name.size();
  if (n <= 16 && name.capacity() >= 15) {
    *p++ = static_cast<std::uint8_t>(n);
    std::memcpy(p, name.data(), 16);
    return p + n;
  }
  return put_text_at(p, name);
}

void put_text(sink& out, std::string_view s) {
  out.advance(put_text_at(out.room(10 + s.size()), s));
}

// Tag and payload of a null, bool, number or timestamp at p, which has room for 13 bytes.
// Little-endian: the low bytes of the 64-bit slot are the value of the narrower types (float32's
// bits included), so every number is one 8-byte store and an advance by its size.
inline std::uint8_t* put_fixed(std::uint8_t* p, const value& v) noexcept {
  const type t = v.type();
  if (t == type::null) {
    *p = detail::kTagNull;
    return p + 1;
  }
  if (t == type::boolean) {
    *p = v.as_bool() ? detail::kTagTrue : detail::kTagFalse;
    return p + 1;
  }
  p[0] = detail::tag_of(t);
  detail::store(p + 1, v.as_uint());
  if (t == type::timestamp) detail::store(p + 9, v.as_timestamp().nanoseconds);
  return p + 1 + detail::fixed_size(t);
}
inline bool is_fixed(type t) noexcept { return t < type::string || t == type::timestamp; }

void put_value(sink& out, const value& v);

// Each entry's name and, for the common types (numbers, strings), its value with one check of
// the room left. The write position and the end stay in locals: every store through a byte
// pointer may alias the sink's members, which would otherwise be reloaded after each one.
// Nested and other values go through put_value.
void put_entries(sink& out, const map& m) {
  out.put_varint(m.size());
  std::uint8_t* p = out.pos();
  std::uint8_t* end = out.end();
  const auto room = [&](std::size_t n) {
    if (static_cast<std::size_t>(end - p) < n) {
      out.advance(p);
      p = out.room(n);
      end = out.end();
    }
  };
  for (const auto& e : m) {
    const std::string& name = e.name;
    const value& v = e.value;
    const type t = v.type();
    if (is_fixed(t)) {
      room(23 + name.size());
      p = put_fixed(put_name_at(p, name), v);
    } else if (t == type::string || t == type::bytes) {
      const std::string_view s = v.as_text();
      room(21 + name.size() + s.size());
      p = put_name_at(p, name);
      *p++ = detail::tag_of(t);
      if (v.is_inline() && s.size() <= 16) {  // s is in the value's 22 inline bytes
        *p++ = static_cast<std::uint8_t>(s.size());
        std::memcpy(p, s.data(), 16);
        p += s.size();
      } else {
        p = put_text_at(p, s);
      }
    } else {
      out.advance(p);
      put_text(out, name);
      put_value(out, v);
      p = out.pos();
      end = out.end();
    }
  }
  out.advance(p);
}

template <class T>
void put_numeric(sink& out, const std::vector<T>& a) {
  const std::size_t n = a.size() * sizeof(T);
  std::uint8_t* p = out.room(10 + n);
  p = detail::put_varint(p, a.size());
  if (n != 0) std::memcpy(p, a.data(), n);
  out.advance(p + n);
}

// Reserves the 4-byte length of a nested map or array; close() fills it in.
std::size_t open_sized(sink& out, std::uint8_t tag) {
  std::uint8_t* p = out.room(5);
  p[0] = tag;
  out.advance(p + 5);
  return out.offset();
}
void close_sized(sink& out, std::size_t start) {
  const std::size_t len = out.offset() - start;
  if (len > UINT32_MAX) throw exception(error{error_code::too_large, start});
  detail::store(out.at(start - 4), static_cast<std::uint32_t>(len));
}

void put_value(sink& out, const value& v) {
  const type t = v.type();
  switch (t) {
    case type::null:
    case type::boolean:
    case type::int8:
    case type::int16:
    case type::int32:
    case type::int64:
    case type::uint8:
    case type::uint16:
    case type::uint32:
    case type::uint64:
    case type::float32:
    case type::float64:
    case type::timestamp:
      out.advance(put_fixed(out.room(13), v));
      return;
    case type::string:
    case type::bytes: {
      const std::string_view s = v.as_text();
      std::uint8_t* p = out.room(11 + s.size());
      *p = detail::tag_of(t);
      out.advance(put_text_at(p + 1, s));
      return;
    }
    case type::extension: {
      std::uint8_t* p = out.room(2);
      p[0] = detail::tag_of(t);
      p[1] = static_cast<std::uint8_t>(v.extension_code());
      out.advance(p + 2);
      put_text(out, v.as_text());
      return;
    }
    case type::map: {
      const std::size_t start = open_sized(out, detail::tag_of(t));
      if (const map* m = v.as_map()) put_entries(out, *m);
      close_sized(out, start);
      return;
    }
    case type::array: {
      const std::size_t start = open_sized(out, detail::tag_of(t));
      const array* a = v.as_array();
      out.put_varint(a != nullptr ? a->size() : 0);
      if (a != nullptr)
        for (const auto& e : *a) put_value(out, e);
      close_sized(out, start);
      return;
    }
    case type::int32_array:
      out.put_byte(detail::tag_of(t));
      if (const auto* a = v.as_numeric<std::int32_t>()) put_numeric(out, *a);
      return;
    case type::int64_array:
      out.put_byte(detail::tag_of(t));
      if (const auto* a = v.as_numeric<std::int64_t>()) put_numeric(out, *a);
      return;
    case type::float32_array:
      out.put_byte(detail::tag_of(t));
      if (const auto* a = v.as_numeric<float>()) put_numeric(out, *a);
      return;
    case type::float64_array:
      out.put_byte(detail::tag_of(t));
      if (const auto* a = v.as_numeric<double>()) put_numeric(out, *a);
      return;
    case type::tagged:
      out.put_byte(detail::tag_of(t));
      out.put_varint(v.tag());
      put_value(out, v.tagged_value());
      return;
  }
}

}  // namespace

void write_binary(const message& m, std::string& out) {
  sink s(out);
  const header& h = m.header;
  const std::string* fields[] = {&h.source_id,     &h.source_sub_id, &h.target_id,
                                 &h.target_sub_id, &h.type,          &h.version};
  std::size_t need = detail::kPreamble;
  for (const std::string* f : fields) need += 10 + f->size();
  std::uint8_t* p = s.room(need);
  std::memcpy(p, detail::kMagic, 4);
  p[4] = kBinaryVersion;
  p[5] = 0;  // flags, none defined
  p += detail::kPreamble;
  for (const std::string* f : fields) p = put_text_at(p, *f);
  s.advance(p);
  put_entries(s, m.body());
  s.finish();
}

std::string to_binary(const message& m) {
  std::string out;
  write_binary(m, out);
  return out;
}

}  // namespace keel::msg
