// SPDX-License-Identifier: MIT
// CPU detection, kernel-set names, the options table and the one way to force a kernel set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "common/options.h"
#include "keel/cpu.h"
#include "keel/json/options.h"

namespace {

TEST(Cpu, KernelSetsFollowTheFeatures) {
  const keel::cpu_features& f = keel::cpu();
  EXPECT_TRUE(keel::isa_supported(keel::isa::scalar));
  EXPECT_EQ(keel::isa_supported(keel::isa::avx2),
            f.avx2 && f.bmi1 && f.bmi2 && f.pclmul && f.popcnt);
  if (keel::isa_supported(keel::isa::avx512)) {
    EXPECT_TRUE(keel::isa_supported(keel::isa::avx2));
    EXPECT_TRUE(f.avx512f && f.avx512bw && f.avx512vl && f.avx512vbmi2);
  }
  // NEON on AArch64 (part of its base), never beside the x86-64 sets.
  EXPECT_EQ(keel::isa_supported(keel::isa::neon), f.neon);
  EXPECT_FALSE(f.neon && f.avx2);
  const keel::isa best = keel::best_isa();
  EXPECT_TRUE(keel::isa_supported(best));
  if (keel::isa_supported(keel::isa::avx512)) {
    EXPECT_EQ(best, keel::isa::avx512);
  }
  if (keel::isa_supported(keel::isa::neon)) {
    EXPECT_EQ(best, keel::isa::neon);
  }
}

TEST(Cpu, NamesRoundTrip) {
  for (keel::isa i : keel::all_isas) EXPECT_EQ(keel::parse_isa(keel::isa_name(i)), i);
  EXPECT_EQ(keel::parse_isa("sse9"), keel::isa::automatic);
  EXPECT_EQ(keel::parse_isa(""), keel::isa::automatic);
  EXPECT_STREQ(keel::isa_name(keel::isa::automatic), "automatic");
  // json's names are the shared ones.
  static_assert(std::is_same_v<keel::json::isa, keel::isa>);
}

TEST(Options, TableNamesAreUniqueAndDescribed) {
  std::set<std::string> names;
  for (const auto& o : keel::detail::option_table()) {
    EXPECT_EQ(std::string(o.name).rfind("KEEL_", 0), 0u) << o.name;
    EXPECT_TRUE(names.insert(o.name).second) << o.name << " twice";
    EXPECT_GT(std::string(o.meaning).size(), 10u) << o.name;
    EXPECT_GT(std::string(o.default_value).size(), 0u) << o.name;
  }
  EXPECT_TRUE(names.count("KEEL_JSON_ISA"));
  EXPECT_TRUE(names.count("KEEL_BINCODE_ISA"));
  EXPECT_TRUE(names.count("KEEL_POOL_THREADS"));
  EXPECT_TRUE(names.count("KEEL_ALLOC_HARDENED"));
}

// ctest runs this binary's KernelChoice tests with KEEL_JSON_ISA set (tests/common/CMakeLists.txt);
// without it, the choice is the best set.
TEST(KernelChoice, ForcedSetIsTakenWhenSupported) {
  const char* v = std::getenv("KEEL_JSON_ISA");
  const keel::isa want = v ? keel::parse_isa(v) : keel::isa::automatic;
  const keel::isa got = keel::detail::choose_isa("KEEL_JSON_ISA");
  if (want != keel::isa::automatic && keel::isa_supported(want)) {
    EXPECT_EQ(got, want);
  } else {
    EXPECT_EQ(got, keel::best_isa());
  }
  EXPECT_EQ(keel::json::default_isa(), got);
  EXPECT_EQ(keel::detail::option_value("KEEL_JSON_ISA") != nullptr, v != nullptr && *v != 0);
}

}  // namespace
