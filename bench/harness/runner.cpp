// SPDX-License-Identifier: MIT
// Runs registered suites: in-process entries through Google Benchmark, interleaved by round.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "keel_bench.h"

namespace keel::bench {

namespace {

std::vector<registered_suite>& suites() {
  static std::vector<registered_suite> all;
  return all;
}

// Collects the per-iteration real time of the single benchmark a run executes.
class capture_reporter final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.error_occurred) {
        error = r.error_message.empty() ? "benchmark reported an error" : r.error_message;
      } else if (r.iterations > 0) {
        ns_per_iter = r.real_accumulated_time * 1e9 / static_cast<double>(r.iterations);
      }
    }
  }
  double ns_per_iter = 0;
  std::string error;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

component_result run_component(const std::string& component, const context& ctx,
                               const std::function<void(const std::string&)>& progress) {
  component_result result;
  result.component = component;
  suite s;
  for (const registered_suite& r : suites()) {
    if (r.component != component) continue;
    if (!result.description.empty()) result.description += "; ";
    result.description += r.description;
    r.fn(s, ctx);
  }
  result.notes = s.notes();

  // Register every in-process entry with Google Benchmark under a unique, regex-safe name.
  const auto& entries = s.entries();
  benchmark::ClearRegisteredBenchmarks();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::string name = "e";  // (not "e" + to_string(i): a GCC 12 -Wrestrict false positive)
    name += std::to_string(i);
    benchmark::RegisterBenchmark(name.c_str(), entries[i].body)
        ->MinTime(ctx.min_time_s)
        ->UseRealTime();
  }

  std::vector<std::vector<double>> times(entries.size());
  std::vector<long> rss(entries.size(), 0);
  std::vector<bool> rss_lost(entries.size(), false);  // some round's reset did not take effect
  std::vector<std::string> errors(entries.size());
  std::vector<bool> wanted(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) wanted[i] = ctx.wants(entries[i].case_name);
  for (int round = 0; round < ctx.rounds; ++round) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (!wanted[i] || !errors[i].empty()) continue;
      progress(component + ": " + entries[i].case_name + " [" + entries[i].impl + "] round " +
               std::to_string(round + 1) + "/" + std::to_string(ctx.rounds));
      capture_reporter rep;
      const bool reset = reset_peak_rss();
      // Google Benchmark appends "/min_time:...", so match the name up to the first slash.
      benchmark::RunSpecifiedBenchmarks(&rep, "^e" + std::to_string(i) + "(/|$)");
      if (reset) {
        rss[i] = std::max(rss[i], peak_rss_kb());
      } else {
        rss_lost[i] = true;
      }
      if (!rep.error.empty()) {
        errors[i] = rep.error;
      } else {
        times[i].push_back(rep.ns_per_iter);
      }
    }
  }
  benchmark::ClearRegisteredBenchmarks();

  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!wanted[i]) continue;
    record r;
    r.component = component;
    r.case_name = entries[i].case_name;
    r.impl = entries[i].impl;
    r.median_ns = median(times[i]);
    r.bytes = entries[i].bytes;
    r.items = entries[i].items;
    r.peak_rss_kb = rss_lost[i] ? 0 : rss[i];
    r.error = errors[i];
    result.records.push_back(std::move(r));
  }
  for (record r : s.unmeasured_records()) {
    if (!ctx.wants(r.case_name)) continue;
    r.component = component;
    result.records.push_back(std::move(r));
  }
  for (const auto& [label, fn] : s.externals()) {
    progress(component + ": " + label);
    for (record r : fn(ctx)) {
      if (!ctx.wants(r.case_name)) continue;  // for suites that do not skip cases themselves
      r.component = component;
      result.records.push_back(std::move(r));
    }
  }
  return result;
}

}  // namespace

bool context::wants(const std::string& case_name) const {
  return filter.empty() || std::regex_search(case_name, std::regex(filter));
}

registration::registration(const char* component, const char* description, suite_fn fn) {
  suites().push_back({component, description, fn});
}

const std::vector<registered_suite>& registered_suites() { return suites(); }

namespace {

// A field of /proc/self/status in KiB ("VmHWM", "VmRSS"); -1 when absent.
long status_kb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::stol(line.substr(key.size()));
  }
  return -1;
}

}  // namespace

bool reset_peak_rss() {
  // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux >= 4.0). Some kernels accept
  // the write and keep the old mark: then VmHWM stays above VmRSS, and the case's own peak is
  // unknown.
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool written = std::fputs("5", f) >= 0;
  if (std::fclose(f) != 0 || !written) return false;
  const long hwm = status_kb("VmHWM"), rss = status_kb("VmRSS");
  constexpr long kSlackKb = 512;  // pages touched between the two reads
  return hwm >= 0 && rss >= 0 && hwm <= rss + kSlackKb;
}

long peak_rss_kb() { return std::max(0L, status_kb("VmHWM")); }

bool is_keel_impl(const std::string& impl) { return impl == "keel" || impl.starts_with("keel-"); }

std::vector<const record*> failed_records(const std::vector<component_result>& results) {
  std::vector<const record*> failed;
  for (const component_result& c : results) {
    for (const record& r : c.records) {
      if (!r.error.empty()) failed.push_back(&r);
    }
  }
  return failed;
}

std::vector<component_result> run(const std::vector<std::string>& components, const context& ctx,
                                  const std::function<void(const std::string&)>& progress) {
  std::vector<std::string> order;
  std::set<std::string> seen;
  for (const registered_suite& r : suites()) {
    if (seen.insert(r.component).second) order.push_back(r.component);
  }
  std::vector<std::string> selected = components.empty() ? order : components;
  std::vector<component_result> results;
  for (const std::string& c : selected) results.push_back(run_component(c, ctx, progress));
  return results;
}

}  // namespace keel::bench
