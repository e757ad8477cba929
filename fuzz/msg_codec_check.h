// SPDX-License-Identifier: MIT
// The check shared by the MessagePack and CBOR fuzz targets: the reader must never crash or
// over-allocate; whatever value it accepts writes back to bytes that read back to an equal value,
// and writing that again gives the same bytes; reading the input as a message must agree with
// reading it as a value, and reading it into the message left by the previous input (whose
// storage the reader reuses) must give the same message, or an empty one and the same error. Each
// target runs the check in both modes of its form (standard and exact).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include <keel/msg.h>

namespace keel::fuzz {

inline void check(bool cond) {
  if (!cond) std::abort();
}

inline keel::msg::bytes_view view_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// value_from(bytes, opts), from(bytes, opts), read(bytes, message&, opts),
// write(value, std::string&, write_opts), to(message, write_opts): one form, in `mode`.
template <class ValueFrom, class From, class Read, class Write, class To>
int check_codec(const std::uint8_t* data, std::size_t size, keel::msg::fidelity mode,
                ValueFrom value_from, From from, Read read, Write write, To to) {
  keel::msg::read_options opts;
  opts.max_depth = 64;
  opts.mode = mode;
  keel::msg::write_options wopts;
  wopts.mode = mode;
  const keel::msg::bytes_view in(data, size);
  auto v = value_from(in, opts);
  auto m = from(in, opts);
  static keel::msg::message reused;
  const keel::msg::error re = read(in, reused, opts);
  if (re) {
    check(!m.ok() && re.code == m.code() && re.offset == m.error().offset);
    check(reused == keel::msg::message{});
  } else {
    check(m.ok() && reused == *m);
  }
  if (!v.ok()) {
    check(v.error().offset <= size);
    check(!m.ok() && m.code() == v.code() && m.error().offset == v.error().offset);
    return 0;
  }
  std::string out;
  write(*v, out, wopts);
  auto back = value_from(view_of(out), opts);
  check(back.ok() && *back == *v);
  std::string again;
  write(*back, again, wopts);
  check(again == out);
  if (m.ok()) {
    std::string mo = to(*m, wopts);
    auto mb = from(view_of(mo), opts);
    check(mb.ok() && *mb == *m);
  }
  return 0;
}

}  // namespace keel::fuzz
