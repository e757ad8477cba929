// SPDX-License-Identifier: MIT
// UTF-8 validation shared by every keel reader (json, bincode, msg): Unicode's well-formed UTF-8
// (Table 3-7), so no overlong forms, no surrogates (U+D800..DFFF), nothing above U+10FFFF and no
// stray or missing continuation bytes. The same rules as Rust's str::from_utf8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "keel/cpu.h"

namespace keel {

// True if the n bytes at p are valid UTF-8. Runs the best vector kernel of this CPU (AVX-512,
// AVX2) on inputs long enough to pay for it, a scalar loop with an 8-byte ASCII step otherwise.
bool utf8_valid(const std::uint8_t* p, std::size_t n) noexcept;
inline bool utf8_valid(std::string_view s) noexcept {
  return utf8_valid(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}
// The same with a forced kernel set (tests and benchmarks; isa_unavailable sets fall back to
// scalar).
bool utf8_valid(const std::uint8_t* p, std::size_t n, isa which) noexcept;

}  // namespace keel
