// SPDX-License-Identifier: MIT
// RFC 7396 JSON Merge Patch: applying one.
#include <new>

#include "keel/json/patch.h"

namespace keel::json {
namespace {

// MergePatch(target, patch) of RFC 7396 section 2, in place.
error_code merge(mutable_value target, const value& patch) {
  if (!patch.is_object()) return target.set(patch).code;
  if (!target.is_object()) {
    if (error e = target.set(empty_object)) return e.code;
  }
  for (const member m : patch.members()) {
    if (m.value.is_null()) {
      (void)target.erase(m.key);  // absent: nothing to remove
      continue;
    }
    if (!m.value.is_object()) {
      if (auto r = target.assign(m.key, m.value); !r) return r.code();
      continue;
    }
    auto child = target.find(m.key);
    if (!child) child = target.insert(m.key, empty_object);
    if (!child) return child.code();
    if (error_code c = merge(*child, m.value); c != error_code::ok) return c;
  }
  return error_code::ok;
}

}  // namespace

error apply_merge_patch(mutable_document& doc, const value& patch) noexcept {
  if (!patch.valid()) return {error_code::not_found};
  try {
    return {merge(doc.root(), patch)};
  } catch (const std::bad_alloc&) {
    return {error_code::out_of_memory};
  }
}

}  // namespace keel::json
