// SPDX-License-Identifier: MIT
// simdjson 4.6.1, the run-time dispatch build (bench/peers): the DOM API with one reused
// dom::parser whose kernel set (icelake, haswell, westmere, fallback) is chosen through simdjson's
// implementation API. A dom::parser keeps the implementation it was first allocated with, so the
// active implementation is switched only around that allocation. simdjson needs SIMDJSON_PADDING
// readable bytes after the input: each document is copied once, outside the timing, into a padded
// buffer and parsed from there. No DOM writer is measured for simdjson. parse_many on a chosen
// kernel set for the NDJSON rows (simdjson_many.h).
#include <simdjson.h>

#include <map>
#include <new>

#include "json/peers.h"
#include "json/simdjson_many.h"

namespace keel::bench::json_peers {
namespace {

class simdjson_peer final : public peer {
 public:
  simdjson_peer(std::size_t max_input, const simdjson::implementation* kernel) {
    auto& active = simdjson::get_active_implementation();
    const simdjson::implementation* before = active;
    active = kernel;
    const auto err = parser_.allocate(max_input);
    active = before;
    if (err != simdjson::SUCCESS) throw std::bad_alloc();
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

std::unique_ptr<peer> make_simdjson(std::size_t max_input, const char* kernel) {
  const simdjson::implementation* impl = simdjson::get_available_implementations()[kernel];
  if (!impl || !impl->supported_by_runtime_system()) return nullptr;
  return std::make_unique<simdjson_peer>(max_input, impl);
}

std::unique_ptr<ndjson_peer> make_simdjson_parse_many(const char* kernel) {
  const simdjson::implementation* impl = simdjson::get_available_implementations()[kernel];
  if (!impl || !impl->supported_by_runtime_system()) return nullptr;
  return std::make_unique<simdjson_many>(impl);
}

}  // namespace keel::bench::json_peers
