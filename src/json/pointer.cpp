// SPDX-License-Identifier: MIT
// RFC 6901 JSON Pointer tokens.
#include "json/pointer.h"

#include <cstdint>

namespace keel::json::detail {

bool pointer_tokens::next() {
  if (pos_ > p_.size() || bad_) return false;
  std::size_t end = p_.find('/', pos_);
  if (end == std::string_view::npos) end = p_.size();
  tok_.clear();
  for (std::size_t i = pos_; i < end; ++i) {
    if (p_[i] != '~') {
      tok_.push_back(p_[i]);
      continue;
    }
    if (i + 1 >= end || (p_[i + 1] != '0' && p_[i + 1] != '1')) {
      bad_ = true;
      return false;
    }
    tok_.push_back(p_[i + 1] == '0' ? '~' : '/');
    ++i;
  }
  pos_ = end + 1;
  return true;
}

bool array_index(std::string_view tok, std::size_t& i) noexcept {
  if (tok.empty() || (tok.size() > 1 && tok[0] == '0')) return false;
  i = 0;
  for (const char c : tok) {
    if (c < '0' || c > '9') return false;
    // An index of more digits than any array has elements: past every end (not found).
    i = tok.size() > 18 ? SIZE_MAX : i * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

void append_token(std::string& pointer, std::string_view key) {
  pointer.push_back('/');
  for (const char c : key) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer.push_back(c);
    }
  }
}

}  // namespace keel::json::detail
