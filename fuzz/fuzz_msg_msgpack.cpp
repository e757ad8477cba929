// SPDX-License-Identifier: MIT
// libFuzzer: keel::msg's msgpack reader must never crash or over-allocate; whatever value it
// accepts writes back to bytes that read back to an equal value, and writing that again gives the
// same bytes; reading the input as a message must agree with reading it as a value.
#include <cstdint>
#include <cstdlib>
#include <string>

#include <keel/msg.h>

namespace {

void check(bool cond) {
  if (!cond) std::abort();
}

keel::msg::bytes_view view_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  keel::msg::read_options opts;
  opts.max_depth = 64;
  const keel::msg::bytes_view in(data, size);
  auto v = keel::msg::value_from_msgpack(in, opts);
  auto m = keel::msg::from_msgpack(in, opts);
  if (!v.ok()) {
    check(v.error().offset <= size);
    check(!m.ok() && m.code() == v.code() && m.error().offset == v.error().offset);
    return 0;
  }
  std::string out;
  keel::msg::write_msgpack(*v, out);
  auto back = keel::msg::value_from_msgpack(view_of(out), opts);
  check(back.ok() && *back == *v);
  std::string again;
  keel::msg::write_msgpack(*back, again);
  check(again == out);
  if (m.ok()) {
    std::string mo = keel::msg::to_msgpack(*m);
    auto mb = keel::msg::from_msgpack(view_of(mo), opts);
    check(mb.ok() && *mb == *m);
  }
  return 0;
}
