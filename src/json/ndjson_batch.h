// SPDX-License-Identifier: MIT
// NDJSON records parsed from one stage-1 pass over a batch of whole lines: stage 1 (the
// structural positions, parse_kernels.h) runs once over up to kBatchBytes of lines, then stage 2
// builds each record's DOM from that record's share of the positions. Parsing each line on its
// own pays stage 1's setup and its padded last block once per record, which on short records
// (a few hundred bytes) is a large part of the work.
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
  // lines that are records (not blank, or longer than max_record_size) from the line ends stage
  // 1 reported; false (nothing counted) when the batch cannot take all of it.
  bool count_all(parser& p, std::string_view text, std::size_t max_record_size, std::size_t& lines,
                 std::size_t& records) noexcept;

  // Forgets the batch: call it before the text it was made from changes.
  void reset() noexcept {
    begin_ = end_ = failed_ = nullptr;
    lines_found_ = false;
    room_doc_ = nullptr;
  }

  // The end of the line that starts at text[at]: the offset in text of its '\n', or npos when
  // text has none after `at`. Inside a batch (made here when none covers text[at], as parse()
  // does) the line ends are those stage 1 reported for the batch (or, for the scalar kernel
  // set, found in one pass over it) instead of a search per line.
  std::size_t line_end(parser& p, std::string_view text, std::size_t at, bool complete) noexcept {
    // The common case inline: the next line of the batch. (Every end before next_line_ is before
    // the line: lines are asked for in order.)
    std::size_t len;
    if (next_line(text.data() + at, len)) return at + len;
    return find_line_end(p, text, at, complete);
  }

  // The next line of the batch when it starts at `line` (lines are taken in order): true with
  // its length (without the '\n', which is in the batch too) in len; false when the batch does
  // not have it (line_end() then finds it). unget_line() gives the line back.
  bool next_line(const char* line, std::size_t& len) noexcept {
    if (line >= begin_ && line < end_ && next_line_ < lines_) {
      const auto a = static_cast<std::uint32_t>(line - begin_);
      const std::uint32_t e = ends_[next_line_];
      if (e >= a) {
        ++next_line_;
        len = e - a;
        return true;
      }
    }
    return false;
  }
  void unget_line() noexcept { --next_line_; }

  // Stage 2 over the line [line, line + len) of the batch (which holds it whole) into doc;
  // false when it fails there (parse() then parses the line alone for its own error).
  bool record(parser& p, document& doc, const char* line, std::size_t len) noexcept {
    // The line's positions: from the first at or after its start to the first at or after its
    // end (at most one a byte).
    const auto a = static_cast<std::uint32_t>(line - begin_);
    const auto b = static_cast<std::uint32_t>(a + len);
    std::uint32_t* const all = positions_.get();
    std::uint32_t* const stop = all + count_;
    std::uint32_t* first = all + next_;
    if (first < stop && *first < a) first = std::lower_bound(first, stop, a);
    // Lines of one shape have as many positions as the line before: check that count first.
    std::uint32_t* last = first + std::min(last_count_, static_cast<std::size_t>(stop - first));
    if ((last > first && last[-1] >= b) || (last < stop && *last < b))
      last = std::lower_bound(first, std::min(stop, first + len + 1), b);
    next_ = static_cast<std::size_t>(last - all);
    const auto n = static_cast<std::size_t>(last - first);
    last_count_ = n;
    // Stage 2 reads the record's positions where they are; the sentinels it writes after them
    // (kSentinels, within the kIndexSlack entries after the batch's) go over the next record's
    // first positions, kept here and put back.
    std::uint32_t kept[kSentinels];
    std::memcpy(kept, last, sizeof kept);
    parse_state st = state(p, doc);
    st.idx = first;
    st.n_idx = n;
    st.positions_given = true;
    if (record_ != nullptr && (room_doc_ == &doc || make_room(p, doc))) {
      // Stage 2 alone, with what the batch made once: room, sentinel position, `safe`.
      for (std::size_t k = 0; k < kSentinels; ++k) last[k] = sentinel_;
      const auto i = static_cast<std::size_t>(first - all);
      record_(st, room_nodes_, room_strings_, i < safe_ ? std::min(n, safe_ - i) : 0);
    } else {
      build_(st);
    }
    std::memcpy(last, kept, sizeof kept);
    return st.code == error_code::ok;
  }

  // The common record: when the line at `line` is the batch's next one, starts with no blank and
  // is at most max_len bytes long, parses it into doc (stage 2 in the batch; alone after a
  // failure there, for the error the line gives alone) and returns true with its length in len
  // and the result in e. false: the line is left for the general path (line_end(), parse()).
  bool common_record(parser& p, document& doc, const char* line, std::size_t max_len,
                     std::size_t& len, error& e) noexcept {
    if (!next_line(line, len)) return false;
    const char c = line[0];  // the line's '\n' when it is empty
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || len > max_len) {
      unget_line();
      return false;
    }
    if (record(p, doc, line, len)) {
      e = {};
    } else {
      e = alone(p, doc, line, len);
    }
    return true;
  }

  // Parses the line text[at, at + len) (without its '\n') into doc with p's options and buffers:
  // the same document, or the same error, as p.parse_into(doc, text.data() + at, len). Lines are
  // taken in order (a skipped line is fine). `complete`: nothing follows text in the input, so a
  // batch may end at text's end without a newline. A line the batch does not cover (too long,
  // comments allowed, no newline in view) and a line that fails in the batch are parsed by
  // parse_into, which then reports the error with the line's own line and column.
  error parse(parser& p, document& doc, std::string_view text, std::size_t at, std::size_t len,
              bool complete) noexcept {
    // The common case inline: a line of the batch that stage 2 accepts.
    const char* const line = text.data() + at;
    if (line >= begin_ && line < end_ && line + len <= end_ && record(p, doc, line, len)) return {};
    return parse_slow(p, doc, text, at, len, complete);
  }

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
  // A parse over the batch's text into doc with p's options and buffers.
  parse_state state(parser& p, document& doc) const noexcept {
    parse_state st;
    st.buf = reinterpret_cast<const std::uint8_t*>(begin_);
    st.len = static_cast<std::size_t>(end_ - begin_);
    st.opt = &p.options();
    st.owner = &p;
    st.doc = &doc;
    return st;
  }
  // Room in doc for any record of the batch (record_fn), kept while doc is room_doc_.
  bool make_room(parser& p, document& doc) noexcept;
  // The line parsed alone (doc's areas may move: the room is made again after).
  error alone(parser& p, document& doc, const char* line, std::size_t len) noexcept {
    room_doc_ = nullptr;
    return p.parse_into(doc, line, len);
  }
  error parse_slow(parser& p, document& doc, std::string_view text, std::size_t at, std::size_t len,
                   bool complete) noexcept;

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
  // Stage 2 of one record with what the batch makes once (nullptr: build_ for every record):
  // the sentinel position, the positions at least kPad bytes before the batch's end, and room
  // in room_doc_ (its node and string areas).
  record_fn record_ = nullptr;
  std::uint32_t sentinel_ = 0;
  std::size_t safe_ = 0;
  const document* room_doc_ = nullptr;
  node* room_nodes_ = nullptr;
  std::uint8_t* room_strings_ = nullptr;
};

}  // namespace keel::json::detail
