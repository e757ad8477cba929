// SPDX-License-Identifier: MIT
// The JSON libraries keel::json is measured against, behind one small interface. Each peer is
// compiled in its own file with the peers' flags (KEEL_PEER_CFLAGS) and keeps its allocator /
// parser between iterations, as keel's reused parser does.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace keel::bench::json_peers {

class peer {
 public:
  virtual ~peer() = default;
  // Parses text (a full DOM: numbers converted, strings unescaped, UTF-8 validated).
  virtual bool parse(const std::string& text) = 0;
  // Writes the last parsed document minified; returns the byte count (0 on failure).
  virtual std::size_t write() = 0;
  // Bytes the last parsed DOM occupies (0 if the library does not say).
  virtual std::size_t dom_bytes() = 0;
};

std::unique_ptr<peer> make_yyjson(std::size_t max_input);
std::unique_ptr<peer> make_simdjson(std::size_t max_input);
std::unique_ptr<peer> make_rapidjson(std::size_t max_input);

}  // namespace keel::bench::json_peers
