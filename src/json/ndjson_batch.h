// SPDX-License-Identifier: MIT
// NDJSON records parsed from one stage-1 pass over a batch of whole lines: stage 1 (the
// structural positions, parse_kernels.h) runs once over up to kBatchBytes of lines, with each
// line's '\n' a position too, then stage 2 builds each record's DOM from the positions, starting
// at the record's first and stopping at its line's '\n'. Parsing each line on its own pays stage
// 1's setup and its padded last block once per record, which on short records (a few hundred
// bytes) is a large part of the work; with the line ends among the positions, going from one
// record to the next needs no search.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "json/parse_state.h"
#include "keel/json/document.h"
#include "keel/json/error.h"
#include "keel/json/parser.h"

namespace keel::json::detail {

class line_batch {
 public:
  // Stage 1 runs over about this many bytes of lines at a time; set_limit allows more (a whole
  // piece of a parallel read), up to kMaxBytes.
  static constexpr std::size_t kBatchBytes = std::size_t{256} << 10;
  static constexpr std::size_t kMaxBytes = std::size_t{4} << 20;
  void set_limit(std::size_t bytes) noexcept {
    limit_ = bytes < kBatchBytes ? kBatchBytes : bytes > kMaxBytes ? kMaxBytes : bytes;
  }

  // Makes one batch of the whole text (complete, within the limit) and counts its lines and the
  // lines that are records (not blank, or longer than max_record_size) from the counts of stage 1
  // (a closer look only where a line starts with whitespace); false (nothing counted) when the
  // batch cannot take all of it.
  bool count_all(parser& p, std::string_view text, std::size_t max_record_size, std::size_t& lines,
                 std::size_t& records) noexcept;

  // Whether the batches made from now on count their lines (count_all turns it on).
  void count_lines(bool on) noexcept { want_lines_ = on; }

  // Forgets the batch: call it before the text it was made from changes.
  void reset() noexcept {
    begin_ = end_ = failed_ = line_at_ = nullptr;
    count_ = cur_ = 0;
    counted_ = false;
    room_doc_ = nullptr;
  }

  // The end of the line that starts at text[at]: the offset in text of its '\n', or npos when
  // text has none after `at`. (The common record, common_record(), needs no search: its line's
  // '\n' is the position after its value.)
  static std::size_t line_end(std::string_view text, std::size_t at) noexcept {
    if (at >= text.size()) return std::string_view::npos;
    const void* nl = std::memchr(text.data() + at, '\n', text.size() - at);
    return nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - text.data())
                         : std::string_view::npos;
  }

  // The common record: when the line at `line` is a line of the batch that is not blank and
  // stage 2 over it there succeeds, with at most max_len bytes in the line, parses it into doc and
  // returns true with the line's length (without its '\n') in len and e cleared; when stage 2
  // fails there, parses the line alone (for the error it gives alone) into doc and returns true
  // with that error in e. false: the line is left for the general path (line_end(), parse()).
  // Lines are taken in order.
  bool common_record(parser& p, document& doc, const char* line, std::size_t max_len,
                     std::size_t& len, error& e) noexcept {
    if (line != line_at_ && !sync(line)) return false;
    const std::uint32_t* const next = record(p, doc);
    if (next == nullptr) return false;
    const auto a = static_cast<std::size_t>(line - begin_);
    if (next != kFailed) [[likely]] {
      len = line_end_at(next) - a;
      if (len > max_len) [[unlikely]] {
        line_at_ = nullptr;  // the general path says record_too_long
        return false;
      }
      passed(next);
      e = {};
      return true;
    }
    // Failed in the batch: the line alone, unless too long.
    line_at_ = nullptr;
    const void* nl = std::memchr(line, '\n', static_cast<std::size_t>(end_ - line));
    len = static_cast<std::size_t>((nl != nullptr ? static_cast<const char*>(nl) : end_) - line);
    if (len > max_len) return false;
    e = alone(p, doc, line, len);
    return true;
  }

  // Parses the line text[at, at + len) (without its '\n') into doc with p's options and buffers:
  // the same document, or the same error, as p.parse_into(doc, text.data() + at, len). Lines are
  // taken in order (a skipped line is fine). `complete`: nothing follows text in the input, so a
  // batch may end at text's end without a newline. A line the batch does not cover (too long,
  // comments allowed, no newline in view) and a line that fails in the batch are parsed by
  // parse_into, which then reports the error with the line's own line and column.
  error parse(parser& p, document& doc, std::string_view text, std::size_t at, std::size_t len,
              bool complete) noexcept;

