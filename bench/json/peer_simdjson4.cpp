// SPDX-License-Identifier: MIT
// simdjson 4.6.1 (built from ../shared/peers, its namespace renamed so that it links beside
// Debian's simdjson), built for this CPU: dom::parser::parse_many over an NDJSON buffer
// (simdjson_many.h).
#include <simdjson.h>

#include "json/peers.h"
#include "json/simdjson_many.h"

namespace keel::bench::json_peers {

std::unique_ptr<ndjson_peer> make_simdjson_parse_many() {
  return std::make_unique<simdjson_many>();
}

const char* simdjson4_version() { return SIMDJSON_VERSION; }

}  // namespace keel::bench::json_peers
