// SPDX-License-Identifier: MIT
// The benchmark harness: interleaved runs, records, and the three report forms.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/keel_bench.h"
#include "workloads/random_mixed.h"

namespace kb = keel::bench;

namespace {

int slow_runs = 0;

}  // namespace

KEEL_BENCH_SUITE(selftest, "harness self-test") {
  s.add(
      "spin/short", "keel",
      [](benchmark::State& st) {
        for (auto _ : st) {
          int x = 0;
          for (int i = 0; i < 100; ++i) benchmark::DoNotOptimize(x += i);
        }
      },
      400);
  s.add(
      "spin/short", "peer",
      [](benchmark::State& st) {
        ++slow_runs;
        for (auto _ : st) {
          int x = 0;
          for (int i = 0; i < 100000; ++i) benchmark::DoNotOptimize(x += i);
        }
      },
      400);
  s.add("broken", "keel", [](benchmark::State& st) {
    st.SkipWithError("deliberate");
    for (auto _ : st) {
    }
  });
  s.add_external("external", [](const kb::context&) {
    kb::record r;
    r.case_name = "ext";
    r.impl = "other";
    r.median_ns = 123;
    r.items = 1;
    return std::vector<kb::record>{r};
  });
  s.unmeasured("missing", "keel", "no input");
  s.note("a note");
}

namespace {

std::vector<kb::component_result> run_selftest() {
  kb::context ctx;
  ctx.rounds = 3;
  ctx.min_time_s = 0.001;
  std::vector<std::string> lines;
  auto results = kb::run({"selftest"}, ctx, [&](const std::string& l) { lines.push_back(l); });
  EXPECT_FALSE(lines.empty());
  return results;
}

}  // namespace

TEST(Harness, RunsEveryEntryInterleavedAndKeepsErrors) {
  slow_runs = 0;
  auto results = run_selftest();
  ASSERT_EQ(results.size(), 1u);
  const auto& recs = results[0].records;
  ASSERT_EQ(recs.size(), 5u);
  EXPECT_EQ(recs[0].component, "selftest");
  EXPECT_EQ(recs[0].case_name, "spin/short");
  EXPECT_EQ(recs[0].impl, "keel");
  EXPECT_GT(recs[0].median_ns, 0);
  // 1000x the work: a margin no preemption of a 1 ms measurement on a loaded machine closes.
  EXPECT_GT(recs[1].median_ns, recs[0].median_ns);
  // The case's own peak, or 0 ("not measured") where the kernel ignores the high-water reset.
  if (kb::reset_peak_rss()) {
    EXPECT_GT(recs[0].peak_rss_kb, 0);
  } else {
    EXPECT_EQ(recs[0].peak_rss_kb, 0);
  }
  EXPECT_EQ(recs[2].error, "deliberate");
  EXPECT_EQ(recs[3].case_name, "missing");
  EXPECT_EQ(recs[3].error, "no input");
  EXPECT_EQ(recs[3].component, "selftest");
  EXPECT_EQ(recs[4].impl, "other");
  EXPECT_EQ(recs[4].component, "selftest");
  EXPECT_GE(slow_runs, 3);  // once per round at least
  EXPECT_EQ(results[0].notes, std::vector<std::string>{"a note"});
}

TEST(Harness, JsonRecordsHaveEveryField) {
  auto results = run_selftest();
  auto doc = nlohmann::json::parse(kb::to_json(results));
  ASSERT_TRUE(doc.is_array());
  ASSERT_EQ(doc.size(), 5u);
  for (const auto& r : doc) {
    for (const char* key :
         {"component", "case", "impl", "median_ns", "bytes", "items", "peak_rss_kb"}) {
      EXPECT_TRUE(r.contains(key)) << key;
    }
  }
  EXPECT_EQ(doc[0]["bytes"], 400);
  EXPECT_EQ(doc[2]["error"], "deliberate");
}

TEST(Harness, JsonEscapesStrings) {
  kb::component_result c;
  kb::record r;
  r.component = "x";
  r.case_name = "quote\" back\\ nl\n ctl\x01";
  r.impl = "keel";
  c.records.push_back(r);
  auto doc = nlohmann::json::parse(kb::to_json({c}));
  EXPECT_EQ(doc[0]["case"], r.case_name);
  EXPECT_EQ(nlohmann::json::parse(kb::to_json({})).size(), 0u);
}

TEST(Harness, TableShowsRatioPeerOverKeel) {
  kb::component_result c;
  c.component = "demo";
  kb::record k{"demo", "case/a", "keel", 100, 1000, 0, 10, ""};
  kb::record p{"demo", "case/a", "peer", 250, 1000, 0, 10, ""};
  c.records = {k, p};
  std::FILE* f = std::tmpfile();
  kb::print_table(f, {c});
  std::rewind(f);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  EXPECT_NE(text.find("2.50x"), std::string::npos) << text;
  EXPECT_NE(text.find("10.00 GB/s"), std::string::npos) << text;
}