 private:
  // Stage 1 over the lines from text[at] on; false when there is no batch to make there.
  bool make(parser& p, std::string_view text, std::size_t at, bool complete) noexcept;
  // Whether a batch covers text[at, at + len), making one from text[at] if not (once per line).
  bool covers(parser& p, std::string_view text, std::size_t at, std::size_t len,
              bool complete) noexcept {
    const char* const line = text.data() + at;
    return (line >= begin_ && line < end_ && line + len <= end_) ||
           make_at(p, text, at, len, complete);
  }
  bool make_at(parser& p, std::string_view text, std::size_t at, std::size_t len,
               bool complete) noexcept;
  // Room in doc for any record of the batch (record_fn), kept while doc is room_doc_.
  bool make_room(parser& p, document& doc) noexcept;
  // The line parsed alone (doc's areas may move: the room is made again after).
  error alone(parser& p, document& doc, const char* line, std::size_t len) noexcept {
    room_doc_ = nullptr;
    return p.parse_into(doc, line, len);
  }
  // Takes the positions from the first one at or after `line` on, for the line starting there;
  // false when the batch has no record kernel or `line` is not in it.
  bool sync(const char* line) noexcept;

  // Returned by record() when stage 2 fails.
  static inline const std::uint32_t* const kFailed = reinterpret_cast<const std::uint32_t*>(1);
  // Stage 2 over the record whose first position is the next one: the position after its value
  // (its line's '\n', or the end of the positions), kFailed when stage 2 fails there, nullptr
  // when there is no record to parse (no position left, a blank line, no memory).
  const std::uint32_t* record(parser& p, document& doc) noexcept {
    const std::uint32_t* const ip = positions_.get() + cur_;
    if (cur_ >= count_ || begin_[*ip] == '\n' || (room_doc_ != &doc && !make_room(p, doc)))
      return nullptr;
    st_.opt = &p.options();
    st_.owner = &p;
    st_.idx = const_cast<std::uint32_t*>(ip);
    st_.n_idx = count_ - cur_;
    record_(st_, room_nodes_, room_strings_, cur_ < safe_ ? safe_ - cur_ : 0);
    if (st_.code == error_code::ok) [[likely]]
      return st_.next_position;
    st_.code = error_code::ok;
    return kFailed;
  }
  // The offset from begin_ of the end of a record's line, when `next` follows its value.
  std::size_t line_end_at(const std::uint32_t* next) const noexcept {
    return next < positions_.get() + count_ ? *next : static_cast<std::size_t>(end_ - begin_);
  }
  // After a record whose value `next` follows: the next line, and its positions after `next`.
  void passed(const std::uint32_t* next) noexcept {
    const auto k = static_cast<std::size_t>(next - positions_.get());
    line_at_ = begin_ + line_end_at(next) + 1;
    cur_ = k < count_ ? k + 1 : count_;
  }

  std::unique_ptr<std::uint32_t[]> positions_;  // of the batch, from begin_
  std::size_t positions_capacity_ = 0;
  const char* begin_ = nullptr;  // the batch: whole lines [begin_, end_)
  const char* end_ = nullptr;
  const char* failed_ = nullptr;   // no batch could be made at this line
  std::size_t count_ = 0;          // positions in the batch
  std::size_t cur_ = 0;            // the first position of the line at line_at_
  const char* line_at_ = nullptr;  // the line cur_ is for (nullptr: sync() finds it)
  line_counts counts_;             // of the batch's lines, when counted_
  bool counted_ = false;           // stage 1 counted the batch's lines and found no error
  bool want_lines_ = false;        // batches count their lines (from count_all on)
  std::size_t limit_ = kBatchBytes;
  // Stage 2 of one record (nullptr: every line is parsed alone), with what the batch makes once:
  // the positions at least kPad bytes before the batch's end, room in room_doc_ (its node and
  // string areas), and st_ (the batch; the document).
  record_fn record_ = nullptr;
  std::size_t safe_ = 0;
  parse_state st_;
  const document* room_doc_ = nullptr;
  node* room_nodes_ = nullptr;
  std::uint8_t* room_strings_ = nullptr;
};

}  // namespace keel::json::detail
