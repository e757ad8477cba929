// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's msgpack reader in both modes (the check: msg_codec_check.h).
#include "msg_codec_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace km = keel::msg;
  int rc = 0;
  for (km::fidelity mode : {km::fidelity::standard, km::fidelity::exact}) {
    rc |= keel::fuzz::check_codec(
        data, size, mode,
        [](km::bytes_view in, const km::read_options& o) { return km::value_from_msgpack(in, o); },
        [](km::bytes_view in, const km::read_options& o) { return km::from_msgpack(in, o); },
        [](km::bytes_view in, km::message& out, const km::read_options& o) {
          return km::read_msgpack(in, out, o);
        },
        [](const km::value& v, std::string& out, const km::write_options& o) {
          km::write_msgpack(v, out, o);
        },
        [](const km::message& m, const km::write_options& o) { return km::to_msgpack(m, o); });
  }
  return rc;
}
