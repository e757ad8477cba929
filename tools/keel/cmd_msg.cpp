// SPDX-License-Identifier: MIT
// keel msg convert IN [--from F] --to F [-o OUT] | show FILE [--from F]   (also `keel container`)
//
// F is one of binary, json, json-typed, xml, msgpack, cbor, msgpack-exact, cbor-exact; without
// --from the form is detected.
// '-' reads stdin / writes stdout. Exit status: 0 done; 1 the input is not a valid message in its
// form (reported as "file: line:column: message" or "file: offset N: message"); 2 usage or I/O.
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <keel/msg.h>

#include "commands.h"
#include "output.h"

namespace keel::tool {

namespace {

struct msg_options {
  std::string in = "-";
  std::string out = "-";
  std::string from;
  std::string to;
};

bool read_all(const std::string& name, std::string& out) {
  std::FILE* f = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
  if (f == nullptr) {
    std::fprintf(stderr, "keel msg: %s: %s\n", name.c_str(), std::strerror(errno));
    return false;
  }
  out.clear();
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const bool bad = std::ferror(f) != 0;
  if (f != stdin) std::fclose(f);
  if (bad) std::fprintf(stderr, "keel msg: %s: read error\n", name.c_str());
  return !bad;
}

// Writes OUT ('-': stdout, whose failures main reports through finish_stdout).
bool write_all(const std::string& name, std::string_view data) {
  if (name == "-") return out_write(data);
  std::FILE* f = std::fopen(name.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "keel msg: %s: %s\n", name.c_str(), std::strerror(errno));
    return false;
  }
  bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) std::fprintf(stderr, "keel msg: %s: write error\n", name.c_str());
  return ok;
}

bool parse_form(const std::string& name, msg::form& f) {
  if (msg::form_from_name(name, f)) return true;
  std::fprintf(stderr,
               "keel msg: unknown form '%s' (binary, json, json-typed, xml, msgpack, cbor, "
               "msgpack-exact, cbor-exact)\n",
               name.c_str());
  return false;
}

// Reads IN as a message: 0 ok, else the exit status.
int load(const msg_options& o, msg::message& m) {
  std::string data;
  if (!read_all(o.in, data)) return 2;
  const msg::bytes_view bytes(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  msg::result<msg::message> r = msg::error{msg::error_code::unknown_form};
  if (!o.from.empty()) {
    msg::form f{};
    if (!parse_form(o.from, f)) return 2;
    r = msg::read(bytes, f);
  } else {
    r = msg::read(bytes);
  }
  if (!r) {
    std::fprintf(stderr, "%s: %s\n", o.in == "-" ? "<stdin>" : o.in.c_str(),
                 r.error().to_string().c_str());
    return 1;
  }
  m = std::move(*r);
  return 0;
}

int convert(const msg_options& o) {
  msg::form to{};
  if (!parse_form(o.to, to)) return 2;
  msg::message m;
  if (int rc = load(o, m)) return rc;
  return write_all(o.out, msg::to_form(m, to)) ? 0 : 2;
}

void quoted(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

void hex_bytes(std::string& out, std::string_view b) {
  char buf[4];
  out += "0x";
  for (std::size_t i = 0; i < b.size() && i < 32; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(b[i]));
    out += buf;
  }
  if (b.size() > 32) out += "...";
}

template <class T>
void numbers(std::string& out, const std::vector<T>& a) {
  out += '[';
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (i != 0) out += ", ";
    if (i == 16) {
      out += "...";
      break;
    }
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, a[i]);
    out.append(buf, r.ptr);
  }
  out += ']';
}

void show_value(std::string& out, const msg::value& v, int depth);

void show_map(std::string& out, const msg::map& m, int depth) {
  for (const auto& e : m) {
    out.append(static_cast<std::size_t>(depth) * 2, ' ');
    quoted(out, e.name);
    out += ": ";
    show_value(out, e.value, depth);
  }
}

