// SPDX-License-Identifier: MIT
// RFC 6901 JSON Pointer tokens, shared by the immutable and mutable DOMs and the patch code.
#pragma once

#include <cstddef>
#include <new>
#include <string>
#include <string_view>

#include "keel/json/error.h"

namespace keel::json::detail {

// Walks the reference tokens of a pointer (non-empty, starting with '/'): each next() decodes one
// token (~1 -> '/', ~0 -> '~') into token(). A malformed escape makes next() return false with
// bad() true.
class pointer_tokens {
 public:
  explicit pointer_tokens(std::string_view pointer) noexcept : p_(pointer) {}
  bool next();
  // True after next() returned the last token.
  bool last() const noexcept { return pos_ > p_.size(); }
  bool bad() const noexcept { return bad_; }
  const std::string& token() const noexcept { return tok_; }
  // The pointer up to and including the current token.
  std::string_view prefix() const noexcept { return p_.substr(0, pos_ - 1); }

 private:
  std::string_view p_;
  std::size_t pos_ = 1;  // start of the next token
  std::string tok_;
  bool bad_ = false;
};

// An RFC 6901 array index: "0" or digits without a leading zero; one of more than 18 digits is
// SIZE_MAX (past the end of every array).
bool array_index(std::string_view tok, std::size_t& i) noexcept;

// Appends the escaped form of a key (~ -> ~0, / -> ~1) to a pointer, after a '/'.
void append_token(std::string& pointer, std::string_view key);

// The value a pointer names below `cur` (V: value or mutable_value, with find / at).
template <class V>
result<V> resolve_pointer(V cur, std::string_view pointer) noexcept {
  if (pointer.empty()) return cur;
  if (pointer[0] != '/') return error_code::invalid_pointer;
  try {
    pointer_tokens toks(pointer);
    while (toks.next()) {
      const std::string& key = toks.token();
      result<V> next = error_code::not_found;
      if (cur.is_object()) {
        next = cur.find(key);
      } else if (cur.is_array()) {
        std::size_t i = 0;
        if (!array_index(key, i))
          return key == "-" ? error_code::not_found : error_code::invalid_pointer;
        next = cur.at(i);
      }
      if (!next) return next;
      cur = *next;
    }
    if (toks.bad()) return error_code::invalid_pointer;
    return cur;
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  }
}

}  // namespace keel::json::detail
