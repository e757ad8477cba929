// SPDX-License-Identifier: MIT
// Helpers shared by the keel::json tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "keel/json/options.h"

namespace keel::json::test {

// Code point cp as UTF-8 (1-4 bytes).
inline std::string utf8_of(std::uint32_t cp) {
  std::string o;
  if (cp < 0x80) {
    o += static_cast<char>(cp);
  } else if (cp < 0x800) {
    o += static_cast<char>(0xc0 | (cp >> 6));
    o += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    o += static_cast<char>(0xe0 | (cp >> 12));
    o += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    o += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    o += static_cast<char>(0xf0 | (cp >> 18));
    o += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    o += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    o += static_cast<char>(0x80 | (cp & 0x3f));
  }
  return o;
}

inline std::filesystem::path corpus() {
  const char* c = std::getenv("KEEL_CORPUS");
  return c ? std::filesystem::path(c)
           : std::filesystem::path(KEEL_SOURCE_DIR) / ".." / "shared" / "corpus";
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Files of a directory, sorted by name.
inline std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Names parameterised tests after the kernel set.
inline std::string isa_test_name(const ::testing::TestParamInfo<keel::json::isa>& info) {
  return keel::json::isa_name(info.param);
}

}  // namespace keel::json::test

// GoogleTest prints a parameter with PrintTo found by argument-dependent lookup (keel::isa lives
// in keel); without one an isa reads "1-byte object <03>" in test listings and failures.
namespace keel {
inline void PrintTo(isa which, std::ostream* os) { *os << isa_name(which); }
}  // namespace keel
