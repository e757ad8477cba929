// SPDX-License-Identifier: MIT
// libFuzzer: keel::json must never crash, every kernel set must agree, and whatever it accepts
// must survive write -> parse (minified and pretty) as an equal DOM, and validate() and
// parse_in_place() must return what parse() does on every kernel set (in place: an equal DOM, or
// the same error with the text unchanged). Each input is parsed with the strict defaults and again
// with every relaxation turned on.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

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

void in_place_agrees(std::string_view in, const parse_options& po, const result<document>& r) {
  // Exactly the padding after the text: a read past it is an ASan report.
  std::vector<char> buf(in.begin(), in.end());
  buf.resize(in.size() + in_place_padding, 'x');
  parser p(po);
  auto q = p.parse_in_place(buf.data(), in.size(), buf.size());
  check(q.ok() == r.ok());
  if (!q.ok()) {
    check(q.error() == r.error());
    check(std::string_view(buf.data(), in.size()) == in);
  } else {
    check(*q == r->root());
    // The writer reads whole blocks past each string: they must stay within the padding.
    write_options wo;
    wo.nonfinite = nonfinite_policy::literal;
    check(*write(*q, wo) == *write(r->root(), wo));
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
    in_place_agrees(in, po, r);
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
