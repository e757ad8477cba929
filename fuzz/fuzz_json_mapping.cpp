// SPDX-License-Identifier: MIT
// libFuzzer: struct mapping's direct read (from the text's positions) and its DOM read must agree
// on every input and kernel set: the direct read accepts a text only if the DOM read does, both
// read the same values, and with the strict defaults they accept the same texts; from_json
// reports the same error whichever path it takes. A read into the value the previous input left
// (storage reused) gives what a read into a new value gives.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <keel/json.h>
#include <keel/json/mapping.h>

namespace fuzzed {

struct leaf {
  static constexpr std::string_view json_tag = "leaf";
  std::optional<double> x;
  std::vector<std::int32_t> n;
};
KEEL_FIELDS(leaf, x, n)

struct text {
  static constexpr std::string_view json_tag = "text";
  std::string s;
};
KEEL_FIELDS(text, s)

struct root {
  std::optional<std::string> a;
  std::optional<std::vector<leaf>> b;
  std::optional<std::map<std::string, std::uint64_t>> c;
  std::optional<std::variant<leaf, text>> d;
  std::optional<std::array<bool, 2>> e;
  std::optional<keel::json::mutable_document> f;
  // Leaves the direct read converts itself (strings without a backslash, true/false,
  // non-negative integers of up to 19 digits), in arrays that a cut text can end inside.
  std::optional<std::vector<std::string>> g;
  std::optional<std::vector<std::optional<bool>>> h;
  std::optional<std::vector<std::int16_t>> i;
  std::optional<std::vector<bool>> j;  // elements as bits, read through proxies
};
KEEL_FIELDS(root, a, b, c, d, e, f, g, h, i, j)

}  // namespace fuzzed

namespace {

using namespace keel::json;

void check(bool cond) {
  if (!cond) std::abort();
}

template <class T>
void agree(std::string_view in, parse_options po, bool exact) {
  for (const keel::isa k : keel::all_isas) {
    if (!isa_supported(k)) continue;
    po.isa = k;
    parser p(po);
    read_options ro;
    ro.reject_unknown_keys = in.size() % 3 == 0;
    T by_dom{}, by_direct{}, by_default{};
    ro.path = read_path::dom;
    const mapping_error dom_error = from_json(p, in, by_dom, ro);
    const bool direct_ok = detail::read_direct(p, in, by_direct, ro);
    check(!direct_ok || !dom_error);
    check(!exact || direct_ok == !dom_error);
    if (direct_ok) check(to_json(by_direct).value_or("") == to_json(by_dom).value_or(""));
    ro.path = read_path::direct;
    const mapping_error e = from_json(p, in, by_default, ro);
    check(e.code == dom_error.code && e.pointer == dom_error.pointer && e.line == dom_error.line &&
          e.column == dom_error.column);
    // Over what the last input read (or the failed read left): the same values.
    static T previous{};
    const mapping_error again = from_json(p, in, previous, ro);
    check(again.code == dom_error.code);
    if (!again) check(to_json(previous).value_or("") == to_json(by_dom).value_or(""));
  }
}

void run(std::string_view in, const parse_options& po, bool exact) {
  agree<fuzzed::root>(in, po, exact);
  agree<std::vector<fuzzed::root>>(in, po, exact);
  agree<std::vector<std::string>>(in, po, exact);
  agree<mutable_document>(in, po, exact);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  run(in, parse_options{}, true);
  parse_options relaxed;
  relaxed.allow_trailing_commas = relaxed.allow_nan_inf = relaxed.allow_bom = true;
  relaxed.allow_invalid_utf8 = relaxed.big_integers_as_raw = true;
  relaxed.max_depth = 8;
  // Trailing commas in a variant or std::array are left to the DOM read: not exact.
  run(in, relaxed, false);
  return 0;
}
