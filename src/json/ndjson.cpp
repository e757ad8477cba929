// SPDX-License-Identifier: MIT
// NDJSON: the record reader over a buffer, file or stream (chunked, bounded memory), and the
// line splitting the parallel reader (ndjson.h) runs on each piece.
#include "keel/json/ndjson.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "json/ndjson_batch.h"

namespace keel::json {
namespace {

bool blank(std::string_view line) noexcept {
  for (const char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

std::size_t find_newline(std::string_view text, std::size_t from) noexcept {
  return detail::line_batch::line_end(text, from);
}

}  // namespace

std::string ndjson_error::to_string() const {
  if (record == 0) return message();
  return "record " + std::to_string(record) + " (line " + std::to_string(line) + ", column " +
         std::to_string(column) + "): " + message();
}

namespace detail {

ndjson_error parse_piece(std::string_view all, const std::vector<std::size_t>& starts,
                         std::size_t i, piece_counts* counts, const ndjson_options& o,
                         std::size_t& skipped, std::size_t* own,
                         void (*reserve)(void* ctx, std::size_t records),
                         void (*f)(void* ctx, const value& v, const record_info& info), void* ctx) {
  // One parser, document and batch per thread, kept between calls: steady-state parsing
  // allocates nothing.
  thread_local parser p;
  thread_local document doc;
  thread_local line_batch batch;
  p.options() = o.parse;
  p.options().stop_after_first = false;
  // Read once: the options live with the caller, whose thread may write next to them.
  const std::size_t max_record_size = o.max_record_size;
  const std::size_t base = starts[i];
  const std::string_view text =
      all.substr(base, (i + 1 < starts.size() ? starts[i + 1] : all.size()) - base);
  // Numbered: stage 1 over the whole piece first, its line ends giving the piece's counts. Else
  // the piece is one batch made at its first record, without counting.
  batch.reset();
  batch.set_limit(text.size());
  std::size_t line = 0, record = 0;
  if (counts != nullptr) {
    std::size_t mine[2] = {0, 0};
    const bool counted = batch.count_all(p, text, max_record_size, mine[0], mine[1]);
    counts->before(i, counted ? mine : nullptr, line, record);
    // The results of the piece grow once, not by doubling.
    if (counted) reserve(ctx, mine[1]);
  } else {
    batch.count_lines(false);
  }
  const std::size_t first_line = line, first_record = record;
  ndjson_error stop;
  // A bad record: true when the reading stops there, else it is counted and skipped.
  // A kernel set this CPU lacks is no bad record: every piece stops on it.
  auto bad = [&](const ndjson_error& e) {
    if (!o.skip_bad_records || e.code == error_code::isa_unavailable) {
      stop = e;
      return true;
    }
    ++skipped;
    if (o.on_skip) o.on_skip(e);
    return false;
  };
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t at = pos;
    std::size_t len = 0;
    json::error pe;
    // The common record first (line_batch::common_record), else the general steps.
    if (!batch.common_record(p, doc, text.data() + at, max_record_size, len, pe)) {
      const std::size_t nl = find_newline(text, at);
      len = (nl == std::string_view::npos ? text.size() : nl) - at;
      // The size first (as the streaming reader, which meets it before the line's end).
      if (len <= max_record_size && blank(text.substr(at, len))) {
        pos = at + len + 1;
        ++line;
        continue;
      }
      if (len > max_record_size) {
        pos = at + len + 1;
        if (bad({error_code::record_too_long, ++record, ++line, 1, base + at})) return stop;
        continue;
      }
      pe = batch.parse(p, doc, text, at, len, true);
    }
    pos = at + len + 1;
    const record_info info{++record, ++line, base + at};
    if (!pe) {
      f(ctx, doc.root(), info);
    } else if (bad({pe.code, record, line, pe.column, base + at + pe.offset})) {
      return stop;
    }
  }
  own[0] = line - first_line;
  own[1] = record - first_record;
  return {};
}

namespace {
// Where a scalar (number, literal, or bytes that are neither) at the top level ends.
bool ends_scalar(char c) noexcept {
  switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '{':
    case '}':
    case '[':
    case ']':
    case '"':
    case ',':
    case ':':
      return true;
    default:
      return false;
  }
}
}  // namespace

std::size_t scan_value(std::string_view text, value_scan& s) noexcept {
  const std::size_t n = text.size();
  std::size_t i = s.pos;
  if (!s.started) {
    if (n == 0) return std::string_view::npos;
    s.started = true;
    s.kind = text[0];
    if (s.kind == '{' || s.kind == '[') s.depth = 1;
    s.in_string = s.kind == '"';
    i = 1;
  }
  if (s.kind != '{' && s.kind != '[' && s.kind != '"') {
    for (; i < n; ++i) {
      if (ends_scalar(text[i])) return i;
    }
    s.pos = i;
    return std::string_view::npos;
  }
  for (; i < n; ++i) {
    const char c = text[i];
    if (s.in_string) {
      if (s.escaped) {
        s.escaped = false;
      } else if (c == '\\') {
        s.escaped = true;
      } else if (c == '"') {
        s.in_string = false;
        if (s.depth == 0) return i + 1;  // a string value
      }
    } else if (c == '"') {
      s.in_string = true;
    } else if (c == '{' || c == '[') {
      ++s.depth;
    } else if ((c == '}' || c == ']') && --s.depth == 0) {
      return i + 1;
    }
  }
  s.pos = i;
  return std::string_view::npos;
}

std::vector<std::size_t> split_lines(std::string_view text, std::size_t target,
                                     std::size_t threads) {
  std::vector<std::size_t> starts;
  if (target == 0) target = 1;
  if (threads == 0) threads = 1;
  const std::size_t least = std::max<std::size_t>(target / 16, 1);
  std::size_t pos = 0;
  while (pos < text.size()) {
    starts.push_back(pos);
    const std::size_t rest = text.size() - pos;
    // The last pieces shrink (a quarter of what is left per thread, down to target / 16), so that
    // the threads finish close together.
    const std::size_t want = std::clamp(rest / (4 * threads), least, target);
    if (rest <= want) break;
    const std::size_t nl = find_newline(text, pos + want - 1);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return starts;
}

namespace {

// Counts lines and the lines that are not records: a line is a record unless it is blank (and
// no longer than max_record_size), and only a line starting with a blank byte or '\n' can be
// blank: those few are looked at closely, the rest is counted a block of 64 bytes at a time.
struct line_counter {
  std::string_view text;
  std::size_t max_record_size;
  std::size_t lines = 0, blank_lines = 0;

  void line_at(std::size_t pos) noexcept {  // a line starts at pos < text.size()
    const char c = text[pos];
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return;
    std::size_t nl = find_newline(text, pos);
    if (nl == std::string_view::npos) nl = text.size();
    if (nl - pos <= max_record_size && blank(text.substr(pos, nl - pos))) ++blank_lines;
  }
  // The '\n' bits of the block at `base` (lines after each one start there).
  void newlines(std::size_t base, std::uint64_t m) noexcept {
    lines += static_cast<std::size_t>(std::popcount(m));
    for (; m != 0; m &= m - 1) {
      const std::size_t next = base + static_cast<std::size_t>(std::countr_zero(m)) + 1;
      if (next < text.size()) line_at(next);
    }
  }
  // The bytes from `from` on, a byte at a time.
  void rest(std::size_t from) noexcept {
    for (std::size_t i = from; i < text.size(); ++i)
      if (text[i] == '\n') newlines(i, 1);
  }
  void finish(std::size_t& out_lines, std::size_t& out_records) const noexcept {
    // The last line counts when no '\n' ends it.
    const std::size_t n = lines + (text.back() != '\n' ? 1 : 0);
    out_lines += n;
    out_records += n - blank_lines;
  }
};

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512bw,popcnt,bmi"))) void count_avx512(line_counter& c) noexcept {
  const char* const p = c.text.data();
  const __m512i nl = _mm512_set1_epi8('\n');
  std::size_t i = 0;
  for (; i + 64 <= c.text.size(); i += 64) {
    const std::uint64_t m = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(p + i), nl);
    if (m != 0) c.newlines(i, m);
  }
  c.rest(i);
}

__attribute__((target("avx2,popcnt,bmi"))) void count_avx2(line_counter& c) noexcept {
  const char* const p = c.text.data();
  const __m256i nl = _mm256_set1_epi8('\n');
  std::size_t i = 0;
  for (; i + 64 <= c.text.size(); i += 64) {
    const auto lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), nl)));
    const auto hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32)), nl)));
    const std::uint64_t m = lo | std::uint64_t{hi} << 32;
    if (m != 0) c.newlines(i, m);
  }
  c.rest(i);
}
#endif

}  // namespace

