// SPDX-License-Identifier: MIT
// keel bench [COMPONENT...] [--quick] [--filter REGEX] [--json FILE] [--html FILE] [--list]
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "commands.h"
#include "common/options.h"
#include "harness/keel_bench.h"

namespace keel::tool {

namespace {

struct bench_options {
  std::vector<std::string> components;
  bool quick = false;
  bool list = false;
  int rounds = 0;
  double min_time = 0;
  std::string json_path, html_path, corpus, filter;
};

// The corpus: --corpus, else KEEL_CORPUS, else (only for a keel run from its build tree)
// ../shared/corpus beside the source tree. An installed keel has no source tree to look in.
std::filesystem::path find_corpus(const std::string& flag, const std::filesystem::path& self) {
  if (!flag.empty()) return flag;
  if (const char* env = keel::detail::option_value("KEEL_CORPUS")) return env;
  if (self.parent_path() == std::filesystem::path(KEEL_TOOL_BUILD_DIR)) {
    return std::filesystem::path(KEEL_SOURCE_DIR) / ".." / "shared" / "corpus";
  }
  return {};
}

// Components in registration order, each once, with its suites' descriptions joined.
std::vector<std::pair<std::string, std::string>> components_listed() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& s : bench::registered_suites()) {
    auto it =
        std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == s.component; });
    if (it == out.end()) {
      out.emplace_back(s.component, s.description);
    } else {
      it->second += "; " + s.description;
    }
  }
  return out;
}

