// SPDX-License-Identifier: MIT
// CBOR form (RFC 8949, docs/msg-format.md): major types 0-7, tags kept (number and value),
// half, single and double floats read, indefinite lengths read; preferred serialization on write.
// A message is its body map, or [header map, body map] when the header is set. Typed arrays are
// RFC 8746 tags, extensions keel's extension tags; the exact mode (write_options / read_options
// `mode = fidelity::exact`) also tags integer widths, so a message reads back equal.
#pragma once

#include <string>
#include <string_view>

#include "keel/msg/binary.h"
#include "keel/msg/error.h"
#include "keel/msg/message.h"
#include "keel/msg/value.h"

namespace keel::msg {

void write_cbor(const message& m, std::string& out, const write_options& options = {});
std::string to_cbor(const message& m, const write_options& options = {});
// Reads a whole message into `out`, replacing its contents and reusing its storage (entry
// names, strings, nested maps and arrays); on an error `out` is left empty.
error read_cbor(bytes_view in, message& out, const read_options& options = {});
result<message> from_cbor(bytes_view in, const read_options& options = {});

// One value (any type at the top level).
void write_cbor(const value& v, std::string& out, const write_options& options = {});
result<value> value_from_cbor(bytes_view in, const read_options& options = {});

}  // namespace keel::msg
