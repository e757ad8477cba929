// SPDX-License-Identifier: MIT
// Forms by name, detection, and the one read/write switch over them.
#include "keel/msg/forms.h"

#include "keel/msg/cbor.h"
#include "keel/msg/json.h"
#include "keel/msg/msgpack.h"
#include "keel/msg/xml.h"
#include "wire.h"

namespace keel::msg {

namespace {

constexpr const char* kNames[] = {"binary",  "json", "json-typed",    "xml",
                                  "msgpack", "cbor", "msgpack-exact", "cbor-exact"};
constexpr int kForms = sizeof kNames / sizeof kNames[0];

std::string_view as_text(bytes_view in) {
  return {reinterpret_cast<const char*>(in.data()), in.size()};
}

}  // namespace

const char* form_name(form f) noexcept { return kNames[static_cast<int>(f)]; }

bool form_from_name(std::string_view name, form& out) noexcept {
  for (int i = 0; i < kForms; ++i) {
    if (name == kNames[i]) {
      out = static_cast<form>(i);
      return true;
    }
  }
  return false;
}

result<form> detect(bytes_view in) {
  if (in.size() >= 4 && std::memcmp(in.data(), detail::kMagic, 4) == 0) return form::binary;
  std::size_t i = 0;
  if (in.size() >= 3 && in[0] == 0xef && in[1] == 0xbb && in[2] == 0xbf) i = 3;  // a UTF-8 BOM
  while (i < in.size() && (in[i] == ' ' || in[i] == '\t' || in[i] == '\n' || in[i] == '\r')) ++i;
  if (i < in.size()) {
    const std::uint8_t c = in[i];
    if (c == '{' || c == '[') {
      const std::string_view t = as_text(in).substr(i, 64);
      return t.find("\"keel.msg\"") != std::string_view::npos ? form::json_typed : form::json;
    }
    if (c == '<') return form::xml;
  }
  if (in.empty()) return error{error_code::unknown_form, 0};
  const std::uint8_t b = in[0];
  if (b == 0x82) {  // CBOR [header, body] or a MessagePack map of two entries
    message m;
    if (!read_cbor(in, m)) return form::cbor;
    return form::msgpack;
  }
  if ((b >= 0x80 && b <= 0x8f) || b == 0xde || b == 0xdf || b == 0x92) return form::msgpack;
  if ((b >= 0xa0 && b <= 0xbb) || b == 0xbf) return form::cbor;
  return error{error_code::unknown_form, 0};
}

void write(const message& m, form f, std::string& out) {
  switch (f) {
    case form::binary:
      return write_binary(m, out);
    case form::json:
      return write_json(m, out, {.style = json_style::plain, .pretty = true});
    case form::json_typed:
      return write_json(m, out, {.style = json_style::typed, .pretty = true});
    case form::xml:
      return write_xml(m, out);
    case form::msgpack:
      return write_msgpack(m, out);
    case form::cbor:
      return write_cbor(m, out);
    case form::msgpack_exact:
      return write_msgpack(m, out, {.mode = fidelity::exact});
    case form::cbor_exact:
      return write_cbor(m, out, {.mode = fidelity::exact});
  }
}

std::string to_form(const message& m, form f) {
  std::string out;
  write(m, f, out);
  return out;
}

result<message> read(bytes_view in, form f, const read_options& options) {
  switch (f) {
    case form::binary:
      return from_binary(in, options);
    case form::json:
    case form::json_typed:
      return from_json(as_text(in), options);
    case form::xml:
      return from_xml(as_text(in), options);
    case form::msgpack:
      return from_msgpack(in, options);
    case form::cbor:
      return from_cbor(in, options);
    case form::msgpack_exact:
    case form::cbor_exact: {
      read_options exact = options;
      exact.mode = fidelity::exact;
      return f == form::msgpack_exact ? from_msgpack(in, exact) : from_cbor(in, exact);
    }
  }
  return error{error_code::unknown_form, 0};
}

result<message> read(bytes_view in, const read_options& options) {
  auto f = detect(in);
  if (!f) return f.error();
  return read(in, *f, options);
}

result<std::string> convert(bytes_view in, form from, form to, const read_options& options) {
  auto m = read(in, from, options);
  if (!m) return m.error();
  return to_form(*m, to);
}

result<std::string> convert(bytes_view in, form to, const read_options& options) {
  auto m = read(in, options);
  if (!m) return m.error();
  return to_form(*m, to);
}

}  // namespace keel::msg
