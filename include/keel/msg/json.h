// SPDX-License-Identifier: MIT
// JSON forms of a message, read through keel::json (docs/msg-format.md):
// - plain: the body as a JSON object (or [header, body] when the header is set), for people and
//   for any JSON: objects are maps, arrays arrays, integers int64 or uint64, other numbers
//   float64. Keel types JSON lacks are written as their nearest JSON (bytes as base64, ...).
// - typed: {"keel.msg": 1, "header": {...}, "body": [[name, type, value], ...]}, which keeps every
//   type and bit exactly (integer widths, bytes, timestamps, float32 vs float64, NaN payloads).
#pragma once

#include <string>
#include <string_view>

#include "keel/msg/binary.h"
#include "keel/msg/error.h"
#include "keel/msg/message.h"

namespace keel::msg {

enum class json_style : std::uint8_t { plain, typed };

struct json_write_options {
  json_style style = json_style::plain;
  bool pretty = false;  // newlines and two-space indentation
};

void write_json(const message& m, std::string& out, const json_write_options& options = {});
std::string to_json(const message& m, const json_write_options& options = {});

// Reads either style: the typed form is recognised by its "keel.msg" member. Errors carry the
// byte offset, line and column (of the syntax error, or of the value that does not fit).
error read_json(std::string_view text, message& out, const read_options& options = {});
result<message> from_json(std::string_view text, const read_options& options = {});

}  // namespace keel::msg
