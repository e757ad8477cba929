// SPDX-License-Identifier: MIT
// keel bench json: parse to DOM and minified write, keel against yyjson 0.12, simdjson 4.6.1 (DOM,
// parse only) and RapidJSON, with memcpy of the same bytes as the floor. Every kernel set this CPU
// runs is a case group of its own ("parse/avx2/twitter.json"), keel forced onto it and measured
// against the peer kernels of the same family, so each ratio answers a goal directly.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <keel/cpu.h>
#include <keel/json.h>

#include "harness/keel_bench.h"
#include "json/json_documents.h"
#include "json/peers.h"

namespace {

namespace jp = keel::bench::json_peers;
namespace jd = keel::bench::json_docs;
using keel::bench::suite;
using text_ptr = std::shared_ptr<const std::string>;

// keel's kernel sets and the simdjson kernel set of the same family.
struct path {
  keel::isa isa;
  const char* simdjson_kernel;
};
constexpr path paths[] = {
    {keel::isa::avx512, "icelake"}, {keel::isa::avx2, "haswell"}, {keel::isa::scalar, "fallback"}};

template <class Body>
void add_loop(suite& s, const std::string& c, const char* impl, std::size_t bytes, Body body) {
  s.add(
      c, impl,
      [body](benchmark::State& st) {
        for (auto _ : st) {
          if (!body()) st.SkipWithError("failed");
          benchmark::ClobberMemory();
        }
      },
      bytes);
}

void add_memcpy(suite& s, const std::string& c, std::size_t bytes) {
  auto src = std::make_shared<std::string>(bytes, 'x');
  auto dst = std::make_shared<std::string>(bytes, '\0');
  add_loop(s, c, "memcpy", bytes, [src, dst] {
    std::memcpy(dst->data(), src->data(), src->size());
    return true;
  });
}

// A peer's parse case; its write case too when `write` (the document parsed once, untimed).
void add_peer(suite& s, const std::string& parse_case, const std::string& write_case,
              const text_ptr& text, const std::string& name, const std::shared_ptr<jp::peer>& peer,
              bool write) {
  add_loop(s, parse_case, name.c_str(), text->size(), [text, peer] { return peer->parse(*text); });
  if (!write || !peer->parse(*text)) return;
  const std::size_t out = peer->write();
  s.add(
      write_case, name,
      [text, peer](benchmark::State& st) {
        // Other cases reuse the same peer: parse this document again before timing its write.
        if (!peer->parse(*text)) st.SkipWithError("parse failed");
        for (auto _ : st) {
          if (peer->write() == 0) st.SkipWithError("write failed");
          benchmark::ClobberMemory();
        }
      },
      out);
}

struct peers {
  std::shared_ptr<jp::peer> yyjson, rapidjson;
  std::vector<std::shared_ptr<jp::peer>> simdjson;  // per entry of `paths`
};

void add_document(suite& s, const std::string& file, const text_ptr& text, const peers& p) {
  auto doc = std::make_shared<keel::json::document>();
  keel::json::parser once;
  if (auto err = once.parse_into(*doc, text->data(), text->size())) {
    s.unmeasured("parse/" + file, "keel", file + ": " + err.to_string());
    return;
  }
  bool best = true;  // the first path this CPU runs gets the extra rows
  for (std::size_t i = 0; i < std::size(paths); ++i) {
    const keel::isa isa = paths[i].isa;
    if (!keel::isa_supported(isa)) continue;
    const std::string group = std::string(keel::isa_name(isa)) + "/" + file;
    const std::string parse_case = "parse/" + group, write_case = "write/" + group;

    auto kp = std::make_shared<keel::json::parser>(keel::json::parse_options{.isa = isa});
    add_loop(s, parse_case, "keel", text->size(), [text, kp] { return kp->parse(*text).ok(); });
    if (p.simdjson[i]) {
      add_peer(s, parse_case, write_case, text, std::string("simdjson-") + paths[i].simdjson_kernel,
               p.simdjson[i], false);
    }
    add_peer(s, parse_case, write_case, text, "yyjson", p.yyjson, true);

    keel::json::write_options wo;
    wo.isa = isa;
    auto kw = std::make_shared<keel::json::writer>(wo);
    const auto out = kw->write(doc->root());
    const std::size_t out_len = out ? out->size() : 0;
    add_loop(s, write_case, "keel", out_len, [doc, kw] { return kw->write(doc->root()).ok(); });
    if (best) {
      add_peer(s, parse_case, write_case, text, "rapidjson", p.rapidjson, true);
      add_memcpy(s, parse_case, text->size());
      // The same document as a mutable copy, written by the same kernels.
      auto mdoc = std::make_shared<keel::json::mutable_document>(doc->root());
      add_loop(s, write_case, "keel-mutable", out_len,
               [mdoc, kw] { return kw->write(mdoc->root()).ok(); });
      add_memcpy(s, write_case, out_len);
    }
    best = false;
  }
  p.yyjson->parse(*text);
  p.rapidjson->parse(*text);
  const double in = static_cast<double>(text->size());
  char line[320];
  std::snprintf(
      line, sizeof line,
      "memory allocated per input byte %s (input %zu): keel %.2f (DOM %.2f + parser scratch "
      "%.2f), yyjson %.2f, rapidjson pool %.2f",
      file.c_str(), text->size(), static_cast<double>(doc->dom_bytes() + once.scratch_bytes()) / in,
      static_cast<double>(doc->dom_bytes()) / in, static_cast<double>(once.scratch_bytes()) / in,
      static_cast<double>(p.yyjson->dom_bytes()) / in,
      static_cast<double>(p.rapidjson->dom_bytes()) / in);
  s.note(line);
}

}  // namespace

