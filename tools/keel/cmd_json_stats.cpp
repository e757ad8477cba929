// SPDX-License-Identifier: MIT
// keel json stats FILE: what a document holds (values by type, keys, depth, sizes), what its DOM
// takes, and how fast it parses (the best of several parses with a reused parser).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <keel/json.h>

#include "commands.h"
#include "json_common.h"
#include "output.h"

namespace keel::tool::json_cli {

namespace {

struct counts {
  std::size_t by_type[9] = {};
  std::size_t keys = 0, key_bytes = 0, string_bytes = 0;
  std::size_t max_depth = 0, largest_array = 0, largest_object = 0;
};

// Every value (keys apart), with an explicit stack: no recursion however deep the document.
void walk(const json::value& root, counts& c) {
  std::vector<std::pair<json::value, std::size_t>> todo{{root, 1}};
  while (!todo.empty()) {
    const auto [v, depth] = todo.back();
    todo.pop_back();
    ++c.by_type[static_cast<int>(v.type())];
    c.max_depth = std::max(c.max_depth, depth);
    if (v.is_string()) {
      c.string_bytes += v.size();
    } else if (v.is_array()) {
      c.largest_array = std::max(c.largest_array, v.size());
      for (const json::value e : v.elements()) todo.emplace_back(e, depth + 1);
    } else if (v.is_object()) {
      c.largest_object = std::max(c.largest_object, v.size());
      for (const json::member m : v.members()) {
        ++c.keys;
        c.key_bytes += m.key.size();
        todo.emplace_back(m.value, depth + 1);
      }
    }
  }
}

int stats(const options& o) {
  std::string text;
  json::document doc;
  // Not in place: the text is parsed again below for the timing.
  if (const int rc = load(o, o.file, text, doc, false)) return rc;
  json::parser p(parse_opts(o));
  double best = 1e300;
  const auto budget = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 100 && (i < 3 || std::chrono::steady_clock::now() - start < budget); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = p.parse(text);
    const auto t1 = std::chrono::steady_clock::now();
    if (!r) return 1;
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  counts c;
  walk(doc.root(), c);
  auto count = [&c](json::type t) { return c.by_type[static_cast<int>(t)]; };
  char buf[2048];
  const int n = std::snprintf(
      buf, sizeof buf,
      "bytes         %zu\n"
      "values        %zu\n"
      "  objects     %zu (%zu keys, %zu key bytes; largest %zu members)\n"
      "  arrays      %zu (largest %zu elements)\n"
      "  strings     %zu (%zu bytes)\n"
      "  integers    %zu (%zu above INT64_MAX)\n"
      "  doubles     %zu\n"
      "  big numbers %zu (kept as text)\n"
      "  booleans    %zu\n"
      "  nulls       %zu\n"
      "max depth     %zu\n"
      "DOM bytes     %zu (%zu nodes x 16 + %zu string bytes)\n"
      "parse         %.4g ms, %.2f GB/s (best of several, %s kernels)\n",
      text.size(), doc.node_count() - c.keys, count(json::type::object), c.keys, c.key_bytes,
      c.largest_object, count(json::type::array), c.largest_array, count(json::type::string),
      c.string_bytes, count(json::type::int64) + count(json::type::uint64),
      count(json::type::uint64), count(json::type::double_), count(json::type::raw_number),
      count(json::type::boolean), count(json::type::null), c.max_depth, doc.dom_bytes(),
      doc.node_count(), doc.string_bytes(), best * 1e3,
      static_cast<double>(text.size()) / best / 1e9, json::isa_name(p.last_isa()));
  // The file name apart (any length); the figures fit in buf. emit adds the last newline.
  const std::string report = "file          " + display_name(o.file) + "\n" +
                             std::string(buf, static_cast<std::size_t>(n > 0 ? n - 1 : 0));
  return emit(o, report);
}

}  // namespace

void add_stats_command(CLI::App* json, const std::shared_ptr<options>& opts) {
  CLI::App* s = json->add_subcommand(
      "stats", "Count FILE's values by type, depth and sizes; DOM bytes; parse speed");
  s->add_option("file", opts->file, "File ('-' for stdin)")->required();
  add_parse_flags(s, *opts);
  s->add_option("-o,--output", opts->output, "Write the report to FILE instead of standard output");
  s->callback([opts] { exit_status = stats(*opts); });
}

}  // namespace keel::tool::json_cli
