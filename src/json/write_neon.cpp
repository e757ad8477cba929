// SPDX-License-Identifier: MIT
// The writer's scan of long strings with the neon kernel set's 32-byte blocks (AArch64; no extra
// flags); the rest of the writer is compiled once (writer.cpp).
#include "json/write_kernels.h"

namespace keel::json::detail {

char* scan_long_neon(char* p, const char* s, std::size_t len, escape_extra x) noexcept {
  if (!x.slash && !x.unicode) return scan_string<wisa_neon<2>, true>(p, s, len, x);
  return scan_string<wisa_neon<2>, false>(p, s, len, x);
}

}  // namespace keel::json::detail
