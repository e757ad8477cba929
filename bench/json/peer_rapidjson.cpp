// SPDX-License-Identifier: MIT
// RapidJSON (Debian rapidjson-dev): a Document over a MemoryPoolAllocator whose chunks are kept
// between parses (Clear()), with full-precision numbers and UTF-8 validation (the same work as
// keel). Writes with Writer<StringBuffer>, the buffer reused.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <memory>
#include <vector>

#include "json/peers.h"

namespace keel::bench::json_peers {
namespace {

constexpr unsigned kFlags =
    rapidjson::kParseFullPrecisionFlag | rapidjson::kParseValidateEncodingFlag;

class rapidjson_peer final : public peer {
 public:
  explicit rapidjson_peer(std::size_t max_input)
      : chunk_(max_input * 8 + (1 << 20)), alloc_(chunk_.data(), chunk_.size()), doc_(&alloc_) {}

  // The pool is cleared before each parse: the previous DOM is dropped wholesale (RapidJSON's
  // pool allocator never frees single values). RapidJSON's own parse stack is malloc'ed by it.
  bool parse(const std::string& text) override {
    alloc_.Clear();
    doc_.Parse<kFlags>(text.data(), text.size());
    return !doc_.HasParseError();
  }
  std::size_t write() override {
    out_.Clear();
    rapidjson::Writer<rapidjson::StringBuffer> w(out_);
    doc_.Accept(w);
    return out_.GetSize();
  }
  std::size_t dom_bytes() override { return alloc_.Size(); }

 private:
  std::vector<char> chunk_;
  rapidjson::MemoryPoolAllocator<> alloc_;
  rapidjson::Document doc_;
  rapidjson::StringBuffer out_;
};

}  // namespace

std::unique_ptr<peer> make_rapidjson(std::size_t max_input) {
  return std::make_unique<rapidjson_peer>(max_input);
}

}  // namespace keel::bench::json_peers
