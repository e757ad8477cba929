// SPDX-License-Identifier: MIT
// keel::msg::message: a header (who sent it, to whom, what kind) and a map of named values.
#pragma once

#include <string>

#include "keel/msg/map.h"
#include "keel/msg/value.h"

namespace keel::msg {

struct header {
  std::string source_id{};
  std::string source_sub_id{};
  std::string target_id{};
  std::string target_sub_id{};
  std::string type{};  // message type
  std::string version{};
  friend bool operator==(const header&, const header&) = default;
};

// The body is the map the message is; the header is beside it.
class message : public map {
 public:
  msg::header header;

  message() = default;
  explicit message(msg::header h) : header(std::move(h)) {}
  map& body() noexcept { return *this; }
  const map& body() const noexcept { return *this; }
  bool operator==(const message& o) const noexcept {
    return header == o.header && body() == o.body();
  }
};

}  // namespace keel::msg
