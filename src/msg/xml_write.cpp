// SPDX-License-Identifier: MIT
// XML writer (docs/msg-format.md). Text that XML 1.0 cannot carry (control characters other than
// tab, line feed and carriage return, U+FFFE, U+FFFF) is written in base64 with `base64="1"`
// (or `name-base64` for a name); tabs, line feeds and carriage returns are written as character
// references so no parser's whitespace handling can change them.
#include "base64.h"
#include "keel/msg/xml.h"
#include "number_text.h"
#include "shape.h"

namespace keel::msg {

namespace {

// True if every character of s can appear in an XML 1.0 document.
bool xml_safe(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    // U+FFFE and U+FFFF: EF BF BE / EF BF BF.
    if (c == 0xef && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xbf &&
        static_cast<unsigned char>(s[i + 2]) >= 0xbe)
      return false;
  }
  return true;
}

void escape(std::string& out, std::string_view s) {
  for (const char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += c;
    }
  }
}

class writer {
 public:
  explicit writer(std::string& out) : out_(out) {}

  void message(const msg::message& m) {
    out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<message";
    const auto fields = detail::header_fields(m.header);
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (!fields[i]->empty()) attribute(detail::kHeaderNames[i], *fields[i]);
    out_ += ">\n";
    for (const auto& e : m) item(&e.name, e.value, 1);
    out_ += "</message>\n";
  }

 private:
  void attribute(std::string_view key, std::string_view v) {
    out_ += ' ';
    out_ += key;
    if (!xml_safe(v)) {
      out_ += "-base64=\"";
      detail::base64_append(out_, v);
    } else {
      out_ += "=\"";
      escape(out_, v);
    }
    out_ += '"';
  }

  template <class T>
  void numbers(const std::vector<T>& a) {
    bool first = true;
    for (T x : a) {
      if (!first) out_ += ' ';
      first = false;
      if constexpr (std::is_floating_point_v<T>) {
        if (detail::is_plain_number(x))
          detail::append_finite(out_, x);
        else
          out_ += detail::nonfinite_text(x);
      } else {
        out_ += std::to_string(x);
      }
    }
  }

  // One value as an element; `name` for map entries, nullptr in arrays and tags.
  void item(const std::string* name, const value& v, int depth) {
    out_.append(static_cast<std::size_t>(depth) * 2, ' ');
    const char* tname = type_name(v.type());
    out_ += '<';
    out_ += tname;
    if (name != nullptr) attribute("name", *name);
    switch (v.type()) {
      case type::null:
        out_ += "/>\n";
        return;
      case type::timestamp:
        out_ += " seconds=\"" + std::to_string(v.as_timestamp().seconds) + "\" nanoseconds=\"" +
                std::to_string(v.as_timestamp().nanoseconds) + "\"/>\n";
        return;
      case type::extension:
        out_ += " code=\"" + std::to_string(v.extension_code()) + "\"";
        break;
      case type::tagged:
        out_ += " tag=\"" + std::to_string(v.tag()) + "\"";
        break;
      case type::string:
        if (!xml_safe(v.as_text())) out_ += " base64=\"1\"";
        break;
      default:
        break;
    }
    out_ += '>';
    switch (v.type()) {
      case type::boolean:
        out_ += v.as_bool() ? "true" : "false";
        break;
      case type::float32:
      case type::float64: {
        const double d = v.type() == type::float32 ? v.as_float() : v.as_double();
        if (!detail::is_plain_number(d))
          out_ += v.type() == type::float32 ? detail::nonfinite_text(v.as_float())
                                            : detail::nonfinite_text(d);
        else if (v.type() == type::float32)
          detail::append_finite(out_, v.as_float());
        else
          detail::append_finite(out_, d);
        break;
      }
      case type::string:
        if (xml_safe(v.as_text()))
          escape(out_, v.as_text());
        else
          detail::base64_append(out_, v.as_text());
        break;
      case type::bytes:
      case type::extension:
        detail::base64_append(out_, v.as_text());
        break;
      case type::map:
      case type::array:
      case type::tagged:
        out_ += '\n';
        if (const map* m = v.as_map()) {
          for (const auto& e : *m) item(&e.name, e.value, depth + 1);
        } else if (const array* a = v.as_array()) {
          for (const value& e : *a) item(nullptr, e, depth + 1);
        } else {
          item(nullptr, v.tagged_value(), depth + 1);
        }
        out_.append(static_cast<std::size_t>(depth) * 2, ' ');
        break;
      case type::int32_array:
        if (const auto* a = v.as_numeric<std::int32_t>()) numbers(*a);
        break;
      case type::int64_array:
        if (const auto* a = v.as_numeric<std::int64_t>()) numbers(*a);
        break;
      case type::float32_array:
        if (const auto* a = v.as_numeric<float>()) numbers(*a);
        break;
      case type::float64_array:
        if (const auto* a = v.as_numeric<double>()) numbers(*a);
        break;
      default:
        out_ += v.is_signed() ? std::to_string(v.as_int()) : std::to_string(v.as_uint());
    }
    out_ += "</";
    out_ += tname;
    out_ += ">\n";
  }

  std::string& out_;
};

}  // namespace

void write_xml(const message& m, std::string& out) {
  out.clear();
  writer(out).message(m);
}

std::string to_xml(const message& m) {
  std::string out;
  write_xml(m, out);
  return out;
}

}  // namespace keel::msg
