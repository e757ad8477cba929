// SPDX-License-Identifier: MIT
// The parser kernels instantiated for the scalar instruction set (flags: src/json/CMakeLists.txt).
#include "json/isa_scalar.h"
#include "json/parse_kernels.h"

namespace keel::json::detail {

void parse_scalar(parse_state& st) { parse_document<isa_scalar>(st); }
void positions_scalar(parse_state& st) { find_positions<isa_scalar>(st); }

}  // namespace keel::json::detail
