// SPDX-License-Identifier: MIT
// libFuzzer: keel's binary message reader must never crash or over-allocate; whatever it accepts
// writes back to the same bytes (the form is canonical) and reads back equal; the view agrees
// with the reader on every top-level name it finds; reading into a message that already holds one
// gives the same message.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include <keel/msg.h>

namespace {

void check(bool cond) {
  if (!cond) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const keel::msg::bytes_view in(data, size);
  keel::msg::read_options opts;
  opts.max_depth = 64;
  auto m = keel::msg::from_binary(in, opts);
  auto v = keel::msg::view::open(in);
  // Reading into a message that holds the previous input's message (reusing its storage) gives
  // the same result as a fresh read; a failed read leaves it empty.
  static keel::msg::message reused;
  const keel::msg::error re = keel::msg::read_binary(in, reused, opts);
  check(static_cast<bool>(re) == !m.ok());
  check(re ? reused == keel::msg::message{} : reused == *m);
  if (!m.ok()) {
    check(m.error().offset <= size);
    check(re.code == m.error().code && re.offset == m.error().offset);
    // The view may still answer lookups on damaged input, but never crash.
    if (v.ok()) {
      for (std::size_t i = 0; i < 4; ++i) {
        const std::string name(1, static_cast<char>('a' + i));
        auto f = v->body().find(name);
        if (f.ok()) (void)f->decode(opts);
        auto g = v->find(name);
        if (g.ok()) (void)g->decode(opts);
      }
    }
    return 0;
  }
  const std::string out = keel::msg::to_binary(*m);
  check(out.size() == size && std::memcmp(out.data(), data, size) == 0);
  check(v.ok());
  check(v->type() == m->header.type && v->size() == m->size());
  for (const auto& e : *m) {
    auto f = v->find(e.name);
    check(f.ok());
    auto d = f->decode(opts);
    check(d.ok() && *d == *m->find(e.name));
  }
  return 0;
}
