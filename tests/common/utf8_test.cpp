// SPDX-License-Identifier: MIT
// keel::utf8_valid on every kernel set: the Unicode Table 3-7 boundaries, sequences across vector
// and block boundaries, truncation at the end, and agreement with the one-sequence checker on
// random inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/utf8.h"
#include "keel/utf8.h"

namespace {

std::vector<keel::isa> kernel_sets() {
  std::vector<keel::isa> v{keel::isa::scalar};
  for (keel::isa i : keel::all_isas)
    if (i != keel::isa::scalar && keel::isa_supported(i)) v.push_back(i);
  return v;
}

bool reference(const std::string& s) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    const std::size_t n = keel::detail::utf8_sequence(p, end);
    if (n == 0) return false;
    p += n;
  }
  return true;
}

void expect_all(const std::string& s, bool valid) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
  EXPECT_EQ(keel::utf8_valid(p, s.size()), valid) << "default, length " << s.size();
  for (keel::isa i : kernel_sets())
    EXPECT_EQ(keel::utf8_valid(p, s.size(), i), valid)
        << keel::isa_name(i) << ", length " << s.size();
}

TEST(Utf8, TableBoundaries) {
  const std::pair<const char*, bool> cases[] = {
      {"", true},
      {"plain ascii", true},
      {"\xC2\x80", true},           // U+0080
      {"\xC1\xBF", false},          // overlong 2-byte
      {"\xDF\xBF", true},           // U+07FF
      {"\xE0\xA0\x80", true},       // U+0800
      {"\xE0\x9F\xBF", false},      // overlong 3-byte
      {"\xED\x9F\xBF", true},       // U+D7FF
      {"\xED\xA0\x80", false},      // U+D800 surrogate
      {"\xEE\x80\x80", true},       // U+E000
      {"\xEF\xBF\xBF", true},       // U+FFFF
      {"\xF0\x90\x80\x80", true},   // U+10000
      {"\xF0\x8F\xBF\xBF", false},  // overlong 4-byte
      {"\xF4\x8F\xBF\xBF", true},   // U+10FFFF
      {"\xF4\x90\x80\x80", false},  // above U+10FFFF
      {"\xF5\x80\x80\x80", false},  // lead byte F5
      {"\x80", false},              // stray continuation
      {"\xC2", false},              // truncated
      {"\xE2\x82", false},          // truncated
      {"\xC2\x41", false},          // missing continuation
      {"\xE2\x82\xAC\xAC", false},  // extra continuation
  };
  for (const auto& [text, valid] : cases) {
    expect_all(text, valid);
    // The same at every offset around the 32- and 64-byte vector boundaries, and at the end.
    for (std::size_t pad : {1u, 30u, 31u, 62u, 63u, 64u, 65u, 100u, 127u}) {
      expect_all(std::string(pad, 'a') + text + std::string(70, 'b'), valid);
      expect_all(std::string(pad, 'a') + text, valid);
    }
  }
}

TEST(Utf8, AgreesWithTheSequenceCheckerOnRandomInput) {
  std::mt19937 rng(12345);
  const std::string pieces[] = {
      "a",    "z",    "\xC3\xA9",     "\xE2\x82\xAC",     "\xF0\x9F\x98\x80",
      "\x80", "\xC3", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE0\x9F\xBF"};
  for (int trial = 0; trial < 4000; ++trial) {
    std::string s;
    const int n = static_cast<int>(rng() % 200);
    const bool clean = trial % 2 == 0;
    for (int i = 0; i < n; ++i) s += pieces[rng() % (clean ? 5 : 10)];
    expect_all(s, reference(s));
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
