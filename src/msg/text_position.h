// SPDX-License-Identifier: MIT
// Line and column (1-based, the column in bytes) of a byte offset in a text form.
#pragma once

#include <cstddef>
#include <string_view>

#include "keel/msg/error.h"

namespace keel::msg::detail {

// (An offset past the end, as pugixml reports for some truncated documents, is the end.)
inline error text_error(error_code code, std::string_view text, std::size_t offset) {
  if (offset > text.size()) offset = text.size();
  error e{code, offset, 1, 1};
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++e.line;
      e.column = 1;
    } else {
      ++e.column;
    }
  }
  return e;
}

}  // namespace keel::msg::detail
