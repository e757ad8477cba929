// SPDX-License-Identifier: MIT
// MessagePack form (https://msgpack.org spec, docs/msg-format.md): the smallest encoding of each
// value on write, every encoding the spec allows on read (bin, ext and the timestamp extension
// included). A message is its body map, or [header map, body map] when the header is set. In the
// exact mode (write_options / read_options `mode = fidelity::exact`) integers keep their width
// (the format of their width) and typed arrays, tags and every extension come back (keel's ext
// type 75), so a message reads back equal; any MessagePack reader still reads it.
#pragma once

#include <string>
#include <string_view>

#include "keel/msg/binary.h"
#include "keel/msg/error.h"
#include "keel/msg/message.h"
#include "keel/msg/value.h"

namespace keel::msg {

void write_msgpack(const message& m, std::string& out, const write_options& options = {});
std::string to_msgpack(const message& m, const write_options& options = {});
// Reads a whole message into `out`, replacing its contents and reusing its storage (entry
// names, strings, nested maps and arrays); on an error `out` is left empty.
error read_msgpack(bytes_view in, message& out, const read_options& options = {});
result<message> from_msgpack(bytes_view in, const read_options& options = {});

// One value (any type at the top level).
void write_msgpack(const value& v, std::string& out, const write_options& options = {});
result<value> value_from_msgpack(bytes_view in, const read_options& options = {});

}  // namespace keel::msg