void count_lines(std::string_view text, const ndjson_options& o, std::size_t& lines,
                 std::size_t& records) noexcept {
  if (text.empty()) return;
  line_counter c{text, o.max_record_size};
  c.line_at(0);
  [[maybe_unused]] const isa which = o.parse.isa == isa::automatic ? default_isa() : o.parse.isa;
#if defined(__x86_64__)
  if (which == isa::avx512 && isa_supported(which)) {
    count_avx512(c);
  } else if (which == isa::avx2 && isa_supported(which)) {
    count_avx2(c);
  } else
#endif
  {
    // Other kernel sets: a memchr per line.
    for (std::size_t pos = 0;;) {
      const std::size_t nl = find_newline(text, pos);
      if (nl == std::string_view::npos) break;
      c.newlines(nl, 1);
      pos = nl + 1;
    }
  }
  c.finish(lines, records);
}

void piece_counts::count(std::size_t i, std::size_t& lines, std::size_t& records) noexcept {
  slot& s = slots_[i];
  if (s.counted.load(std::memory_order_acquire)) {
    lines = s.lines.load(std::memory_order_relaxed);
    records = s.records.load(std::memory_order_relaxed);
    return;
  }
  lines = records = 0;
  const std::size_t end = i + 1 < starts_.size() ? starts_[i + 1] : text_.size();
  count_lines(text_.substr(starts_[i], end - starts_[i]), o_, lines, records);
  // Two threads may count one piece: both store the same numbers.
  s.lines.store(lines, std::memory_order_relaxed);
  s.records.store(records, std::memory_order_relaxed);
  s.counted.store(true, std::memory_order_release);
}

