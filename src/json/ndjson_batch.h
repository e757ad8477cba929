// SPDX-License-Identifier: MIT
// NDJSON records parsed from one stage-1 pass over a batch of whole lines: stage 1 (the
// structural positions, parse_kernels.h) runs once over up to kBatchBytes of lines, then stage 2
// builds each record's DOM from that record's share of the positions. Parsing each line on its
// own pays stage 1's setup and its padded last block once per record, which on short records
// (a few hundred bytes) is a large part of the work.
#pragma once

#include <cstddef>
#include <cstdint>
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
  // lines that are records (not blank, or longer than max_record_size) from the line ends stage
  // 1 reported; false (nothing counted) when the batch cannot take all of it.
  bool count_all(parser& p, std::string_view text, std::size_t max_record_size, std::size_t& lines,
                 std::size_t& records) noexcept;

  // Forgets the batch: call it before the text it was made from changes.
  void reset() noexcept {
    begin_ = end_ = failed_ = nullptr;
    lines_found_ = false;
  }

  // The end of the line that starts at text[at]: the offset in text of its '\n', or npos when
  // text has none after `at`. Inside a batch (made here when none covers text[at], as parse()
  // does) the line ends are those stage 1 reported for the batch (or, for the scalar kernel
  // set, found in one pass over it) instead of a search per line.
  std::size_t line_end(parser& p, std::string_view text, std::size_t at, bool complete) noexcept {
    // The common case inline: the next line of the batch. (Every end before next_line_ is before
    // the line: lines are asked for in order.)
    const char* const line = text.data() + at;
    if (line >= begin_ && line < end_ && next_line_ < lines_) {
      const auto a = static_cast<std::uint32_t>(line - begin_);
      const std::uint32_t e = ends_[next_line_];
      if (e >= a) {
        ++next_line_;
        return at + (e - a);
      }
    }
    return find_line_end(p, text, at, complete);
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
  std::size_t find_line_end(parser& p, std::string_view text, std::size_t at,
                            bool complete) noexcept;
  void find_lines() noexcept;  // ends_ of the batch's lines

  std::unique_ptr<std::uint32_t[]> positions_;  // of the batch, from begin_
  std::size_t positions_capacity_ = 0;
  std::unique_ptr<std::uint32_t[]> ends_;  // the batch's '\n' offsets from begin_, once found
  std::size_t ends_capacity_ = 0;
  const char* begin_ = nullptr;  // the batch: whole lines [begin_, end_)
  const char* end_ = nullptr;
  const char* failed_ = nullptr;  // no batch could be made at this line
  std::size_t count_ = 0;         // positions in the batch
  std::size_t next_ = 0;          // the first position not yet taken by a record
  std::size_t last_count_ = 0;    // positions of the last record
  std::size_t lines_ = 0;         // entries of ends_
  std::size_t next_line_ = 0;     // the first entry of ends_ not yet passed
  bool lines_found_ = false;
  std::size_t limit_ = kBatchBytes;
  kernel_fn build_ = nullptr;
};

}  // namespace keel::json::detail
