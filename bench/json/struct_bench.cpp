// SPDX-License-Identifier: MIT
// keel bench json, cases struct/read/<model> and struct/write/<model>: twitter.json's statuses and
// citm_catalog.json read into struct models (bench/json/struct_model.h) and written back, keel's
// mapping (KEEL_FIELDS) against simdjson 4.6.1 On-Demand (hand-written extraction, read only),
// RapidJSON (Document + copying out; Writer) and nlohmann::json (from_json / to_json).
#include <memory>
#include <string>

#include <keel/cpu.h>
#include <keel/json.h>
#include <keel/json/mapping.h>

#include "harness/keel_bench.h"
#include "json/json_documents.h"
#include "json/struct_model.h"

namespace keel::bench::model {
namespace {

// The read and write cases of one model: `Root` read from corpus file json/<file>.
template <class Root>
void add_model(suite& s, const context& ctx, const std::string& model, const char* file,
               std::size_t (*items_of)(const Root&)) {
  const std::string read_case = "struct/read/" + model, write_case = "struct/write/" + model;
  const std::string avx2_case = "struct/read/avx2/" + model;
  if (!ctx.wants(read_case) && !ctx.wants(write_case) && !ctx.wants(avx2_case)) return;
  auto text = std::make_shared<const std::string>(json_docs::read_text(ctx.corpus / "json" / file));
  if (text->empty()) {
    s.unmeasured(read_case, "keel", std::string("missing corpus file json/") + file);
    return;
  }
  // Every reader must read the same values.
  auto root = std::make_shared<Root>();
  if (json::from_json(*text, *root)) {
    s.unmeasured(read_case, "keel", "the model does not match " + std::string(file));
    return;
  }
  const std::uint64_t want = checksum(*root);
  const std::size_t items = items_of(*root);
  auto od = native::prepare_ondemand(*text);
  Root check;
  const bool od_ok = native::read_ondemand(*od, check) && checksum(check) == want;

  s.add(
      read_case, "keel",
      [text](benchmark::State& st) {
        Root r;
        json::parser p;  // reused, as the peers reuse theirs
        for (auto _ : st) {
          if (json::from_json(p, *text, r)) st.SkipWithError("read failed");
          benchmark::DoNotOptimize(&r);
        }
      },
      text->size(), items);
  if (od_ok) {
    s.add(
        read_case, "simdjson-ondemand",
        [od](benchmark::State& st) {
          Root r;
          for (auto _ : st) {
            if (!native::read_ondemand(*od, r)) st.SkipWithError("read failed");
            benchmark::DoNotOptimize(&r);
          }
        },
        text->size(), items);
  } else {
    s.unmeasured(read_case, "simdjson-ondemand", "read different values");
  }
  for (auto [impl, fn] :
       {std::pair<const char*, bool (*)(const std::string&, Root&)>{"rapidjson", read_rapidjson},
        std::pair<const char*, bool (*)(const std::string&, Root&)>{"nlohmann", read_nlohmann}}) {
    if (!fn(*text, check) || checksum(check) != want) {
      s.unmeasured(read_case, impl, "read different values");
      continue;
    }
    s.add(
        read_case, impl,
        [text, fn = fn](benchmark::State& st) {
          Root r;
          for (auto _ : st) {
            if (!fn(*text, r)) st.SkipWithError("read failed");
            benchmark::DoNotOptimize(&r);
          }
        },
        text->size(), items);
  }

  // The AVX2 paths: keel's AVX2 kernels forced, On-Demand built for simdjson's haswell kernel.
  if (keel::isa_supported(keel::isa::avx2)) {
    json::parse_options avx2;
    avx2.isa = keel::isa::avx2;
    s.add(
        avx2_case, "keel",
        [text, avx2](benchmark::State& st) {
          Root r;
          json::parser p(avx2);
          for (auto _ : st) {
            if (json::from_json(p, *text, r)) st.SkipWithError("read failed");
            benchmark::DoNotOptimize(&r);
          }
        },
        text->size(), items);
    auto od_haswell = haswell::prepare_ondemand(*text);
    if (!od_haswell) {
      s.unmeasured(avx2_case, "simdjson-ondemand", "no haswell kernel set");
    } else if (haswell::read_ondemand(*od_haswell, check) && checksum(check) == want) {
      s.add(
          avx2_case, "simdjson-ondemand",
          [od_haswell](benchmark::State& st) {
            Root r;
            for (auto _ : st) {
              if (!haswell::read_ondemand(*od_haswell, r)) st.SkipWithError("read failed");
              benchmark::DoNotOptimize(&r);
            }
          },
          text->size(), items);
    } else {
      s.unmeasured(avx2_case, "simdjson-ondemand", "read different values");
    }
  }

  const std::size_t out_size = json::to_json(*root)->size();
  s.add(
      write_case, "keel",
      [root](benchmark::State& st) {
        for (auto _ : st) {
          auto out = json::to_json(*root);
          if (!out) st.SkipWithError("write failed");
          benchmark::DoNotOptimize(out->data());
        }
      },
      out_size, items);
  for (auto [impl, fn] : {std::pair<const char*, std::size_t (*)(const Root&, std::string&)>{
                              "rapidjson", write_rapidjson},
                          std::pair<const char*, std::size_t (*)(const Root&, std::string&)>{
                              "nlohmann", write_nlohmann}}) {
    std::string text_out;
    if (fn(*root, text_out) != out_size) {
      s.unmeasured(write_case, impl, "wrote a different size");
      continue;
    }
    s.add(
        write_case, impl,
        [root, fn = fn](benchmark::State& st) {
          std::string out;
          for (auto _ : st) {
            if (fn(*root, out) == 0) st.SkipWithError("write failed");
            benchmark::DoNotOptimize(out.data());
          }
        },
        out_size, items);
  }
}

}  // namespace

KEEL_BENCH_SUITE(json,
                 "struct mapping: read into and write from struct models of twitter.json "
                 "and citm_catalog.json") {
  add_model<tw_root>(s, ctx, "twitter", "twitter.json",
                     [](const tw_root& r) { return r.statuses.size(); });
  add_model<ct_root>(s, ctx, "citm", "citm_catalog.json",
                     [](const ct_root& r) { return r.events.size() + r.performances.size(); });
  s.note(
      "struct/*/twitter: the 100 statuses of twitter.json into a struct of 11 fields with a nested "
      "user of 9 (other keys skipped); struct/*/citm: all of citm_catalog.json (name tables as "
      "std::map, 184 events by id, 243 performances with nested prices and seat categories, nulls "
      "as empty std::optional, left out when written); keel reads straight from the text (a reused "
      "parser: stage 1, then the positions walked into the struct; every skipped value still "
      "validated as a parse does) and writes text straight from the struct; simdjson 4.6.1 "
      "On-Demand with fields looked up in document order (values it skips are not validated), "
      "built for this CPU (its icelake kernel on AVX-512); struct/read/avx2/*: keel's AVX2 kernels "
      "forced beside On-Demand built with -march=haswell (its haswell kernel); "
      "RapidJSON Document + copy out, Writer<StringBuffer>; nlohmann from_json/to_json; every "
      "reader reads into the same struct each time: keel, On-Demand and RapidJSON read over its "
      "vectors' elements and its maps' entries in place (their strings keep their storage), "
      "nlohmann's from_json builds them anew; each writer writes into a new string and writes the "
      "same text as keel (checked by size)");
}

}  // namespace keel::bench::model
