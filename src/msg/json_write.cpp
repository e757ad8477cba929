// SPDX-License-Identifier: MIT
// JSON writer, plain and typed styles (docs/msg-format.md).
#include "base64.h"
#include "keel/msg/json.h"
#include "number_text.h"
#include "shape.h"

namespace keel::msg {

namespace {

class writer {
 public:
  writer(std::string& out, const json_write_options& o) : out_(out), o_(o) {}

  void plain_message(const message& m) {
    if (detail::header_empty(m.header)) return plain_map(m.body());
    open('[');
    plain_header(m.header);
    plain_map(m.body());
    close(']');
  }

  void typed_message(const message& m) {
    open('{');
    key("keel.msg");
    value_start();
    out_ += '1';
    key("header");
    plain_header(m.header);
    key("body");
    typed_entries(m.body());
    close('}');
  }

 private:
  void newline() {
    if (!o_.pretty) return;
    out_ += '\n';
    out_.append(static_cast<std::size_t>(depth_) * 2, ' ');
  }
  void open(char c) {
    out_ += c;
    ++depth_;
    first_ = true;
  }
  void close(char c) {
    --depth_;
    if (!first_) newline();
    out_ += c;
    first_ = false;
  }
  // Before each element or member: the comma and, when pretty, the line break.
  void item() {
    if (!first_) out_ += ',';
    first_ = false;
    newline();
  }
  void key(std::string_view k) {
    item();
    string(k);
    out_ += o_.pretty ? ": " : ":";
    first_ = true;  // the value that follows is not an item of its own
    pending_value_ = true;
  }
  void value_start() {
    if (pending_value_) {
      pending_value_ = false;
      first_ = false;
      return;
    }
    item();
  }

  void string(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    out_ += '"';
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out_.append(s.substr(run, i - run));
      run = i + 1;
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\t':
          out_ += "\\t";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\b':
          out_ += "\\b";
          break;
        case '\f':
          out_ += "\\f";
          break;
        default:
          out_ += "\\u00";
          out_ += kHex[c >> 4];
          out_ += kHex[c & 15];
      }
    }
    out_.append(s.substr(run));
    out_ += '"';
  }
  void number(std::int64_t x) { out_ += std::to_string(x); }
  void number(std::uint64_t x) { out_ += std::to_string(x); }
  template <class F>
  void floating(F x, bool plain) {
    if (detail::is_plain_number(x))
      detail::append_finite(out_, x);
    else if (plain)
      out_ += "null";  // plain JSON has no NaN or infinity
    else
      string(detail::nonfinite_text(x));
  }
  void base64(std::string_view b) {
    out_ += '"';
    detail::base64_append(out_, b);
    out_ += '"';
  }

  void plain_header(const header& h) {
    value_start();
    open('{');
    const auto fields = detail::header_fields(h);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (fields[i]->empty()) continue;
      key(detail::kHeaderNames[i]);
      value_start();
      string(*fields[i]);
    }
    close('}');
  }

  void plain_map(const map& m) {
    value_start();
    open('{');
    for (const auto& e : m) {
      key(e.name);
      plain(e.value);
    }
    close('}');
  }

  template <class T>
  void numbers(const std::vector<T>& a, bool plain) {
    value_start();
    open('[');
    for (T x : a) {
      value_start();
      if constexpr (std::is_floating_point_v<T>)
        floating(x, plain);
      else
        number(static_cast<std::int64_t>(x));
    }
    close(']');
  }

  void plain(const value& v) {
    switch (v.type()) {
      case type::map:
        if (const map* m = v.as_map()) plain_map(*m);
        return;
      case type::array:
        value_start();
        open('[');
        if (const array* a = v.as_array())
          for (const value& e : *a) plain(e);
        close(']');
        return;
      case type::tagged:
        if (const array* pairs = detail::any_key_pairs(v)) {
          // Keys that are not strings: an array of [key, value] pairs.
          value_start();
          open('[');
          for (const value& p : *pairs) plain(p);
          close(']');
          return;
        }
        return plain(v.tagged_value());
      default:
        scalar(v, true);
    }
  }

  // Scalars and typed arrays, the same in both styles except for non-finite floats.
  void scalar(const value& v, bool plain) {
    if (v.is_numeric_array()) {
      if (const auto* a = v.as_numeric<std::int32_t>()) numbers(*a, plain);
      if (const auto* a = v.as_numeric<std::int64_t>()) numbers(*a, plain);
      if (const auto* a = v.as_numeric<float>()) numbers(*a, plain);
      if (const auto* a = v.as_numeric<double>()) numbers(*a, plain);
      return;
    }
    value_start();
    switch (v.type()) {
      case type::null:
        out_ += "null";
        return;
      case type::boolean:
        out_ += v.as_bool() ? "true" : "false";
        return;
      case type::float32:
        floating(v.as_float(), plain);
        return;
      case type::float64:
        floating(v.as_double(), plain);
        return;
      case type::string:
        string(v.as_text());
        return;
      case type::bytes:
        base64(v.as_text());
        return;
      case type::timestamp: {
        const timestamp t = v.as_timestamp();
        out_ += '[';
        number(t.seconds);
        out_ += ',';
        number(std::int64_t{t.nanoseconds});
        out_ += ']';
        return;
      }
      case type::extension:
        out_ += '[';
        number(std::int64_t{v.extension_code()});
        out_ += ',';
        base64(v.as_text());
        out_ += ']';
        return;
      default:
        if (v.is_signed())
          number(v.as_int());
        else
          number(v.as_uint());
    }
  }

  void typed_entries(const map& m) {
    value_start();
    open('[');
    for (const auto& e : m) {
      value_start();
      open('[');
      value_start();
      string(e.name);
      typed_rest(e.value);
      close(']');
    }
    close(']');
  }

  // The "type, value" items of an entry or array element.
  void typed_rest(const value& v) {
    value_start();
    string(type_name(v.type()));
    switch (v.type()) {
      case type::map:
        if (const map* m = v.as_map()) typed_entries(*m);
        return;
      case type::array:
        value_start();
        open('[');
        if (const array* a = v.as_array()) {
          for (const value& e : *a) {
            value_start();
            open('[');
            typed_rest(e);
            close(']');
          }
        }
        close(']');
        return;
      case type::tagged:
        value_start();
        open('[');
        value_start();
        number(v.tag());
        typed_rest(v.tagged_value());
        close(']');
        return;
      default:
        scalar(v, false);
    }
  }
  std::string& out_;
  const json_write_options& o_;
  int depth_ = 0;
  bool first_ = true;
  bool pending_value_ = false;
};

}  // namespace

void write_json(const message& m, std::string& out, const json_write_options& options) {
  out.clear();
  writer w(out, options);
  if (options.style == json_style::typed)
    w.typed_message(m);
  else
    w.plain_message(m);
  if (options.pretty) out += '\n';
}

std::string to_json(const message& m, const json_write_options& options) {
  std::string out;
  write_json(m, out, options);
  return out;
}

}  // namespace keel::msg
