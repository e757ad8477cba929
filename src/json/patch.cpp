// SPDX-License-Identifier: MIT
// RFC 6902 JSON Patch: reading the operations, applying them atomically, the error text; JSON
// equality as `test` uses it; URI fragment pointers.
#include <new>
#include <string>
#include <utility>

#include "json/compare.h"
#include "json/pointer.h"
#include "keel/json/patch.h"

namespace keel::json {
namespace {

// The members of one operation object.
struct operation {
  std::string_view op;
  std::string_view path, from;
  value val;
  bool has_path = false, has_from = false;
};

// Reads an operation; invalid_patch when it is not an object, a member it needs is missing or
// not a string, or op/path/from/value appears twice (RFC 6902 A.13). Other members are ignored.
error_code read(const value& v, operation& o) {
  if (!v.is_object()) return error_code::invalid_patch;
  bool has_op = false;
  for (const member m : v.members()) {
    if (m.key == "op" || m.key == "path" || m.key == "from") {
      if (!m.value.is_string()) return error_code::invalid_patch;
      const std::string_view s = m.value.raw_string();
      bool& seen = m.key == "op" ? has_op : m.key == "path" ? o.has_path : o.has_from;
      if (seen) return error_code::invalid_patch;
      seen = true;
      (m.key == "op" ? o.op : m.key == "path" ? o.path : o.from) = s;
    } else if (m.key == "value") {
      if (o.val.valid()) return error_code::invalid_patch;
      o.val = m.value;
    }
  }
  if (!has_op || !o.has_path) return error_code::invalid_patch;
  const bool needs_value = o.op == "add" || o.op == "replace" || o.op == "test";
  const bool needs_from = o.op == "move" || o.op == "copy";
  if (!needs_value && !needs_from && o.op != "remove") return error_code::invalid_patch;
  if (needs_value && !o.val.valid()) return error_code::invalid_patch;
  if (needs_from && !o.has_from) return error_code::invalid_patch;
  return error_code::ok;
}

// True if `inner` is a proper prefix location of `outer` ("/a" of "/a/b").
bool proper_prefix(std::string_view inner, std::string_view outer) {
  return outer.size() > inner.size() && outer.substr(0, inner.size()) == inner &&
         outer[inner.size()] == '/';
}

// Applies one operation; on failure `failed` names the pointer at fault.
error_code apply(mutable_document& doc, const operation& o, std::string_view& failed) {
  failed = o.path;
  if (o.op == "add") return doc.add_at_pointer(o.path, o.val).code();
  if (o.op == "replace") return doc.replace_at_pointer(o.path, o.val).code();
  if (o.op == "remove") return doc.remove_at_pointer(o.path).code;
  if (o.op == "test") {
    auto target = doc.at_pointer(o.path);
    if (!target) return target.code();
    return detail::equal<true>(*target, o.val) ? error_code::ok : error_code::test_failed;
  }
  // move and copy
  failed = o.from;
  auto source = doc.at_pointer(o.from);
  if (!source) return source.code();
  if (o.op == "copy") {
    failed = o.path;
    return doc.add_at_pointer(o.path, *source).code();
  }
  if (o.from == o.path) return error_code::ok;
  if (proper_prefix(o.from, o.path)) return error_code::invalid_patch;  // into its own child
  const mutable_document moved(*source);
  if (error e = doc.remove_at_pointer(o.from)) return e.code;
  failed = o.path;
  return doc.add_at_pointer(o.path, moved.root()).code();
}

}  // namespace

std::string patch_error::to_string() const {
  if (code == error_code::invalid_patch && operation == not_an_array)
    return "the patch is not an array of operations";
  std::string s = "operation " + std::to_string(operation);
  if (!op.empty() || !pointer.empty()) {
    s += " (";
    s += op.empty() ? "?" : op;
    s += " \"" + pointer + "\")";
  }
  s += ": ";
  s += message();
  return s;
}

patch_error apply_patch(mutable_document& doc, const value& patch) noexcept {
  patch_error err;
  try {
    if (!patch.valid() || !patch.is_array()) {
      err.code = error_code::invalid_patch;
      err.operation = patch_error::not_an_array;
      return err;
    }
    // One operation other than move changes nothing when it fails; more are applied to a copy
    // that replaces the document only when every one succeeded.
    const std::size_t n = patch.size();
    const bool in_place = n == 1 && patch.at(0)->find("op").get<std::string_view>().value_or(
                                        std::string_view{}) != "move";
    mutable_document work;
    if (!in_place) work = doc;
    mutable_document& target = in_place ? doc : work;
    std::size_t i = 0;
    for (const value v : patch.elements()) {
      operation o;
      std::string_view failed;
      error_code code = read(v, o);
      if (code == error_code::ok) code = apply(target, o, failed);
      if (code != error_code::ok) {
        err.code = code;
        err.operation = i;
        err.op = std::string(o.op);
        err.pointer =
            std::string(failed.empty() && code == error_code::invalid_patch ? o.path : failed);
        return err;
      }
      ++i;
    }
    if (!in_place) doc = std::move(work);
  } catch (const std::bad_alloc&) {
    err.code = error_code::out_of_memory;
  }
  return err;
}

bool json_equal(const value& a, const value& b) noexcept {
  if (!a.valid() || !b.valid()) return a.valid() == b.valid();
  return detail::equal<true>(a, b);
}

bool json_equal(const mutable_value& a, const value& b) noexcept {
  if (!a.valid() || !b.valid()) return a.valid() == b.valid();
  return detail::equal<true>(a, b);
}

result<std::string> pointer_from_fragment(std::string_view fragment) {
  if (fragment.empty() || fragment[0] != '#') return error_code::invalid_pointer;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 1; i < fragment.size(); ++i) {
    if (fragment[i] != '%') {
      out.push_back(fragment[i]);
      continue;
    }
    if (i + 2 >= fragment.size()) return error_code::invalid_pointer;
    const int hi = hex(fragment[i + 1]), lo = hex(fragment[i + 2]);
    if (hi < 0 || lo < 0) return error_code::invalid_pointer;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (!out.empty() && out[0] != '/') return error_code::invalid_pointer;
  return out;
}

void append_pointer_token(std::string& pointer, std::string_view key) {
  detail::append_token(pointer, key);
}

}  // namespace keel::json
