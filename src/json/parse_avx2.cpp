// SPDX-License-Identifier: MIT
// The parser kernels instantiated for the avx2 instruction set (flags: src/json/CMakeLists.txt).
#include "json/isa_avx2.h"
#include "json/parse_kernels.h"

namespace keel::json::detail {

void parse_avx2(parse_state& st) { parse_document<isa_avx2>(st); }
void positions_avx2(parse_state& st) { find_positions<isa_avx2>(st); }

}  // namespace keel::json::detail
