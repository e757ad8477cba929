// SPDX-License-Identifier: MIT
// libFuzzer: JSON Patch and Merge Patch application on a document and a patch taken from the
// input (split at its first NUL byte, or in half). Nothing may crash; a failed JSON Patch leaves
// the document as it was; a successful one gives a document the writer accepts; and diffs of the
// document before and after, applied to it, give the document after.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <keel/json.h>
#include <keel/json/patch.h>

namespace {

using namespace keel::json;

void check(bool cond) {
  if (!cond) std::abort();
}

// True if some object below v has two members with the same key (diffs compare the first).
bool duplicate_keys(const value& v) {
  if (v.is_array()) {
    for (const value e : v.elements())
      if (duplicate_keys(e)) return true;
  } else if (v.is_object()) {
    for (const member m : v.members()) {
      std::size_t same = 0;
      for (const member o : v.members()) same += o.key == m.key;
      if (same > 1 || duplicate_keys(m.value)) return true;
    }
  }
  return false;
}

void check_diffs(const value& before, const value& after) {
  if (duplicate_keys(before) || duplicate_keys(after)) return;
  auto ops = diff(before, after);
  check(ops.ok());
  auto patch = ops->to_document();
  check(patch.ok());
  mutable_document again(before);
  check(!apply_patch(again, patch->root()));
  check(again.root().equals(after));
  if (auto md = merge_diff(before, after)) {
    auto mp = md->to_document();
    check(mp.ok());
    mutable_document merged(before);
    check(!apply_merge_patch(merged, mp->root()));
    check(merged.root().equals(after));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::size_t split = in.find('\0');
  if (split == std::string_view::npos) split = size / 2;
  const std::string_view doc_text = in.substr(0, split);
  const std::string_view patch_text = in.substr(split < size ? split + 1 : split);
  auto doc = parse(doc_text);
  auto patch = parse(patch_text);
  if (!doc.ok() || !patch.ok()) return 0;

  mutable_document m(doc->root());
  const patch_error e = apply_patch(m, patch->root());
  if (e) {
    check(m.root().equals(doc->root()));
    check(!e.to_string().empty());
  } else {
    check(write(m.root()).ok());
    auto after = m.to_document();
    check(after.ok());
    check_diffs(doc->root(), after->root());
  }

  mutable_document merged(doc->root());
  check(!apply_merge_patch(merged, patch->root()));
  auto text = write(merged.root(), {.pretty = true});
  check(text.ok());
  auto back = parse(*text);
  check(back.ok() && merged.root().equals(back->root()));
  return 0;
}
