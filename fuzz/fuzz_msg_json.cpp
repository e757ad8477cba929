// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's json reader (the check: msg_fuzz_check.h); whatever it accepts writes
// back, in the typed and the plain style, to text that reads back (equal, in the typed style).
#include "msg_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace km = keel::msg;
  return keel::fuzz::check_text(
      data, size,
      [](std::string_view in, const km::read_options& o) { return km::from_json(in, o); },
      [](const km::message& m, const km::read_options& o) {
        for (auto style : {km::json_style::typed, km::json_style::plain}) {
          const std::string text = km::to_json(m, {.style = style});
          auto back = km::from_json(text, o);
          keel::fuzz::check(back.ok());
          if (style == km::json_style::typed) keel::fuzz::check(*back == m);
        }
      });
}
