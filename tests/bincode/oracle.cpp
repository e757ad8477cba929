// SPDX-License-Identifier: MIT
// The C++ half of the bincode oracle (oracle/ is the Rust half; format in oracle/src/main.rs).
//   bincode_oracle check FILE   every Rust-made vector: decode, compare the value's text, re-encode
//                               byte for byte; decode-only cases: accept/reject exactly as Rust did
//   bincode_oracle emit FILE    random values encoded by keel, for `keel_bincode_oracle check`
// GCC 12 reports std::variant assignments in the generator as maybe-uninitialized (a known false
// positive of its variant storage analysis).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>

#include "oracle_types.h"

namespace {

using namespace oracle;
using bytes = std::vector<std::uint8_t>;

bool unhex(std::string_view s, bytes& out) {
  if (s.size() % 2) return false;
  out.resize(s.size() / 2);
  auto nib = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int h = nib(s[2 * i]), l = nib(s[2 * i + 1]);
    if (h < 0 || l < 0) return false;
    out[i] = static_cast<std::uint8_t>(h * 16 + l);
  }
  return true;
}
std::string hex(const bytes& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto c : b) s += d[c >> 4], s += d[c & 15];
  return s;
}

struct fields {
  std::string_view kind, cfg, type, hex, used, text;
};

// Checks one line for type T; returns "" or what is wrong.
struct checker {
  virtual ~checker() = default;
  virtual std::string check(const kb::config& c, const fields& f, const bytes& b) = 0;
};

template <class T>
struct typed_checker final : checker {
  T reused{};  // decode_into reuses the previous case's object: capacity reuse must not leak state

  std::string check(const kb::config& c, const fields& f, const bytes& b) override {
    T fresh{};
    auto r = kb::decode_into(fresh, b, c);
    if (f.kind == "V") {
      if (!r) return "decode failed: " + r.error().to_string();
      if (*r != b.size())
        return "decoded " + std::to_string(*r) + " of " + std::to_string(b.size()) + " bytes";
      if (show(fresh) != f.text) return "value " + show(fresh) + " != " + std::string(f.text);
      auto r2 = kb::decode_into(reused, b, c);
      if (!r2 || show(reused) != f.text) return "decode_into a reused object gave " + show(reused);
      if (kb::encoded_size(fresh, c) != b.size())
        return "encoded_size " + std::to_string(kb::encoded_size(fresh, c));
      auto e = kb::encode_to_vector(fresh, c);
      if (!e) return "encode failed: " + e.error().to_string();
      if (*e != b) return "re-encoded " + hex(*e);
      return "";
    }
    // D: decode-only
    if (f.used == "!") {
      if (r) return "accepted bytes Rust rejects (" + std::string(f.text) + "): " + show(fresh);
      return "";
    }
    if (!r) return "rejected bytes Rust accepts: " + r.error().to_string();
    if (f.used != "-" && std::to_string(*r) != f.used)
      return "used " + std::to_string(*r) + " bytes, Rust " + std::string(f.used);
    if (show(fresh) != f.text) return "value " + show(fresh) + " != " + std::string(f.text);
    return "";
  }
};

const kb::config* find_config(std::string_view name) {
  for (const auto& c : configs)
    if (name == c.name) return &c.cfg;
  return nullptr;
}

int check(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return 2;
  }
  std::unordered_map<std::string, std::unique_ptr<checker>> checkers;
  each_type(
      [&]<class T>(const char* name) { checkers[name] = std::make_unique<typed_checker<T>>(); });
  std::string line;
  bytes b;
  std::size_t ok_v = 0, ok_d = 0, bad = 0, no = 0;
  while (std::getline(in, line)) {
    ++no;
    std::vector<std::string_view> parts;
    std::string_view rest(line);
    while (!rest.empty()) {
      const auto sp = rest.find(' ');
      parts.push_back(rest.substr(0, sp));
      rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
    }
    fields f;
    if (parts.size() == 5 && parts[0] == "V") {
      f = {parts[0], parts[1], parts[2], parts[3], "", parts[4]};
    } else if (parts.size() == 6 && parts[0] == "D") {
      f = {parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]};
    } else {
      std::fprintf(stderr, "%s:%zu: malformed line\n", path, no);
      ++bad;
      continue;
    }
    const kb::config* c = find_config(f.cfg);
    auto it = checkers.find(std::string(f.type));
    if (!c || it == checkers.end() || !unhex(f.hex, b)) {
      std::fprintf(stderr, "%s:%zu: unknown config/type or bad hex\n", path, no);
      ++bad;
      continue;
    }
    const std::string err = it->second->check(*c, f, b);
    if (err.empty()) {
      ++(f.kind == "V" ? ok_v : ok_d);
    } else if (++bad <= 30) {
      std::fprintf(stderr, "%s:%zu: %.*s %.*s %.*s: %s\n", path, no, int(f.cfg.size()),
                   f.cfg.data(), int(f.type.size()), f.type.data(),
                   int(std::min<std::size_t>(f.hex.size(), 80)), f.hex.data(), err.c_str());
    }
  }
  std::printf("bincode oracle: %zu vectors and %zu decode-only cases agree with Rust, %zu differ\n",
              ok_v, ok_d, bad);
  return bad == 0 && ok_v > 0 ? 0 : 1;
}

int emit(const char* path, std::size_t per_type) {
  std::ofstream out(path);
  std::size_t n = 0;
  for (const auto& c : configs) {
    rng r{0x5eed ^ std::hash<std::string_view>{}(c.name)};
    each_type([&]<class T>(const char* name) {
      for (std::size_t i = 0; i < per_type; ++i) {
        T v{};
        gen(r, v, 0);
        auto e = kb::encode_to_vector(v, c.cfg);
        if (!e) {
          std::fprintf(stderr, "encode %s failed: %s\n", name, e.error().to_string().c_str());
          std::exit(1);
        }
        out << "V " << c.name << ' ' << name << ' ' << hex(*e) << ' ' << show(v) << '\n';
        ++n;
      }
    });
  }
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path);
    return 2;
  }
  std::printf("bincode oracle: wrote %zu C++-encoded cases to %s\n", n, path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "check") == 0) return check(argv[2]);
  if (argc >= 3 && std::strcmp(argv[1], "emit") == 0)
    return emit(argv[2], argc > 3 ? std::stoul(argv[3]) : 100);
  std::fprintf(stderr, "usage: bincode_oracle check FILE | emit FILE [N]\n");
  return 2;
}
