// SPDX-License-Identifier: MIT
// Internal: the KEEL_POOL_* environment variables, read once (env_options.cpp is the only reader).
// (Pool configuration passed by the user is keel/pool/options.h.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace keel::pool::detail {

struct env_options {
  std::size_t threads = 0;  // KEEL_POOL_THREADS: default worker count (0: affinity mask)
  std::uint64_t spin_ns =
      50000;  // KEEL_POOL_SPIN_US: how long an idle worker searches before parking
};

const env_options& env() noexcept;

}  // namespace keel::pool::detail