void show_value(std::string& out, const msg::value& v, int depth) {
  out += msg::type_name(v.type());
  char buf[64];
  switch (v.type()) {
    case msg::type::null:
      break;
    case msg::type::boolean:
      out += v.as_bool() ? " true" : " false";
      break;
    case msg::type::float32:
    case msg::type::float64: {
      const auto r = v.type() == msg::type::float32
                         ? std::to_chars(buf, buf + sizeof buf, v.as_float())
                         : std::to_chars(buf, buf + sizeof buf, v.as_double());
      out += ' ';
      out.append(buf, r.ptr);
      break;
    }
    case msg::type::string:
      out += ' ';
      quoted(out, v.as_text());
      break;
    case msg::type::bytes:
      out += " (" + std::to_string(v.as_text().size()) + ") ";
      hex_bytes(out, v.as_text());
      break;
    case msg::type::timestamp:
      std::snprintf(buf, sizeof buf, " %" PRId64 ".%09" PRIu32 " s", v.as_timestamp().seconds,
                    v.as_timestamp().nanoseconds);
      out += buf;
      break;
    case msg::type::extension:
      out += " code " + std::to_string(v.extension_code()) + " (" +
             std::to_string(v.as_text().size()) + ") ";
      hex_bytes(out, v.as_text());
      break;
    case msg::type::map:
      if (const msg::map* m = v.as_map()) {
        out += " (" + std::to_string(m->size()) + ")\n";
        show_map(out, *m, depth + 1);
      }
      return;
    case msg::type::array:
      if (const msg::array* a = v.as_array()) {
        out += " (" + std::to_string(a->size()) + ")\n";
        for (std::size_t i = 0; i < a->size(); ++i) {
          out.append(static_cast<std::size_t>(depth + 1) * 2, ' ');
          out += '[' + std::to_string(i) + "]: ";
          show_value(out, (*a)[i], depth + 1);
        }
      }
      return;
    case msg::type::int32_array:
    case msg::type::int64_array:
    case msg::type::float32_array:
    case msg::type::float64_array:
      out += ' ';
      if (const auto* a = v.as_numeric<std::int32_t>()) numbers(out, *a);
      if (const auto* a = v.as_numeric<std::int64_t>()) numbers(out, *a);
      if (const auto* a = v.as_numeric<float>()) numbers(out, *a);
      if (const auto* a = v.as_numeric<double>()) numbers(out, *a);
      break;
    case msg::type::tagged:
      out += ' ' + std::to_string(v.tag()) + ": ";
      show_value(out, v.tagged_value(), depth);
      return;
    default:
      out += ' ';
      out += v.is_signed() ? std::to_string(v.as_int()) : std::to_string(v.as_uint());
  }
  out += '\n';
}

int show(const msg_options& o) {
  msg::message m;
  if (int rc = load(o, m)) return rc;
  std::string out = "header\n";
  const msg::header& h = m.header;
  const std::pair<const char*, const std::string*> fields[] = {
      {"source_id", &h.source_id}, {"source_sub_id", &h.source_sub_id},
      {"target_id", &h.target_id}, {"target_sub_id", &h.target_sub_id},
      {"type", &h.type},           {"version", &h.version}};
  for (const auto& [name, value] : fields) {
    out += "  ";
    out += name;
    out += ": ";
    quoted(out, *value);
    out += '\n';
  }
  out += "body (" + std::to_string(m.size()) + ")\n";
  show_map(out, m.body(), 1);
  return write_all("-", out) ? 0 : 2;
}

}  // namespace

void add_msg_command(CLI::App& app) {
  CLI::App* msg =
      app.add_subcommand("msg", "Convert and show typed messages (keel::msg); alias: container");
  msg->alias("container");
  msg->require_subcommand(1);
  auto opts = std::make_shared<msg_options>();
  const std::string forms =
      "binary, json, json-typed, xml, msgpack, cbor, msgpack-exact or cbor-exact";

  CLI::App* c = msg->add_subcommand("convert", "Read IN in one form and write it in another");
  c->add_option("IN", opts->in, "input file ('-': stdin)")->required();
  c->add_option("--from", opts->from, "form of IN: " + forms + " (default: detected)");
  c->add_option("--to", opts->to, "form to write: " + forms)->required();
  c->add_option("-o,--output", opts->out, "output file ('-': stdout, the default)");
  c->callback([opts] { exit_status = convert(*opts); });

  CLI::App* s = msg->add_subcommand(
      "show", "Print a message readably: header, then each value with its type");
  s->add_option("FILE", opts->in, "input file ('-': stdin)")->required();
  s->add_option("--from", opts->from, "form of FILE: " + forms + " (default: detected)");
  s->callback([opts] { exit_status = show(*opts); });
}

}  // namespace keel::tool
