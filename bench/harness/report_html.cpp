// SPDX-License-Identifier: MIT
// The HTML report: one self-contained file (inline SVG, inline CSS, no scripts or fonts).
#include <algorithm>
#include <cmath>
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

enum class kind { peer, variant, floor };

// memcpy and the no-op allocator loop are physical floors, not competitors; "keel-*" rows are
// keel itself on a forced path or with another setting.
kind kind_of(const std::string& impl) {
  if (impl == "memcpy" || impl == "floor" || impl == "noop") return kind::floor;
  if (is_keel_impl(impl)) return kind::variant;
  return kind::peer;
}

const char* css_class(kind k) {
  switch (k) {
    case kind::variant:
      return "bv";
    case kind::floor:
      return "bf";
    default:
      return "bp";
  }
}

struct bar {
  std::string label, text;
  double value;  // a ratio, > 0
  kind k;
};

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string num(double v) { return fixed(v, 1); }

std::string ratio_text(double q) { return fixed(q, q >= 100 ? 0 : 2) + "x"; }

// Horizontal bars on a log scale, each drawn from the 1.0 line (marked): right of it keel is
// faster, left of it slower. Decade ticks label the axis.
std::string ratio_chart(const std::vector<bar>& bars) {
  if (bars.empty()) return "";
  const double label_w = 330, chart_w = 460, text_w = 70, row_h = 20, top = 8, axis_h = 22;
  double lo = 1, hi = 1;
  for (const bar& b : bars) {
    lo = std::min(lo, b.value);
    hi = std::max(hi, b.value);
  }
  const double dlo = std::floor(std::log10(lo) - 1e-9), dhi = std::ceil(std::log10(hi) + 1e-9);
  const double span = std::max(1.0, dhi - dlo);
  auto x_of = [&](double v) { return label_w + (std::log10(v) - dlo) / span * chart_w; };
  const double rows_h = row_h * static_cast<double>(bars.size());
  const double height = top + rows_h + axis_h;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    num(label_w + chart_w + text_w) + "\" height=\"" + num(height) +
                    "\" role=\"img\">\n";
  for (double d = dlo; d <= dhi + 1e-9; d += 1) {
    const double x = x_of(std::pow(10.0, d));
    svg += "<line x1=\"" + num(x) + "\" y1=\"" + num(top) + "\" x2=\"" + num(x) + "\" y2=\"" +
           num(top + rows_h) + "\" class=\"grid\"/>";
    const double v = std::pow(10.0, d);
    const std::string tick = v >= 1 ? fixed(v, 0) + "x" : fixed(v, static_cast<int>(-d)) + "x";
    svg += "<text x=\"" + num(x) + "\" y=\"" + num(top + rows_h + 15) +
           "\" text-anchor=\"middle\" class=\"v\">" + tick + "</text>\n";
  }
  const double one = x_of(1.0);
  double y = top;
  for (const bar& b : bars) {
    const double x = x_of(b.value);
    const double left = std::min(x, one), w = std::max(1.0, std::abs(x - one));
    svg += "<text x=\"" + num(label_w - 6) + "\" y=\"" + num(y + 14) +
           "\" text-anchor=\"end\" class=\"l\">" + esc(b.label) + "</text>";
    svg += "<rect x=\"" + num(left) + "\" y=\"" + num(y + 3) + "\" width=\"" + num(w) +
           "\" height=\"" + num(row_h - 6) + "\" class=\"" + css_class(b.k) + "\"/>";
    svg += "<text x=\"" + num(label_w + chart_w + 4) + "\" y=\"" + num(y + 14) + "\" class=\"v\">" +
           esc(b.text) + "</text>\n";
    y += row_h;
  }
  svg += "<line x1=\"" + num(one) + "\" y1=\"2\" x2=\"" + num(one) + "\" y2=\"" +
         num(top + rows_h + 4) + "\" class=\"ref\"/>\n";
  return svg + "</svg>\n";
}

const char* kStyle =
    "body{font:14px sans-serif;margin:2em;max-width:1000px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;"
    "text-align:right}td:first-child,td:nth-child(2){text-align:left}.l,.v{font:12px sans-serif;"
    "fill:#222}.bp{fill:#e08a2c}.bv{fill:#2a7ab0}.bf{fill:#9a9a9a}.ref{stroke:#000;"
    "stroke-width:1.5}.grid{stroke:#ddd}.note{color:#555}.warn{background:#fff3cd;border:1px "
    "solid #e0b000;padding:.5em 1em}.key{display:inline-block;width:12px;height:12px;"
    "margin:0 4px 0 12px;vertical-align:middle}dl{display:grid;grid-template-columns:max-content "
    "auto;gap:2px 12px}dt{font-weight:bold}dd{margin:0}";

