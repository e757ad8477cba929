// SPDX-License-Identifier: MIT
// The parser kernels instantiated for the avx2 instruction set (flags: src/json/CMakeLists.txt).
#include "json/direct_kernels.h"
#include "json/isa_avx2.h"

namespace keel::json::detail {

void parse_avx2(parse_state& st) { parse_document<isa_avx2>(st); }
void positions_avx2(parse_state& st) { find_positions<isa_avx2>(st); }
void record_avx2(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe) {
  parse_record<isa_avx2>(st, nodes, strings, safe);
}
void positions_lines_avx2(parse_state& st, line_counts* counts) {
  find_positions_lines<isa_avx2>(st, counts);
}
const std::uint32_t* value_at_avx2(parse_state& st, const direct_view& v, const std::uint32_t* ip) {
  return value_at<isa_avx2>(st, v, ip);
}
const std::uint32_t* skip_members_avx2(parse_state& st, const direct_view& v,
                                       const std::uint32_t* ip, const key_filter& f) {
  return skip_members<isa_avx2>(st, v, ip, f);
}
std::size_t unescape_each_avx2(const std::uint8_t* src, std::size_t n, std::uint8_t* dst) {
  return unescape_each<isa_avx2>(src, n, dst);
}

}  // namespace keel::json::detail
