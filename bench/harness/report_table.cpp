// SPDX-License-Identifier: MIT
// The terminal table: each case with keel and every peer, and the ratio peer/keel.
#include "report_util.h"

namespace keel::bench {

void print_table(std::FILE* out, const std::vector<component_result>& results) {
  for (const component_result& c : results) {
    std::fprintf(out, "\n== %s: %s\n", c.component.c_str(), c.description.c_str());
    std::fprintf(out, "%-34s %-14s %12s %13s %11s %12s\n", "case", "impl", "median", "rate",
                 "peer/keel", "peak RSS");
    for (const detail::case_group& g : detail::group_by_case(c.records)) {
      bool first = true;
      for (const record* r : g.rows) {
        const std::string name = first ? g.case_name : "";
        first = false;
        if (!r->error.empty()) {
          std::fprintf(out, "%-34s %-14s  error: %s\n", name.c_str(), r->impl.c_str(),
                       r->error.c_str());
          continue;
        }
        char ratio[24] = "";
        const double q = detail::ratio_vs_keel(g, *r);
        if (q > 0 && r != g.keel) std::snprintf(ratio, sizeof ratio, "%.2fx", q);
        // "—" (3 bytes, one column) when the peak was not measured for this case alone.
        char rss[24] = "\u2014";
        int rss_w = 14;
        if (r->peak_rss_kb > 0) {
          std::snprintf(rss, sizeof rss, "%ld KiB", r->peak_rss_kb);
          rss_w = 12;
        }
        std::fprintf(out, "%-34s %-14s %12s %13s %11s %*s\n", name.c_str(), r->impl.c_str(),
                     detail::format_time(r->median_ns).c_str(), detail::format_rate(*r).c_str(),
                     ratio, rss_w, rss);
      }
    }
    for (const std::string& n : c.notes) std::fprintf(out, "  note: %s\n", n.c_str());
  }
  std::fprintf(
      out,
      "\npeer/keel = peer's median time / keel's (above 1: keel is faster); peak RSS \u2014: "
      "not measured for the case alone\n");
}

}  // namespace keel::bench
