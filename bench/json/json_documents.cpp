// SPDX-License-Identifier: MIT
#include "json/json_documents.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace keel::bench::json_docs {
namespace {

// splitmix64: a small deterministic generator, so the generated documents never change.
struct rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

void append_u4(std::string& out, unsigned cp) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", cp);
  out += buf;
}

std::string escapes(std::size_t target) {
  rng r{1};
  std::string out = "[";
  while (out.size() < target) {
    if (out.size() > 1) out += ',';
    out += '"';
    const unsigned n = 4 + r.below(28);
    for (unsigned i = 0; i < n; ++i) {
      switch (r.below(8)) {
        case 0:  // a surrogate pair (U+10000..U+10FFFF)
        {
          const unsigned cp = 0x10000 + r.below(0x100000);
          append_u4(out, 0xd800 + ((cp - 0x10000) >> 10));
          append_u4(out, 0xdc00 + ((cp - 0x10000) & 0x3ff));
          break;
        }
        case 1: {  // a short escape
          static const char* const short_escapes[] = {"\\n", "\\t", "\\\"", "\\\\", "\\/"};
          out += short_escapes[r.below(5)];
          break;
        }
        case 2:  // plain ASCII
          out += static_cast<char>('a' + r.below(26));
          break;
        default: {  // a BMP code point outside the surrogate range, ASCII control characters too
          unsigned cp = r.below(0xfffe) + 1;
          if (cp >= 0xd800 && cp <= 0xdfff) cp -= 0x800;
          append_u4(out, cp);
        }
      }
    }
    out += '"';
  }
  out += ']';
  return out;
}

std::string floats_pretty(std::size_t target) {
  rng r{2};
  std::string out = "[\n";
  char buf[32];
  bool first = true;
  while (out.size() < target) {
    if (!first) out += ",\n";
    first = false;
    out += "  [\n";
    for (int k = 0; k < 3; ++k) {
      // Full-mantissa doubles in +-1000: their shortest form has 15-17 digits.
      const double v = (static_cast<double>(r.next() >> 11) * 0x1p-53 - 0.5) * 2000.0;
      const auto res = std::to_chars(buf, buf + sizeof buf, v);
      out += "    ";
      out.append(buf, res.ptr);
      out += k < 2 ? ",\n" : "\n";
    }
    out += "  ]";
  }
  out += "\n]\n";
  return out;
}

std::string repeated_keys(std::size_t target) {
  rng r{3};
  static const char* const words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"};
  std::string out = "[";
  char buf[256];
  for (unsigned id = 0; out.size() < target; ++id) {
    if (id) out += ',';
    std::snprintf(buf, sizeof buf,
                  R"({"id":%u,"name":"%s-%u","active":%s,"score":%u.%02u,"tags":["%s","%s"],)"
                  R"("owner":{"id":%u,"login":"%s"},"parent":null,"size":%u})",
                  id, words[r.below(6)], r.below(10000), r.below(2) ? "true" : "false",
                  r.below(100), r.below(100), words[r.below(6)], words[r.below(6)], r.below(1000),
                  words[r.below(6)], r.below(1u << 20));
    out += buf;
  }
  out += ']';
  return out;
}

}  // namespace

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<document> corpus_documents(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> paths;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".json") paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<document> docs;
  for (const auto& p : paths) {
    docs.push_back({p.filename().string(), std::make_shared<const std::string>(read_text(p))});
  }
  return docs;
}

std::vector<document> generated_documents() {
  constexpr std::size_t size = 2u << 20;
  return {
      {"generated-escapes.json", std::make_shared<const std::string>(escapes(size))},
      {"generated-floats-pretty.json", std::make_shared<const std::string>(floats_pretty(size))},
      {"generated-repeated-keys.json", std::make_shared<const std::string>(repeated_keys(size))},
  };
}

}  // namespace keel::bench::json_docs
