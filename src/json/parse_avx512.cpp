// SPDX-License-Identifier: MIT
// The parser kernels instantiated for the avx512 instruction set (flags: src/json/CMakeLists.txt).
#include "json/isa_avx512.h"
#include "json/parse_kernels.h"

namespace keel::json::detail {

void parse_avx512(parse_state& st) { parse_document<isa_avx512>(st); }
void positions_avx512(parse_state& st) { find_positions<isa_avx512>(st); }

}  // namespace keel::json::detail
