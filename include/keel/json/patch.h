// SPDX-License-Identifier: MIT
// keel::json JSON Patch (RFC 6902), JSON Merge Patch (RFC 7396) and diffs that produce either
// (docs/json-patch.md).
//
//   auto doc = keel::json::mutable_document(parsed.root());
//   if (auto e = keel::json::apply_patch(doc, patch.root())) std::puts(e.to_string().c_str());
//   auto p = keel::json::diff(a.root(), b.root());   // a JSON Patch turning a into b
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "keel/json/error.h"
#include "keel/json/mutable.h"
#include "keel/json/value.h"

namespace keel::json {

// Why a JSON Patch failed: the code, the index of the operation in the patch array, its "op" and
// the pointer that failed ("path", or "from" for move/copy). No operation was applied.
struct patch_error {
  using exception_type = json::exception;
  // `operation` of invalid_patch when the patch itself is no array of operations.
  static constexpr std::size_t not_an_array = static_cast<std::size_t>(-1);
  error_code code = error_code::ok;
  std::size_t operation = 0;
  std::string op;
  std::string pointer;
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return json::message(code); }
  // "operation 2 (test /a/b): test operation failed: the values differ"; "the patch is not an
  // array of operations" (not_an_array)
  std::string to_string() const;
};

// Applies an RFC 6902 patch (an array of operations) to doc, atomically: on an error the
// document is left exactly as it was. `test` compares JSON values: numbers by value (1 equals
// 1.0), objects regardless of member order.
patch_error apply_patch(mutable_document& doc, const value& patch) noexcept;

// Applies an RFC 7396 merge patch to doc, in place. Only out_of_memory can fail, and doc may then
// hold part of the patch: where that matters, merge into a copy (mutable_document's copy
// constructor) and swap it in on success.
error apply_merge_patch(mutable_document& doc, const value& patch) noexcept;

// A JSON Patch (an array of operations) that turns a into b: apply_patch(a, diff(a, b)) equals b
// (values of different types, such as 1 and 1.0, are replaced). Objects are compared member by
// member, arrays element by element after their common beginning and end.
result<mutable_document> diff(const value& a, const value& b) noexcept;

// A merge patch that turns a into b. not_representable when b has a null member that a lacks or
// has with another value (a merge patch's null removes a member).
result<mutable_document> merge_diff(const value& a, const value& b) noexcept;

// JSON equality as RFC 6902 `test` uses it: numbers by value, objects regardless of member order.
bool json_equal(const value& a, const value& b) noexcept;
bool json_equal(const mutable_value& a, const value& b) noexcept;

// The JSON Pointer of an RFC 6901 URI fragment ("#/a%20b" -> "/a b"); invalid_pointer when it
// does not start with '#' or has a malformed %XX escape.
result<std::string> pointer_from_fragment(std::string_view fragment);
// Appends "/" and a key escaped for a pointer ('~' -> "~0", '/' -> "~1").
void append_pointer_token(std::string& pointer, std::string_view key);

}  // namespace keel::json
