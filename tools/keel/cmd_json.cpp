// SPDX-License-Identifier: MIT
// keel json validate FILE... | minify FILE | pretty FILE   ('-' reads stdin)
//
// validate: exit 0 when every file is valid JSON; 1 when one is not (each problem reported as
// "file:line:column: message" on stderr); 2 on a usage or I/O error.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <keel/json.h>

#include "commands.h"
#include "output.h"

namespace keel::tool {

namespace {

struct json_options {
  std::vector<std::string> files;
  std::string file;
  unsigned indent = 2;
  bool comments = false, trailing_commas = false, nan_inf = false, bom = false;
  bool escape_unicode = false, escape_slash = false;
  std::string isa;
};

// Reads a whole file (or stdin for "-"); false with a message on stderr on failure.
bool read_input(const std::string& name, std::string& out) {
  std::FILE* f = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "keel json: %s: %s\n", name.c_str(), std::strerror(errno));
    return false;
  }
  out.clear();
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  const bool bad = std::ferror(f) != 0;
  if (f != stdin) std::fclose(f);
  if (bad) {
    std::fprintf(stderr, "keel json: %s: read error\n", name.c_str());
    return false;
  }
  return true;
}

json::parse_options parse_opts(const json_options& o) {
  json::parse_options p;
  p.allow_comments = o.comments;
  p.allow_trailing_commas = o.trailing_commas;
  p.allow_nan_inf = o.nan_inf;
  p.allow_bom = o.bom;
  if (o.isa == "scalar")
    p.isa = json::isa::scalar;
  else if (o.isa == "avx2")
    p.isa = json::isa::avx2;
  else if (o.isa == "avx512")
    p.isa = json::isa::avx512;
  return p;
}

void report(const std::string& name, const json::error& e) {
  std::fprintf(stderr, "%s:%zu:%zu: %s\n", name == "-" ? "<stdin>" : name.c_str(), e.line, e.column,
               e.message());
}

int validate(const json_options& o) {
  json::parser p(parse_opts(o));
  int status = 0;
  std::string text;
  for (const auto& name : o.files) {
    if (!read_input(name, text)) return 2;
    auto r = p.parse(text);
    if (!r) {
      if (r.code() == json::error_code::isa_unavailable) {
        std::fprintf(stderr, "keel json: %s\n", r.error().message());
        return 2;
      }
      report(name, r.error());
      status = 1;
    }
  }
  return status;
}

int rewrite(const json_options& o, bool pretty) {
  std::string text;
  if (!read_input(o.file, text)) return 2;
  json::parser p(parse_opts(o));
  auto r = p.parse(text);
  if (!r) {
    report(o.file, r.error());
    return 1;
  }
  json::write_options w;
  w.pretty = pretty;
  w.indent = static_cast<std::uint8_t>(o.indent);
  w.escape_unicode = o.escape_unicode;
  w.escape_slash = o.escape_slash;
  w.nonfinite = o.nan_inf ? json::nonfinite_policy::literal : json::nonfinite_policy::error;
  json::writer wr(w);
  auto out = wr.write(*r);
  if (!out) {
    std::fprintf(stderr, "keel json: %s: %s\n", o.file.c_str(), out.error().message());
    return 1;
  }
  // A failed write is reported by main (finish_stdout).
  return out_write(out->data(), out->size()) && out_write("\n") ? 0 : write_error_status;
}

void add_parse_flags(CLI::App* c, json_options& o) {
  c->add_flag("--comments", o.comments, "Allow // and /* */ comments");
  c->add_flag("--trailing-commas", o.trailing_commas, "Allow a comma before ] and }");
  c->add_flag("--nan-inf", o.nan_inf, "Allow NaN, Infinity and -Infinity (written back as such)");
  c->add_flag("--bom", o.bom, "Skip a leading UTF-8 byte order mark");
  c->add_option("--isa", o.isa, "Force the parser's kernels")
      ->check(CLI::IsMember({"scalar", "avx2", "avx512"}));
}

}  // namespace

void add_json_command(CLI::App& app) {
  auto opts = std::make_shared<json_options>();
  CLI::App* json =
      app.add_subcommand("json", "Validate, minify and pretty-print JSON (keel::json)");
  json->require_subcommand(1);

  CLI::App* v = json->add_subcommand(
      "validate", "Exit 0 if every FILE is valid JSON, 1 if not (errors on stderr)");
  v->add_option("files", opts->files, "Files ('-' for stdin)")->required();
  add_parse_flags(v, *opts);
  v->callback([opts] { exit_status = validate(*opts); });

  CLI::App* m = json->add_subcommand("minify", "Write FILE without insignificant whitespace");
  m->add_option("file", opts->file, "File ('-' for stdin)")->required();
  add_parse_flags(m, *opts);
  m->add_flag("--escape-unicode", opts->escape_unicode, "Write non-ASCII as \\uXXXX");
  m->add_flag("--escape-slash", opts->escape_slash, "Write '/' as \\/");
  m->callback([opts] { exit_status = rewrite(*opts, false); });

  CLI::App* p = json->add_subcommand("pretty", "Write FILE indented");
  p->add_option("file", opts->file, "File ('-' for stdin)")->required();
  add_parse_flags(p, *opts);
  p->add_option("--indent", opts->indent, "Spaces per level")->check(CLI::Range(0, 16));
  p->add_flag("--escape-unicode", opts->escape_unicode, "Write non-ASCII as \\uXXXX");
  p->add_flag("--escape-slash", opts->escape_slash, "Write '/' as \\/");
  p->callback([opts] { exit_status = rewrite(*opts, true); });
}

}  // namespace keel::tool
