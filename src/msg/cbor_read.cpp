// SPDX-License-Identifier: MIT
// CBOR reader (RFC 8949): every major type, definite and indefinite lengths, every argument width,
// half/single/double floats, tags kept as tagged values except the ones keel has a type for
// (tag 1 with an integer and tag 1001 {1: s, -9: ns} -> timestamp, RFC 8746 tags 78/79/85/86 ->
// typed numeric arrays, keel's tags of cbor_tags.h -> extensions, escaped tags and, in the exact
// mode, integer widths; a negative integer below INT64_MIN -> tag 3). Simple values other than
// false/true/null (undefined included) are kept as extension -128 with the value's byte.
#include <bit>

#include "cbor_tags.h"
#include "half.h"
#include "keel/msg/cbor.h"
#include "reader_base.h"

namespace keel::msg {

namespace {

constexpr std::int8_t kSimpleCode = -128;

class reader : public detail::byte_reader {
 public:
  reader(bytes_view in, const read_options& o)
      : byte_reader(in, o), exact_(o.mode == fidelity::exact) {}

  bool item(value& v) {
    if (!need(1)) return false;
    const std::uint8_t* at = p;
    const std::uint8_t ib = *p++;
    const std::uint8_t major = ib >> 5;
    const std::uint8_t ai = ib & 0x1f;
    if (major == 7) return simple(ai, v, at);
    std::uint64_t arg = 0;
    const bool indefinite = ai == 31;
    if (indefinite) {
      if (major < 2 || major == 6) return fail(error_code::bad_tag, at);
    } else if (!argument(ai, arg, at)) {
      return false;
    }
    switch (major) {
      case 0:
        detail::value_access::set_bits(v, arg <= INT64_MAX ? type::int64 : type::uint64, arg);
        return true;
      case 1:
        if (arg <= INT64_MAX) {
          detail::value_access::set_bits(v, type::int64, ~arg);  // -1 - arg
        } else {
          std::uint8_t be[8];
          detail::store(be, detail::bswap(arg));
          v = value::tagged(3, value::bytes(bytes_view(be, 8)));
        }
        return true;
      case 2:
      case 3: {
        const bool utf8 = major == 3;
        if (!indefinite) {
          std::string_view s;
          if (!take(arg, s, utf8)) return false;
          detail::value_access::set_text(v, utf8 ? type::string : type::bytes, s.data(), s.size());
          return true;
        }
        std::string all;
        for (;;) {  // definite chunks of the same major type up to the break
          if (!need(1)) return false;
          const std::uint8_t* c = p;
          if (*p == 0xff) {
            ++p;
            break;
          }
          if ((*p >> 5) != major || (*p & 0x1f) == 31) return fail(error_code::bad_tag, c);
          std::uint64_t n;
          ++p;
          if (!argument(*c & 0x1f, n, c)) return false;
          std::string_view s;
          if (!take(n, s, utf8)) return false;
          all.append(s);
        }
        v = utf8 ? value(std::move(all)) : value::bytes(all);
        return true;
      }
      case 4: {
        if (!indefinite && arg > left()) return fail(error_code::bad_length, at);
        if (!enter(at)) return false;
        array& a = detail::value_access::reuse_array(v);
        if (!indefinite) {
          a.resize(arg);
          for (auto& e : a)
            if (!item(e)) return false;
        } else {
          a.clear();
          while (!at_break()) {
            if (!item(a.emplace_back())) return false;
          }
        }
        leave();
        return true;
      }
      case 5: {
        if (!indefinite && arg > left() / 2) return fail(error_code::bad_length, at);
        if (!enter(at)) return false;
        detail::map_builder m(v, indefinite ? 0 : arg);
        for (std::uint64_t i = 0; indefinite ? !at_break() : i < arg; ++i) {
          if (!need(1)) return false;
          const bool text_key = (*p >> 5) == 3 && (*p & 0x1f) != 31;
          std::uint64_t n = 0;
          if (text_key) {
            const std::uint8_t* c = p++;
            if (!argument(*c & 0x1f, n, c)) return false;
          }
          if (!detail::read_entry(*this, m, text_key, n)) return false;
        }
        m.finish();
        leave();
        return true;
      }
      default: {  // 6: a tag
        if (!enter(at)) return false;
        value inner;
        if (!item(inner)) return false;
        leave();
        v = tagged(arg, std::move(inner));
        return true;
      }
    }
  }

