// SPDX-License-Identifier: MIT
// simdjson (Debian libsimdjson-dev): the DOM API with one reused dom::parser. simdjson needs
// SIMDJSON_PADDING readable bytes after the input: each document is copied once, outside the
// timing, into a padded buffer and parsed from there. No DOM writer is measured for simdjson.
#include <simdjson.h>

#include <cstring>
#include <map>
#include <new>

#include "json/peers.h"

namespace keel::bench::json_peers {
namespace {

class simdjson_peer final : public peer {
 public:
  explicit simdjson_peer(std::size_t max_input) {
    if (parser_.allocate(max_input) != simdjson::SUCCESS) throw std::bad_alloc();
  }

  bool parse(const std::string& text) override {
    auto it = padded_.find(text.data());
    if (it == padded_.end()) it = padded_.emplace(text.data(), simdjson::padded_string(text)).first;
    auto r = parser_.parse(it->second.data(), it->second.size(), false);
    return r.error() == simdjson::SUCCESS;
  }
  std::size_t write() override { return 0; }
  std::size_t dom_bytes() override { return 0; }

 private:
  simdjson::dom::parser parser_;
  std::map<const char*, simdjson::padded_string> padded_;
};

}  // namespace

std::unique_ptr<peer> make_simdjson(std::size_t max_input) {
  return std::make_unique<simdjson_peer>(max_input);
}

}  // namespace keel::bench::json_peers
