// SPDX-License-Identifier: MIT
// JSON reader, both styles, on keel::json's DOM. A value that does not fit the typed form is
// reported at its place in the text: the DOM keeps its nodes in document order, so the n-th node
// is the n-th value or key of the (already validated) text.
#include <keel/json.h>
#include <cmath>

#include "base64.h"
#include "keel/msg/json.h"
#include "number_text.h"
#include "shape.h"
#include "text_position.h"

namespace keel::msg {

namespace {

using jvalue = keel::json::value;
using jtype = keel::json::type;

// Byte offset of the index-th value or key of valid JSON text.
std::size_t node_offset(std::string_view t, std::size_t index) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == ']' ||
        c == '}') {
      ++i;
      continue;
    }
    if (count++ == index) return i;
    if (c == '{' || c == '[') {
      ++i;
    } else if (c == '"') {
      for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\') ++i;
      ++i;
    } else {
      while (i < t.size() && std::string_view(" \t\n\r,:]}").find(t[i]) == std::string_view::npos)
        ++i;
    }
  }
  return t.size();
}

class reader {
 public:
  reader(std::string_view text, jvalue root) : text_(text), root_(root) {}

  error fail_at(const jvalue& v) {
    return detail::text_error(
        error_code::bad_value, text_,
        node_offset(text_, static_cast<std::size_t>(v.node_ptr() - root_.node_ptr())));
  }

  value plain(const jvalue& v) {
    switch (v.type()) {
      case jtype::null:
        return value();
      case jtype::boolean:
        return value(*v.get<bool>());
      case jtype::int64:
        return value(*v.get<std::int64_t>());
      case jtype::uint64:
        return value(*v.get<std::uint64_t>());
      case jtype::double_:
        return value(*v.get<double>());
      case jtype::string:
        return value(*v.get<std::string_view>());
      case jtype::array: {
        array a;
        a.reserve(v.size());
        for (const jvalue e : v.elements()) a.push_back(plain(e));
        return value(std::move(a));
      }
      case jtype::object: {
        map m;
        m.reserve(v.size());
        for (const auto& [k, e] : v.members()) m.add(k, plain(e));
        return value(std::move(m));
      }
      default:
        return value(*v.get<double>());  // raw numbers are not enabled
    }
  }

  // The typed form; false with err_ set at the first value that does not fit.
  bool typed_message(const jvalue& top, message& out) {
    bool seen_version = false;
    bool seen_body = false;
    for (const auto& [k, v] : top.members()) {
      if (k == "keel.msg") {
        if (!v.is_int64() || *v.get<std::int64_t>() != 1) return bad(v);
        seen_version = true;
      } else if (k == "header") {
        if (!v.is_object()) return bad(v);
        const auto fields = detail::header_fields(out.header);
        for (const auto& [hk, hv] : v.members()) {
          std::size_t i = 0;
          while (i < fields.size() && detail::kHeaderNames[i] != hk) ++i;
          if (i == fields.size() || !hv.is_string()) return bad(hv);
          fields[i]->assign(*hv.get<std::string_view>());
        }
      } else if (k == "body") {
        if (!entries(v, out.body())) return false;
        seen_body = true;
      } else {
        return bad(v);
      }
    }
    return (seen_version && seen_body) || bad(top);
  }

  error err;

 private:
  bool bad(const jvalue& v) {
    err = fail_at(v);
    return false;
  }

  bool entries(const jvalue& v, map& m) {
    if (!v.is_array()) return bad(v);
    m.reserve(v.size());
    for (const jvalue e : v.elements()) {
      if (!e.is_array() || e.size() != 3) return bad(e);
      const jvalue name = *e.at(0);
      if (!name.is_string()) return bad(name);
      if (!typed(*e.at(1), *e.at(2), m.add(*name.get<std::string_view>(), value()))) return false;
    }
    return true;
  }

  template <class T>
  bool integer(const jvalue& j, value& out) {
    if (j.is_int64()) {
      const std::int64_t x = *j.get<std::int64_t>();
      if (!std::in_range<T>(x)) return bad(j);
      out = value(static_cast<T>(x));
      return true;
    }
    if (j.is_uint64()) {
      const std::uint64_t x = *j.get<std::uint64_t>();
      if (!std::in_range<T>(x)) return bad(j);
      out = value(static_cast<T>(x));
      return true;
    }
    return bad(j);
  }

  template <class F>
  bool floating(const jvalue& j, F& x) {
    if (j.is_string()) return detail::nonfinite_from_text(*j.get<std::string_view>(), x) || bad(j);
    if (!j.is_number()) return bad(j);
    const double d = *j.get<double>();
    x = static_cast<F>(d);
    return std::isfinite(x) || bad(j);
  }

  template <class T>
  bool numbers(const jvalue& j, value& out) {
    if (!j.is_array()) return bad(j);
    std::vector<T> a;
    a.reserve(j.size());
    for (const jvalue e : j.elements()) {
      if constexpr (std::is_floating_point_v<T>) {
        T x;
        if (!floating(e, x)) return false;
        a.push_back(x);
      } else {
        value v;
        if (!integer<T>(e, v)) return false;
        a.push_back(static_cast<T>(v.as_int()));
      }
    }
    out = value(std::move(a));
    return true;
  }

