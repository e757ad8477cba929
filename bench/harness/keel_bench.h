// SPDX-License-Identifier: MIT
// The benchmark harness every component's suite registers with; `keel bench` runs them.
//
// A suite adds measurements: in-process ones are Google Benchmark functions, run interleaved
// (round r runs every impl of every case once before round r+1) and reduced to the median of the
// rounds; external ones (e.g. one process per allocator under LD_PRELOAD) return finished records.
// Every result is a `record`; the terminal table, the JSON file and the HTML report are made from
// the same records. See docs/bench.md.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace keel::bench {

struct record {
  std::string component;
  std::string case_name;    // e.g. "parse/avx2/twitter.json"
  std::string impl;         // "keel" or the peer's name, lower case
  double median_ns = 0;     // per iteration (one operation, as the case defines it)
  std::uint64_t bytes = 0;  // bytes processed per iteration (0: not a bandwidth case)
  std::uint64_t items = 0;  // items per iteration (0: not counted)
  long peak_rss_kb = 0;     // peak resident set while this impl ran; 0: not measured for this
                            // case alone (reports show "—"; see docs/bench.md)
  std::string error;        // non-empty when the measurement failed
};

struct context {
  // The measurement defaults, the one definition `keel bench` uses too (docs/bench.md): 15
  // interleaved rounds of at least 0.2 s per measurement; --quick: 5 rounds of at least 0.03 s.
  static constexpr int kDefaultRounds = 15;
  static constexpr double kDefaultMinTime = 0.2;
  static constexpr int kQuickRounds = 5;
  static constexpr double kQuickMinTime = 0.03;

  bool quick = false;
  std::filesystem::path corpus;  // the shared corpus (KEEL_CORPUS or ../shared/corpus)
  std::filesystem::path self;    // the running keel executable, for suites that spawn processes
  int rounds = kDefaultRounds;   // interleaved rounds for in-process measurements
  double min_time_s = kDefaultMinTime;  // Google Benchmark's minimum time per measurement
  std::string filter;  // ECMAScript regex (--filter): run only the cases it matches

  // Whether the case named `case_name` is to run (no filter: every case). External suites call it
  // to skip the cases the filter leaves out.
  bool wants(const std::string& case_name) const;
};

class suite {
 public:
  using body_fn = std::function<void(benchmark::State&)>;
  using external_fn = std::function<std::vector<record>(const context&)>;

  struct entry {
    std::string case_name, impl;
    body_fn body;
    std::uint64_t bytes = 0, items = 0;
  };

  // An in-process measurement; one iteration of `body`'s state loop is one operation.
  void add(std::string case_name, std::string impl, body_fn body, std::uint64_t bytes = 0,
           std::uint64_t items = 0) {
    entries_.push_back({std::move(case_name), std::move(impl), std::move(body), bytes, items});
  }
  // Measurements made by the suite itself; the returned records need no `component`.
  void add_external(std::string label, external_fn fn) {
    externals_.emplace_back(std::move(label), std::move(fn));
  }
  // A measurement that cannot be made (e.g. an input file is missing): an error record, so the
  // report and the summary of `keel bench` show it instead of a silently missing row.
  void unmeasured(std::string case_name, std::string impl, std::string why) {
    unmeasured_.push_back({});
    unmeasured_.back().case_name = std::move(case_name);
    unmeasured_.back().impl = std::move(impl);
    unmeasured_.back().error = std::move(why);
  }
  // A line printed under the suite's table and in the report: flags, what each side does.
  void note(std::string text) { notes_.push_back(std::move(text)); }

  const std::vector<entry>& entries() const { return entries_; }
  const std::vector<std::pair<std::string, external_fn>>& externals() const { return externals_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const std::vector<record>& unmeasured_records() const { return unmeasured_; }

 private:
  std::vector<record> unmeasured_;
  std::vector<entry> entries_;
  std::vector<std::pair<std::string, external_fn>> externals_;
  std::vector<std::string> notes_;
};

using suite_fn = void (*)(suite&, const context&);

struct registration {
  registration(const char* component, const char* description, suite_fn fn);
};

struct registered_suite {
  std::string component, description;
  suite_fn fn;
};
// Every registered suite, in registration order (several may share a component).
const std::vector<registered_suite>& registered_suites();

// A component's report: its records and notes.
struct component_result {
  std::string component, description;
  std::vector<record> records;
  std::vector<std::string> notes;
};

// Runs the named components (all when empty). `progress` receives one short status line at a time.
std::vector<component_result> run(const std::vector<std::string>& components, const context& ctx,
                                  const std::function<void(const std::string&)>& progress);

// Peak RSS bookkeeping for in-process measurements (Linux: /proc/self/clear_refs and VmHWM).
// reset_peak_rss() returns false when the reset did not take effect (some kernels ignore it):
// the high-water mark is then the process's, not the case's, and is not reported.
bool reset_peak_rss();
long peak_rss_kb();

// What the report says about the run: the machine, the compiler, how busy the host was.
struct run_info {
  std::string title;       // e.g. "keel bench, 2026-11-26, keel 0.1.0"
  std::string cpu;         // /proc/cpuinfo model name
  std::string cpu_flags;   // the SIMD flags that choose keel's kernels (avx2, avx512bw, ...)
  std::string compiler;    // the compiler keel and the peers were built with
  std::string kernel;      // uname -sr
  int cpus = 0;            // online CPUs
  double load_start = -1;  // 1-minute load average before the first measurement (-1: unknown)
  double load_end = -1;    // ... and after the last
  // The host was busy: other work competed for the CPUs, so times are noisier than usual.
  bool busy() const;
};
run_info describe_machine();  // everything but title and load_end
double load_average();        // 1-minute load average, -1 when unknown

// Every record with an error (could not be measured), in report order.
std::vector<const record*> failed_records(const std::vector<component_result>& results);
// Whether `impl` is one of keel's own rows ("keel", "keel-scalar", "keel-hardened", ...).
bool is_keel_impl(const std::string& impl);

// Reports (report_*.cpp).
void print_table(std::FILE* out, const std::vector<component_result>& results);
std::string to_json(const std::vector<component_result>& results);
std::string to_html(const std::vector<component_result>& results, const run_info& info);

}  // namespace keel::bench

#define KEEL_BENCH_CAT2(a, b) a##b
#define KEEL_BENCH_CAT(a, b) KEEL_BENCH_CAT2(a, b)
// KEEL_BENCH_SUITE(component, "description") { s.add(...); }  — s: suite&, ctx: const context&
#define KEEL_BENCH_SUITE(component, description)                                          \
  static void KEEL_BENCH_CAT(keel_bench_suite_, __LINE__)(::keel::bench::suite&,          \
                                                          const ::keel::bench::context&); \
  static const ::keel::bench::registration KEEL_BENCH_CAT(keel_bench_reg_, __LINE__)(     \
      #component, description, &KEEL_BENCH_CAT(keel_bench_suite_, __LINE__));             \
  static void KEEL_BENCH_CAT(keel_bench_suite_, __LINE__)(                                \
      [[maybe_unused]] ::keel::bench::suite & s,                                          \
      [[maybe_unused]] const ::keel::bench::context& ctx)
