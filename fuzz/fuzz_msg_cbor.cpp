// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's cbor reader in both modes (the check: msg_codec_check.h).
#include "msg_codec_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace km = keel::msg;
  int rc = 0;
  for (km::fidelity mode : {km::fidelity::standard, km::fidelity::exact}) {
    rc |= keel::fuzz::check_codec(
        data, size, mode,
        [](km::bytes_view in, const km::read_options& o) { return km::value_from_cbor(in, o); },
        [](km::bytes_view in, const km::read_options& o) { return km::from_cbor(in, o); },
        [](km::bytes_view in, km::message& out, const km::read_options& o) {
          return km::read_cbor(in, out, o);
        },
        [](const km::value& v, std::string& out, const km::write_options& o) {
          km::write_cbor(v, out, o);
        },
        [](const km::message& m, const km::write_options& o) { return km::to_cbor(m, o); });
  }
  return rc;
}