  bool bytes_of(const jvalue& j, std::string& b) {
    return (j.is_string() && detail::base64_decode(*j.get<std::string_view>(), b)) || bad(j);
  }

  bool typed(const jvalue& tname, const jvalue& j, value& out) {
    type t{};
    if (!tname.is_string() || !type_from_name(*tname.get<std::string_view>(), t)) return bad(tname);
    switch (t) {
      case type::null:
        return j.is_null() || bad(j);
      case type::boolean:
        if (!j.is_bool()) return bad(j);
        out = value(*j.get<bool>());
        return true;
      case type::int8:
        return integer<std::int8_t>(j, out);
      case type::int16:
        return integer<std::int16_t>(j, out);
      case type::int32:
        return integer<std::int32_t>(j, out);
      case type::int64:
        return integer<std::int64_t>(j, out);
      case type::uint8:
        return integer<std::uint8_t>(j, out);
      case type::uint16:
        return integer<std::uint16_t>(j, out);
      case type::uint32:
        return integer<std::uint32_t>(j, out);
      case type::uint64:
        return integer<std::uint64_t>(j, out);
      case type::float32: {
        float f;
        if (!floating(j, f)) return false;
        out = value(f);
        return true;
      }
      case type::float64: {
        double d;
        if (!floating(j, d)) return false;
        out = value(d);
        return true;
      }
      case type::string:
        if (!j.is_string()) return bad(j);
        out = value(*j.get<std::string_view>());
        return true;
      case type::bytes: {
        std::string b;
        if (!bytes_of(j, b)) return false;
        out = value::bytes(b);
        return true;
      }
      case type::timestamp: {
        if (!j.is_array() || j.size() != 2) return bad(j);
        value s, ns;
        if (!integer<std::int64_t>(*j.at(0), s) || !integer<std::uint32_t>(*j.at(1), ns))
          return false;
        if (ns.as_uint() >= 1000000000u) return bad(*j.at(1));
        out = value(timestamp{s.as_int(), static_cast<std::uint32_t>(ns.as_uint())});
        return true;
      }
      case type::extension: {
        if (!j.is_array() || j.size() != 2) return bad(j);
        value code;
        std::string b;
        if (!integer<std::int8_t>(*j.at(0), code) || !bytes_of(*j.at(1), b)) return false;
        out = value(extension{static_cast<std::int8_t>(code.as_int()),
                              std::vector<std::uint8_t>(b.begin(), b.end())});
        return true;
      }
      case type::map: {
        map m;
        if (!entries(j, m)) return false;
        out = value(std::move(m));
        return true;
      }
      case type::array: {
        if (!j.is_array()) return bad(j);
        array a(j.size());
        std::size_t i = 0;
        for (const jvalue e : j.elements()) {
          if (!e.is_array() || e.size() != 2) return bad(e);
          if (!typed(*e.at(0), *e.at(1), a[i++])) return false;
        }
        out = value(std::move(a));
        return true;
      }
      case type::int32_array:
        return numbers<std::int32_t>(j, out);
      case type::int64_array:
        return numbers<std::int64_t>(j, out);
      case type::float32_array:
        return numbers<float>(j, out);
      case type::float64_array:
        return numbers<double>(j, out);
      case type::tagged: {
        if (!j.is_array() || j.size() != 3) return bad(j);
        value tag, inner;
        if (!integer<std::uint64_t>(*j.at(0), tag) || !typed(*j.at(1), *j.at(2), inner))
          return false;
        out = value::tagged(tag.as_uint(), std::move(inner));
        return true;
      }
    }
    return bad(j);
  }

  std::string_view text_;
  jvalue root_;
};

}  // namespace

error read_json(std::string_view text, message& out, const read_options& options) {
  if (text.size() > options.max_size) return error{error_code::too_large, 0};
  keel::json::parse_options po;
  po.max_depth = options.max_depth;
  keel::json::parser p(po);
  auto root = p.parse(text);
  if (!root) {
    const auto& je = root.error();
    const error_code c =
        je.code == keel::json::error_code::depth_exceeded ? error_code::depth_exceeded
        : je.code == keel::json::error_code::invalid_utf8 ? error_code::invalid_utf8
                                                          : error_code::syntax_error;
    return error{c, je.offset, je.line, je.column};
  }
  reader r(text, *root);
  out.header = {};
  out.body().clear();
  if (root->is_object() && root->find("keel.msg").ok()) {
    if (!r.typed_message(*root, out)) return r.err;
    return {};
  }
  if (detail::message_from_value(r.plain(*root), out)) return r.fail_at(*root);
  return {};
}

result<message> from_json(std::string_view text, const read_options& options) {
  message m;
  if (error e = read_json(text, m, options)) return e;
  return m;
}

}  // namespace keel::msg