// The rows that could not be measured, on stderr after the tables. Returns whether one of them
// is keel's own (then the run failed: the report lacks what it exists to show).
bool report_failures(const std::vector<bench::component_result>& results) {
  const auto failed = bench::failed_records(results);
  if (failed.empty()) return false;
  bool keel_failed = false;
  std::fprintf(stderr, "keel bench: %zu row%s could not be measured:\n", failed.size(),
               failed.size() == 1 ? "" : "s");
  for (const bench::record* r : failed) {
    const bool ours = bench::is_keel_impl(r->impl);
    keel_failed |= ours;
    std::fprintf(stderr, "  %s %s [%s]%s: %s\n", r->component.c_str(), r->case_name.c_str(),
                 r->impl.c_str(), ours ? " (keel)" : "", r->error.c_str());
  }
  if (keel_failed) {
    std::fprintf(stderr, "keel bench: keel rows failed; exit status 1\n");
  }
  return keel_failed;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::fprintf(stderr, "keel bench: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

int run_bench(const bench_options& o) {
  std::set<std::string> known;
  for (const auto& s : bench::registered_suites()) known.insert(s.component);
  if (o.list) {
    for (const auto& [component, description] : components_listed()) {
      std::printf("%-10s %s\n", component.c_str(), description.c_str());
    }
    return 0;
  }
  // "container" is the name for keel::msg, as in `keel container`.
  std::vector<std::string> components = o.components;
  for (std::string& c : components) {
    if (c == "container") c = "msg";
    if (!known.count(c)) {
      std::fprintf(stderr, "keel bench: unknown component '%s' (see keel bench --list)\n",
                   c.c_str());
      return 2;
    }
  }

  bench::context ctx;
  ctx.quick = o.quick;
  ctx.self = std::filesystem::read_symlink("/proc/self/exe");
  ctx.corpus = find_corpus(o.corpus, ctx.self);
  if (ctx.corpus.empty()) {
    std::fprintf(stderr,
                 "keel bench: no corpus given (--corpus DIR or KEEL_CORPUS); suites that read "
                 "it report their cases as not measured\n");
  } else if (std::error_code ec; !std::filesystem::is_directory(ctx.corpus, ec)) {
    std::fprintf(stderr, "keel bench: corpus %s is not a directory\n", ctx.corpus.c_str());
  }
  if (o.quick) {
    ctx.rounds = bench::context::kQuickRounds;
    ctx.min_time_s = bench::context::kQuickMinTime;
  }
  if (o.rounds > 0) ctx.rounds = o.rounds;
  if (o.min_time > 0) ctx.min_time_s = o.min_time;
  ctx.filter = o.filter;
  try {
    std::regex check(o.filter);
  } catch (const std::regex_error& e) {
    std::fprintf(stderr, "keel bench: bad --filter regex: %s\n", e.what());
    return 2;
  }

  const bool tty = isatty(STDERR_FILENO);
  auto progress = [tty](const std::string& line) {
    if (tty) {
      std::fprintf(stderr, "\r\033[K%s", line.c_str());
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
  };
  bench::run_info info = bench::describe_machine();
  std::printf("keel %s bench: %d interleaved rounds, min %.3gs per measurement, corpus %s\n",
              KEEL_VERSION_STRING, ctx.rounds, ctx.min_time_s,
              ctx.corpus.empty() ? "(none)" : ctx.corpus.c_str());
  std::printf("machine: %s, %d CPUs [%s], %s, load average %.2f\n", info.cpu.c_str(), info.cpus,
              info.cpu_flags.c_str(), info.compiler.c_str(), info.load_start);
  std::fflush(stdout);
  const auto results = bench::run(components, ctx, progress);
  info.load_end = bench::load_average();
  if (tty) std::fprintf(stderr, "\r\033[K");

  std::size_t rows = 0;
  for (const auto& c : results) rows += c.records.size();
  if (rows == 0) {
    std::fprintf(stderr, "keel bench: no case %s%s%s (see keel bench --list)\n",
                 o.filter.empty() ? "was measured" : "matches --filter '", o.filter.c_str(),
                 o.filter.empty() ? "" : "'");
    return 2;
  }
  bench::print_table(stdout, results);
  if (info.busy()) {
    std::fprintf(stderr,
                 "keel bench: the host was busy (load average %.2f at the start, %.2f at the end, "
                 "%d CPUs): figures are noisier than usual\n",
                 info.load_start, info.load_end, info.cpus);
  }

  bool ok = true;
  if (!o.json_path.empty()) ok &= write_file(o.json_path, bench::to_json(results));
  if (!o.html_path.empty()) {
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    info.title = std::string("keel bench, ") + date + ", keel " + KEEL_VERSION_STRING;
    ok &= write_file(o.html_path, bench::to_html(results, info));
  }
  const bool keel_failed = report_failures(results);
  if (!ok) return 2;
  return keel_failed ? 1 : 0;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto opts = std::make_shared<bench_options>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Run the benchmark suites against the peers; exit status 1 when a keel row could not be "
      "measured");
  cmd->add_option("component", opts->components, "Components to run (default: all)");
  cmd->add_flag("--quick", opts->quick, "Fewer rounds and shorter measurements");
  cmd->add_flag("--list", opts->list, "List the registered suites");
  cmd->add_option("--json", opts->json_path, "Write the records as JSON to FILE")
      ->type_name("FILE");
  cmd->add_option("--html", opts->html_path, "Write a self-contained HTML report to FILE")
      ->type_name("FILE");
  using defaults = bench::context;
  cmd->add_option("--rounds", opts->rounds,
                  "Interleaved rounds per measurement (default " +
                      std::to_string(defaults::kDefaultRounds) + ", --quick " +
                      std::to_string(defaults::kQuickRounds) + ")")
      ->check(CLI::Range(1, 1000));
  std::ostringstream min_time_help;
  min_time_help << "Minimum seconds per measurement (default " << defaults::kDefaultMinTime
                << ", --quick " << defaults::kQuickMinTime << ")";
  cmd->add_option("--min-time", opts->min_time, min_time_help.str())->check(CLI::Range(0.0, 60.0));
  cmd->add_option("--filter", opts->filter,
                  "Run only cases whose name matches this regex (none matching: exit status 2)")
      ->type_name("REGEX");
  cmd->add_option("--corpus", opts->corpus,
                  "Corpus directory (default: KEEL_CORPUS; in the build tree ../shared/corpus)")
      ->type_name("DIR");
  cmd->callback([opts] { exit_status = run_bench(*opts); });
}

}  // namespace keel::tool