KEEL_BENCH_SUITE(json,
                 "parse to DOM and minified write per kernel set: keel vs yyjson, simdjson, "
                 "RapidJSON") {
  std::vector<jd::document> docs = jd::corpus_documents(ctx.corpus / "json");
  if (docs.empty()) {
    s.unmeasured("parse/corpus", "keel",
                 "no .json files in " + (ctx.corpus / "json").string() +
                     " (keel bench --corpus DIR or KEEL_CORPUS)");
  }
  for (auto& d : jd::generated_documents()) docs.push_back(std::move(d));
  std::size_t max_input = 0;
  for (const auto& d : docs) max_input = std::max(max_input, d.text->size());

  peers p;
  p.yyjson = std::shared_ptr<jp::peer>(jp::make_yyjson(max_input));
  p.rapidjson = std::shared_ptr<jp::peer>(jp::make_rapidjson(max_input));
  for (const path& pa : paths) {
    p.simdjson.push_back(
        std::shared_ptr<jp::peer>(jp::make_simdjson(max_input, pa.simdjson_kernel)));
  }
  for (const auto& d : docs) add_document(s, d.name, d.text, p);

  s.note(
      std::string("keel: release flags, each kernel set forced (parse_options/write_options::isa); "
                  "yyjson ") +
      jp::yyjson_version() + " and RapidJSON: " KEEL_PEER_CFLAGS "; simdjson " +
      jp::simdjson4_version() +
      ": its run-time dispatch build (-O3, as a package builds it), the kernel set named in the "
      "row chosen through its implementation API");
  s.note(
      "all parse a full DOM: UTF-8 validated, numbers converted (correctly rounded), strings "
      "unescaped; keel and simdjson reuse their parser, yyjson a pool allocator, RapidJSON a "
      "memory pool (kParseFullPrecisionFlag|kParseValidateEncodingFlag)");
  s.note(
      "simdjson parses from a padded copy made once outside the timing; write cases time a "
      "minified write of a document parsed beforehand; memcpy copies the same number of bytes; "
      "generated-*.json are made in the benchmark (bench/json/json_documents.h)");
}
