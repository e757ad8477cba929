// SPDX-License-Identifier: MIT
// A parse error explained for people (keel json): what was found where the error is, what the
// grammar expected there, the offending line with a caret under the column, and hints.
#pragma once

#include <string>
#include <string_view>

#include <keel/json.h>

namespace keel::tool::json_cli {

// "file:line:column: message: found X, expected Y" and, on the next lines, the line of `text`
// holding the error (cut around the column when long) and a caret under it. `bom_allowed`: the
// parse skipped a byte order mark (otherwise a leading one gets a hint).
std::string describe_parse_error(const std::string& name, std::string_view text,
                                 const json::error& e, bool bom_allowed);

}  // namespace keel::tool::json_cli
