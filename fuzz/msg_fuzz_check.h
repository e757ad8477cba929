// SPDX-License-Identifier: MIT
// The checks shared by keel::msg's fuzz targets of the MessagePack, CBOR, JSON and XML forms.
//
// check_codec (MessagePack, CBOR): the reader must never crash or over-allocate; whatever value it
// accepts writes back to bytes that read back to an equal value, and writing that again gives the
// same bytes; reading the input as a message must agree with reading it as a value, and reading it
// into the message left by the previous input (whose storage the reader reuses) must give the same
// message, or an empty one and the same error. KEEL_FUZZ_MSG_CODEC(form) is a target's entry
// point: the check in both modes of the form (standard and exact).
//
// check_text (JSON, XML): the reader must never crash or over-allocate; an error names an offset
// inside the input with its line and column; what it accepts goes to the target's round trip.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

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

// check_codec in both modes (standard and exact).
template <class... Functions>
int check_codec_modes(const std::uint8_t* data, std::size_t size, Functions... functions) {
  int rc = 0;
  for (keel::msg::fidelity mode : {keel::msg::fidelity::standard, keel::msg::fidelity::exact})
    rc |= check_codec(data, size, mode, functions...);
  return rc;
}

// Reads the input as text with from(text, read_options) (depth limit 64); on an error checks its
// offset and line (too_large has no line), else calls round_trip(message, read_options), which
// checks what the form writes.
template <class From, class RoundTrip>
int check_text(const std::uint8_t* data, std::size_t size, From from, RoundTrip round_trip) {
  keel::msg::read_options opts;
  opts.max_depth = 64;
  auto m = from(std::string_view(reinterpret_cast<const char*>(data), size), opts);
  if (!m.ok()) {
    check(m.error().offset <= size);
    check(m.error().line >= 1 || m.code() == keel::msg::error_code::too_large);
    return 0;
  }
  round_trip(*m, opts);
  return 0;
}

}  // namespace keel::fuzz

// The entry point of a MessagePack or CBOR target: check_codec_modes over keel::msg's
// value_from_<form>, from_<form>, read_<form>, write_<form> (of a value) and to_<form>.
#define KEEL_FUZZ_MSG_CODEC(form)                                                                  \
  extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {              \
    namespace km = keel::msg;                                                                      \
    return keel::fuzz::check_codec_modes(                                                          \
        data, size,                                                                                \
        [](km::bytes_view in, const km::read_options& o) { return km::value_from_##form(in, o); }, \
        [](km::bytes_view in, const km::read_options& o) { return km::from_##form(in, o); },       \
        [](km::bytes_view in, km::message& out, const km::read_options& o) {                       \
          return km::read_##form(in, out, o);                                                      \
        },                                                                                         \
        [](const km::value& v, std::string& out, const km::write_options& o) {                     \
          km::write_##form(v, out, o);                                                             \
        },                                                                                         \
        [](const km::message& m, const km::write_options& o) { return km::to_##form(m, o); });     \
  }
