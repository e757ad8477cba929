// SPDX-License-Identifier: MIT
// keel::json writer: minified or pretty JSON text from a DOM value.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "keel/json/error.h"
#include "keel/json/options.h"
#include "keel/json/value.h"

namespace keel::json {

class mutable_value;

namespace detail {
// Where a streamed write hands its text, piece by piece (writer::write_to).
struct write_sink {
  void* ctx = nullptr;
  bool (*put)(void* ctx, const char* data, std::size_t size) = nullptr;
  std::size_t written = 0;  // bytes handed on so far
  bool failed = false;      // put returned false: the write stopped there
};
}  // namespace detail

// A writer keeps its output buffer between calls: writing into a reused writer allocates nothing
// once the buffer is large enough. The returned text is valid until the next write.
class writer {
 public:
  explicit writer(const write_options& options = {}) : options_(options) {}
  write_options& options() noexcept { return options_; }
  result<std::string_view> write(const value& v) noexcept;
  // A value of a mutable document (keel/json/mutable.h), written by the same kernels.
  result<std::string_view> write(const mutable_value& v) noexcept;
  // Streamed writes: the text handed to `sink` in consecutive pieces as the writer's buffer fills
  // (about 64 KiB each; a string longer than that in one piece), so that the whole text is never
  // in memory. `sink(std::string_view piece)` returns false (or throws) to stop: the write then
  // fails with io_error (the pieces already handed on stay written). Same text, options and errors
  // as write(); an error other than io_error (a NaN under nonfinite_policy::error, invalid UTF-8
  // under escape_unicode) can come after some pieces were handed on. Returns the text's size.
  template <class Sink>
  requires std::invocable<Sink&, std::string_view> result<std::size_t> write_to(const value& v,
                                                                                Sink&& sink)
  noexcept {
    return write_to(v, detail::write_sink{&sink, &put_piece<std::remove_reference_t<Sink>>});
  }
  template <class Sink>
  requires std::invocable<Sink&, std::string_view> result<std::size_t> write_to(
      const mutable_value& v, Sink&& sink)
  noexcept {
    return write_to(v, detail::write_sink{&sink, &put_piece<std::remove_reference_t<Sink>>});
  }
  // To a C stream (fwrite; a short write is io_error). The stream is not flushed or closed.
  result<std::size_t> write_to(const value& v, std::FILE* f) noexcept;
  result<std::size_t> write_to(const mutable_value& v, std::FILE* f) noexcept;

  // The kernel set the last write used (write_options::isa, else KEEL_JSON_ISA, else the best
  // the CPU supports); automatic before the first write.
  json::isa last_isa() const noexcept { return last_isa_; }

 private:
  template <class Sink>
  static bool put_piece(void* ctx, const char* data, std::size_t size) noexcept {
    try {
      return static_cast<bool>((*static_cast<Sink*>(ctx))(std::string_view(data, size)));
    } catch (...) {
      return false;
    }
  }
  result<std::size_t> write_to(const value& v, detail::write_sink sink) noexcept;
  result<std::size_t> write_to(const mutable_value& v, detail::write_sink sink) noexcept;
  // The text in buf_ (size in `size`), or with a sink the text's last piece there.
  template <bool Mut>
  error_code write_nodes(const detail::node* root, const char* strings, std::size_t& size,
                         detail::write_sink* sink) noexcept;
  write_options options_;
  std::unique_ptr<char[]> buf_;
  std::size_t capacity_ = 0;
  json::isa last_isa_ = json::isa::automatic;
  std::vector<const detail::node*> stack_;  // open containers
};

namespace detail {
// Minified JSON text appended piece by piece with the writer's number and string code (struct
// mapping writes through it, keel/json/mapping.h). Strings are checked to be valid UTF-8.
class text_sink {
 public:
  static constexpr std::size_t kSlack = 160;  // the writer's kWriteSlack (write_kernels.h)
  explicit text_sink(const write_options& options) : o_(options) {}
  void put(char c) { *room(1) = c, ++size_; }
  void put(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    size_ += s.size();
  }
  // A quoted, escaped string; false (nothing written) when it is not valid UTF-8.
  bool string(std::string_view s);
  void integer(std::int64_t v);
  void unsigned_integer(std::uint64_t v);
  // false for NaN/Infinity under nonfinite_policy::error.
  bool number(double v);
  std::string take() const { return std::string(buf_.get(), size_); }

 private:
  // n bytes (plus the writer's slack, kSlack) free at the end.
  char* room(std::size_t n) {
    if (cap_ - size_ < n + kSlack) grow(n);
    return buf_.get() + size_;
  }
  void grow(std::size_t n);
  write_options o_;
  std::unique_ptr<char[]> buf_;
  std::size_t cap_ = 0, size_ = 0;
};
}  // namespace detail

// Convenience: the text in a new string.
result<std::string> write(const value& v, const write_options& options = {});
result<std::string> write(const mutable_value& v, const write_options& options = {});

}  // namespace keel::json
