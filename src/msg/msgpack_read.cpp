// SPDX-License-Identifier: MIT
// MessagePack reader: every format of the spec. Integers read as int64 (uint64 above INT64_MAX),
// float 32 as float32, float 64 as float64, str (UTF-8 checked) as string, bin as bytes, ext -1
// of 4, 8 or 12 bytes as timestamp, other ext as extension, maps with string keys as maps.
// Counts are checked against the bytes left (1 per array element, 2 per map entry) first. The
// exact mode (msgpack_keel.h) also reads integer widths and keel's ext type 75.
#include "keel/msg/msgpack.h"
#include "msgpack_keel.h"
#include "reader_base.h"

namespace keel::msg {

namespace {

template <bool Exact>
class reader : public detail::byte_reader {
 public:
  using byte_reader::byte_reader;

  bool item(value& v) {
    if (!need(1)) return false;
    const std::uint8_t* at = p;
    const std::uint8_t b = *p++;
    if (b < 0x80) {
      set_int(v, b);
      return true;
    }
    if (b >= 0xe0) {
      set_int(v, static_cast<std::int8_t>(b));
      return true;
    }
    if (b < 0x90) return read_map(b & 0x0f, v, at);
    if (b < 0xa0) return read_array(b & 0x0f, v, at);
    if (b < 0xc0) return read_str(b & 0x1f, v);
    std::uint64_t n = 0;
    switch (b) {
      case 0xc0:
        detail::value_access::set_bits(v, type::null, 0);
        return true;
      case 0xc2:
      case 0xc3:
        detail::value_access::set_bits(v, type::boolean, b - 0xc2);
        return true;
      case 0xc4:
      case 0xc5:
      case 0xc6: {
        if (!length(b - 0xc4, n)) return false;
        std::string_view s;
        if (!take(n, s, false)) return false;
        detail::value_access::set_text(v, type::bytes, s.data(), s.size());
        return true;
      }
      case 0xc7:
      case 0xc8:
      case 0xc9:
        if (!length(b - 0xc7, n)) return false;
        return read_ext(n, v, at);
      case 0xca:
        return float_be<std::uint32_t>(v);
      case 0xcb:
        return float_be<std::uint64_t>(v);
      case 0xcc:
        return uint_of<std::uint8_t>(v, type::uint8);
      case 0xcd:
        return uint_of<std::uint16_t>(v, type::uint16);
      case 0xce:
        return uint_of<std::uint32_t>(v, type::uint32);
      case 0xcf:
        return uint_of<std::uint64_t>(v, type::uint64);
      case 0xd0:
        return int_of<std::uint8_t, std::int8_t>(v, type::int8);
      case 0xd1:
        return int_of<std::uint16_t, std::int16_t>(v, type::int16);
      case 0xd2:
        return int_of<std::uint32_t, std::int32_t>(v, type::int32);
      case 0xd3:
        return int_of<std::uint64_t, std::int64_t>(v, type::int64);
      case 0xd4:
        return read_ext(1, v, at);
      case 0xd5:
        return read_ext(2, v, at);
      case 0xd6:
        return read_ext(4, v, at);
      case 0xd7:
        return read_ext(8, v, at);
      case 0xd8:
        return read_ext(16, v, at);
      case 0xd9:
      case 0xda:
      case 0xdb:
        if (!length(b - 0xd9, n)) return false;
        return read_str(n, v);
      case 0xdc:
      case 0xdd:
        if (!length(b - 0xdc + 1, n)) return false;
        return read_array(n, v, at);
      case 0xde:
      case 0xdf:
        if (!length(b - 0xde + 1, n)) return false;
        return read_map(n, v, at);
      default:  // 0xc1 is never used
        return fail(error_code::bad_tag, at);
    }
  }

