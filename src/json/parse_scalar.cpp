// SPDX-License-Identifier: MIT
// The parser kernels instantiated for the scalar instruction set (flags: src/json/CMakeLists.txt).
// A whole document is parsed in one pass (one_pass_scalar.h); NDJSON batches and struct
// mapping's direct read use stage 1 and stage 2 (parse_kernels.h, stage1_scalar.h).
#include "json/direct_kernels.h"
#include "json/isa_scalar.h"
#include "json/one_pass_scalar.h"

namespace keel::json::detail {

void parse_scalar(parse_state& st) { parse_one_pass(st); }
void positions_scalar(parse_state& st) { find_positions<isa_scalar>(st); }
void positions_lines_scalar(parse_state& st, line_counts* counts) {
  stage1_scalar(st, true);
  if (counts == nullptr) return;
  *counts = {};
  for (std::size_t k = 0; k < st.n_idx; ++k) {
    const std::size_t p = st.idx[k];
    if (st.buf[p] != '\n') continue;
    ++counts->ends;
    if (p + 1 < st.len && json_whitespace(st.buf[p + 1])) ++counts->blank_starts;
  }
}
void record_scalar(parse_state& st, node* nodes, std::uint8_t* strings, std::size_t safe) {
  parse_record<isa_scalar>(st, nodes, strings, safe);
}
const std::uint32_t* value_at_scalar(parse_state& st, const direct_view& v,
                                     const std::uint32_t* ip) {
  return value_at<isa_scalar>(st, v, ip);
}
const std::uint32_t* skip_members_scalar(parse_state& st, const direct_view& v,
                                         const std::uint32_t* ip, const key_filter& f) {
  return skip_members<isa_scalar>(st, v, ip, f);
}

}  // namespace keel::json::detail
