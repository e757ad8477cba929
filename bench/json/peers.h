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

// NDJSON: every document of a buffer, every value of each visited.
class ndjson_peer {
 public:
  virtual ~ndjson_peer() = default;
  // Takes the text (copied once, outside the timing, into whatever the library needs).
  virtual void prepare(const std::string& text) = 0;
  // Parses every record and visits every value; returns the values visited (0 on error).
  virtual std::size_t run(std::size_t& records) = 0;
};

std::unique_ptr<peer> make_yyjson(std::size_t max_input);
const char* yyjson_version();
// simdjson 4.6.1's DOM parser on one of its kernel sets ("icelake", "haswell", "fallback", ...);
// nullptr when this CPU cannot run it (peer_simdjson.cpp, the run-time dispatch build).
std::unique_ptr<peer> make_simdjson(std::size_t max_input, const char* kernel);
std::unique_ptr<peer> make_rapidjson(std::size_t max_input);
// simdjson 4.6.1's dom::parser::parse_many (peer_simdjson4.cpp, built for this CPU).
std::unique_ptr<ndjson_peer> make_simdjson_parse_many();
// The same on one of its kernel sets (peer_simdjson.cpp, the run-time dispatch build); nullptr
// when this CPU cannot run it.
std::unique_ptr<ndjson_peer> make_simdjson_parse_many(const char* kernel);
const char* simdjson4_version();

}  // namespace keel::bench::json_peers
