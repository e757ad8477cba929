// SPDX-License-Identifier: MIT
// keel::msg quick start: a typed message with a header, its binary form, checked reads, and a
// damaged input reported with its byte offset.
#include <keel/msg.h>

#include <cstdint>
#include <cstdio>
#include <string>

int main() {
  keel::msg::message m;
  m.header.source_id = "billing";
  m.header.type = "invoice";
  m.set("id", std::uint64_t{1042});
  m.set("amount", 129.95);
  m.set("currency", "EUR");
  m.add("line", "coffee");  // add appends even when the name exists; set replaces
  m.add("line", "tea");

  const std::string bytes = keel::msg::to_binary(m);
  auto back = keel::msg::from_binary(bytes);
  if (!back) {
    std::fprintf(stderr, "from_binary failed\n");
    return 1;
  }
  // get<T> checks the type and, between integer types, the range.
  auto id = back->get<std::uint32_t>("id");
  auto small = back->get<std::int8_t>("id");        // 1042 does not fit: out_of_range
  auto line = back->get<std::string_view>("line");  // the first entry of that name
  if (!id || small || !line) return 1;
  std::printf("%zu bytes, type %s, id %u, first line %.*s\n", bytes.size(),
              back->header.type.c_str(), *id, static_cast<int>(line->size()), line->data());

  // Every truncation of the binary form is rejected.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    if (keel::msg::from_binary(std::string_view(bytes).substr(0, n))) return 1;
  }
  std::printf("every truncated prefix rejected\n");
  return 0;
}