std::string machine_section(const run_info& info) {
  auto load = [](double v) { return v < 0 ? std::string("unknown") : fixed(v, 2); };
  std::string h = "<dl>";
  auto row = [&h](const char* k, const std::string& v) {
    if (!v.empty()) h += "<dt>" + std::string(k) + "</dt><dd>" + esc(v) + "</dd>";
  };
  row("CPU", info.cpu + (info.cpus > 0 ? " (" + std::to_string(info.cpus) + " online)" : ""));
  row("CPU flags", info.cpu_flags);
  row("compiler", info.compiler);
  row("kernel", info.kernel);
  row("load average",
      "start " + load(info.load_start) + ", end " + load(info.load_end) + " (1 minute)");
  h += "</dl>\n";
  if (info.busy()) {
    h += "<p class=\"warn\">The host was busy (load average " + load(info.load_start) +
         " at the "
         "start, " +
         load(info.load_end) + " at the end, " + std::to_string(info.cpus) +
         " CPUs): other work competed for the CPUs, so these figures are noisier than usual. "
         "Ratios from one run, peers interleaved with keel, are still comparable; absolute "
         "times are not.</p>\n";
  }
  return h;
}

const char* kLegend =
    "<p>Bars are drawn from the 1.0 line on a log scale: right of it keel is faster, left of it "
    "slower. <span class=\"key bp\" style=\"background:#e08a2c\"></span>peer "
    "<span class=\"key bv\" style=\"background:#2a7ab0\"></span>keel's own variant "
    "(keel-scalar, keel-avx2: a forced kernel; keel-hardened: a setting) "
    "<span class=\"key bf\" style=\"background:#9a9a9a\"></span>floor (memcpy, no-op "
    "allocator): the physical limit, a ratio below 1 is expected.</p>\n";

}  // namespace

std::string to_html(const std::vector<component_result>& results, const run_info& info) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" +
                  esc(info.title) + "</title>\n<style>" + kStyle + "</style></head><body>\n<h1>" +
                  esc(info.title) + "</h1>\n" + machine_section(info) +
                  "<p>Ratios are other median time / keel median time: above 1 means keel is "
                  "faster. Medians over interleaved rounds in one process (allocators: one "
                  "process each, interleaved).</p>\n" +
                  kLegend;
  for (const component_result& c : results) {
    h += "<h2>" + esc(c.component) + "</h2>\n<p>" + esc(c.description) + "</p>\n";
    const auto groups = detail::group_by_case(c.records);
    // One kind of chart everywhere: other time / keel time, per kind of row.
    std::vector<bar> by_kind[3];
    for (const detail::case_group& g : groups) {
      for (const record* r : g.rows) {
        const double q = detail::ratio_vs_keel(g, *r);
        if (r == g.keel || q <= 0) continue;
        const kind k = kind_of(r->impl);
        by_kind[static_cast<int>(k)].push_back(
            {g.case_name + " · " + r->impl, ratio_text(q), q, k});
      }
    }
    const char* titles[3] = {"keel vs peers (peer time / keel time)",
                             "keel's own variants (variant time / keel time)",
                             "floors (floor time / keel time)"};
    for (int k = 0; k < 3; ++k) {
      if (!by_kind[k].empty())
        h += "<h3>" + std::string(titles[k]) + "</h3>\n" + ratio_chart(by_kind[k]);
    }
    h += "<table><tr><th>case</th><th>impl</th><th>median</th><th>rate</th><th>other/keel</th>"
         "<th>peak RSS KiB</th></tr>\n";
    for (const detail::case_group& g : groups) {
      for (const record* r : g.rows) {
        const double q = detail::ratio_vs_keel(g, *r);
        h += "<tr><td>" + esc(g.case_name) + "</td><td>" + esc(r->impl) + "</td><td>" +
             (r->error.empty() ? detail::format_time(r->median_ns) : "error: " + esc(r->error)) +
             "</td><td>" + detail::format_rate(*r) + "</td><td>" +
             (q > 0 && r != g.keel ? ratio_text(q) : "") + "</td><td>" +
             (r->peak_rss_kb > 0 ? std::to_string(r->peak_rss_kb) : "\u2014") + "</td></tr>\n";
      }
    }
    h += "</table>\n";
    for (const std::string& n : c.notes) h += "<p class=\"note\">" + esc(n) + "</p>\n";
  }
  return h + "</body></html>\n";
}

}  // namespace keel::bench
