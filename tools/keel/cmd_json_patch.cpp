// SPDX-License-Identifier: MIT
// keel json get FILE POINTER | patch DOC PATCH | merge-patch DOC PATCH | diff A B [--merge]
//
// get prints the value at an RFC 6901 pointer (strings as plain text with --raw); patch applies
// an RFC 6902 JSON Patch, merge-patch an RFC 7396 merge patch; diff prints the JSON Patch (or,
// with --merge, the merge patch) that turns A into B. Exit status 1 when the pointer matches
// nothing or a patch operation fails (a failed `test` included, named on stderr).
#include <cstdio>
#include <memory>
#include <string>

#include <keel/json.h>
#include <keel/json/patch.h>

#include "commands.h"
#include "json_common.h"
#include "output.h"

namespace keel::tool::json_cli {

namespace {

template <class V>
int write_value(const options& o, const V& v, const std::string& name) {
  json::writer wr(write_opts(o, o.pretty));
  auto out = wr.write(v);
  if (!out) {
    std::fprintf(stderr, "keel json: %s: %s\n", display_name(name).c_str(), out.error().message());
    return 1;
  }
  return emit(o, *out);
}

int get(const options& o) {
  std::string text;
  json::document doc;
  if (const int rc = load(o, o.file, text, doc)) return rc;
  auto v = doc.root().at_pointer(o.pointer);
  if (!v) {
    std::fprintf(stderr, "keel json: %s: \"%s\": %s\n", display_name(o.file).c_str(),
                 o.pointer.c_str(), v.error().message());
    return v.code() == json::error_code::invalid_pointer ? 2 : 1;
  }
  if (o.raw && v->is_string()) return emit(o, v->raw_string());
  return write_value(o, *v, o.file);
}

// Standard input can be read once: false (with a usage error) when both files are '-'.
bool one_stdin(const options& o) {
  if (o.file != "-" || o.second != "-") return true;
  std::fprintf(stderr, "keel json: only one of the two files can be '-' (standard input)\n");
  return false;
}

int patch(const options& o, bool merge) {
  if (!one_stdin(o)) return 2;
  std::string text, patch_text;
  json::document doc, patch_doc;
  if (const int rc = load(o, o.file, text, doc)) return rc;
  if (const int rc = load(o, o.second, patch_text, patch_doc)) return rc;
  json::mutable_document m(doc.root());
  if (merge) {
    if (const json::error e = json::apply_merge_patch(m, patch_doc.root())) {
      std::fprintf(stderr, "keel json: %s: %s\n", display_name(o.second).c_str(), e.message());
      return 1;
    }
  } else if (const json::patch_error e = json::apply_patch(m, patch_doc.root())) {
    std::fprintf(stderr, "keel json: %s: %s\n", display_name(o.second).c_str(),
                 e.to_string().c_str());
    return 1;
  }
  return write_value(o, m.root(), o.file);
}

int diff(const options& o) {
  if (!one_stdin(o)) return 2;
  std::string a_text, b_text;
  json::document a, b;
  if (const int rc = load(o, o.file, a_text, a)) return rc;
  if (const int rc = load(o, o.second, b_text, b)) return rc;
  auto d = o.merge ? json::merge_diff(a.root(), b.root()) : json::diff(a.root(), b.root());
  if (!d) {
    std::fprintf(
        stderr, "keel json: %s: %s%s\n", display_name(o.second).c_str(), d.error().message(),
        d.code() == json::error_code::not_representable ? " (use a JSON Patch: no --merge)" : "");
    return 1;
  }
  return write_value(o, d->root(), o.second);
}

}  // namespace

void add_edit_commands(CLI::App* json, const std::shared_ptr<options>& opts) {
  CLI::App* g = json->add_subcommand(
      "get", "Print the value at an RFC 6901 JSON Pointer (\"/a/0\"; \"\" is the whole document)");
  g->add_option("file", opts->file, "File ('-' for stdin)")->required();
  g->add_option("pointer", opts->pointer, "JSON Pointer")->required();
  g->add_flag("--raw", opts->raw, "Print a string's text without quotes or escapes");
  add_parse_flags(g, *opts);
  add_write_flags(g, *opts, layout_flags::pretty_and_indent);
  g->callback([opts] { exit_status = get(*opts); });

  CLI::App* p = json->add_subcommand(
      "patch", "Apply an RFC 6902 JSON Patch to DOC and print the result (all or nothing)");
  p->add_option("doc", opts->file, "Document ('-' for stdin)")->required();
  p->add_option("patch", opts->second, "JSON Patch: an array of operations ('-' for stdin)")
      ->required();
  add_parse_flags(p, *opts);
  add_write_flags(p, *opts, layout_flags::pretty_and_indent);
  p->callback([opts] { exit_status = patch(*opts, false); });

  CLI::App* mp = json->add_subcommand(
      "merge-patch", "Apply an RFC 7396 JSON Merge Patch to DOC and print the result");
  mp->add_option("doc", opts->file, "Document ('-' for stdin)")->required();
  mp->add_option("patch", opts->second, "Merge patch ('-' for stdin)")->required();
  add_parse_flags(mp, *opts);
  add_write_flags(mp, *opts, layout_flags::pretty_and_indent);
  mp->callback([opts] { exit_status = patch(*opts, true); });

  CLI::App* d = json->add_subcommand(
      "diff", "Print a JSON Patch that turns A into B (a merge patch with --merge)");
  d->add_option("a", opts->file, "Original ('-' for stdin)")->required();
  d->add_option("b", opts->second, "Target ('-' for stdin)")->required();
  d->add_flag("--merge", opts->merge, "Print an RFC 7396 merge patch instead");
  add_parse_flags(d, *opts);
  add_write_flags(d, *opts, layout_flags::pretty_and_indent);
  d->callback([opts] { exit_status = diff(*opts); });
}

}  // namespace keel::tool::json_cli
