// SPDX-License-Identifier: MIT
// Every KEEL_POOL_* variable (rows of the options table, src/common/options.h), parsed once on
// first use.
#include "pool/env_options.h"

#include <cstdlib>
#include <cstring>

#include "common/options.h"

namespace keel::pool::detail {

namespace {

// A decimal number in [0, max], or `fallback` for unset / malformed / out of range values.
std::uint64_t read_number(const char* name, std::uint64_t fallback, std::uint64_t max) {
  const char* v = keel::detail::option_value(name);
  if (!v || !*v) {
    return fallback;
  }
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 10);
  if (*end != '\0' || v[0] == '-' || n > max) {
    return fallback;
  }
  return n;
}

env_options load() {
  env_options o;
  o.threads = static_cast<std::size_t>(read_number("KEEL_POOL_THREADS", 0, 4096));
  o.spin_ns = read_number("KEEL_POOL_SPIN_US", o.spin_ns / 1000, 1000000) * 1000;
  return o;
}

}  // namespace

const env_options& env() noexcept {
  static const env_options o = load();
  return o;
}

}  // namespace keel::pool::detail
