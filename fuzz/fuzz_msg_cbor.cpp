// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's cbor reader (the check: msg_codec_check.h).
#include "msg_codec_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace km = keel::msg;
  return keel::fuzz::check_codec(
      data, size,
      [](km::bytes_view in, const km::read_options& o) { return km::value_from_cbor(in, o); },
      [](km::bytes_view in, const km::read_options& o) { return km::from_cbor(in, o); },
      [](km::bytes_view in, km::message& out, const km::read_options& o) {
        return km::read_cbor(in, out, o);
      },
      [](const km::value& v, std::string& out) { km::write_cbor(v, out); },
      [](const km::message& m) { return km::to_cbor(m); });
}