void piece_counts::before(std::size_t i, const std::size_t* own, std::size_t& lines,
                          std::size_t& records) noexcept {
  std::size_t l = 0, r = 0;
  if (own != nullptr) {
    slot& s = slots_[i];
    s.lines.store(own[0], std::memory_order_relaxed);
    s.records.store(own[1], std::memory_order_relaxed);
    s.counted.store(true, std::memory_order_release);
  }
  lines = records = 0;
  std::size_t k = i;  // piece 0 has nothing before it
  while (k > 0 && !slots_[k].known.load(std::memory_order_acquire)) {
    count(--k, l, r);
    lines += l;
    records += r;
  }
  if (k > 0) {
    lines += slots_[k].lines_before.load(std::memory_order_relaxed);
    records += slots_[k].records_before.load(std::memory_order_relaxed);
  }
  slot& s = slots_[i];
  s.lines_before.store(lines, std::memory_order_relaxed);
  s.records_before.store(records, std::memory_order_relaxed);
  s.known.store(true, std::memory_order_release);
}

void slot_turn::set(std::uint32_t v) noexcept {
  state_.store(v, std::memory_order_seq_cst);
  // seq_cst on both sides: either the waiter sees the new state, or this sees the waiter.
  if (waiters_.load(std::memory_order_seq_cst) != 0) state_.notify_all();
}

bool slot_turn::await(std::uint32_t want, const std::atomic<bool>& stop) noexcept {
  // At `want` or later (kNone is well before any state waited for).
  const auto reached = [want](std::uint32_t v) { return static_cast<std::int32_t>(v - want) >= 0; };
  // A piece takes a few hundred microseconds: a short spin catches one about to finish.
  for (int k = 0; k < 256; ++k) {
    if (reached(state_.load(std::memory_order_acquire)))
      return !stop.load(std::memory_order_relaxed);  // (an interrupted state may pass for one)
    if (stop.load(std::memory_order_relaxed)) return false;
#if defined(__x86_64__)
    _mm_pause();
#endif
  }
  for (;;) {
    waiters_.fetch_add(1, std::memory_order_seq_cst);
    const std::uint32_t v = state_.load(std::memory_order_seq_cst);
    const bool ready = reached(v), stopped = stop.load(std::memory_order_seq_cst);
    if (!ready && !stopped) state_.wait(v, std::memory_order_seq_cst);
    waiters_.fetch_sub(1, std::memory_order_relaxed);
    if (stopped) return false;
    if (ready) return true;
  }
}

void slot_turn::interrupt() noexcept {
  // A changed state wakes a waiter that read the old one, which then sees stop set.
  state_.fetch_xor(0x80000000u, std::memory_order_seq_cst);
  state_.notify_all();
}

}  // namespace detail

ndjson_reader::ndjson_reader(const ndjson_options& options)
    : options_(options), parser_(options.parse), batch_(std::make_unique<detail::line_batch>()) {
  parser_.options().stop_after_first = false;
}

ndjson_reader::~ndjson_reader() {
  if (owned_ != nullptr) std::fclose(owned_);
}

