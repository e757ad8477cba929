// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's json reader must never crash or over-allocate; an error names an offset
// inside the input with its line and column; whatever it accepts, in the typed form (or XML),
// writes back to text that reads back equal.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <keel/msg.h>

namespace {

void check(bool cond) {
  if (!cond) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  keel::msg::read_options opts;
  opts.max_depth = 64;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  auto m = keel::msg::from_json(in, opts);
  if (!m.ok()) {
    check(m.error().offset <= size);
    check(m.error().line >= 1 || m.code() == keel::msg::error_code::too_large);
    return 0;
  }
  for (auto style : {keel::msg::json_style::typed, keel::msg::json_style::plain}) {
    const std::string text = keel::msg::to_json(*m, {.style = style});
    auto back = keel::msg::from_json(text, opts);
    check(back.ok());
    if (style == keel::msg::json_style::typed) check(*back == *m);
  }
  return 0;
}
