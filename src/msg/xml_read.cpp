// SPDX-License-Identifier: MIT
// XML reader on pugixml: the document is parsed by pugixml (whitespace-only text is kept only
// where it is an element's whole content, so indentation between elements is ignored and a
// string of spaces is not), then each element is checked against the form; an error names the
// element's (or the markup error's) byte offset, line and column.
#include <charconv>
#include <pugixml.hpp>

#include "base64.h"
#include "keel/msg/xml.h"
#include "number_text.h"
#include "shape.h"
#include "text.h"
#include "text_position.h"

namespace keel::msg {

namespace {

class reader {
 public:
  reader(std::string_view text, const read_options& o) : text_(text), opts_(o) {}

  bool document(const pugi::xml_document& doc, message& out) {
    pugi::xml_node root;
    for (pugi::xml_node n : doc.children()) {
      if (n.type() == pugi::node_element) {
        if (root) return bad(n);
        root = n;
      }
    }
    if (!root) return bad(doc);
    if (std::string_view(root.name()) != "message") return bad(root);
    const auto fields = detail::header_fields(out.header);
    for (pugi::xml_attribute a : root.attributes()) {
      std::string_view key = a.name();
      const bool b64 = key.ends_with("-base64");
      if (b64) key.remove_suffix(7);
      std::size_t i = 0;
      while (i < fields.size() && detail::kHeaderNames[i] != key) ++i;
      if (i == fields.size() || !text_of(a.value(), b64, *fields[i])) return bad(root);
    }
    return entries(root, out.body());
  }

  error err;

 private:
  // Where a node starts: pugixml gives an element's name, one byte after its '<'.
  static std::size_t where(const pugi::xml_node& n) {
    const std::ptrdiff_t at = n.offset_debug();
    if (at <= 0) return 0;
    return static_cast<std::size_t>(n.type() == pugi::node_element ? at - 1 : at);
  }
  bool bad(const pugi::xml_node& n) {
    err = detail::text_error(error_code::bad_value, text_, where(n));
    return false;
  }
  // Attribute or element text, base64-decoded if flagged, UTF-8 checked.
  bool text_of(std::string_view s, bool b64, std::string& out) {
    if (b64) {
      if (!detail::base64_decode(s, out)) return false;
    } else {
      out.assign(s);
    }
    return detail::utf8_ok(out.data(), out.size());
  }
  static bool is_element(const pugi::xml_node& n) { return n.type() == pugi::node_element; }
  // Only elements (and whitespace or comments) inside a container.
  bool children_ok(const pugi::xml_node& n) {
    for (pugi::xml_node c : n.children()) {
      const auto t = c.type();
      if (t == pugi::node_pcdata || t == pugi::node_cdata) {
        const std::string_view s = c.value();
        if (s.find_first_not_of(" \t\r\n") != std::string_view::npos) return bad(c);
      } else if (t != pugi::node_element && t != pugi::node_comment) {
        return bad(c);
      }
    }
    return true;
  }

  bool entries(const pugi::xml_node& parent, map& m) {
    if (!children_ok(parent)) return false;
    for (pugi::xml_node c : parent.children()) {
      if (!is_element(c)) continue;
      std::string name;
      pugi::xml_attribute a = c.attribute("name");
      pugi::xml_attribute a64 = c.attribute("name-base64");
      if (a == a64 || (a && a64)) return bad(c);  // exactly one of them
      if (!text_of(a ? a.value() : a64.value(), !a, name)) return bad(c);
      if (!item(c, m.add(name, value()), true)) return false;
    }
    return true;
  }

  // The element's text content (its single text child, or "").
  static std::string_view content(const pugi::xml_node& n) {
    return n.first_child() ? std::string_view(n.first_child().value()) : std::string_view();
  }
  bool leaf(const pugi::xml_node& n) {
    const pugi::xml_node c = n.first_child();
    return !c ||
           (c == n.last_child() &&
            (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata)) ||
           bad(n);
  }
  // Only the attributes named (besides name / name-base64 for map entries).
  bool attributes_ok(const pugi::xml_node& n, bool named,
                     std::initializer_list<std::string_view> allowed) {
    for (pugi::xml_attribute a : n.attributes()) {
      const std::string_view k = a.name();
      if (named && (k == "name" || k == "name-base64")) continue;
      bool ok = false;
      for (std::string_view x : allowed) ok = ok || k == x;
      if (!ok) return bad(n);
    }
    return true;
  }

