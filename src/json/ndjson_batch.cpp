// SPDX-License-Identifier: MIT
// NDJSON lines parsed from one stage-1 pass over a batch (ndjson_batch.h).
//
// Why a record's positions from the batch are the ones it would get alone: a line ends in '\n',
// which is whitespace and never a quote, so it ends any bare token and any backslash run, and it
// is a control character inside a string (a stage-1 error). So when stage 1 found no error
// before a line's end, every line before it starts and ends outside strings, and the positions
// between its start and its end are those of the line parsed alone (offset by its start).
// Stage 2 then reads the record from the batch's buffer, with reads past a token allowed up to
// the batch's end. The line's '\n', a position of the batch, stops it: in every grammar state
// it is an error (it is not a value, key, ':' , ',' or closing bracket), and after the value it
// is the end of the record (parse_record); so stage 2 never reads the next line's positions, and
// accepts exactly the lines that parse alone. Anything it rejects is parsed again alone, so
// every error is the one the line gives alone.
#include "json/ndjson_batch.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "json/parse_kernels.h"  // sentinels(), kPad (as struct mapping's direct read)

namespace keel::json::detail {
namespace {

// Room for n entries (contents not kept), grown by half again but to no more than `most`;
// nullptr when out of memory.
std::uint32_t* room(std::unique_ptr<std::uint32_t[]>& p, std::size_t& cap, std::size_t n,
                    std::size_t most) noexcept {
  if (n > cap) {
    const std::size_t want = std::max(n, std::min(n + n / 2, most));
    try {
      p = std::make_unique_for_overwrite<std::uint32_t[]>(want);
    } catch (const std::bad_alloc&) {
      p.reset();
      cap = 0;
      return nullptr;
    }
    cap = want;
  }
  return p.get();
}

}  // namespace

bool line_batch::make(parser& p, std::string_view text, std::size_t at, bool complete) noexcept {
  reset();
  const parse_options& o = p.options();
  const isa which = o.isa == isa::automatic ? default_isa() : o.isa;
  if (!isa_supported(which)) return false;
  const char* const start = text.data() + at;
  const std::size_t rest = text.size() - at;
  std::size_t len = rest;
  if (!complete || rest > limit_) {
    const void* nl = memrchr(start, '\n', std::min(rest, limit_));
    if (nl == nullptr) return false;
    len = static_cast<std::size_t>(static_cast<const char*>(nl) - start) + 1;
  }
  std::uint32_t* const pos =
      room(positions_, positions_capacity_, len + kIndexSlack, limit_ + kIndexSlack);
  if (pos == nullptr) return false;
  parse_state st;
  st.buf = reinterpret_cast<const std::uint8_t*>(start);
  st.len = len;
  st.opt = &o;
  st.idx = pos;
  // Stage 1 reports the line ends (as positions, and counted when asked): no search per line, no
  // pass of its own.
  const kernel_set k = kernel_set_for(which);
  k.positions_lines(st, want_lines_ ? &counts_ : nullptr);
  counted_ = want_lines_ && st.s1_error == error_code::ok;
  std::size_t n = st.n_idx;
  if (st.s1_error != error_code::ok) {
    // The batch ends before the line of the error (that line is parsed alone).
    const void* nl = memrchr(start, '\n', st.s1_offset);
    if (nl == nullptr) return false;
    len = static_cast<std::size_t>(static_cast<const char*>(nl) - start) + 1;
    while (n > 0 && pos[n - 1] >= len) --n;
  }
  begin_ = start;
  end_ = start + len;
  count_ = n;
  record_ = k.record;
  room_doc_ = nullptr;
  st_ = parse_state{};
  st_.buf = st.buf;
  st_.len = len;
  if (record_ != nullptr) {
    // The sentinel positions stage 2 needs after the last: sentinels() writes them after the
    // batch's; a batch it would have to copy (only { [ , ] } bytes) has its lines parsed alone.
    st.len = len;
    st.n_idx = n;
    st.owner = &p;  // (for the copy)
    if (n == 0 || sentinels(st) != st.buf) record_ = nullptr;
    safe_ = n;
    while (safe_ > 0 && pos[safe_ - 1] + kPad > len) --safe_;
  }
  return true;
}

bool line_batch::make_room(parser& p, document& doc) noexcept {
  st_.opt = &p.options();
  st_.owner = &p;
  st_.doc = &doc;
  st_.idx = positions_.get();  // (the batch's: never moved into the node area)
  st_.n_idx = count_;
  room_nodes_ = st_.nodes(count_ + 1);
  room_strings_ = reinterpret_cast<std::uint8_t*>(st_.strings(st_.len + kStringSlack));
  if (room_nodes_ == nullptr || room_strings_ == nullptr) return false;
  room_doc_ = &doc;
  return true;
}

bool line_batch::sync(const char* line) noexcept {
  if (record_ == nullptr || line < begin_ || line >= end_) return false;
  const auto a = static_cast<std::uint32_t>(line - begin_);
  const std::uint32_t* const all = positions_.get();
  cur_ = static_cast<std::size_t>(std::lower_bound(all, all + count_, a) - all);
  line_at_ = line;
  return true;
}

bool line_batch::make_at(parser& p, std::string_view text, std::size_t at, std::size_t len,
                         bool complete) noexcept {
  const char* const line = text.data() + at;
  // A line no batch could start at is not tried again (a stage-1 error in it, or too long).
  if (line == failed_) return false;
  if (make(p, text, at, complete) && line < end_ && line + len <= end_) return true;
  failed_ = line;
  return false;
}

bool line_batch::count_all(parser& p, std::string_view text, std::size_t max_record_size,
                           std::size_t& lines, std::size_t& records) noexcept {
  want_lines_ = true;
  if (text.empty() || p.options().allow_comments || text.size() > limit_ ||
      !covers(p, text, 0, text.size(), true) || end_ != text.data() + text.size() || !counted_) {
    return false;
  }
  lines = counts_.ends + (text.back() != '\n' ? 1 : 0);
  if (counts_.blank_starts == 0 && !json_whitespace(static_cast<unsigned char>(text[0]))) {
    records = lines;  // no line starts with whitespace: none is blank
    return true;
  }
  // Lines start at 0 and after each '\n' but a last one; only one starting with whitespace can be
  // blank.
  const std::size_t size = text.size();
  std::size_t blank_lines = 0;
  for (std::size_t start = 0; start < size;) {
    std::size_t end = line_end(text, start);
    if (end == std::string_view::npos) end = size;
    if (json_whitespace(static_cast<unsigned char>(text[start])) &&
        end - start <= max_record_size &&
        text.substr(start, end - start).find_first_not_of(" \t\r") == std::string_view::npos) {
      ++blank_lines;
    }
    start = end + 1;
  }
  records = lines - blank_lines;
  return true;
}

error line_batch::parse(parser& p, document& doc, std::string_view text, std::size_t at,
                        std::size_t len, bool complete) noexcept {
  const char* const line = text.data() + at;
  // A line of the batch that failed there is parsed alone: the error is the one it gives alone.
  // Comments may span lines: only a line alone says what its comments are.
  if (!p.options().allow_comments && covers(p, text, at, len, complete) && sync(line)) {
    const std::uint32_t* const next = record(p, doc);
    if (next != nullptr && next != kFailed &&
        line_end_at(next) == static_cast<std::size_t>(line - begin_) + len) {
      passed(next);
      return {};
    }
    line_at_ = nullptr;
  }
  return alone(p, doc, line, len);
}

}  // namespace keel::json::detail
