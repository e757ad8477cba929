// SPDX-License-Identifier: MIT
// keel bench json, cases struct/read/twitter and struct/write/twitter: twitter.json's statuses
// read into a struct model (bench/json/struct_model.h) and written back, keel's mapping
// (KEEL_FIELDS) against simdjson 4.6.1 On-Demand (hand-written extraction, read only),
// RapidJSON (Document + copying out; Writer) and nlohmann::json (from_json / to_json).
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <keel/json.h>
#include <keel/json/mapping.h>

#include "harness/keel_bench.h"
#include "json/struct_model.h"

namespace keel::bench::model {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

KEEL_BENCH_SUITE(json, "struct mapping: read into and write from a struct model of twitter.json") {
  const char* read_case = "struct/read/twitter";
  const char* write_case = "struct/write/twitter";
  if (!ctx.wants(read_case) && !ctx.wants(write_case)) return;
  auto text = std::make_shared<const std::string>(slurp(ctx.corpus / "json" / "twitter.json"));
  if (text->empty()) {
    s.unmeasured(read_case, "keel", "missing corpus file json/twitter.json");
    return;
  }
  // Every reader must read the same values.
  auto model = std::make_shared<tw_root>();
  if (json::from_json(*text, *model)) {
    s.unmeasured(read_case, "keel", "the model does not match twitter.json");
    return;
  }
  const std::uint64_t want = checksum(*model);
  auto od = prepare_ondemand(*text);
  tw_root check;
  const bool od_ok = read_ondemand(*od, check) && checksum(check) == want;
  const bool rj_ok = read_rapidjson(*text, check) && checksum(check) == want;
  const bool nl_ok = read_nlohmann(*text, check) && checksum(check) == want;
  const std::size_t items = model->statuses.size();

  s.add(
      read_case, "keel",
      [text](benchmark::State& st) {
        tw_root r;
        json::parser p;  // reused, as the peers reuse theirs
        for (auto _ : st) {
          if (json::from_json(p, *text, r)) st.SkipWithError("read failed");
          benchmark::DoNotOptimize(r.statuses.data());
        }
      },
      text->size(), items);
  if (od_ok) {
    s.add(
        read_case, "simdjson-ondemand",
        [od](benchmark::State& st) {
          tw_root r;
          for (auto _ : st) {
            if (!read_ondemand(*od, r)) st.SkipWithError("read failed");
            benchmark::DoNotOptimize(r.statuses.data());
          }
        },
        text->size(), items);
  } else {
    s.unmeasured(read_case, "simdjson-ondemand", "read different values");
  }
  auto add_reader = [&](const char* impl, bool ok, bool (*fn)(const std::string&, tw_root&)) {
    if (!ok) return s.unmeasured(read_case, impl, "read different values");
    s.add(
        read_case, impl,
        [text, fn](benchmark::State& st) {
          tw_root r;
          for (auto _ : st) {
            if (!fn(*text, r)) st.SkipWithError("read failed");
            benchmark::DoNotOptimize(r.statuses.data());
          }
        },
        text->size(), items);
  };
  add_reader("rapidjson", rj_ok, read_rapidjson);
  add_reader("nlohmann", nl_ok, read_nlohmann);

  const std::size_t out_size = json::to_json(*model)->size();
  s.add(
      write_case, "keel",
      [model](benchmark::State& st) {
        for (auto _ : st) {
          auto out = json::to_json(*model);
          if (!out) st.SkipWithError("write failed");
          benchmark::DoNotOptimize(out->data());
        }
      },
      out_size, items);
  for (auto [impl, fn] :
       {std::pair{"rapidjson", &write_rapidjson}, std::pair{"nlohmann", &write_nlohmann}}) {
    s.add(
        write_case, impl,
        [model, fn = fn](benchmark::State& st) {
          std::string out;
          for (auto _ : st) {
            if (fn(*model, out) == 0) st.SkipWithError("write failed");
            benchmark::DoNotOptimize(out.data());
          }
        },
        out_size, items);
  }
  s.note(
      "struct/*/twitter: the 100 statuses of twitter.json into a struct of 11 fields with a nested "
      "user of 9 (other keys skipped); keel reads through its DOM (a reused parser, then fill the "
      "struct) "
      "and writes through a mutable document; simdjson 4.6.1 On-Demand with fields looked up in "
      "document order; RapidJSON Document + copy out, Writer<StringBuffer>; nlohmann "
      "from_json/to_json; each writes into a new string");
}

}  // namespace keel::bench::model
