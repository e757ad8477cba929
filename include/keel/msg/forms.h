// SPDX-License-Identifier: MIT
// Every form by name, auto-detection and conversion between any two forms.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "keel/msg/binary.h"
#include "keel/msg/error.h"
#include "keel/msg/message.h"

namespace keel::msg {

// msgpack_exact and cbor_exact: those forms in the exact mode (fidelity::exact).
enum class form : std::uint8_t {
  binary,
  json,
  json_typed,
  xml,
  msgpack,
  cbor,
  msgpack_exact,
  cbor_exact
};

// "binary", "json", "json-typed", "xml", "msgpack", "cbor", "msgpack-exact", "cbor-exact".
const char* form_name(form f) noexcept;
bool form_from_name(std::string_view name, form& out) noexcept;

// The form of `in` from its first bytes: "KMSG" binary; '{' or '[' (after whitespace) JSON, typed
// when it has the typed form's "keel.msg" member; '<' XML; a MessagePack map or [header, body]
// array; a CBOR map or [header, body] array. The one ambiguous first byte (0x82: a CBOR array of
// two or a MessagePack map of two entries) is settled by reading. unknown_form if none fits.
// The exact modes look the same as the standard ones: detect() says msgpack or cbor, and only
// reading with msgpack_exact / cbor_exact gives every keel type back.
result<form> detect(bytes_view in);

void write(const message& m, form f, std::string& out);
std::string to_form(const message& m, form f);
result<message> read(bytes_view in, form f, const read_options& options = {});
// Detects the form first.
result<message> read(bytes_view in, const read_options& options = {});

// Reads `in` (in `from`, or detected) and writes it in `to`.
result<std::string> convert(bytes_view in, form to, const read_options& options = {});
result<std::string> convert(bytes_view in, form from, form to, const read_options& options = {});

}  // namespace keel::msg