ndjson_reader::ndjson_reader(ndjson_reader&& o) noexcept
    : options_(std::move(o.options_)),
      parser_(std::move(o.parser_)),
      doc_(std::move(o.doc_)),
      batch_(std::move(o.batch_)),
      read_(std::move(o.read_)),
      owned_(std::exchange(o.owned_, nullptr)),
      buf_(std::move(o.buf_)),
      text_(o.text_),
      begin_(o.begin_),
      base_(o.base_),
      line_(o.line_),
      record_(o.record_),
      line_start_(o.line_start_),
      scan_(o.scan_),
      discarding_(o.discarding_),
      eof_(o.eof_),
      streaming_(o.streaming_),
      stopped_(o.stopped_),
      info_(o.info_),
      error_(o.error_),
      first_skipped_(o.first_skipped_),
      skipped_(o.skipped_),
      io_reason_(std::move(o.io_reason_)) {
  if (streaming_) text_ = buf_;
}

void ndjson_reader::open_buffer(std::string_view text) {
  if (batch_) batch_->reset();
  if (owned_ != nullptr) std::fclose(std::exchange(owned_, nullptr));
  read_ = nullptr;
  buf_.clear();
  text_ = text;
  begin_ = base_ = line_ = record_ = skipped_ = line_start_ = 0;
  scan_ = {};
  discarding_ = false;
  eof_ = true;
  streaming_ = stopped_ = false;
  info_ = {};
  error_ = first_skipped_ = {};
  io_reason_.clear();
  // A kernel set this CPU lacks stops the reading before the first record, rather than making
  // every record a bad one.
  const isa which = options_.parse.isa == isa::automatic ? default_isa() : options_.parse.isa;
  if (!isa_supported(which)) {
    error_.code = error_code::isa_unavailable;
    stopped_ = true;
  }
}

void ndjson_reader::open_source(std::function<std::size_t(char*, std::size_t)> read) {
  open_buffer({});
  read_ = std::move(read);
  eof_ = false;
  streaming_ = true;
}

void ndjson_reader::open_stream(std::FILE* stream) {
  open_source([this, stream](char* buf, std::size_t size) -> std::size_t {
    const std::size_t got = std::fread(buf, 1, size, stream);
    if (got == 0 && std::ferror(stream)) io_reason_ = std::strerror(errno);
    return got;
  });
}

json::error ndjson_reader::open_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    open_buffer({});
    io_reason_ = std::strerror(errno);
    error_.code = error_code::io_error;
    stopped_ = true;
    return {error_code::io_error};
  }
  open_stream(f);
  owned_ = f;
  return {};
}

bool ndjson_reader::fill() {
  if (batch_) batch_->reset();  // buf_ changes
  if (begin_ > 0) {
    buf_.erase(0, begin_);
    base_ += begin_;
    begin_ = 0;
  }
  const std::size_t old = buf_.size();
  const std::size_t chunk = options_.chunk_size == 0 ? 1 : options_.chunk_size;
  buf_.resize(old + chunk);
  const std::size_t got = read_(buf_.data() + old, chunk);
  buf_.resize(old + got);
  text_ = buf_;
  if (got == 0) eof_ = true;
  return got > 0;
}

void ndjson_reader::skip(const ndjson_error& e) {
  if (++skipped_ == 1) first_skipped_ = e;
  if (options_.on_skip) options_.on_skip(e);
}

bool ndjson_reader::fail(const ndjson_error& e) {
  error_ = e;
  stopped_ = true;
  return false;
}

void ndjson_reader::count_newlines(std::size_t from, std::size_t to) noexcept {
  for (std::size_t i = from; i < to; ++i) {
    const void* p = std::memchr(text_.data() + i, '\n', to - i);
    if (p == nullptr) break;
    i = static_cast<std::size_t>(static_cast<const char*>(p) - text_.data());
    ++line_;
    line_start_ = base_ + i + 1;
  }
}

