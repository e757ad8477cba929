// SPDX-License-Identifier: MIT
// libFuzzer: keel::json must never crash, every kernel set must agree, and whatever it accepts
// must survive write -> parse (minified and pretty) as an equal DOM, and validate() must return
// what parse() does on every kernel set. Each input is parsed with the strict defaults and again
// with every relaxation turned on.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <keel/json.h>

namespace {

using namespace keel::json;

void check(bool cond) {
  if (!cond) std::abort();
}

void round_trip(const value& v, const parse_options& po) {
  for (bool pretty : {false, true}) {
    write_options wo;
    wo.pretty = pretty;
    wo.nonfinite = nonfinite_policy::literal;
    auto text = write(v, wo);
    if (!text.ok()) {
      // Only escaping is optional; the default writer accepts every parsed document.
      std::abort();
    }
    parse_options again = po;
    again.stop_after_first = false;
    again.allow_comments = false;
    auto back = parse(*text, again);
    check(back.ok());
    check(back->root() == v);
  }
}

void run(std::string_view in, parse_options po) {
  po.isa = isa::scalar;
  auto ref = parse(in, po);
  for (isa k : keel::all_isas) {
    if (k == isa::scalar || !isa_supported(k)) continue;
    po.isa = k;
    auto r = parse(in, po);
    check(r.ok() == ref.ok());
    check(validate(in, po) == (r.ok() ? error{} : r.error()));
    if (!r.ok()) {
      check(r.code() == ref.code() && r.error().offset == ref.error().offset);
      check(r.error().offset <= in.size() && r.error().line >= 1);
    } else {
      check(r->root() == ref->root());
    }
  }
  po.isa = isa::scalar;
  check(validate(in, po) == (ref.ok() ? error{} : ref.error()));
  if (ref.ok()) round_trip(ref->root(), po);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  run(in, parse_options{});
  parse_options relaxed;
  relaxed.allow_comments = relaxed.allow_trailing_commas = relaxed.allow_nan_inf = true;
  relaxed.allow_bom = relaxed.allow_invalid_utf8 = relaxed.big_integers_as_raw = true;
  relaxed.stop_after_first = size % 2 == 1;
  relaxed.max_depth = 64;
  run(in, relaxed);
  return 0;
}
