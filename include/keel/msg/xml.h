// SPDX-License-Identifier: MIT
// XML form of a message (docs/msg-format.md): one element per value, named by its type, the
// entry name in a `name` attribute (any UTF-8 name round-trips, whether or not it is an XML
// name). Written by keel; read with pugixml.
#pragma once

#include <string>
#include <string_view>

#include "keel/msg/binary.h"
#include "keel/msg/error.h"
#include "keel/msg/message.h"

namespace keel::msg {

void write_xml(const message& m, std::string& out);
std::string to_xml(const message& m);

// Errors carry the byte offset, line and column of the malformed markup or of the element that
// does not fit the form.
error read_xml(std::string_view text, message& out, const read_options& options = {});
result<message> from_xml(std::string_view text, const read_options& options = {});

}  // namespace keel::msg
