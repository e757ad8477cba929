// SPDX-License-Identifier: MIT
// RFC 6901 JSON Pointer tokens, shared by the immutable and mutable DOMs and the patch code.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace keel::json::detail {

// Walks the reference tokens of a pointer (non-empty, starting with '/'): each next() decodes one
// token (~1 -> '/', ~0 -> '~') into token(). A malformed escape makes next() return false with
// bad() true.
class pointer_tokens {
 public:
  explicit pointer_tokens(std::string_view pointer) noexcept : p_(pointer) {}
  // True when the pointer is syntactically a pointer ("" or starting with '/').
  bool well_formed() const noexcept { return p_.empty() || p_[0] == '/'; }
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

// An RFC 6901 array index: "0" or digits without a leading zero, below 2^63.
bool array_index(std::string_view tok, std::size_t& i) noexcept;

// Appends the escaped form of a key (~ -> ~0, / -> ~1) to a pointer, after a '/'.
void append_token(std::string& pointer, std::string_view key);

}  // namespace keel::json::detail
