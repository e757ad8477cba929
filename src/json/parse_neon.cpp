// SPDX-License-Identifier: MIT
// The parser kernels instantiated for the neon instruction set (AArch64; no extra flags).
#include "json/isa_neon.h"
#include "json/parse_kernels.h"

namespace keel::json::detail {

void parse_neon(parse_state& st) { parse_document<isa_neon>(st); }
void positions_neon(parse_state& st) { find_positions<isa_neon>(st); }

}  // namespace keel::json::detail