 private:
  bool argument(std::uint8_t ai, std::uint64_t& arg, const std::uint8_t* at) {
    if (ai < 24) {
      arg = ai;
      return true;
    }
    if (ai > 27) return fail(error_code::bad_tag, at);
    const std::size_t w = std::size_t{1} << (ai - 24);
    if (!need(w)) return false;
    switch (w) {
      case 1:
        arg = *p;
        break;
      case 2:
        arg = detail::load_be<std::uint16_t>(p);
        break;
      case 4:
        arg = detail::load_be<std::uint32_t>(p);
        break;
      default:
        arg = detail::load_be<std::uint64_t>(p);
        break;
    }
    p += w;
    return true;
  }
  // True (and consumed) at the break that ends an indefinite array or map; a truncated input
  // is left for the next item to report.
  bool at_break() {
    if (p < end && *p == 0xff) {
      ++p;
      return true;
    }
    return false;
  }
  bool simple(std::uint8_t ai, value& v, const std::uint8_t* at) {
    switch (ai) {
      case 20:
        v = value(false);
        return true;
      case 21:
        v = value(true);
        return true;
      case 22:
        v = value();
        return true;
      case 24: {
        if (!need(1)) return false;
        const std::uint8_t s = *p++;
        if (s < 32) return fail(error_code::bad_value, at);  // must have used the short form
        v = value(extension{kSimpleCode, {s}});
        return true;
      }
      case 25:
        if (!need(2)) return false;
        v = value(detail::half_to_double(detail::load_be<std::uint16_t>(p)));
        p += 2;
        return true;
      case 26:
        return float_be<std::uint32_t>(v);
      case 27:
        return float_be<std::uint64_t>(v);
      default:
        if (ai < 24) {  // simple values 0..19 and 23 (undefined)
          v = value(extension{kSimpleCode, {ai}});
          return true;
        }
        return fail(error_code::bad_tag, at);  // 28..30 reserved; 31 a break out of place
    }
  }
  template <class T>
  static value typed(std::string_view b) {
    std::vector<T> a(b.size() / sizeof(T));
    if (!a.empty()) std::memcpy(a.data(), b.data(), a.size() * sizeof(T));
    return value(std::move(a));
  }
  value tagged(std::uint64_t tag, value&& inner) const {
    if (!detail::cbor_tag_has_meaning(tag, inner, exact_))
      return value::tagged(tag, std::move(inner));
    if (tag == 1) return value(timestamp{inner.as_int(), 0});
    if (tag == 1001) {
      timestamp t;
      detail::cbor_timestamp_1001(inner, t.seconds, t.nanoseconds);
      return value(t);
    }
    if (tag == detail::kEscapeTag) {
      array& a = *inner.as_array();
      return value::tagged(a[0].as_uint(), std::move(a[1]));
    }
    const std::string_view b = inner.as_text();
    if (tag >= detail::kKeelExtTag && tag <= detail::kKeelExtTag + 0xff) {
      return value(extension{static_cast<std::int8_t>(static_cast<std::uint8_t>(tag)),
                             std::vector<std::uint8_t>(b.begin(), b.end())});
    }
    switch (detail::cbor_typed_array(tag)) {
      case type::int32_array:
        return typed<std::int32_t>(b);
      case type::int64_array:
        return typed<std::int64_t>(b);
      case type::float32_array:
        return typed<float>(b);
      case type::float64_array:
        return typed<double>(b);
      default:
        break;
    }
    // An integer width (exact mode).
    value v;
    detail::value_access::set_bits(v, detail::cbor_width(tag, inner), inner.as_uint());
    return v;
  }

  bool exact_;
};

}  // namespace

result<value> value_from_cbor(bytes_view in, const read_options& options) {
  return detail::read_value<reader>(in, options);
}

error read_cbor(bytes_view in, message& out, const read_options& options) {
  return detail::read_document<reader>(in, out, options);
}

result<message> from_cbor(bytes_view in, const read_options& options) {
  message m;
  if (error e = read_cbor(in, m, options)) return e;
  return m;
}

}  // namespace keel::msg
