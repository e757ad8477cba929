// SPDX-License-Identifier: MIT
// simdjson 4.6.1 (built from ../shared/peers, its namespace renamed so that it links beside
// Debian's simdjson): dom::parser::parse_many over an NDJSON buffer, visiting every value of each
// document, as the keel side does.
#include <simdjson.h>

#include <new>

#include "json/peers.h"

namespace keel::bench::json_peers {
namespace {

std::size_t visit(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      std::size_t n = 1;
      for (simdjson::dom::element x : simdjson::dom::array(e)) n += visit(x);
      return n;
    }
    case simdjson::dom::element_type::OBJECT: {
      std::size_t n = 1;
      for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e)) n += 1 + visit(kv.value);
      return n;
    }
    default:
      return 1;
  }
}

class simdjson_many final : public ndjson_peer {
 public:
  void prepare(const std::string& text) override { padded_ = simdjson::padded_string(text); }
  std::size_t run(std::size_t& records) override {
    simdjson::dom::document_stream stream;
    if (parser_.parse_many(padded_).get(stream) != simdjson::SUCCESS) return 0;
    std::size_t values = 0;
    records = 0;
    for (auto doc : stream) {
      simdjson::dom::element e;
      if (doc.get(e) != simdjson::SUCCESS) return 0;
      values += visit(e);
      ++records;
    }
    return values;
  }

 private:
  simdjson::dom::parser parser_;
  simdjson::padded_string padded_;
};

}  // namespace

std::unique_ptr<ndjson_peer> make_simdjson_parse_many() {
  return std::make_unique<simdjson_many>();
}

const char* simdjson4_version() { return SIMDJSON_VERSION; }

}  // namespace keel::bench::json_peers
