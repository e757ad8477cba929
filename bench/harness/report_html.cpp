// SPDX-License-Identifier: MIT
// The HTML report: one self-contained file (inline SVG, inline CSS, no scripts or fonts).
#include <algorithm>
#include <string>

#include "report_util.h"

namespace keel::bench {

namespace {

std::string esc(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

struct bar {
  std::string label, text;
  double value;
  bool highlight;
};

// Horizontal bar chart; `reference` > 0 draws a dashed line at that value (e.g. ratio 1.0).
std::string bar_chart(const std::vector<bar>& bars, double reference) {
  if (bars.empty()) return "";
  const int label_w = 330, chart_w = 420, text_w = 110, row_h = 20, top = 8;
  double max_v = reference;
  for (const bar& b : bars) max_v = std::max(max_v, b.value);
  if (max_v <= 0) max_v = 1;
  const int height = top * 2 + row_h * static_cast<int>(bars.size());
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(label_w + chart_w + text_w) + "\" height=\"" +
                    std::to_string(height) + "\" role=\"img\">\n";
  int y = top;
  for (const bar& b : bars) {
    const int w = std::max(1, static_cast<int>(b.value / max_v * chart_w));
    svg += "<text x=\"" + std::to_string(label_w - 6) + "\" y=\"" + std::to_string(y + 14) +
           "\" text-anchor=\"end\" class=\"l\">" + esc(b.label) + "</text>";
    svg += "<rect x=\"" + std::to_string(label_w) + "\" y=\"" + std::to_string(y + 3) +
           "\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(row_h - 6) +
           "\" class=\"" + (b.highlight ? "bk" : "bp") + "\"/>";
    svg += "<text x=\"" + std::to_string(label_w + w + 4) + "\" y=\"" + std::to_string(y + 14) +
           "\" class=\"v\">" + esc(b.text) + "</text>\n";
    y += row_h;
  }
  if (reference > 0) {
    const int x = label_w + static_cast<int>(reference / max_v * chart_w);
    svg += "<line x1=\"" + std::to_string(x) + "\" y1=\"2\" x2=\"" + std::to_string(x) +
           "\" y2=\"" + std::to_string(height - 2) + "\" class=\"ref\"/>\n";
  }
  return svg + "</svg>\n";
}

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::string to_html(const std::vector<component_result>& results, const std::string& title) {
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title) +
      "</title>\n<style>body{font:14px sans-serif;margin:2em;max-width:1000px;color:#222}"
      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;"
      "text-align:right}td:first-child,td:nth-child(2){text-align:left}.l,.v{font:12px sans-serif;"
      "fill:#222}.bk{fill:#2a7ab0}.bp{fill:#e08a2c}.ref{stroke:#555;stroke-dasharray:4 3}"
      ".note{color:#555}</style></head><body>\n<h1>" +
      esc(title) +
      "</h1>\n"
      "<p>Ratios are peer median time / keel median time: above 1 means keel is faster. "
      "Medians over interleaved rounds in one process (allocators: one process each).</p>\n";
  for (const component_result& c : results) {
    h += "<h2>" + esc(c.component) + "</h2>\n<p>" + esc(c.description) + "</p>\n";
    const auto groups = detail::group_by_case(c.records);
    std::vector<bar> ratios, bytes_rates, item_rates;
    for (const detail::case_group& g : groups) {
      for (const record* r : g.rows) {
        if (!r->error.empty() || r->median_ns <= 0) continue;
        const std::string label = g.case_name + " · " + r->impl;
        if (g.keel) {
          const double q = detail::ratio_vs_keel(g, *r);
          if (r != g.keel && q > 0) ratios.push_back({label, fixed(q, 2) + "x", q, q >= 1});
        } else if (r->bytes) {
          const double gbs = static_cast<double>(r->bytes) / r->median_ns;
          bytes_rates.push_back({label, fixed(gbs, 2) + " GB/s", gbs, false});
        } else if (r->items) {
          const double ms = static_cast<double>(r->items) * 1e3 / r->median_ns;
          item_rates.push_back({label, fixed(ms, 1) + " M/s", ms, false});
        }
      }
    }
    if (!ratios.empty()) {
      h += "<h3>keel vs peers (peer time / keel time)</h3>\n" + bar_chart(ratios, 1.0);
    }
    if (!bytes_rates.empty()) h += "<h3>bandwidth</h3>\n" + bar_chart(bytes_rates, 0);
    if (!item_rates.empty()) h += "<h3>throughput</h3>\n" + bar_chart(item_rates, 0);
    h += "<table><tr><th>case</th><th>impl</th><th>median</th><th>rate</th><th>peer/keel</th>"
         "<th>peak RSS KiB</th></tr>\n";
    for (const detail::case_group& g : groups) {
      for (const record* r : g.rows) {
        const double q = detail::ratio_vs_keel(g, *r);
        h += "<tr><td>" + esc(g.case_name) + "</td><td>" + esc(r->impl) + "</td><td>" +
             (r->error.empty() ? detail::format_time(r->median_ns) : "error: " + esc(r->error)) +
             "</td><td>" + detail::format_rate(*r) + "</td><td>" +
             (q > 0 && r != g.keel ? fixed(q, 2) + "x" : "") + "</td><td>" +
             std::to_string(r->peak_rss_kb) + "</td></tr>\n";
      }
    }
    h += "</table>\n";
    for (const std::string& n : c.notes) h += "<p class=\"note\">" + esc(n) + "</p>\n";
  }
  return h + "</body></html>\n";
}

}  // namespace keel::bench
