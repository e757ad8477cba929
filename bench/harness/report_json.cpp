// SPDX-License-Identifier: MIT
// Machine-readable results: a JSON array of records (docs/bench.md).
#include <cstdio>
#include <string>

#include "keel_bench.h"

namespace keel::bench {

namespace {

void append_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  out += '"';
}

}  // namespace

std::string to_json(const std::vector<component_result>& results) {
  std::string out = "[";
  bool first = true;
  for (const component_result& c : results) {
    for (const record& r : c.records) {
      out += first ? "\n  {" : ",\n  {";
      first = false;
      out += "\"component\": ";
      append_string(out, r.component);
      out += ", \"case\": ";
      append_string(out, r.case_name);
      out += ", \"impl\": ";
      append_string(out, r.impl);
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    ", \"median_ns\": %.17g, \"bytes\": %llu, \"items\": %llu, \"peak_rss_kb\": ",
                    r.median_ns, static_cast<unsigned long long>(r.bytes),
                    static_cast<unsigned long long>(r.items));
      out += buf;
      // null: not measured for this case alone (see keel_bench.h).
      out += r.peak_rss_kb > 0 ? std::to_string(r.peak_rss_kb) : "null";
      if (!r.error.empty()) {
        out += ", \"error\": ";
        append_string(out, r.error);
      }
      out += "}";
    }
  }
  out += first ? "]\n" : "\n]\n";
  return out;
}

}  // namespace keel::bench
