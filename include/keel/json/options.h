// SPDX-License-Identifier: MIT
// keel::json options: parsing (strict RFC 8259 by default) and writing.
#pragma once

#include <cstdint>

#include "keel/cpu.h"

namespace keel::json {

// Which SIMD kernels parse and write: keel::isa (keel/cpu.h). `automatic` takes KEEL_JSON_ISA if
// set to a kernel set this CPU runs, else the best the CPU has.
using keel::isa;
using keel::isa_name;
using keel::isa_supported;

// The kernel set `automatic` resolves to on this machine (after KEEL_JSON_ISA).
isa default_isa() noexcept;

struct parse_options {
  bool allow_comments = false;         // // line and /* block */ comments count as whitespace
  bool allow_trailing_commas = false;  // [1,2,] and {"a":1,}
  bool allow_nan_inf = false;          // NaN, Infinity, -Infinity literals (stored as doubles)
  bool allow_bom = false;              // skip a leading UTF-8 byte order mark
  bool allow_invalid_utf8 = false;     // keep invalid UTF-8 in strings as is
  bool stop_after_first = false;       // parse one value, ignore what follows (parser::consumed())
  bool big_integers_as_raw = false;    // integers beyond 64 bits kept as text (type::raw_number)
                                       // instead of the nearest double
  std::uint32_t max_depth = 1024;      // deepest nesting of arrays/objects allowed
  json::isa isa = json::isa::automatic;
};

// How the writer treats NaN and +/-Infinity (which only exist with allow_nan_inf).
enum class nonfinite_policy : std::uint8_t { error = 0, null, literal };

struct write_options {
  bool pretty = false;          // newlines and indentation
  std::uint8_t indent = 2;      // spaces per level when pretty (0..16)
  bool escape_unicode = false;  // non-ASCII as \uXXXX (surrogate pairs above U+FFFF)
  bool escape_slash = false;    // '/' as "\/"
  nonfinite_policy nonfinite = nonfinite_policy::error;
  // Kernel set of the writer's string scan (as parse_options::isa; isa_unavailable if the CPU
  // lacks it). The `scalar` set uses 16-byte SSE2 blocks, part of every x86-64 CPU.
  json::isa isa = json::isa::automatic;
};

}  // namespace keel::json
