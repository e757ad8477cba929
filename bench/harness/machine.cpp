// SPDX-License-Identifier: MIT
// What a report says about the run: CPU model and SIMD flags, compiler, kernel, CPUs, load.
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "keel_bench.h"

namespace keel::bench {

namespace {

// The flags that decide which kernels keel and the peers run (a full list is hundreds long).
constexpr const char* kReportedFlags[] = {"sse4_2",   "avx",         "avx2",        "bmi2",
                                          "avx512f",  "avx512bw",    "avx512vl",    "avx512dq",
                                          "avx512cd", "avx512_vbmi", "avx512_vbmi2"};

std::string cpuinfo_field(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

}  // namespace

double load_average() {
  double one = -1;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &one) != 1) one = -1;
    std::fclose(f);
  }
  return one;
}

bool run_info::busy() const {
  // Before the run nothing of ours is running: half the CPUs already taken is a busy host. After
  // it the 1-minute average includes the run itself (mostly one thread, some cases all CPUs).
  if (cpus <= 0) return false;
  return load_start > 0.5 * cpus || load_end > cpus + 0.5;
}

run_info describe_machine() {
  run_info info;
  std::ifstream in("/proc/cpuinfo");
  std::stringstream text;
  text << in.rdbuf();
  info.cpu = cpuinfo_field(text.str(), "model name");
  std::set<std::string> flags;
  std::istringstream words(cpuinfo_field(text.str(), "flags"));
  for (std::string w; words >> w;) flags.insert(w);
  for (const char* f : kReportedFlags) {
    if (!flags.count(f)) continue;
    if (!info.cpu_flags.empty()) info.cpu_flags += ' ';
    info.cpu_flags += f;
  }
#if defined(__clang__)
  info.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  info.compiler = std::string("GCC ") + __VERSION__;
#endif
  utsname u{};
  if (uname(&u) == 0) info.kernel = std::string(u.sysname) + " " + u.release;
  info.cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  info.load_start = load_average();
  return info;
}

}  // namespace keel::bench
