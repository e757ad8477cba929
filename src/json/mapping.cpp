// SPDX-License-Identifier: MIT
// Struct mapping: the parts that are not templates (error text, pointer tokens).
#include "keel/json/mapping.h"

#include "json/pointer.h"

namespace keel::json {

std::string mapping_error::to_string() const {
  if (line != 0) return std::to_string(line) + ":" + std::to_string(column) + ": " + message();
  std::string s = pointer.empty() ? std::string("(root)") : pointer;
  s += ": ";
  s += message();
  return s;
}

namespace detail {

std::size_t mapper::push_key(std::string_view key) {
  const std::size_t len = ptr_.size();
  append_token(ptr_, key);
  return len;
}

}  // namespace detail
}  // namespace keel::json