TEST(Harness, HtmlIsSelfContained) {
  kb::component_result c;
  c.component = "demo<&>";
  c.records = {{"demo", "case/a", "keel", 100, 1000, 0, 10, ""},
               {"demo", "case/a", "peer", 250, 1000, 0, 10, ""},
               {"demo", "floor", "memcpy", 50, 4096, 0, 10, ""}};
  kb::run_info info;
  info.title = "report";
  const std::string html = kb::to_html({c}, info);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("2.50x"), std::string::npos);
  EXPECT_NE(html.find("demo&lt;&amp;&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

TEST(Workload, RandomMixedIsDeterministicAndBalanced) {
  kb::workload::random_mixed_params p;
  p.decisions = 100000;
  long live = 0, allocs = 0;
  std::size_t min_seen = 1 << 20, max_seen = 0;
  auto run = [&] {
    return kb::workload::random_mixed(
        p,
        [&](std::size_t n) {
          ++live, ++allocs;
          min_seen = std::min(min_seen, n);
          max_seen = std::max(max_seen, n);
          return std::malloc(n);
        },
        [&](void* q, std::size_t) { --live, std::free(q); });
  };
  const auto a = run();
  EXPECT_EQ(live, 0);
  EXPECT_GT(allocs, 40000);
  EXPECT_GE(min_seen, 16u);
  EXPECT_LE(max_seen, 1024u);
  EXPECT_EQ(run(), a);
}

TEST(Harness, HtmlDrawsPeersVariantsAndFloorsApartOnALogScale) {
  kb::component_result c;
  c.component = "demo";
  c.records = {{"demo", "case/a", "keel", 100, 1000, 0, 10, ""},
               {"demo", "case/a", "peer", 10000, 1000, 0, 0, ""},
               {"demo", "case/a", "keel-scalar", 400, 1000, 0, 0, ""},
               {"demo", "case/a", "memcpy", 4, 1000, 0, 0, ""},
               {"demo", "case/b", "keel", 0, 0, 0, 0, "not built"}};
  kb::run_info info;
  info.title = "t";
  info.cpus = 2;
  info.load_start = 0.1;
  info.load_end = 1.0;
  std::string html = kb::to_html({c}, info);
  // Three charts, one per kind of row, and a legend naming them.
  EXPECT_NE(html.find("keel vs peers"), std::string::npos);
  EXPECT_NE(html.find("keel's own variants"), std::string::npos);
  EXPECT_NE(html.find("floors ("), std::string::npos);
  EXPECT_NE(html.find("class=\"bv\""), std::string::npos);
  EXPECT_NE(html.find("class=\"bf\""), std::string::npos);
  // Log scale: 100x and 0.04x both fit, with decade ticks and the 1.0 line.
  EXPECT_NE(html.find("0.04x"), std::string::npos);
  EXPECT_NE(html.find(">0.01x<"), std::string::npos);
  EXPECT_NE(html.find(">100x<"), std::string::npos);
  EXPECT_NE(html.find("class=\"ref\""), std::string::npos);
  // Peak RSS: the case's own figure or a dash, never 0.
  EXPECT_NE(html.find("<td>10</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>\u2014</td>"), std::string::npos);
  EXPECT_EQ(html.find("<td>0</td>"), std::string::npos);
  EXPECT_EQ(html.find("host was busy"), std::string::npos);
  info.load_start = 1.5;
  EXPECT_TRUE(info.busy());
  html = kb::to_html({c}, info);
  EXPECT_NE(html.find("host was busy"), std::string::npos);
}

TEST(Harness, FailedRowsAndKeelImpls) {
  kb::component_result c;
  c.records = {{"d", "a", "keel", 1, 0, 0, 0, ""},
               {"d", "a", "peer", 0, 0, 0, 0, "not installed"},
               {"d", "b", "keel-hardened", 0, 0, 0, 0, "libkeel_malloc.so not found"}};
  const auto failed = kb::failed_records({c});
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_EQ(failed[0]->impl, "peer");
  EXPECT_TRUE(kb::is_keel_impl("keel"));
  EXPECT_TRUE(kb::is_keel_impl("keel-hardened"));
  EXPECT_FALSE(kb::is_keel_impl("keeler"));
  EXPECT_FALSE(kb::is_keel_impl("memcpy"));
}

TEST(Harness, DescribesTheMachine) {
  const kb::run_info info = kb::describe_machine();
  EXPECT_GT(info.cpus, 0);
  EXPECT_FALSE(info.compiler.empty());
  EXPECT_GE(info.load_start, 0);
}
