// SPDX-License-Identifier: MIT
// Diffs: a JSON Patch (RFC 6902) or a merge patch (RFC 7396) that turns one value into another.
#include <algorithm>
#include <new>
#include <string>
#include <vector>

#include "json/pointer.h"
#include "keel/json/patch.h"

namespace keel::json {
namespace {

class patch_builder {
 public:
  explicit patch_builder(mutable_value ops) : ops_(ops) {}

  // Appends {"op": op, "path": path[, "value": v]}.
  void push(const char* op, const std::string& path, const value* v = nullptr) {
    auto o = ops_.push_back(empty_object);
    if (!o) throw std::bad_alloc();
    if (!o->insert("op", op) || !o->insert("path", path) || (v && !o->insert("value", *v)))
      throw std::bad_alloc();
  }

  void diff(const value& a, const value& b, std::string& path) {
    if (a.equals(b)) return;
    if (a.is_object() && b.is_object()) {
      for (const member m : a.members()) {
        if (b.find(m.key)) continue;
        const std::size_t len = path.size();
        detail::append_token(path, m.key);
        push("remove", path);
        path.resize(len);
      }
      for (const member m : b.members()) {
        const std::size_t len = path.size();
        detail::append_token(path, m.key);
        if (auto old = a.find(m.key)) {
          diff(*old, m.value, path);
        } else {
          push("add", path, &m.value);
        }
        path.resize(len);
      }
      return;
    }
    if (a.is_array() && b.is_array()) {
      diff_arrays(a, b, path);
      return;
    }
    push("replace", path, &b);
  }

 private:
  // Keeps the common beginning and end; pairs up the middles; removes or adds the rest.
  void diff_arrays(const value& a, const value& b, std::string& path) {
    std::vector<value> ea, eb;
    for (const value e : a.elements()) ea.push_back(e);
    for (const value e : b.elements()) eb.push_back(e);
    const std::size_t n = ea.size(), m = eb.size();
    std::size_t p = 0;
    while (p < n && p < m && ea[p].equals(eb[p])) ++p;
    std::size_t s = 0;
    while (s < n - p && s < m - p && ea[n - 1 - s].equals(eb[m - 1 - s])) ++s;
    const std::size_t na = n - p - s, nb = m - p - s, k = std::min(na, nb);
    const std::size_t len = path.size();
    auto at = [&](std::size_t i) {
      path.resize(len);
      path += '/';
      path += std::to_string(i);
    };
    for (std::size_t i = 0; i < k; ++i) {
      at(p + i);
      diff(ea[p + i], eb[p + i], path);
    }
    for (std::size_t i = nb; i < na; ++i) {  // a's extra elements: each at the same index
      at(p + nb);
      push("remove", path);
    }
    for (std::size_t i = na; i < nb; ++i) {
      at(p + i);
      push("add", path, &eb[p + i]);
    }
    path.resize(len);
  }

  mutable_value ops_;
};

// True if v, or an object below it outside arrays, has a null member: a merge patch would drop it.
bool has_null_member(const value& v) {
  if (!v.is_object()) return false;
  for (const member m : v.members())
    if (m.value.is_null() || has_null_member(m.value)) return true;
  return false;
}

// The merge patch turning a into b, into out (null on entry).
error_code merge_diff_into(const value& a, const value& b, mutable_value out) {
  if (!a.is_object() || !b.is_object()) {
    if (has_null_member(b)) return error_code::not_representable;
    return out.set(b).code;
  }
  if (error e = out.set(empty_object)) return e.code;
  for (const member m : a.members()) {
    if (b.find(m.key)) continue;
    if (auto r = out.insert(m.key, nullptr); !r) return r.code();
  }
  for (const member m : b.members()) {
    auto old = a.find(m.key);
    if (old && old->equals(m.value)) continue;
    if (m.value.is_null()) return error_code::not_representable;
    auto slot = out.insert(m.key, nullptr);
    if (!slot) return slot.code();
    const value from = old ? *old : value();
    if (!old) {
      if (has_null_member(m.value)) return error_code::not_representable;
      if (error e = slot->set(m.value)) return e.code;
      continue;
    }
    if (error_code c = merge_diff_into(from, m.value, *slot); c != error_code::ok) return c;
  }
  return error_code::ok;
}

}  // namespace

result<mutable_document> diff(const value& a, const value& b) noexcept {
  if (!a.valid() || !b.valid()) return error_code::not_found;
  try {
    mutable_document ops;
    if (error e = ops.root().set(empty_array)) return e;
    patch_builder builder(ops.root());
    std::string path;
    builder.diff(a, b, path);
    return ops;
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  }
}

result<mutable_document> merge_diff(const value& a, const value& b) noexcept {
  if (!a.valid() || !b.valid()) return error_code::not_found;
  try {
    mutable_document out;
    if (error_code c = merge_diff_into(a, b, out.root()); c != error_code::ok) return c;
    return out;
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  }
}

}  // namespace keel::json
