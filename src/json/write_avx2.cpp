// SPDX-License-Identifier: MIT
// The writer's scan of long strings with the avx2 kernel set's blocks (flags:
// src/json/CMakeLists.txt), used by the avx2 and avx512 kernel sets; the rest of the writer is
// compiled once (writer.cpp).
#include "json/write_kernels.h"

namespace keel::json::detail {

char* scan_long_avx2(char* p, const char* s, std::size_t len, escape_extra x) noexcept {
  if (!x.slash && !x.unicode) return scan_string<wisa_avx2, true>(p, s, len, x);
  return scan_string<wisa_avx2, false>(p, s, len, x);
}

}  // namespace keel::json::detail