bool ndjson_reader::next_value() {
  while (!stopped_) {
    if (!discarding_ && !scan_.started) {  // whitespace before the next value
      std::size_t i = begin_;
      while (i < text_.size() && detail::json_whitespace(static_cast<unsigned char>(text_[i]))) ++i;
      count_newlines(begin_, i);
      begin_ = i;
    }
    const std::string_view rest = text_.substr(begin_);
    constexpr std::size_t more = std::string_view::npos;
    std::size_t len = rest.empty() ? more : detail::scan_value(rest, scan_);
    if (len == more && streaming_ && !eof_) {
      if (rest.size() > options_.max_record_size || discarding_) {
        if (!discarding_) {
          const ndjson_error e{error_code::record_too_long, record_ + 1, line_ + 1,
                               base_ + begin_ - line_start_ + 1, base_ + begin_};
          if (!options_.skip_bad_records) return fail(e);
          skip(e);
          ++record_;
          discarding_ = true;
        }
        // Drop what was read of the record; the scan goes on from its state.
        count_newlines(begin_, text_.size());
        begin_ = text_.size();
        scan_.pos = 0;
      }
      if (!fill() && !io_reason_.empty())
        return fail({error_code::io_error, record_ + 1, line_ + 1, 1, base_ + begin_});
      continue;
    }
    if (rest.empty()) {
      stopped_ = true;
      return false;
    }
    if (len == more) len = rest.size();  // the input ends inside the value: the parser says so
    scan_ = {};
    const std::size_t at = base_ + begin_;
    const std::size_t line = line_ + 1, column = at - line_start_ + 1;
    count_newlines(begin_, begin_ + len);
    begin_ += len;
    if (discarding_) {  // the end of the skipped record
      discarding_ = false;
      continue;
    }
    ++record_;
    if (len > options_.max_record_size) {
      const ndjson_error e{error_code::record_too_long, record_, line, column, at};
      if (!options_.skip_bad_records) return fail(e);
      skip(e);
      continue;
    }
    const json::error pe = parser_.parse_into(doc_, rest.data(), len);
    if (!pe) {
      info_ = {record_, line, at};
      return true;
    }
    // The parser's line and column count from the value's first byte.
    const ndjson_error e{pe.code, record_, pe.line > 1 ? line + pe.line - 1 : line,
                         pe.line > 1 ? pe.column : column + (pe.column > 0 ? pe.column - 1 : 0),
                         at + pe.offset};
    if (!options_.skip_bad_records) return fail(e);
    skip(e);
  }
  return false;
}

bool ndjson_reader::next() {
  if (options_.concatenated) return next_value();
  // The common record first (line_batch::common_record); anything else takes the general loop
  // below, which gives the same results.
  for (std::size_t len = 0; !stopped_ && batch_;) {
    json::error pe;
    if (!batch_->common_record(parser_, doc_, text_.data() + begin_, options_.max_record_size, len,
                               pe)) {
      break;
    }
    const std::size_t at = base_ + begin_;
    begin_ += len + 1;
    ++line_;
    ++record_;
    if (!pe) {
      info_ = {record_, line_, at};
      return true;
    }
    const ndjson_error e{pe.code, record_, line_, pe.column, at + pe.offset};
    if (!options_.skip_bad_records) return fail(e);
    skip(e);
  }
  bool discarding = false;  // inside a too-long record being skipped
  while (!stopped_) {
    const bool complete = !streaming_ || eof_;
    std::size_t nl = find_newline(text_, begin_);
    if (nl == std::string_view::npos) {
      if (streaming_ && !eof_) {
        const std::size_t pending = text_.size() - begin_;
        if (pending > options_.max_record_size || discarding) {
          const ndjson_error e{error_code::record_too_long, record_ + 1, line_ + 1, 1,
                               base_ + begin_};
          if (!discarding) {
            if (!options_.skip_bad_records) return fail(e);
            skip(e);
            ++record_;
            discarding = true;
          }
          begin_ = text_.size();  // drop what was read of the record
        }
        if (!fill() && !io_reason_.empty())
          return fail({error_code::io_error, record_ + 1, line_ + 1, 1, base_ + begin_});
        continue;
      }
      if (begin_ >= text_.size()) {
        stopped_ = true;
        return false;
      }
      nl = text_.size();
    }
    const std::string_view l = text_.substr(begin_, nl - begin_);
    const std::size_t at = base_ + begin_;
    begin_ = nl + 1;
    ++line_;
    if (discarding) {  // the end of the skipped record
      discarding = false;
      continue;
    }
    if (l.size() <= options_.max_record_size && blank(l)) continue;
    ++record_;
    if (l.size() > options_.max_record_size) {
      const ndjson_error e{error_code::record_too_long, record_, line_, 1, at};
      if (!options_.skip_bad_records) return fail(e);
      skip(e);
      continue;
    }
    const json::error pe = batch_
                               ? batch_->parse(parser_, doc_, text_, at - base_, l.size(), complete)
                               : parser_.parse_into(doc_, l.data(), l.size());
    if (!pe) {
      info_ = {record_, line_, at};
      return true;
    }
    const ndjson_error e{pe.code, record_, line_, pe.column, at + pe.offset};
    if (!options_.skip_bad_records) return fail(e);
    skip(e);
  }
  return false;
}

}  // namespace keel::json