 private:
  static void set_int(value& v, std::int64_t i) noexcept { set_signed(v, type::int64, i); }
  static void set_signed(value& v, type t, std::int64_t i) noexcept {
    detail::value_access::set_bits(v, t, static_cast<std::uint64_t>(i));
  }
  // A big-endian length of 1, 2 or 4 bytes (width 0, 1, 2).
  bool length(int width, std::uint64_t& n) {
    const std::size_t w = std::size_t{1} << width;
    if (!need(w)) return false;
    n = w == 1   ? *p
        : w == 2 ? detail::load_be<std::uint16_t>(p)
                 : detail::load_be<std::uint32_t>(p);
    p += w;
    return true;
  }
  // An integer of the format's width: read as int64 / uint64, or in the exact mode as `width`.
  template <class U>
  bool uint_of(value& v, type width) {
    if (!need(sizeof(U))) return false;
    const std::uint64_t u = detail::load_be<U>(p);
    p += sizeof(U);
    detail::value_access::set_bits(v,
                                   Exact            ? width
                                   : u <= INT64_MAX ? type::int64
                                                    : type::uint64,
                                   u);
    return true;
  }
  template <class U, class S>
  bool int_of(value& v, type width) {
    if (!need(sizeof(U))) return false;
    set_signed(v, Exact ? width : type::int64, static_cast<S>(detail::load_be<U>(p)));
    p += sizeof(U);
    return true;
  }
  bool read_str(std::uint64_t n, value& v) {
    std::string_view s;
    if (!take(n, s, true)) return false;
    detail::value_access::set_text(v, type::string, s.data(), s.size());
    return true;
  }
  bool read_ext(std::uint64_t n, value& v, const std::uint8_t* at) {
    if (!need(1)) return false;
    const auto code = static_cast<std::int8_t>(*p++);
    std::string_view s;
    if (!take(n, s, false)) return false;
    const auto* d = reinterpret_cast<const std::uint8_t*>(s.data());
    if (Exact && code == detail::kKeelExt) return read_keel_ext(d, n, v, at);
    if (code == -1 && (n == 4 || n == 8 || n == 12)) {
      timestamp t;
      if (n == 4) {
        t.seconds = detail::load_be<std::uint32_t>(d);
      } else if (n == 8) {
        const std::uint64_t x = detail::load_be<std::uint64_t>(d);
        t.nanoseconds = static_cast<std::uint32_t>(x >> 34);
        t.seconds = static_cast<std::int64_t>(x & ((std::uint64_t{1} << 34) - 1));
      } else {
        t.nanoseconds = detail::load_be<std::uint32_t>(d);
        t.seconds = static_cast<std::int64_t>(detail::load_be<std::uint64_t>(d + 4));
      }
      if (t.nanoseconds >= 1000000000u) return fail(error_code::bad_value, at);
      v = value(t);
      return true;
    }
    v = value(extension{code, std::vector<std::uint8_t>(d, d + n)});
    return true;
  }
  // Exact mode: the data of a keel ext (msgpack_keel.h) other than a tag number.
  bool read_keel_ext(const std::uint8_t* d, std::uint64_t n, value& v, const std::uint8_t* at) {
    if (n == 0) return fail(error_code::bad_value, at);
    const auto kind = static_cast<type>(d[0]);
    const std::uint64_t size = n - 1;
    switch (kind) {
      case type::extension:
        if (size == 0) return fail(error_code::bad_value, at);
        v = value(
            extension{static_cast<std::int8_t>(d[1]), std::vector<std::uint8_t>(d + 2, d + n)});
        return true;
      case type::int32_array:
        return typed<std::int32_t>(d + 1, size, v, at);
      case type::int64_array:
        return typed<std::int64_t>(d + 1, size, v, at);
      case type::float32_array:
        return typed<float>(d + 1, size, v, at);
      case type::float64_array:
        return typed<double>(d + 1, size, v, at);
      default:  // a tag number out of its [tag, value] array, or an unknown kind
        return fail(error_code::bad_value, at);
    }
  }
  template <numeric_element T>
  bool typed(const std::uint8_t* d, std::uint64_t size, value& v, const std::uint8_t* at) {
    if (size % sizeof(T) != 0) return fail(error_code::bad_value, at);
    auto& a = detail::value_access::reuse_numeric<T>(v);
    a.resize(size / sizeof(T));
    if (size != 0) std::memcpy(a.data(), d, size);
    return true;
  }
  // Exact mode: [keel ext (tagged, tag number), value] is a tagged value.
  bool read_tagged(value& v, const std::uint8_t* at) {
    if (!enter(at)) return false;
    const std::uint64_t tag = detail::load_be<std::uint64_t>(p + sizeof detail::kTaggedHead);
    p += sizeof detail::kTaggedHead + 8;
    value inner;
    if (!item(inner)) return false;
    leave();
    v = value::tagged(tag, std::move(inner));
    return true;
  }
  bool read_array(std::uint64_t n, value& v, const std::uint8_t* at) {
    if (n > left()) return fail(error_code::bad_length, at);
    if (Exact && n == 2 && left() >= sizeof detail::kTaggedHead + 8 &&
        std::memcmp(p, detail::kTaggedHead, sizeof detail::kTaggedHead) == 0)
      return read_tagged(v, at);
    if (!enter(at)) return false;
    array& a = detail::value_access::reuse_array(v);
    a.resize(n);
    for (auto& e : a)
      if (!item(e)) return false;
    leave();
    return true;
  }
  bool read_map(std::uint64_t n, value& v, const std::uint8_t* at) {
    if (n > left() / 2) return fail(error_code::bad_length, at);
    if (!enter(at)) return false;
    detail::map_builder m(v, n);
    for (std::uint64_t i = 0; i < n; ++i) {
      if (!need(1)) return false;
      const std::uint8_t k = *p;
      std::uint64_t len = 0;
      bool is_str = true;
      if (k >= 0xa0 && k < 0xc0) {
        ++p;
        len = k & 0x1f;
      } else if (k >= 0xd9 && k <= 0xdb) {
        ++p;
        if (!length(k - 0xd9, len)) return false;
      } else {
        is_str = false;
      }
      if (!detail::read_entry(*this, m, is_str, len)) return false;
    }
    m.finish();
    leave();
    return true;
  }
};

}  // namespace

result<value> value_from_msgpack(bytes_view in, const read_options& options) {
  return options.mode == fidelity::exact ? detail::read_value<reader<true>>(in, options)
                                         : detail::read_value<reader<false>>(in, options);
}

error read_msgpack(bytes_view in, message& out, const read_options& options) {
  if (options.mode == fidelity::exact) return detail::read_document<reader<true>>(in, out, options);
  return detail::read_document<reader<false>>(in, out, options);
}

result<message> from_msgpack(bytes_view in, const read_options& options) {
  message m;
  if (error e = read_msgpack(in, m, options)) return e;
  return m;
}

}  // namespace keel::msg
