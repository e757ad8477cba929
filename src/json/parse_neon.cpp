// SPDX-License-Identifier: MIT
// The parser kernels instantiated for the neon instruction set (AArch64; no extra flags).
#include "json/direct_kernels.h"
#include "json/isa_neon.h"

namespace keel::json::detail {

void parse_neon(parse_state& st) { parse_document<isa_neon>(st); }
void positions_neon(parse_state& st) { find_positions<isa_neon>(st); }
void positions_lines_neon(parse_state& st, line_counts* counts) {
  find_positions_lines<isa_neon>(st, counts);
}
void record_neon(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe) {
  parse_record<isa_neon>(st, nodes, strings, safe);
}
const std::uint32_t* value_at_neon(parse_state& st, const direct_view& v, const std::uint32_t* ip) {
  return value_at<isa_neon>(st, v, ip);
}
const std::uint32_t* skip_members_neon(parse_state& st, const direct_view& v,
                                       const std::uint32_t* ip, const key_filter& f) {
  return skip_members<isa_neon>(st, v, ip, f);
}

}  // namespace keel::json::detail
