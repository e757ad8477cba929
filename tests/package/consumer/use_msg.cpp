// SPDX-License-Identifier: MIT
// The installed keel::msg: build a message, write the binary form, read it back.
#include <keel/msg.h>

#include <cstdint>
#include <cstdio>
#include <string>

int use_msg() {
  keel::msg::message m;
  m.header.type = "order";
  m.set("id", std::uint64_t{42});
  m.set("price", 9.5);
  const std::string bytes = keel::msg::to_binary(m);
  auto back = keel::msg::from_binary(bytes);
  if (!back) {
    std::printf("use_msg: read failed\n");
    return 1;
  }
  auto id = back->get<std::uint32_t>("id");
  if (!id || *id != 42 || back->header.type != "order") {
    std::printf("use_msg: unexpected values\n");
    return 1;
  }
  if (keel::msg::from_binary(bytes.substr(0, bytes.size() - 1))) {
    std::printf("use_msg: truncated input accepted\n");
    return 1;
  }
  return 0;
}
