// SPDX-License-Identifier: MIT
// The binary reader's entry point for one value (used by keel::msg::view::decode).
#pragma once

#include <cstdint>

#include "keel/msg/binary.h"

namespace keel::msg::detail {

// Reads the single value whose tag is at `at` and which ends exactly at `end`; error offsets
// count from `base`.
error read_binary_value(const std::uint8_t* base, const std::uint8_t* at, const std::uint8_t* end,
                        value& out, const read_options& options);

}  // namespace keel::msg::detail
