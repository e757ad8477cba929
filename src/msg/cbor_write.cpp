// SPDX-License-Identifier: MIT
// CBOR writer, preferred serialization (RFC 8949 section 4.1): the shortest argument for every
// integer, length and tag; float64 as a half when that is exact, else as a double; float32 as a
// single (its type is kept). Typed numeric arrays are RFC 8746 typed arrays (tags 78, 79, 85,
// 86: little-endian sint32, sint64, float32, float64 in a byte string); timestamps are tag 1
// (integer seconds) or, with nanoseconds, RFC 9581 tag 1001 {1: seconds, -9: nanoseconds};
// extensions are keel's extension tags, and a tagged value the reader would take for another type
// goes in keel's escape tag (cbor_tags.h). The exact mode also tags integer widths.
#include <bit>

#include "cbor_tags.h"
#include "half.h"
#include "keel/msg/cbor.h"
#include "shape.h"
#include "wire.h"

namespace keel::msg {

namespace {

using detail::sink;

constexpr std::int8_t kSimpleCode = -128;  // extension holding a CBOR simple value (1 byte)

void put_head(sink& out, std::uint8_t major, std::uint64_t arg) {
  std::uint8_t* p = out.room(9);
  const auto m = static_cast<std::uint8_t>(major << 5);
  if (arg < 24) {
    p[0] = static_cast<std::uint8_t>(m | arg);
    out.advance(p + 1);
  } else if (arg <= 0xff) {
    p[0] = m | 24;
    p[1] = static_cast<std::uint8_t>(arg);
    out.advance(p + 2);
  } else if (arg <= 0xffff) {
    p[0] = m | 25;
    detail::store(p + 1, detail::bswap(static_cast<std::uint16_t>(arg)));
    out.advance(p + 3);
  } else if (arg <= 0xffffffffu) {
    p[0] = m | 26;
    detail::store(p + 1, detail::bswap(static_cast<std::uint32_t>(arg)));
    out.advance(p + 5);
  } else {
    p[0] = m | 27;
    detail::store(p + 1, detail::bswap(arg));
    out.advance(p + 9);
  }
}

void put_int(sink& out, std::int64_t x) {
  if (x >= 0)
    put_head(out, 0, static_cast<std::uint64_t>(x));
  else
    put_head(out, 1, ~static_cast<std::uint64_t>(x));
}

void put_text(sink& out, std::uint8_t major, std::string_view s) {
  put_head(out, major, s.size());
  out.put(s.data(), s.size());
}

void put_float32(sink& out, float f) {
  std::uint8_t* p = out.room(5);
  p[0] = 0xfa;
  detail::store(p + 1, detail::bswap(std::bit_cast<std::uint32_t>(f)));
  out.advance(p + 5);
}

void put_float64(sink& out, double d) {
  std::uint16_t h;
  if (detail::double_to_half(d, h)) {
    std::uint8_t* p = out.room(3);
    p[0] = 0xf9;
    detail::store(p + 1, detail::bswap(h));
    out.advance(p + 3);
    return;
  }
  std::uint8_t* p = out.room(9);
  p[0] = 0xfb;
  detail::store(p + 1, detail::bswap(std::bit_cast<std::uint64_t>(d)));
  out.advance(p + 9);
}

template <class T>
void put_typed_array(sink& out, std::uint64_t tag, const std::vector<T>& a) {
  put_head(out, 6, tag);
  put_head(out, 2, a.size() * sizeof(T));
  out.put(a.data(), a.size() * sizeof(T));
}

template <bool Exact>
void put_value(sink& out, const value& v);

template <bool Exact>
void put_map(sink& out, const map& m) {
  put_head(out, 5, m.size());
  for (const auto& e : m) {
    put_text(out, 3, e.name);
    put_value<Exact>(out, e.value);
  }
}

// Exact mode: an integer whose width the standard reading would not give back (all but int64,
// and uint64 above INT64_MAX) in its keel width tag.
void put_width(sink& out, const value& v) {
  if (v.type() != type::int64 && !(v.type() == type::uint64 && v.as_uint() > INT64_MAX))
    put_head(out, 6, detail::kKeelTag + static_cast<std::uint64_t>(v.type()));
  if (v.is_signed())
    put_int(out, v.as_int());
  else
    put_head(out, 0, v.as_uint());
}

// A tag 3 (negative bignum) of exactly 8 bytes whose magnitude does not fit int64 is written as
// major type 1, as preferred serialization asks (the reader reads such a major type 1 back as
// exactly this tag).
bool put_small_negative_bignum(sink& out, const value& v) {
  if (v.tag() != 3 || v.tagged_value().type() != type::bytes) return false;
  const std::string_view b = v.tagged_value().as_text();
  if (b.size() != 8 || static_cast<std::uint8_t>(b.front()) < 0x80) return false;
  put_head(out, 1, detail::load_be<std::uint64_t>(reinterpret_cast<const std::uint8_t*>(b.data())));
  return true;
}

template <bool Exact>
void put_value(sink& out, const value& v) {
  switch (v.type()) {
    case type::null:
      out.put_byte(0xf6);
      return;
    case type::boolean:
      out.put_byte(v.as_bool() ? 0xf5 : 0xf4);
      return;
    case type::int8:
    case type::int16:
    case type::int32:
    case type::int64:
      if constexpr (Exact) return put_width(out, v);
      put_int(out, v.as_int());
      return;
    case type::uint8:
    case type::uint16:
    case type::uint32:
    case type::uint64:
      if constexpr (Exact) return put_width(out, v);
      put_head(out, 0, v.as_uint());
      return;
    case type::float32:
      put_float32(out, v.as_float());
      return;
    case type::float64:
      put_float64(out, v.as_double());
      return;
    case type::string:
      put_text(out, 3, v.as_text());
      return;
    case type::bytes:
      put_text(out, 2, v.as_text());
      return;
    case type::timestamp: {
      const timestamp t = v.as_timestamp();
      if (t.nanoseconds == 0) {
        put_head(out, 6, 1);
        put_int(out, t.seconds);
      } else {
        put_head(out, 6, 1001);
        put_head(out, 5, 2);
        put_head(out, 0, 1);
        put_int(out, t.seconds);
        put_int(out, -9);
        put_head(out, 0, t.nanoseconds);
      }
      return;
    }
    case type::extension: {
      const std::string_view d = v.as_text();
      const auto s = d.empty() ? 0 : static_cast<std::uint8_t>(d[0]);
      if (v.extension_code() == kSimpleCode && d.size() == 1 && (s < 20 || s == 23 || s >= 32)) {
        if (s < 24)
          out.put_byte(static_cast<std::uint8_t>(0xe0 | s));
        else {
          out.put_byte(0xf8);
          out.put_byte(s);
        }
        return;
      }
      // keel's extension tag of its type code, on its bytes (cbor_tags.h).
      put_head(out, 6, detail::kKeelExtTag + static_cast<std::uint8_t>(v.extension_code()));
      put_text(out, 2, d);
      return;
    }
    case type::map:
      if (const map* m = v.as_map()) put_map<Exact>(out, *m);
      return;
    case type::array:
      if (const array* a = v.as_array()) {
        put_head(out, 4, a->size());
        for (const value& e : *a) put_value<Exact>(out, e);
      }
      return;
    case type::int32_array:
      if (const auto* a = v.as_numeric<std::int32_t>()) put_typed_array(out, 78, *a);
      return;
    case type::int64_array:
      if (const auto* a = v.as_numeric<std::int64_t>()) put_typed_array(out, 79, *a);
      return;
    case type::float32_array:
      if (const auto* a = v.as_numeric<float>()) put_typed_array(out, 85, *a);
      return;
    case type::float64_array:
      if (const auto* a = v.as_numeric<double>()) put_typed_array(out, 86, *a);
      return;
    case type::tagged:
      if (const array* pairs = detail::any_key_pairs(v)) {
        put_head(out, 5, pairs->size());
        for (const value& p : *pairs) {
          if (const array* kv = p.as_array()) {
            put_value<Exact>(out, (*kv)[0]);
            put_value<Exact>(out, (*kv)[1]);
          }
        }
        return;
      }
      if (put_small_negative_bignum(out, v)) return;
      if (detail::cbor_tag_has_meaning(v.tag(), v.tagged_value(), Exact)) {
        put_head(out, 6, detail::kEscapeTag);  // [tag number, value]
        put_head(out, 4, 2);
        put_head(out, 0, v.tag());
      } else {
        put_head(out, 6, v.tag());
      }
      put_value<Exact>(out, v.tagged_value());
      return;
  }
}

template <bool Exact>
void put_message(sink& s, const message& m) {
  if (!detail::header_empty(m.header)) {
    s.put_byte(0x82);
    s.put_byte(0xa6);
    const auto fields = detail::header_fields(m.header);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      put_text(s, 3, detail::kHeaderNames[i]);
      put_text(s, 3, *fields[i]);
    }
  }
  put_map<Exact>(s, m.body());
}

}  // namespace

void write_cbor(const message& m, std::string& out, const write_options& options) {
  detail::write_in_mode(out, options.mode,
                        [&m](sink& s, auto exact) { put_message<decltype(exact)::value>(s, m); });
}

std::string to_cbor(const message& m, const write_options& options) {
  std::string out;
  write_cbor(m, out, options);
  return out;
}

void write_cbor(const value& v, std::string& out, const write_options& options) {
  detail::write_in_mode(out, options.mode,
                        [&v](sink& s, auto exact) { put_value<decltype(exact)::value>(s, v); });
}

}  // namespace keel::msg
