// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's xml reader (the check: msg_fuzz_check.h); whatever it accepts writes
// back to text that reads back equal.
#include "msg_fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace km = keel::msg;
  return keel::fuzz::check_text(
      data, size,
      [](std::string_view in, const km::read_options& o) { return km::from_xml(in, o); },
      [](const km::message& m, const km::read_options& o) {
        const std::string text = km::to_xml(m);
        auto back = km::from_xml(text, o);
        keel::fuzz::check(back.ok() && *back == m);
      });
}
