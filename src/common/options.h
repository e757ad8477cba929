// SPDX-License-Identifier: MIT
// Every KEEL_* environment variable in one table (docs/options.md is the same table for users).
// Values are read once, on first use, for the whole table; nothing calls getenv on a hot path.
// The allocator reads its KEEL_ALLOC_* rows itself, at process start (src/alloc/options.cpp): a
// preloaded malloc runs before anything else and may not allocate, so it cannot use this code.
#pragma once

#include <span>

#include "keel/cpu.h"

namespace keel::detail {

struct option_info {
  const char* name;           // KEEL_...
  const char* component;      // "json", "bincode", "pool", "alloc", "tool"
  const char* default_value;  // what applies when unset
  const char* meaning;
};

// The table, in component order.
std::span<const option_info> option_table() noexcept;

// The value `name` had at the first call of any option function, or nullptr when unset or empty.
// `name` must be in the table.
const char* option_value(const char* name) noexcept;

// The kernel set a component runs: the one its variable (KEEL_<COMPONENT>_ISA) names if this CPU
// supports it, else the best this CPU has. Unknown or unsupported values are ignored.
isa choose_isa(const char* variable) noexcept;

}  // namespace keel::detail
