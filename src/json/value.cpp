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
  return detail::resolve_pointer(*this, pointer);
}

bool value::equals(const value& o) const noexcept {
  if (n_ == nullptr || o.n_ == nullptr) return n_ == o.n_;
  return detail::equal<false>(*this, o);
}

}  // namespace keel::json