  template <class T>
  static bool int_text(std::string_view s, T& x) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), x);
    return !s.empty() && r.ec == std::errc{} && r.ptr == s.data() + s.size();
  }
  template <class T>
  bool integer(const pugi::xml_node& n, value& out) {
    T x;
    if (!leaf(n) || !int_text(content(n), x)) return bad(n);
    out = value(x);
    return true;
  }
  template <class T>
  bool numbers(const pugi::xml_node& n, value& out) {
    if (!leaf(n)) return false;
    std::string_view s = content(n);
    std::vector<T> a;
    while (true) {
      const std::size_t b = s.find_first_not_of(" \t\r\n");
      if (b == std::string_view::npos) break;
      s.remove_prefix(b);
      const std::size_t e = std::min(s.find_first_of(" \t\r\n"), s.size());
      T x;
      bool ok;
      if constexpr (std::is_floating_point_v<T>)
        ok = detail::float_from_text(s.substr(0, e), x);
      else
        ok = int_text(s.substr(0, e), x);
      if (!ok) return bad(n);
      a.push_back(x);
      s.remove_prefix(e);
    }
    out = value(std::move(a));
    return true;
  }

  bool item(const pugi::xml_node& n, value& out, bool named) {
    type t{};
    if (!type_from_name(n.name(), t)) return bad(n);
    if (++depth_ > opts_.max_depth) {
      err = detail::text_error(error_code::depth_exceeded, text_, where(n));
      return false;
    }
    const bool ok = item_of(t, n, out, named);
    --depth_;
    return ok;
  }

  bool item_of(type t, const pugi::xml_node& n, value& out, bool named) {
    switch (t) {
      case type::timestamp: {
        if (!attributes_ok(n, named, {"seconds", "nanoseconds"}) || n.first_child()) return bad(n);
        std::int64_t s;
        std::uint32_t ns;
        if (!int_text(n.attribute("seconds").value(), s) ||
            !int_text(n.attribute("nanoseconds").value(), ns) || ns >= 1000000000u)
          return bad(n);
        out = value(timestamp{s, ns});
        return true;
      }
      case type::extension: {
        std::int8_t code;
        std::string b;
        if (!attributes_ok(n, named, {"code"}) || !leaf(n) ||
            !int_text(n.attribute("code").value(), code) || !detail::base64_decode(content(n), b))
          return bad(n);
        out = value(extension{code, std::vector<std::uint8_t>(b.begin(), b.end())});
        return true;
      }
      case type::tagged: {
        std::uint64_t tag;
        if (!attributes_ok(n, named, {"tag"}) || !int_text(n.attribute("tag").value(), tag) ||
            !children_ok(n))
          return bad(n);
        pugi::xml_node inner;
        for (pugi::xml_node c : n.children()) {
          if (!is_element(c)) continue;
          if (inner) return bad(c);
          inner = c;
        }
        if (!inner) return bad(n);
        value v;
        if (!item(inner, v, false)) return false;
        out = value::tagged(tag, std::move(v));
        return true;
      }
      case type::string: {
        if (!attributes_ok(n, named, {"base64"}) || !leaf(n)) return bad(n);
        const pugi::xml_attribute b = n.attribute("base64");
        if (b && std::string_view(b.value()) != "1") return bad(n);
        std::string s;
        if (!text_of(content(n), static_cast<bool>(b), s)) return bad(n);
        out = value(std::move(s));
        return true;
      }
      default:
        if (!attributes_ok(n, named, {})) return false;
    }
    switch (t) {
      case type::null:
        return !n.first_child() || bad(n);
      case type::boolean: {
        const std::string_view s = content(n);
        if (!leaf(n) || (s != "true" && s != "false")) return bad(n);
        out = value(s == "true");
        return true;
      }
      case type::int8:
        return integer<std::int8_t>(n, out);
      case type::int16:
        return integer<std::int16_t>(n, out);
      case type::int32:
        return integer<std::int32_t>(n, out);
      case type::int64:
        return integer<std::int64_t>(n, out);
      case type::uint8:
        return integer<std::uint8_t>(n, out);
      case type::uint16:
        return integer<std::uint16_t>(n, out);
      case type::uint32:
        return integer<std::uint32_t>(n, out);
      case type::uint64:
        return integer<std::uint64_t>(n, out);
      case type::float32: {
        float f;
        if (!leaf(n) || !detail::float_from_text(content(n), f)) return bad(n);
        out = value(f);
        return true;
      }
      case type::float64: {
        double d;
        if (!leaf(n) || !detail::float_from_text(content(n), d)) return bad(n);
        out = value(d);
        return true;
      }
      case type::bytes: {
        std::string b;
        if (!leaf(n) || !detail::base64_decode(content(n), b)) return bad(n);
        out = value::bytes(b);
        return true;
      }
      case type::map: {
        map m;
        if (!entries(n, m)) return false;
        out = value(std::move(m));
        return true;
      }
      case type::array: {
        if (!children_ok(n)) return false;
        array a;
        for (pugi::xml_node c : n.children()) {
          if (!is_element(c)) continue;
          if (!item(c, a.emplace_back(), false)) return false;
        }
        out = value(std::move(a));
        return true;
      }
      case type::int32_array:
        return numbers<std::int32_t>(n, out);
      case type::int64_array:
        return numbers<std::int64_t>(n, out);
      case type::float32_array:
        return numbers<float>(n, out);
      case type::float64_array:
        return numbers<double>(n, out);
      default:
        return bad(n);
    }
  }

  std::string_view text_;
  const read_options& opts_;
  std::uint32_t depth_ = 0;
};

}  // namespace

error read_xml(std::string_view text, message& out, const read_options& options) {
  if (text.size() > options.max_size) return error{error_code::too_large, 0};
  out.header = {};
  out.body().clear();
  pugi::xml_document doc;
  // Default parsing without attribute whitespace conversion (character references keep tabs and
  // line breaks) and with whitespace-only text kept where it is an element's only child.
  const unsigned flags =
      (pugi::parse_default & ~pugi::parse_wconv_attribute) | pugi::parse_ws_pcdata_single;
  const pugi::xml_parse_result r =
      doc.load_buffer(text.data(), text.size(), flags, pugi::encoding_utf8);
  if (!r) {
    return detail::text_error(error_code::syntax_error, text,
                              static_cast<std::size_t>(std::max<std::ptrdiff_t>(r.offset, 0)));
  }
  reader rd(text, options);
  if (!rd.document(doc, out)) return rd.err;
  return {};
}

result<message> from_xml(std::string_view text, const read_options& options) {
  message m;
  if (error e = read_xml(text, m, options)) return e;
  return m;
}

}  // namespace keel::msg
