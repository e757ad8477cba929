// SPDX-License-Identifier: MIT
// keel bench [COMPONENT...] [--quick] [--filter REGEX] [--json FILE] [--html FILE] [--list]
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>

#include "commands.h"
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

// The corpus: --corpus, else KEEL_CORPUS, else ../shared/corpus beside the source tree.
std::filesystem::path find_corpus(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("KEEL_CORPUS"); env && *env) return env;
  return std::filesystem::path(KEEL_SOURCE_DIR) / ".." / "shared" / "corpus";
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
    for (const auto& s : bench::registered_suites()) {
      std::printf("%-10s %s\n", s.component.c_str(), s.description.c_str());
    }
    return 0;
  }
  for (const std::string& c : o.components) {
    if (!known.count(c)) {
      std::fprintf(stderr, "keel bench: unknown component '%s' (see keel bench --list)\n",
                   c.c_str());
      return 2;
    }
  }

  bench::context ctx;
  ctx.quick = o.quick;
  ctx.corpus = find_corpus(o.corpus);
  ctx.self = std::filesystem::read_symlink("/proc/self/exe");
  ctx.rounds = o.rounds > 0 ? o.rounds : (o.quick ? 5 : 15);
  ctx.min_time_s = o.min_time > 0 ? o.min_time : (o.quick ? 0.03 : 0.2);
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
  std::printf("keel %s bench: %d interleaved rounds, min %.3gs per measurement, corpus %s\n",
              KEEL_VERSION_STRING, ctx.rounds, ctx.min_time_s, ctx.corpus.c_str());
  std::fflush(stdout);
  const auto results = bench::run(o.components, ctx, progress);
  if (tty) std::fprintf(stderr, "\r\033[K");
  bench::print_table(stdout, results);

  bool ok = true;
  if (!o.json_path.empty()) ok &= write_file(o.json_path, bench::to_json(results));
  if (!o.html_path.empty()) {
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
    ok &= write_file(o.html_path, bench::to_html(results, std::string("keel bench, ") + date +
                                                              ", keel " + KEEL_VERSION_STRING));
  }
  return ok ? 0 : 2;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto opts = std::make_shared<bench_options>();
  CLI::App* cmd = app.add_subcommand("bench", "Run benchmark suites against the peers");
  cmd->add_option("component", opts->components, "Components to run (default: all)");
  cmd->add_flag("--quick", opts->quick, "Fewer rounds and shorter measurements");
  cmd->add_flag("--list", opts->list, "List the registered suites");
  cmd->add_option("--json", opts->json_path, "Write the records as JSON to FILE");
  cmd->add_option("--html", opts->html_path, "Write a self-contained HTML report to FILE");
  cmd->add_option("--rounds", opts->rounds, "Interleaved rounds per measurement")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--min-time", opts->min_time, "Minimum seconds per measurement")
      ->check(CLI::Range(0.0, 60.0));
  cmd->add_option("--filter", opts->filter,
                  "Run only cases whose name (or external suite label) matches this regex");
  cmd->add_option("--corpus", opts->corpus,
                  "Corpus directory (default: KEEL_CORPUS or ../shared/corpus)");
  cmd->callback([opts] { exit_status = run_bench(*opts); });
}

}  // namespace keel::tool
