// SPDX-License-Identifier: MIT
// MessagePack writer: the smallest encoding of every integer, string, binary, array, map and
// extension length; float32 and float64 keep their width; timestamps use the 32-, 64- or 96-bit
// form of the timestamp extension (type -1), whichever is the smallest that holds them. The exact
// mode (msgpack_keel.h) also keeps integer widths, typed arrays, tags and every extension.
#include <bit>

#include "keel/msg/msgpack.h"
#include "msgpack_keel.h"
#include "shape.h"
#include "wire.h"

namespace keel::msg {

namespace {

using detail::sink;

template <class T>
void put_be(sink& out, std::uint8_t lead, T v) {
  std::uint8_t* p = out.room(1 + sizeof(T));
  p[0] = lead;
  detail::store(p + 1, detail::bswap(v));
  out.advance(p + 1 + sizeof(T));
}

void put_uint(sink& out, std::uint64_t u) {
  if (u < 0x80)
    out.put_byte(static_cast<std::uint8_t>(u));
  else if (u <= 0xff) {
    std::uint8_t* p = out.room(2);
    p[0] = 0xcc;
    p[1] = static_cast<std::uint8_t>(u);
    out.advance(p + 2);
  } else if (u <= 0xffff)
    put_be(out, 0xcd, static_cast<std::uint16_t>(u));
  else if (u <= 0xffffffffu)
    put_be(out, 0xce, static_cast<std::uint32_t>(u));
  else
    put_be(out, 0xcf, u);
}

void put_int(sink& out, std::int64_t x) {
  if (x >= 0) return put_uint(out, static_cast<std::uint64_t>(x));
  if (x >= -32)
    out.put_byte(static_cast<std::uint8_t>(x));
  else if (x >= -128) {
    std::uint8_t* p = out.room(2);
    p[0] = 0xd0;
    p[1] = static_cast<std::uint8_t>(x);
    out.advance(p + 2);
  } else if (x >= -32768)
    put_be(out, 0xd1, static_cast<std::uint16_t>(x));
  else if (x >= INT32_MIN)
    put_be(out, 0xd2, static_cast<std::uint32_t>(x));
  else
    put_be(out, 0xd3, static_cast<std::uint64_t>(x));
}

// A length in the smallest of the three (or, with `fix`, four) forms.
void put_len(sink& out, std::size_t n, std::uint8_t fix, std::size_t fix_max, std::uint8_t l8,
             std::uint8_t l16, std::uint8_t l32) {
  if (fix != 0 && n <= fix_max)
    out.put_byte(static_cast<std::uint8_t>(fix | n));
  else if (l8 != 0 && n <= 0xff) {
    std::uint8_t* p = out.room(2);
    p[0] = l8;
    p[1] = static_cast<std::uint8_t>(n);
    out.advance(p + 2);
  } else if (n <= 0xffff)
    put_be(out, l16, static_cast<std::uint16_t>(n));
  else if (n <= 0xffffffffu)
    put_be(out, l32, static_cast<std::uint32_t>(n));
  else
    throw exception(error{error_code::too_large, out.offset()});
}

void put_raw(sink& out, std::string_view s) { out.put(s.data(), s.size()); }

void put_str(sink& out, std::string_view s) {
  put_len(out, s.size(), 0xa0, 31, 0xd9, 0xda, 0xdb);
  put_raw(out, s);
}

void put_ext_head(sink& out, std::size_t n, std::int8_t code) {
  switch (n) {
    case 1:
      out.put_byte(0xd4);
      break;
    case 2:
      out.put_byte(0xd5);
      break;
    case 4:
      out.put_byte(0xd6);
      break;
    case 8:
      out.put_byte(0xd7);
      break;
    case 16:
      out.put_byte(0xd8);
      break;
    default:
      put_len(out, n, 0, 0, 0xc7, 0xc8, 0xc9);
  }
  out.put_byte(static_cast<std::uint8_t>(code));
}

template <bool Exact>
void put_value(sink& out, const value& v);

template <bool Exact>
void put_map(sink& out, const map& m) {
  put_len(out, m.size(), 0x80, 15, 0, 0xde, 0xdf);
  for (const auto& e : m) {
    put_str(out, e.name);
    put_value<Exact>(out, e.value);
  }
}

template <class T>
void put_numbers(sink& out, const std::vector<T>& a) {
  put_len(out, a.size(), 0x90, 15, 0, 0xdc, 0xdd);
  for (T x : a) {
    if constexpr (std::is_same_v<T, float>)
      put_be(out, 0xca, std::bit_cast<std::uint32_t>(x));
    else if constexpr (std::is_same_v<T, double>)
      put_be(out, 0xcb, std::bit_cast<std::uint64_t>(x));
    else
      put_int(out, x);
  }
}

void put_timestamp(sink& out, timestamp t) {
  if (t.seconds >= 0 && (t.seconds >> 34) == 0) {
    if (t.nanoseconds == 0 && (t.seconds >> 32) == 0) {
      put_ext_head(out, 4, -1);
      std::uint8_t* p = out.room(4);
      detail::store(p, detail::bswap(static_cast<std::uint32_t>(t.seconds)));
      out.advance(p + 4);
      return;
    }
    put_ext_head(out, 8, -1);
    std::uint8_t* p = out.room(8);
    const std::uint64_t packed =
        (std::uint64_t{t.nanoseconds} << 34) | static_cast<std::uint64_t>(t.seconds);
    detail::store(p, detail::bswap(packed));
    out.advance(p + 8);
    return;
  }
  put_ext_head(out, 12, -1);
  std::uint8_t* p = out.room(12);
  detail::store(p, detail::bswap(t.nanoseconds));
  detail::store(p + 4, detail::bswap(static_cast<std::uint64_t>(t.seconds)));
  out.advance(p + 12);
}

// Exact mode: an integer in the format of its width (a fixint for an int64 that fits one), so
// the reader gets the width back from the format.
void put_width(sink& out, const value& v) {
  switch (v.type()) {
    case type::int8: {
      std::uint8_t* p = out.room(2);
      p[0] = 0xd0;
      p[1] = static_cast<std::uint8_t>(v.as_int());
      out.advance(p + 2);
      return;
    }
    case type::int16:
      return put_be(out, 0xd1, static_cast<std::uint16_t>(v.as_int()));
    case type::int32:
      return put_be(out, 0xd2, static_cast<std::uint32_t>(v.as_int()));
    case type::int64:
      if (v.as_int() >= -32 && v.as_int() < 0x80)
        return out.put_byte(static_cast<std::uint8_t>(v.as_int()));
      return put_be(out, 0xd3, static_cast<std::uint64_t>(v.as_int()));
    case type::uint8: {
      std::uint8_t* p = out.room(2);
      p[0] = 0xcc;
      p[1] = static_cast<std::uint8_t>(v.as_uint());
      out.advance(p + 2);
      return;
    }
    case type::uint16:
      return put_be(out, 0xcd, static_cast<std::uint16_t>(v.as_uint()));
    case type::uint32:
      return put_be(out, 0xce, static_cast<std::uint32_t>(v.as_uint()));
    default:
      return put_be(out, 0xcf, v.as_uint());
  }
}

// Exact mode: a keel ext (type 75) whose data is `kind` then `n` bytes from `data`.
void put_keel_ext(sink& out, std::uint8_t kind, const void* data, std::size_t n) {
  put_ext_head(out, 1 + n, detail::kKeelExt);
  out.put_byte(kind);
  out.put(data, n);
}

template <class T>
void put_typed_array(sink& out, const std::vector<T>& a) {
  put_keel_ext(out, static_cast<std::uint8_t>(array_type_of<T>()), a.data(), a.size() * sizeof(T));
}

template <bool Exact>
void put_value(sink& out, const value& v) {
  switch (v.type()) {
    case type::null:
      out.put_byte(0xc0);
      return;
    case type::boolean:
      out.put_byte(v.as_bool() ? 0xc3 : 0xc2);
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
      put_uint(out, v.as_uint());
      return;
    case type::float32:
      put_be(out, 0xca, std::bit_cast<std::uint32_t>(v.as_float()));
      return;
    case type::float64:
      put_be(out, 0xcb, std::bit_cast<std::uint64_t>(v.as_double()));
      return;
    case type::string:
      put_str(out, v.as_text());
      return;
    case type::bytes:
      put_len(out, v.as_text().size(), 0, 0, 0xc4, 0xc5, 0xc6);
      put_raw(out, v.as_text());
      return;
    case type::timestamp:
      put_timestamp(out, v.as_timestamp());
      return;
    case type::extension:
      if (Exact && detail::extension_needs_keel_ext(v.extension_code(), v.as_text().size())) {
        std::string data(1, static_cast<char>(v.extension_code()));
        data += v.as_text();
        put_keel_ext(out, static_cast<std::uint8_t>(type::extension), data.data(), data.size());
        return;
      }
      put_ext_head(out, v.as_text().size(), v.extension_code());
      put_raw(out, v.as_text());
      return;
    case type::map:
      if (const map* m = v.as_map()) put_map<Exact>(out, *m);
      return;
    case type::array:
      if (const array* a = v.as_array()) {
        put_len(out, a->size(), 0x90, 15, 0, 0xdc, 0xdd);
        for (const value& e : *a) put_value<Exact>(out, e);
      }
      return;
    case type::int32_array:
      if (const auto* a = v.as_numeric<std::int32_t>()) {
        if constexpr (Exact)
          put_typed_array(out, *a);
        else
          put_numbers(out, *a);
      }
      return;
    case type::int64_array:
      if (const auto* a = v.as_numeric<std::int64_t>()) {
        if constexpr (Exact)
          put_typed_array(out, *a);
        else
          put_numbers(out, *a);
      }
      return;
    case type::float32_array:
      if (const auto* a = v.as_numeric<float>()) {
        if constexpr (Exact)
          put_typed_array(out, *a);
        else
          put_numbers(out, *a);
      }
      return;
    case type::float64_array:
      if (const auto* a = v.as_numeric<double>()) {
        if constexpr (Exact)
          put_typed_array(out, *a);
        else
          put_numbers(out, *a);
      }
      return;
    case type::tagged:
      if (const array* pairs = detail::any_key_pairs(v)) {
        put_len(out, pairs->size(), 0x80, 15, 0, 0xde, 0xdf);
        for (const value& p : *pairs) {
          if (const array* kv = p.as_array()) {
            put_value<Exact>(out, (*kv)[0]);
            put_value<Exact>(out, (*kv)[1]);
          }
        }
        return;
      }
      if constexpr (Exact) {  // [keel ext (tagged, tag number), value]
        out.put_byte(0x92);
        std::uint8_t tag[8];
        detail::store(tag, detail::bswap(v.tag()));
        put_keel_ext(out, static_cast<std::uint8_t>(type::tagged), tag, 8);
      }
      // In the standard mode the tagged value stands for itself (MessagePack has no tags).
      put_value<Exact>(out, v.tagged_value());
      return;
  }
}

template <bool Exact>
void put_message(sink& s, const message& m) {
  if (!detail::header_empty(m.header)) {
    s.put_byte(0x92);
    s.put_byte(0x86);
    const auto fields = detail::header_fields(m.header);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      put_str(s, detail::kHeaderNames[i]);
      put_str(s, *fields[i]);
    }
  }
  put_map<Exact>(s, m.body());
}

}  // namespace

void write_msgpack(const message& m, std::string& out, const write_options& options) {
  detail::write_in_mode(out, options.mode,
                        [&m](sink& s, auto exact) { put_message<decltype(exact)::value>(s, m); });
}

std::string to_msgpack(const message& m, const write_options& options) {
  std::string out;
  write_msgpack(m, out, options);
  return out;
}

void write_msgpack(const value& v, std::string& out, const write_options& options) {
  detail::write_in_mode(out, options.mode,
                        [&v](sink& s, auto exact) { put_value<decltype(exact)::value>(s, v); });
}

}  // namespace keel::msg
