// SPDX-License-Identifier: MIT
// Shared parts of the `keel json` subcommands (json_common.h).
#include "json_common.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include <sys/stat.h>

#include "json_diagnostic.h"
#include "output.h"

namespace keel::tool::json_cli {

std::string display_name(const std::string& name) { return name == "-" ? "<stdin>" : name; }

bool read_input(const std::string& name, std::string& out) {
  std::FILE* f = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "keel json: %s: %s\n", name.c_str(), std::strerror(errno));
    return false;
  }
  out.clear();
  // A file's size up front: one allocation, no copies while it grows (with the padding an
  // in-place parse reads past the text).
  struct stat info {};
  if (fstat(fileno(f), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0)
    out.reserve(static_cast<std::size_t>(info.st_size) + json::in_place_padding);
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const int err = std::ferror(f) != 0 ? errno : 0;
  const bool bad = std::ferror(f) != 0;
  if (f != stdin) std::fclose(f);
  if (bad) {
    std::fprintf(stderr, "keel json: %s: %s\n", display_name(name).c_str(),
                 err != 0 ? std::strerror(err) : "read error");
    return false;
  }
  return true;
}

json::parse_options parse_opts(const options& o) {
  json::parse_options p;
  p.allow_comments = o.comments;
  p.allow_trailing_commas = o.trailing_commas;
  p.allow_nan_inf = o.nan_inf;
  p.allow_bom = o.bom;
  p.isa = keel::parse_isa(o.isa);
  return p;
}

json::write_options write_opts(const options& o, bool pretty) {
  json::write_options w;
  w.pretty = pretty;
  w.indent = static_cast<std::uint8_t>(o.indent);
  w.escape_unicode = o.escape_unicode;
  w.escape_slash = o.escape_slash;
  w.nonfinite = o.nan_inf ? json::nonfinite_policy::literal : json::nonfinite_policy::error;
  return w;
}

void report_parse_error(const options& o, const std::string& name, std::string_view text,
                        const json::error& e) {
  const std::string d = describe_parse_error(display_name(name), text, e, o.bom);
  std::fputs(d.c_str(), stderr);
}

int load(const options& o, const std::string& name, std::string& text, json::document& doc,
         bool in_place) {
  if (!read_input(name, text)) return 2;
  json::parser p(parse_opts(o));
  json::error e;
  if (in_place) {
    text.reserve(text.size() + json::in_place_padding);  // done by read_input for a file
    e = p.parse_in_place_into(doc, text.data(), text.size(), text.capacity());
  } else {
    e = p.parse_into(doc, text.data(), text.size());
  }
  if (e) {
    if (e.code == json::error_code::isa_unavailable) {
      std::fprintf(stderr, "keel json: %s\n", e.message());
      return 2;
    }
    report_parse_error(o, name, text, e);
    return 1;
  }
  return 0;
}

bool sink::open(const options& o) {
  if (o.output.empty() || o.output == "-") return true;
  name_ = o.output;
  f_ = std::fopen(o.output.c_str(), "wb");
  if (f_ == nullptr) {
    std::fprintf(stderr, "keel json: %s: %s\n", o.output.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

bool sink::put(std::string_view text) {
  if (failed_) return false;
  if (f_ == nullptr) return out_write(text);
  if (std::fwrite(text.data(), 1, text.size(), f_) != text.size()) {
    failed_ = true;
    errno_ = errno;
  }
  return !failed_;
}

bool sink::line(std::string_view text) { return put(text) && put("\n"); }

int sink::close() {
  if (f_ == nullptr) return out_failed() ? write_error_status : 0;
  if (std::fclose(std::exchange(f_, nullptr)) != 0 && !failed_) {
    failed_ = true;
    errno_ = errno;
  }
  if (failed_) {
    std::fprintf(stderr, "keel json: %s: %s\n", name_.c_str(),
                 errno_ != 0 ? std::strerror(errno_) : "write error");
    return 2;
  }
  return 0;
}

sink::~sink() {
  if (f_ != nullptr) std::fclose(f_);
}

int emit(const options& o, std::string_view text) {
  sink out;
  if (!out.open(o)) return 2;
  out.line(text);
  return out.close();
}

void add_parse_flags(CLI::App* c, options& o) {
  c->add_flag("--comments", o.comments, "Allow // and /* */ comments");
  c->add_flag("--trailing-commas", o.trailing_commas, "Allow a comma before ] and }");
  c->add_flag("--nan-inf", o.nan_inf, "Allow NaN, Infinity and -Infinity (written back as such)");
  c->add_flag("--bom", o.bom, "Skip a leading UTF-8 byte order mark");
  c->add_option("--isa", o.isa, "Force the parser's kernels")
      ->check(CLI::IsMember({"scalar", "avx2", "avx512", "neon"}));
}

void add_write_flags(CLI::App* c, options& o, layout_flags layout) {
  if (layout == layout_flags::pretty_and_indent)
    c->add_flag("--pretty", o.pretty, "Write the result indented");
  if (layout != layout_flags::none)
    c->add_option("--indent", o.indent, "Spaces per level when indented")->check(CLI::Range(0, 16));
  c->add_flag("--escape-unicode", o.escape_unicode, "Write non-ASCII as \\uXXXX");
  c->add_flag("--escape-slash", o.escape_slash, "Write '/' as \\/");
  c->add_option("-o,--output", o.output, "Write the result to FILE instead of standard output");
}

}  // namespace keel::tool::json_cli
