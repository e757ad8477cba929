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

namespace {
void prepend(std::string& pointer, const std::string& token) {
  std::string s;
  s.reserve(token.size() + pointer.size());
  s += token;
  s += pointer;
  pointer.swap(s);
}
}  // namespace

bool mapper::up_index(std::size_t i) {
  std::string token(1, '/');
  token += std::to_string(i);
  prepend(err.pointer, token);
  return false;
}

bool mapper::up_key(std::string_view key) {
  std::string token;
  append_token(token, key);
  prepend(err.pointer, token);
  return false;
}

}  // namespace detail
}  // namespace keel::json
