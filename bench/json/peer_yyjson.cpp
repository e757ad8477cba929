// SPDX-License-Identifier: MIT
// yyjson: yyjson_read_opts / yyjson_write_opts with a pool allocator over one preallocated
// buffer, so neither parse nor write calls malloc.
#include <yyjson.h>

#include <cstdlib>
#include <vector>

#include "json/peers.h"

namespace keel::bench::json_peers {
namespace {

class yyjson_peer final : public peer {
 public:
  explicit yyjson_peer(std::size_t max_input)
      // Room for the largest document, its written text and the copy of the input yyjson makes.
      : pool_(yyjson_read_max_memory_usage(max_input, 0) * 2 + 4 * max_input + (1 << 20)) {
    yyjson_alc_pool_init(&alc_, pool_.data(), pool_.size());
  }
  ~yyjson_peer() override { release(); }

  bool parse(const std::string& text) override {
    release();
    doc_ = yyjson_read_opts(const_cast<char*>(text.data()), text.size(), 0, &alc_, nullptr);
    return doc_ != nullptr;
  }
  std::size_t write() override {
    std::size_t len = 0;
    char* out = yyjson_write_opts(doc_, 0, &alc_, &len, nullptr);
    if (!out) return 0;
    alc_.free(alc_.ctx, out);
    return len;
  }
  std::size_t dom_bytes() override {
    // 16-byte values plus the padded copy of the input that holds the strings.
    return doc_ ? yyjson_doc_get_val_count(doc_) * sizeof(yyjson_val) +
                      yyjson_doc_get_read_size(doc_) + YYJSON_PADDING_SIZE
                : 0;
  }

 private:
  void release() {
    if (doc_) yyjson_doc_free(doc_);
    doc_ = nullptr;
  }
  std::vector<char> pool_;
  yyjson_alc alc_{};
  yyjson_doc* doc_ = nullptr;
};

}  // namespace

std::unique_ptr<peer> make_yyjson(std::size_t max_input) {
  return std::make_unique<yyjson_peer>(max_input);
}

const char* yyjson_version() { return YYJSON_VERSION_STRING; }

}  // namespace keel::bench::json_peers
