// SPDX-License-Identifier: MIT
// Reading the DOM: indexing, key lookup, JSON Pointer, equality.
#include <cstring>
#include <string_view>

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

namespace {

// Decodes one reference token (~1 -> '/', ~0 -> '~') into out; false if malformed.
bool unescape_token(std::string_view tok, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < tok.size(); ++i) {
    if (tok[i] != '~') {
      out.push_back(tok[i]);
      continue;
    }
    if (i + 1 >= tok.size() || (tok[i + 1] != '0' && tok[i + 1] != '1')) return false;
    out.push_back(tok[i + 1] == '0' ? '~' : '/');
    ++i;
  }
  return true;
}

// RFC 6901 array index: "0" or digits without a leading zero.
bool array_index(std::string_view tok, std::size_t& i) {
  if (tok.empty() || tok.size() > 19 || (tok.size() > 1 && tok[0] == '0')) return false;
  i = 0;
  for (char c : tok) {
    if (c < '0' || c > '9') return false;
    i = i * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

}  // namespace

result<value> value::at_pointer(std::string_view pointer) const noexcept {
  if (pointer.empty()) return *this;
  if (pointer[0] != '/') return error_code::invalid_pointer;
  value cur = *this;
  std::string key;
  try {
    std::size_t pos = 1;
    for (;;) {
      const std::size_t slash = pointer.find('/', pos);
      const std::string_view tok = pointer.substr(
          pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
      if (!unescape_token(tok, key)) return error_code::invalid_pointer;
      if (cur.is_object()) {
        auto r = cur.find(key);
        if (!r) return r;
        cur = *r;
      } else if (cur.is_array()) {
        std::size_t i = 0;
        if (!array_index(key, i))
          return key == "-" ? error_code::not_found : error_code::invalid_pointer;
        auto r = cur.at(i);
        if (!r) return r;
        cur = *r;
      } else {
        return error_code::not_found;
      }
      if (slash == std::string_view::npos) break;
      pos = slash + 1;
    }
  } catch (...) {
    return error_code::out_of_memory;
  }
  return cur;
}

bool value::equals(const value& o) const noexcept {
  if (n_ == nullptr || o.n_ == nullptr) return n_ == o.n_;
  if (type() != o.type()) return false;
  switch (type()) {
    case json::type::null:
      return true;
    case json::type::boolean:
    case json::type::int64:
    case json::type::uint64:
      return n_->data == o.n_->data;
    case json::type::double_: {
      double a, b;
      std::memcpy(&a, &n_->data, sizeof a);
      std::memcpy(&b, &o.n_->data, sizeof b);
      return a == b || (a != a && b != b);  // NaN (allow_nan_inf) equals NaN here
    }
    case json::type::string:
    case json::type::raw_number:
      return raw_string() == o.raw_string();
    case json::type::array: {
      if (sized() != o.sized()) return false;
      auto b = o.elements().begin();
      for (const value e : elements()) {
        if (!e.equals(*b)) return false;
        ++b;
      }
      return true;
    }
    case json::type::object: {
      if (sized() != o.sized()) return false;
      // Same order first (the common case), then by key.
      bool same_order = true;
      auto b = o.members().begin();
      for (const member m : members()) {
        const member mo = *b;
        if (m.key != mo.key || !m.value.equals(mo.value)) {
          same_order = false;
          break;
        }
        ++b;
      }
      if (same_order) return true;
      for (const member m : members()) {
        auto r = o.find(m.key);
        if (!r || !m.value.equals(*r)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace keel::json
