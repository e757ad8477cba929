// SPDX-License-Identifier: MIT
// simdjson's dom::parser::parse_many over an NDJSON buffer, visiting every value of each document
// as the keel side does: one class for both simdjson builds (peer_simdjson4.cpp, built for this
// CPU; peer_simdjson.cpp, the run-time dispatch build with a chosen kernel set). Included after
// <simdjson.h>, whose namespace each build renames.
#pragma once

#include <cstddef>
#include <new>
#include <string>

#include "json/peers.h"

namespace keel::bench::json_peers {
namespace {

std::size_t visit_many(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      std::size_t n = 1;
      for (simdjson::dom::element x : simdjson::dom::array(e)) n += visit_many(x);
      return n;
    }
    case simdjson::dom::element_type::OBJECT: {
      std::size_t n = 1;
      for (simdjson::dom::key_value_pair kv : simdjson::dom::object(e))
        n += 1 + visit_many(kv.value);
      return n;
    }
    default:
      return 1;
  }
}

class simdjson_many final : public ndjson_peer {
 public:
  simdjson_many() = default;
  // A parser on the given kernel set: a dom::parser keeps the implementation it was first
  // allocated with, so the active implementation is switched only around that allocation.
  explicit simdjson_many(const simdjson::implementation* kernel) {
    auto& active = simdjson::get_active_implementation();
    const simdjson::implementation* before = active;
    active = kernel;
    const auto err = parser_.allocate(simdjson::dom::DEFAULT_BATCH_SIZE);
    active = before;
    if (err != simdjson::SUCCESS) throw std::bad_alloc();
  }
  void prepare(const std::string& text) override { padded_ = simdjson::padded_string(text); }
  std::size_t run(std::size_t& records) override {
    simdjson::dom::document_stream stream;
    if (parser_.parse_many(padded_).get(stream) != simdjson::SUCCESS) return 0;
    std::size_t values = 0;
    records = 0;
    for (auto doc : stream) {
      simdjson::dom::element e;
      if (doc.get(e) != simdjson::SUCCESS) return 0;
      values += visit_many(e);
      ++records;
    }
    return values;
  }

 private:
  simdjson::dom::parser parser_;
  simdjson::padded_string padded_;
};

}  // namespace
}  // namespace keel::bench::json_peers
