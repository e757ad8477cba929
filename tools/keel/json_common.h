// SPDX-License-Identifier: MIT
// What the `keel json` subcommands share: their options, reading inputs, parse options, error
// reports and writing results (to stdout or -o FILE).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <keel/json.h>
#include <CLI/CLI.hpp>

namespace keel::tool::json_cli {

struct options {
  std::vector<std::string> files;
  std::string file, second, pointer, output;
  unsigned indent = 2;
  bool pretty = false, raw = false, merge = false, ndjson = false;
  bool comments = false, trailing_commas = false, nan_inf = false, bom = false;
  bool escape_unicode = false, escape_slash = false;
  std::string isa;
};

// Reads a whole file (or stdin for "-"); false with a message on stderr ("keel json: NAME:
// REASON") on failure.
bool read_input(const std::string& name, std::string& out);
// The name an input is reported under ("<stdin>" for "-").
std::string display_name(const std::string& name);

json::parse_options parse_opts(const options& o);
json::write_options write_opts(const options& o, bool pretty);

// Reports a parse error of `text` (read from `name`) on stderr: position, what was found and
// expected, the line and a caret (json_diagnostic.h).
void report_parse_error(const options& o, const std::string& name, std::string_view text,
                        const json::error& e);

// Reads and parses one input into doc; on failure reports it and returns the exit status
// (1: invalid JSON, 2: I/O error or unusable options), else 0. In place (parse_in_place: no
// string copies; text then holds the document's strings, unescaped, and must outlive doc) unless
// the caller needs text unchanged.
int load(const options& o, const std::string& name, std::string& text, json::document& doc,
         bool in_place = true);

// Writes text and a newline to -o FILE or stdout; returns the exit status (2 on a write error).
int emit(const options& o, std::string_view text);

// Output written piece by piece to -o FILE or stdout (NDJSON output).
class sink {
 public:
  // False (with a message on stderr) if -o FILE cannot be created.
  bool open(const options& o);
  // Writes text; false once a write failed.
  bool put(std::string_view text);
  // Writes text and a newline; false once a write failed.
  bool line(std::string_view text);
  // Closes; the exit status for the output (0, or 2 after a write error with its message).
  int close();
  ~sink();

 private:
  std::FILE* f_ = nullptr;
  std::string name_;
  bool failed_ = false;
  int errno_ = 0;
};

void add_parse_flags(CLI::App* c, options& o);
// Which layout flags a command takes: minify none, pretty --indent, the others --pretty and
// --indent.
enum class layout_flags { none, indent, pretty_and_indent };
void add_write_flags(CLI::App* c, options& o, layout_flags layout);

// The subcommands of cmd_json_patch.cpp: get, patch, merge-patch, diff.
void add_edit_commands(CLI::App* json, const std::shared_ptr<options>& opts);
// keel json stats (cmd_json_stats.cpp).
void add_stats_command(CLI::App* json, const std::shared_ptr<options>& opts);

}  // namespace keel::tool::json_cli
