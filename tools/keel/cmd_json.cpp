// SPDX-License-Identifier: MIT
// keel json validate FILE... | minify FILE | pretty FILE   ('-' reads stdin; --ndjson: one value
// per line, read in chunks in bounded memory); the editing
// subcommands (get, patch, merge-patch, diff) are in cmd_json_patch.cpp.
//
// Exit status: 0 success; 1 invalid JSON (each problem reported as "file:line:column: message"
// on stderr) or a failed operation; 2 a usage or I/O error.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <keel/json.h>
#include <keel/json/ndjson.h>

#include "commands.h"
#include "json_common.h"
#include "json_diagnostic.h"
#include "output.h"

namespace keel::tool {

namespace {

using json_cli::options;

// NDJSON: every bad record reported as "file:line:column: message (record N)" with what was
// found and expected, its line and a caret (as for a document), and skipped; with `out` each
// good record is written (minified, or pretty) as it is read. Returns the status.
int ndjson(const options& o, const std::string& name, json_cli::sink* out, bool pretty) {
  json::ndjson_options no;
  no.parse = json_cli::parse_opts(o);
  no.skip_bad_records = true;
  const std::string shown = json_cli::display_name(name);
  const json::ndjson_reader* reader = nullptr;
  no.on_skip = [&](const json::ndjson_error& e) {
    // The record's line, as the reader still holds it (not a record too long to keep).
    const std::size_t line_start = e.offset - (e.column > 0 ? e.column - 1 : 0);
    std::string_view line = reader->held(line_start);
    if (e.offset - line_start > line.size()) line = {};
    line = line.substr(0, line.find('\n'));
    std::string text;
    if (e.code != json::error_code::record_too_long && !line.empty()) {
      // The record's own line, its error counted from the line's first byte.
      // (The byte order mark hint only for the input's first line.)
      text = json_cli::describe_parse_error(
          shown, line, json::error{e.code, e.offset - line_start, e.line, e.column},
          o.bom || line_start != 0);
      // A record is a line: what ends it is the line's end.
      const std::string_view end = "found the end of the input";
      if (const std::size_t k = text.find(end); k != std::string::npos)
        text.replace(k, end.size(), "found the end of the line");
      text.insert(text.find('\n'), " (record " + std::to_string(e.record) + ")");
    } else {
      text = shown + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " +
             e.message() + " (record " + std::to_string(e.record) + ")\n";
    }
    std::fputs(text.c_str(), stderr);
  };
  json::ndjson_reader r(no);
  reader = &r;
  std::FILE* in = stdin;
  if (name != "-" && (in = std::fopen(name.c_str(), "rb")) == nullptr) {
    std::fprintf(stderr, "keel json: %s: %s\n", name.c_str(), std::strerror(errno));
    return 2;
  }
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(in == stdin ? nullptr : in,
                                                              std::fclose);
  std::string io_reason;
  r.open_source([&](char* buf, std::size_t size) -> std::size_t {
    const std::size_t got = std::fread(buf, 1, size, in);
    if (got == 0 && std::ferror(in)) io_reason = std::strerror(errno);
    return got;
  });
  json::writer wr(json_cli::write_opts(o, pretty));
  int status = 0;
  while (r.next()) {
    if (out == nullptr) continue;
    auto text = wr.write(r.value());
    if (!text) {
      std::fprintf(stderr, "%s:%zu: %s (record %zu)\n", shown.c_str(), r.info().line,
                   text.error().message(), r.info().record);
      status = 1;
      continue;
    }
    if (!out->line(*text)) return 2;
  }
  if (!io_reason.empty()) {  // a read error ends the input: said after what was read
    std::fprintf(stderr, "keel json: %s: %s\n", shown.c_str(), io_reason.c_str());
    return 2;
  }
  if (r.error().code == json::error_code::isa_unavailable) {
    std::fprintf(stderr, "keel json: %s\n", r.error().message());
    return 2;
  }
  return r.skipped() > 0 ? 1 : status;
}

int validate(const options& o) {
  json::parser p(json_cli::parse_opts(o));
  int status = 0;
  std::string text;
  for (const auto& name : o.files) {
    if (o.ndjson) {
      const int rc = ndjson(o, name, nullptr, false);
      if (rc > status) status = rc;
      continue;
    }
    if (!json_cli::read_input(name, text)) {
      status = 2;
      continue;
    }
    // No document is built: beside the text, only the structural index.
    if (const json::error e = p.validate(text)) {
      if (e.code == json::error_code::isa_unavailable) {
        std::fprintf(stderr, "keel json: %s\n", e.message());
        return 2;
      }
      json_cli::report_parse_error(o, name, text, e);
      if (status == 0) status = 1;
    }
  }
  return status;
}

int rewrite(const options& o, bool pretty) {
  if (o.ndjson) {
    json_cli::sink out;
    if (!out.open(o)) return 2;
    const int rc = ndjson(o, o.file, &out, pretty);
    const int wrc = out.close();
    return wrc != 0 ? wrc : rc;
  }
  std::string text;
  json::document doc;
  if (const int rc = json_cli::load(o, o.file, text, doc)) return rc;
  // Streamed: the text goes out as the writer's buffer fills, never whole in memory.
  json_cli::sink out;
  if (!out.open(o)) return 2;
  json::writer wr(json_cli::write_opts(o, pretty));
  auto written = wr.write_to(doc.root(), [&](std::string_view piece) { return out.put(piece); });
  if (!written && written.code() != json::error_code::io_error) {
    std::fprintf(stderr, "keel json: %s: %s\n", json_cli::display_name(o.file).c_str(),
                 written.error().message());
    out.close();
    return 1;
  }
  if (written) out.put("\n");
  return out.close();
}

}  // namespace

void add_json_command(CLI::App& app) {
  auto opts = std::make_shared<options>();
  CLI::App* json =
      app.add_subcommand("json", "Validate, reformat, query, patch and compare JSON (keel::json)");
  json->require_subcommand(1);

  CLI::App* v = json->add_subcommand(
      "validate",
      "Check every FILE: exit 0 if all are valid JSON, 1 if one is not, 2 if one cannot be read "
      "(each problem on stderr)");
  v->add_option("files", opts->files, "Files ('-' for stdin)")->required();
  v->add_flag("--ndjson", opts->ndjson, "One JSON value per line; every bad line is reported");
  json_cli::add_parse_flags(v, *opts);
  v->callback([opts] { exit_status = validate(*opts); });

  CLI::App* m = json->add_subcommand("minify", "Write FILE without insignificant whitespace");
  m->add_option("file", opts->file, "File ('-' for stdin)")->required();
  m->add_flag("--ndjson", opts->ndjson,
              "One JSON value per line in, one minified record per line out (bad lines reported "
              "and left out)");
  json_cli::add_parse_flags(m, *opts);
  json_cli::add_write_flags(m, *opts, json_cli::layout_flags::none);
  m->callback([opts] { exit_status = rewrite(*opts, false); });

  CLI::App* p = json->add_subcommand("pretty", "Write FILE indented");
  p->add_option("file", opts->file, "File ('-' for stdin)")->required();
  p->add_flag("--ndjson", opts->ndjson,
              "One JSON value per line in, each record written indented (bad lines reported and "
              "left out)");
  json_cli::add_parse_flags(p, *opts);
  json_cli::add_write_flags(p, *opts, json_cli::layout_flags::indent);
  p->callback([opts] { exit_status = rewrite(*opts, true); });

  json_cli::add_edit_commands(json, opts);
  json_cli::add_stats_command(json, opts);
}

}  // namespace keel::tool
