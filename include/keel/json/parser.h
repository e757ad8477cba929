// SPDX-License-Identifier: MIT
// keel::json::parser, the reusable parser, and the one-shot parse() into a new document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "keel/json/document.h"
#include "keel/json/error.h"
#include "keel/json/options.h"
#include "keel/json/value.h"

namespace keel::json {

namespace detail {
enum class stage2_mode : std::uint8_t;  // src/json/parse_state.h
}  // namespace detail

// Bytes parse_in_place may read past the end of its input.
inline constexpr std::size_t in_place_padding = 64;

// A parser keeps its scratch buffers (and its own document) between parses: parsing documents of
// similar sizes into a reused parser allocates nothing. Not thread-safe; one per thread.
class parser {
 public:
  explicit parser(const parse_options& options = {}) : options_(options) {}
  // A moved-from parser holds no buffers (it allocates them again on its next parse).
  parser(parser&& o) noexcept { take(o); }
  parser& operator=(parser&& o) noexcept {
    if (this != &o) take(o);
    return *this;
  }
  ~parser();

  parse_options& options() noexcept { return options_; }

  // Parses into the parser's own document; the value is valid until the next parse.
  result<value> parse(const void* data, std::size_t size) noexcept;
  result<value> parse(std::string_view text) noexcept { return parse(text.data(), text.size()); }
  // Parses into `doc`, reusing its storage.
  error parse_into(document& doc, const void* data, std::size_t size) noexcept;
  // In place, like yyjson's in-situ reading: the document's strings stay in `data` and are
  // unescaped there (each where its text began; not NUL-terminated), so none is copied: beside
  // the input a parse needs its nodes. `data` must stay alive and unchanged while the document
  // is used, and `capacity`, the bytes at `data` that may be read, must be at least
  // size + in_place_padding (readers and the writer read whole blocks past a string's end; the
  // padding is read, never written), else padding_too_small. Same options,
  // results and errors as parse(); on failure `data` is left unchanged.
  result<value> parse_in_place(char* data, std::size_t size, std::size_t capacity) noexcept;
  error parse_in_place_into(document& doc, char* data, std::size_t size,
                            std::size_t capacity) noexcept;
  // Checks that the input is a document parse() accepts, with the same options, errors and
  // positions, without building it: no nodes and no string copies are kept, so beside the input
  // it needs only the structural index (4 bytes per structural character) and a buffer as long
  // as the longest string. The parser's own document is left empty. consumed() is set as by
  // parse().
  error validate(const void* data, std::size_t size) noexcept;
  error validate(std::string_view text) noexcept { return validate(text.data(), text.size()); }
  // The parser's own document (after parse()).
  const document& doc() const noexcept { return doc_; }
  // Bytes of input the last successful parse consumed (the whole input unless stop_after_first).
  std::size_t consumed() const noexcept { return consumed_; }
  // The kernel set the last parse used.
  json::isa last_isa() const noexcept { return last_isa_; }
  // Bytes of scratch the parser holds between parses besides its document (the structural
  // index, the container stack, copies for comments and the final token).
  std::size_t scratch_bytes() const noexcept {
    return index_capacity_ * sizeof(std::uint32_t) + stack_capacity_ * sizeof(std::uint64_t) +
           scratch_capacity_ + comment_copy_.capacity();
  }

 private:
  parse_options options_;
  document doc_;
  std::unique_ptr<std::uint32_t[]> indices_;
  std::size_t index_capacity_ = 0;
  std::unique_ptr<std::uint64_t[]> stack_;
  std::size_t stack_capacity_ = 0;
  std::unique_ptr<char[]> scratch_;  // comment stripping, a copy of the final token
  std::size_t scratch_capacity_ = 0;
  std::string comment_copy_;  // the input with comments blanked (allow_comments)
  std::size_t consumed_ = 0;
  json::isa last_isa_ = json::isa::automatic;
  error run(document& doc, const void* data, std::size_t size, detail::stage2_mode mode) noexcept;
  void take(parser& o) noexcept {
    options_ = o.options_;
    doc_ = std::move(o.doc_);
    indices_ = std::move(o.indices_);
    index_capacity_ = std::exchange(o.index_capacity_, 0);
    stack_ = std::move(o.stack_);
    stack_capacity_ = std::exchange(o.stack_capacity_, 0);
    scratch_ = std::move(o.scratch_);
    scratch_capacity_ = std::exchange(o.scratch_capacity_, 0);
    comment_copy_ = std::move(o.comment_copy_);
    o.comment_copy_.clear();
    consumed_ = std::exchange(o.consumed_, 0);
    last_isa_ = std::exchange(o.last_isa_, json::isa::automatic);
  }
  friend struct detail::parse_state;
};

// One-shot parse into a new document.
result<document> parse(std::string_view text, const parse_options& options = {}) noexcept;

// One-shot check (parser::validate): the error parse() would return, without a document.
error validate(std::string_view text, const parse_options& options = {}) noexcept;

}  // namespace keel::json
