// SPDX-License-Identifier: MIT
// keel::json's environment options, read once: KEEL_JSON_ISA=avx512|avx2|scalar forces the
// parser's kernel set (an unsupported or unknown value is ignored). Also CPU feature detection.
#include <cstdlib>
#include <cstring>

#include "json/parse_state.h"

namespace keel::json {
namespace detail {
namespace {

struct option_table {
  isa forced_isa = isa::automatic;  // KEEL_JSON_ISA
  isa best = isa::scalar;

  option_table() {
    __builtin_cpu_init();
    if (isa_supported(isa::avx512))
      best = isa::avx512;
    else if (isa_supported(isa::avx2))
      best = isa::avx2;
    if (const char* v = std::getenv("KEEL_JSON_ISA")) {
      isa want = isa::automatic;
      if (std::strcmp(v, "avx512") == 0)
        want = isa::avx512;
      else if (std::strcmp(v, "avx2") == 0)
        want = isa::avx2;
      else if (std::strcmp(v, "scalar") == 0)
        want = isa::scalar;
      if (want != isa::automatic && isa_supported(want)) forced_isa = want;
    }
  }
};

const option_table& options() {
  static const option_table table;
  return table;
}

}  // namespace

isa env_isa() noexcept { return options().forced_isa; }

}  // namespace detail

bool isa_supported(isa which) noexcept {
  __builtin_cpu_init();
  switch (which) {
    case isa::scalar:
      return true;
    case isa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
             __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("pclmul") &&
             __builtin_cpu_supports("popcnt");
    case isa::avx512:
      return isa_supported(isa::avx2) && __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512vbmi2");
    default:
      return false;
  }
}

isa default_isa() noexcept {
  const auto& t = detail::options();
  return t.forced_isa != isa::automatic ? t.forced_isa : t.best;
}

const char* isa_name(isa which) noexcept {
  switch (which) {
    case isa::scalar:
      return "scalar";
    case isa::avx2:
      return "avx2";
    case isa::avx512:
      return "avx512";
    default:
      return "automatic";
  }
}

}  // namespace keel::json
