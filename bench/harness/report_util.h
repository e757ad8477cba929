// SPDX-License-Identifier: MIT
// Shared pieces of the three report forms: grouping records by case and the derived figures.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "keel_bench.h"

namespace keel::bench::detail {

struct case_group {
  std::string case_name;
  std::vector<const record*> rows;  // in the order measured
  const record* keel = nullptr;     // the impl named "keel", if present
};

inline std::vector<case_group> group_by_case(const std::vector<record>& records) {
  std::vector<case_group> groups;
  for (const record& r : records) {
    case_group* g = nullptr;
    for (case_group& existing : groups) {
      if (existing.case_name == r.case_name) g = &existing;
    }
    if (!g) {
      groups.push_back({r.case_name, {}, nullptr});
      g = &groups.back();
    }
    g->rows.push_back(&r);
    if (r.impl == "keel") g->keel = &r;
  }
  return groups;
}

// peer time / keel time: above 1 means keel is faster. 0 when there is nothing to compare.
inline double ratio_vs_keel(const case_group& g, const record& r) {
  if (!g.keel || g.keel->median_ns <= 0 || r.median_ns <= 0 || !r.error.empty() ||
      !g.keel->error.empty()) {
    return 0;
  }
  return r.median_ns / g.keel->median_ns;
}

inline std::string format_time(double ns) {
  char buf[32];
  if (ns < 1e3) {
    std::snprintf(buf, sizeof buf, "%.2f ns", ns);
  } else if (ns < 1e6) {
    std::snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
  } else if (ns < 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
  }
  return buf;
}

// "12.3 GB/s" for bandwidth cases, "45.6 M/s" for item cases, "" otherwise.
inline std::string format_rate(const record& r) {
  if (r.median_ns <= 0) return "";
  char buf[32];
  if (r.bytes) {
    std::snprintf(buf, sizeof buf, "%.2f GB/s", static_cast<double>(r.bytes) / r.median_ns);
  } else if (r.items) {
    std::snprintf(buf, sizeof buf, "%.2f M/s", static_cast<double>(r.items) * 1e3 / r.median_ns);
  } else {
    return "";
  }
  return buf;
}

}  // namespace keel::bench::detail
