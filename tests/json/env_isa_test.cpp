// SPDX-License-Identifier: MIT
// KEEL_JSON_ISA (set by ctest for the json.env_isa_* tests) selects the parser and writer kernels.
// Its own binary: the variable is read once per process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "keel/json.h"

namespace {

using namespace keel::json;

TEST(EnvIsa, SelectsKernels) {
  const char* env = std::getenv("KEEL_JSON_ISA");
  if (!env) GTEST_SKIP() << "run by ctest with KEEL_JSON_ISA set";
  const std::string want = env;
  const isa expect = keel::parse_isa(want);
  ASSERT_NE(expect, isa::automatic) << want;
  if (!isa_supported(expect)) GTEST_SKIP();
  EXPECT_EQ(default_isa(), expect);
  parser p;
  ASSERT_TRUE(p.parse("[1]").ok());
  EXPECT_EQ(p.last_isa(), expect);
}

TEST(EnvIsa, SelectsWriterKernels) {
  const char* env = std::getenv("KEEL_JSON_ISA");
  if (!env) GTEST_SKIP() << "run by ctest with KEEL_JSON_ISA set";
  const std::string want = env;
  const isa expect = keel::parse_isa(want);
  ASSERT_NE(expect, isa::automatic) << want;
  if (!isa_supported(expect)) GTEST_SKIP();
  parser p;
  auto r = p.parse(R"({"a":"a long string value, longer than thirty-two bytes","b":[1.5]})");
  ASSERT_TRUE(r.ok());
  writer w;
  EXPECT_EQ(*w.write(*r), R"({"a":"a long string value, longer than thirty-two bytes","b":[1.5]})");
  EXPECT_EQ(w.last_isa(), expect);
}

}  // namespace
