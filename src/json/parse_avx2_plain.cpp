// SPDX-License-Identifier: MIT
// AVX2 stage 1 for documents without control or non-ASCII bytes at the start (stage1::kPlainText),
// a translation unit of its own so that its loop does not share a function or file with the
// other (flags: src/json/CMakeLists.txt).
#include "json/isa_avx2.h"
#include "json/parse_kernels.h"

namespace keel::json::detail {

void isa_avx2::positions_plain(parse_state& st) noexcept { stage1<isa_avx2_plain>::run(st); }

}  // namespace keel::json::detail
