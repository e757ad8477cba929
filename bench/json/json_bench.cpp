// SPDX-License-Identifier: MIT
// keel bench json: parse to DOM and minified write of the corpus files, keel against yyjson,
// simdjson (DOM, parse only) and RapidJSON, with memcpy of the same bytes as the floor.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <keel/json.h>

#include "harness/keel_bench.h"
#include "json/peers.h"

namespace {

namespace jp = keel::bench::json_peers;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// One parse/write case per library, all sharing the same text.
void add_peer(keel::bench::suite& s, const std::string& file,
              const std::shared_ptr<const std::string>& text, const char* name,
              const std::shared_ptr<jp::peer>& peer, bool write) {
  s.add(
      "parse/" + file, name,
      [text, peer](benchmark::State& st) {
        for (auto _ : st) {
          if (!peer->parse(*text)) st.SkipWithError("parse failed");
          benchmark::ClobberMemory();
        }
      },
      text->size());
  if (!write) return;
  if (!peer->parse(*text)) return;
  const std::size_t out = peer->write();
  s.add(
      "write/" + file, name,
      [text, peer](benchmark::State& st) {
        // The document is parsed once, outside the timing (other cases reuse the same peer).
        if (!peer->parse(*text)) st.SkipWithError("parse failed");
        for (auto _ : st) {
          if (peer->write() == 0) st.SkipWithError("write failed");
          benchmark::ClobberMemory();
        }
      },
      out);
}

}  // namespace

KEEL_BENCH_SUITE(json, "parse to DOM and minified write: keel vs yyjson, simdjson, RapidJSON") {
  const char* files[] = {"twitter.json", "canada.json", "citm_catalog.json", "gsoc-2018.json"};
  std::size_t max_input = 0;
  std::vector<std::pair<std::string, std::shared_ptr<const std::string>>> texts;
  for (const char* f : files) {
    auto text = std::make_shared<const std::string>(slurp(ctx.corpus / "json" / f));
    if (text->empty()) {
      s.unmeasured(std::string("parse/") + f, "keel",
                   "corpus file " + (ctx.corpus / "json" / f).string() +
                       " missing (keel bench --corpus DIR or KEEL_CORPUS)");
      continue;
    }
    max_input = std::max(max_input, text->size());
    texts.emplace_back(f, std::move(text));
  }
  auto yy = std::shared_ptr<jp::peer>(jp::make_yyjson(max_input));
  auto sj = std::shared_ptr<jp::peer>(jp::make_simdjson(max_input));
  auto rj = std::shared_ptr<jp::peer>(jp::make_rapidjson(max_input));
  auto kp = std::make_shared<keel::json::parser>();
  auto kw = std::make_shared<keel::json::writer>();

  for (const auto& [file, text] : texts) {
    s.add(
        "parse/" + file, "keel",
        [text = text, kp](benchmark::State& st) {
          for (auto _ : st) {
            if (!kp->parse(*text)) st.SkipWithError("parse failed");
            benchmark::ClobberMemory();
          }
        },
        text->size());
    // The same parser forced onto the other kernel sets (A/B of the ISA paths in one binary).
    for (auto [which, name] : {std::pair{keel::json::isa::avx2, "keel-avx2"},
                               std::pair{keel::json::isa::scalar, "keel-scalar"}}) {
      if (!keel::json::isa_supported(which) || which == keel::json::default_isa()) continue;
      auto forced = std::make_shared<keel::json::parser>(keel::json::parse_options{.isa = which});
      s.add(
          "parse/" + file, name,
          [text = text, forced](benchmark::State& st) {
            for (auto _ : st) {
              if (!forced->parse(*text)) st.SkipWithError("parse failed");
              benchmark::ClobberMemory();
            }
          },
          text->size());
    }
    auto dst = std::make_shared<std::string>(text->size(), '\0');
    s.add(
        "parse/" + file, "memcpy",
        [text = text, dst](benchmark::State& st) {
          for (auto _ : st) {
            std::memcpy(dst->data(), text->data(), text->size());
            benchmark::ClobberMemory();
          }
        },
        text->size());
    add_peer(s, file, text, "yyjson", yy, true);
    add_peer(s, file, text, "simdjson", sj, false);
    add_peer(s, file, text, "rapidjson", rj, true);

    // keel's write works on its own document, parsed once here.
    auto doc = std::make_shared<keel::json::document>();
    keel::json::parser once;
    if (once.parse_into(*doc, text->data(), text->size())) continue;
    const auto out = kw->write(doc->root());
    const std::size_t out_len = out ? out->size() : 0;
    s.add(
        "write/" + file, "keel",
        [doc, kw](benchmark::State& st) {
          for (auto _ : st) {
            if (!kw->write(doc->root())) st.SkipWithError("write failed");
            benchmark::ClobberMemory();
          }
        },
        out_len);
    // The same document as a mutable copy, written by the same kernels.
    auto mdoc = std::make_shared<keel::json::mutable_document>(doc->root());
    s.add(
        "write/" + file, "keel-mutable",
        [mdoc, kw](benchmark::State& st) {
          for (auto _ : st) {
            if (!kw->write(mdoc->root())) st.SkipWithError("write failed");
            benchmark::ClobberMemory();
          }
        },
        out_len);
    auto wdst = std::make_shared<std::string>(out_len, '\0');
    auto wsrc = std::make_shared<std::string>(out ? std::string(*out) : std::string());
    s.add(
        "write/" + file, "memcpy",
        [wsrc, wdst](benchmark::State& st) {
          for (auto _ : st) {
            std::memcpy(wdst->data(), wsrc->data(), wsrc->size());
            benchmark::ClobberMemory();
          }
        },
        out_len);

    yy->parse(*text);
    rj->parse(*text);
    char line[256];
    std::snprintf(line, sizeof line,
                  "DOM bytes %s: keel %zu, yyjson %zu, rapidjson pool %zu (input %zu)",
                  file.c_str(), doc->dom_bytes(), yy->dom_bytes(), rj->dom_bytes(), text->size());
    s.note(line);
  }
  s.note(std::string("keel: release flags, kernels chosen at run time: ") +
         keel::json::isa_name(keel::json::default_isa()) +
         "; peers: " KEEL_PEER_CFLAGS
         " (simdjson: Debian's shared library, its own run-time dispatch)");
  s.note(
      "all parse a full DOM: UTF-8 validated, numbers converted (correctly rounded), strings "
      "unescaped; keel and simdjson reuse their parser, yyjson a pool allocator, RapidJSON a "
      "memory pool (kParseFullPrecisionFlag|kParseValidateEncodingFlag)");
  s.note(
      "simdjson parses from a padded copy made once outside the timing; write cases time a "
      "minified write of a document parsed beforehand; memcpy copies the same bytes");
}
