// SPDX-License-Identifier: MIT
// Reading the DOM: indexing, key lookup, JSON Pointer, equality.
#include <cstring>
#include <string_view>

#include "json/compare.h"
#include "json/pointer.h"
#include "keel/json/value.h"

namespace keel::json {

result<value> value::at(std::size_t i) const noexcept {
  if (!is_array()) return error_code::type_mismatch;
  if (i >= sized()) return error_code::not_found;
  value v(n_ + 1, s_);
  for (; i > 0; --i) v = v.next();
  return v;
}

result<value> value::find(std::string_view key) const noexcept {
  if (!is_object()) return error_code::type_mismatch;
  for (const member m : members()) {
    if (m.key == key) return m.value;
  }
  return error_code::not_found;
}

result<value> value::at_pointer(std::string_view pointer) const noexcept {
  if (pointer.empty()) return *this;
  if (pointer[0] != '/') return error_code::invalid_pointer;
  value cur = *this;
  try {
    detail::pointer_tokens toks(pointer);
    while (toks.next()) {
      const std::string& key = toks.token();
      if (cur.is_object()) {
        auto r = cur.find(key);
        if (!r) return r;
        cur = *r;
      } else if (cur.is_array()) {
        std::size_t i = 0;
        if (!detail::array_index(key, i))
          return key == "-" ? error_code::not_found : error_code::invalid_pointer;
        auto r = cur.at(i);
        if (!r) return r;
        cur = *r;
      } else {
        return error_code::not_found;
      }
    }
    if (toks.bad()) return error_code::invalid_pointer;
  } catch (...) {
    return error_code::out_of_memory;
  }
  return cur;
}

bool value::equals(const value& o) const noexcept {
  if (n_ == nullptr || o.n_ == nullptr) return n_ == o.n_;
  return detail::equal<false>(*this, o);
}

}  // namespace keel::json
