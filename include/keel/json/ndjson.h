// SPDX-License-Identifier: MIT
// keel::json NDJSON: one JSON value per line, from a buffer, a file or a stream read in chunks
// (bounded memory), one record at a time or in parallel on keel::pool with results in input
// order (docs/json-ndjson.md).
//
//   keel::json::ndjson_reader r;
//   if (auto e = r.open_file("events.ndjson")) ...;
//   while (r.next()) use(r.value());
//   if (r.error()) std::puts(r.error().to_string().c_str());
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "keel/json/document.h"
#include "keel/json/error.h"
#include "keel/json/options.h"
#include "keel/json/parser.h"
#include "keel/json/value.h"
#include "keel/pool/thread_pool.h"

namespace keel::json {

// A bad record: its 1-based record number (counting non-blank lines, or values when
// concatenated), the 1-based line and column of the error, and its byte offset in the whole input.
struct ndjson_error {
  using exception_type = json::exception;
  error_code code = error_code::ok;
  std::size_t record = 0;
  std::size_t line = 0;
  std::size_t column = 0;
  std::size_t offset = 0;
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return json::message(code); }
  // "record 3 (line 4, column 7): unexpected character"
  std::string to_string() const;
};

struct ndjson_options {
  parse_options parse;            // for each record (stop_after_first is ignored)
  bool skip_bad_records = false;  // count bad records (skipped()) instead of stopping
  // Concatenated JSON (ndjson_reader only): records are JSON values one after another, separated
  // by whitespace or by nothing where the grammar allows (`{"a":1}{"a":2}`, `[1] [2]`, `1 2`),
  // instead of one per line.
  bool concatenated = false;
  std::size_t chunk_size = std::size_t{1} << 20;  // bytes read from a file or stream at a time
  // The longest record accepted (record_too_long beyond it); memory stays within about
  // chunk_size + max_record_size however large the input.
  std::size_t max_record_size = std::size_t{64} << 20;
  // Called with each bad record that skip_bad_records skips (by parallel_ndjson on the thread
  // that parsed it, so possibly from several threads at once).
  std::function<void(const ndjson_error&)> on_skip;
};

// Where a record came from.
struct record_info {
  std::size_t record = 0;  // 1-based record number
  std::size_t line = 0;    // 1-based line
  std::size_t offset = 0;  // byte offset of the line (concatenated: of the value) in the input
};

namespace detail {
class line_batch;  // src/json/ndjson_batch.h
// Concatenated JSON: where the value at the start of a text ends. It follows strings (with their
// escapes) and counts brackets; it does not check the grammar (the parser does). Resumable: the
// state carries over when more text arrives after the same start.
struct value_scan {
  std::size_t pos = 0;    // bytes of the text looked at
  std::size_t depth = 0;  // open brackets
  char kind = 0;          // the value's first byte (once started)
  bool started = false, in_string = false, escaped = false;
};
// The value's length from the start of the text (0 when a scan resumed on new text after a
// dropped start finds the end at once), or npos when the text ends first (more text may
// complete it).
std::size_t scan_value(std::string_view text, value_scan& s) noexcept;
}  // namespace detail

// Reads records one at a time. Blank lines (whitespace only) are skipped; a line may end in
// "\r\n" (concatenated: whitespace between values is skipped). Each value is valid until the next
// call to next().
class ndjson_reader {
 public:
  explicit ndjson_reader(const ndjson_options& options = {});
  ~ndjson_reader();
  ndjson_reader(ndjson_reader&&) noexcept;
  ndjson_reader& operator=(ndjson_reader&&) = delete;

  // Sources (each restarts the reader). The buffer is not copied: it must outlive the reading.
  void open_buffer(std::string_view text);
  // io_error (with errno's reason in io_reason()) when the file cannot be opened.
  json::error open_file(const std::string& path);
  // Reads chunk_size bytes at a time from the stream (not closed by the reader).
  void open_stream(std::FILE* stream);
  // Reads from a function that fills up to `size` bytes and returns the count (0 at the end).
  void open_source(std::function<std::size_t(char* buf, std::size_t size)> read);

  // The next record: true with value() and info() set; false at the end of the input or at a bad
  // record (error() then says which; with skip_bad_records bad records are counted and skipped).
  bool next();
  json::value value() const noexcept { return doc_.root(); }
  const json::document& document() const noexcept { return doc_; }
  const record_info& info() const noexcept { return info_; }
  // The error that stopped the reading (code ok at the end of the input).
  const ndjson_error& error() const noexcept { return error_; }
  // Bad records skipped (skip_bad_records), and the first of them.
  std::size_t skipped() const noexcept { return skipped_; }
  const ndjson_error& first_skipped() const noexcept { return first_skipped_; }
  // Why a file or stream could not be read (strerror text), empty otherwise.
  const std::string& io_reason() const noexcept { return io_reason_; }
  // Bytes of the buffer the reader holds for file and stream input.
  std::size_t buffer_capacity() const noexcept { return buf_.capacity(); }
  // The input the reader still holds from input offset `offset` on (to the end of what was read),
  // empty when those bytes were dropped: e.g. a bad record's line from an on_skip callback, where
  // it is still held unless the record was too long. Valid until the next call of next().
  std::string_view held(std::size_t offset) const noexcept {
    if (offset < base_ || offset - base_ > text_.size()) return {};
    return text_.substr(offset - base_);
  }

 private:
  bool fill();        // reads more input; false at the end
  bool next_value();  // next() for concatenated JSON
  void count_newlines(std::size_t from, std::size_t to) noexcept;  // of text_, for line_
  bool fail(const ndjson_error& e);
  void skip(const ndjson_error& e);
  ndjson_options options_;
  parser parser_;
  json::document doc_;
  std::unique_ptr<detail::line_batch> batch_;  // stage 1 over many lines at once
  std::function<std::size_t(char*, std::size_t)> read_;
  std::FILE* owned_ = nullptr;
  std::string buf_;             // file / stream input: [begin_, buf_.size()) is unread
  std::string_view text_;       // the input in view (the buffer, or buf_)
  std::size_t begin_ = 0;       // next unread byte of text_
  std::size_t base_ = 0;        // offset in the whole input of text_[0]
  std::size_t line_ = 0;        // lines before begin_
  std::size_t record_ = 0;      // records before begin_
  std::size_t line_start_ = 0;  // concatenated: offset in the whole input of line_'s end
  detail::value_scan scan_;     // concatenated: the record at begin_ scanned so far
  bool discarding_ = false;     // concatenated: inside a too-long record being skipped
  bool eof_ = true, streaming_ = false, stopped_ = false;
  record_info info_;
  ndjson_error error_, first_skipped_;
  std::size_t skipped_ = 0;
  std::string io_reason_;
};

namespace detail {
class piece_counts;
// Parses the records of piece i of `text` (whole lines, from starts[i] to the next start)
// calling f(ctx, value, info) for each; returns the first bad record's error (stopping there)
// unless skipping, when it counts them in skipped. The lines and records before the piece come
// from `counts`; without counts (nullptr) the numbers in info and in the error count from the
// piece's start (its first line is line 1). When it returns without an error, own[0] and own[1]
// are the piece's lines and records. reserve(ctx, n) is called first with the piece's record
// count when known.
ndjson_error parse_piece(std::string_view text, const std::vector<std::size_t>& starts,
                         std::size_t i, piece_counts* counts, const ndjson_options& o,
                         std::size_t& skipped, std::size_t* own,
                         void (*reserve)(void* ctx, std::size_t records),
                         void (*f)(void* ctx, const value& v, const record_info& info), void* ctx);
// Splits text into pieces of about `target` bytes ending at line ends, the last ones smaller (a
// quarter of what is left per thread, at least target / 16) so that `threads` threads taking them
// in turn finish close together; returns the piece starts.
std::vector<std::size_t> split_lines(std::string_view text, std::size_t target,
                                     std::size_t threads);
// Lines and records (non-blank lines, or lines longer than max_record_size) in text: one vector
// pass counting '\n' (the kernel set of o.parse.isa), a closer look only at lines that start
// with a blank.
void count_lines(std::string_view text, const ndjson_options& o, std::size_t& lines,
                 std::size_t& records) noexcept;

// The lines and records before each piece of a parallel read, found by the threads that parse
// them: each has its own piece's counts from stage 1 (run over the whole piece first, its line
// ends counted), then adds the counts of the pieces before it back to the nearest one whose total
// is known, counting a piece itself (count_lines) when that piece's thread has not published its
// counts yet. No thread waits for another for this.
class piece_counts {
 public:
  piece_counts(std::string_view text, const std::vector<std::size_t>& starts,
               const ndjson_options& o)
      : text_(text), starts_(starts), o_(o), slots_(std::make_unique<slot[]>(starts.size())) {}
  // Lines and records before piece i; `own`: piece i's lines and records when known (else
  // counted here).
  void before(std::size_t i, const std::size_t* own, std::size_t& lines,
              std::size_t& records) noexcept;

 private:
  struct slot {
    std::atomic<bool> counted{false}, known{false};
    std::atomic<std::size_t> lines{0}, records{0};                // of the piece, once counted
    std::atomic<std::size_t> lines_before{0}, records_before{0};  // once known
  };
  void count(std::size_t i, std::size_t& lines, std::size_t& records) noexcept;
  std::string_view text_;
  const std::vector<std::size_t>& starts_;
  const ndjson_options& o_;
  std::unique_ptr<slot[]> slots_;
};

// The turn of one result slot of parallel_ndjson: the slot holds piece i (i % its slot count)
// from when piece i - window was consumed (state free_for(i)) until piece i is consumed (it is
// parsed at state done(i)). Waiting spins briefly, then sleeps on the state word; setting it wakes
// a sleeper only when there is one.
class slot_turn {
 public:
  static std::uint32_t free_for(std::size_t piece) noexcept {
    return static_cast<std::uint32_t>(2 * piece);
  }
  static std::uint32_t done(std::size_t piece) noexcept {
    return static_cast<std::uint32_t>(2 * piece + 1);
  }
  // A slot no piece may use yet.
  static constexpr std::uint32_t kNone = 0xffffffffu;
  void reset(std::uint32_t v) noexcept { state_.store(v, std::memory_order_relaxed); }
  bool is(std::uint32_t v) const noexcept { return state_.load(std::memory_order_acquire) == v; }
  void set(std::uint32_t v) noexcept;
  // Until the state is `want` or a later one (true; a slot's states go up by small steps, so
  // "later" is a signed difference, whatever the wrap) or `stop` is set (false).
  bool await(std::uint32_t want, const std::atomic<bool>& stop) noexcept;
  // After stop was set: wakes whoever waits here.
  void interrupt() noexcept;

 private:
  std::atomic<std::uint32_t> state_{0};
  std::atomic<std::uint32_t> waiters_{0};
};

// The records of one piece of a parallel read, in few bytes a record: map's result and the
// record's offset from the piece's first record (4 bytes). Record and line numbers go up by one
// from the first record's, unless a blank line or a skipped record breaks the run (or the piece
// spans 4 GiB): from there on every record_info is kept. The consuming thread reads what another
// core wrote, and that core writes the same memory again a few pieces later: each byte less is
// less to move between the cores both times.
template <class R>
class piece_records {
 public:
  void reserve(std::size_t n) {
    values_.reserve(n);
    offsets_.reserve(n);
  }
  // Adds a record; on an exception (no memory) nothing is added.
  void add(R&& r, const record_info& info) {
    // The common record (numbers one up from the last, room reserved, a move that cannot throw)
    // inline in the caller; anything else in add_any.
    if constexpr (std::is_nothrow_move_constructible_v<R>) {
      const std::size_t k = values_.size();
      if (k != 0 && infos_.empty() && info.record == first_.record + k &&
          info.line == first_.line + k && info.offset - first_.offset <= kMaxOffset &&
          k < values_.capacity() && k < offsets_.capacity()) [[likely]] {
        offsets_.push_back(static_cast<std::uint32_t>(info.offset - first_.offset));
        values_.push_back(box{std::forward<R>(r)});
        return;
      }
    }
    add_any(std::forward<R>(r), info);
  }
  // Any record (add).
  [[gnu::noinline]] void add_any(R&& r, const record_info& info) {
    const std::size_t k = values_.size();
    if (k == 0) first_ = info;
    if (infos_.empty()) [[likely]] {
      const std::size_t d = info.offset - first_.offset;
      if (info.record == first_.record + k && info.line == first_.line + k &&
          d <= std::numeric_limits<std::uint32_t>::max()) [[likely]] {
        offsets_.push_back(static_cast<std::uint32_t>(d));
        try {
          values_.push_back(box{std::forward<R>(r)});
        } catch (...) {
          offsets_.pop_back();
          throw;
        }
        return;
      }
      std::vector<record_info> all;
      all.reserve(std::max(values_.capacity(), k + 1));
      for (std::size_t j = 0; j < k; ++j) all.push_back(this->info(j));
      all.push_back(info);
      values_.push_back(box{std::forward<R>(r)});
      infos_ = std::move(all);
      return;
    }
    infos_.push_back(info);
    try {
      values_.push_back(box{std::forward<R>(r)});
    } catch (...) {
      infos_.pop_back();
      throw;
    }
  }
  std::size_t size() const noexcept { return values_.size(); }
  R&& take(std::size_t k) noexcept { return std::forward<R>(values_[k].r); }
  record_info info(std::size_t k) const noexcept {
    if (!infos_.empty()) return infos_[k];
    return {first_.record + k, first_.line + k, first_.offset + offsets_[k]};
  }
  // Forgets the records, keeping the memory when it is at most `keep` bytes.
  void clear(std::size_t keep) noexcept {
    values_.clear();
    offsets_.clear();
    infos_.clear();
    if (values_.capacity() * sizeof(box) + offsets_.capacity() * sizeof(std::uint32_t) +
            infos_.capacity() * sizeof(record_info) >
        keep) {
      *this = piece_records();
    }
  }

 private:
  struct box {  // (no std::vector<bool>)
    R r;
  };
  static constexpr std::size_t kMaxOffset = std::numeric_limits<std::uint32_t>::max();
  std::vector<box> values_;
  std::vector<std::uint32_t> offsets_;  // while infos_ is empty
  std::vector<record_info> infos_;
  record_info first_;
};

// Whether parallel_ndjson's map takes the record's info: map(value, info), else map(value). A
// callable that takes either (a variadic lambda, a std::bind result) is called with the info.
template <class Map>
inline constexpr bool map_takes_info = std::is_invocable_v<Map&, const value&, const record_info&>;
template <class Map>
inline constexpr bool map_callable = map_takes_info<Map> || std::is_invocable_v<Map&, const value&>;
// What parallel_ndjson's map returns.
template <class Map, bool = map_takes_info<Map>>
struct map_result {
  using type = std::invoke_result_t<Map&, const value&, const record_info&>;
};
template <class Map>
struct map_result<Map, false> {
  using type = std::invoke_result_t<Map&, const value&>;
};
template <class Map>
decltype(auto) call_map(Map& map, const value& v, [[maybe_unused]] const record_info& info) {
  if constexpr (map_takes_info<Map>) {
    return std::invoke(map, v, info);
  } else {
    return std::invoke(map, v);
  }
}
}  // namespace detail

// Parses the records of `text` on the calling thread and pool.size() - 1 of the pool's workers (at
// least one), and hands each record's result to `consume` in input order on the calling thread.
// `map(const value&, const record_info&)` runs on whichever of these threads parses the record
// (it may not keep the value) and returns what `consume(R&&, const record_info&)` receives.
// A map that takes only the value, `map(const value&)`, lets the pieces be parsed before the
// record and line numbers of the pieces before them are known: each piece counts its own lines
// as it reads them and the calling thread adds the counts of the pieces before it as it consumes
// (unless skip_bad_records has an on_skip, which is handed numbered errors on the parsing
// threads); when map can take the info (also a callable that takes either), stage 1 counts each
// piece's lines first, which costs a few percent of a thread's time. The
// text is cut at line ends into pieces of `piece_bytes`, taken in input order (512 KiB: a piece's
// text and its stage-1 positions, about 1.3 times its size on typical records, stay in a 1 MiB L2
// cache from the first stage to the second); the results of at most four pieces per thread (and
// the one being consumed) are held at once. Returns the first bad record's error (consume has
// then seen every record before it; likewise an exception from map or consume leaves after every
// record before its own); skipped counts skipped records under skip_bad_records. Concatenated
// JSON (options.concatenated) has no line ends to cut at: it is read on the calling thread by an
// ndjson_reader, with the same results.
template <class Map, class Consume>
ndjson_error parallel_ndjson(pool::thread_pool& pool, std::string_view text,
                             const ndjson_options& options, Map map, Consume consume,
                             std::size_t* skipped = nullptr,
                             std::size_t piece_bytes = std::size_t{512} << 10) {
  static_assert(detail::map_callable<Map>,
                "parallel_ndjson: map must be callable as map(const json::value&, const "
                "json::record_info&) or map(const json::value&)");
  if (options.concatenated) {
    ndjson_reader r(options);
    r.open_buffer(text);
    while (r.next()) consume(detail::call_map(map, r.value(), r.info()), std::as_const(r.info()));
    if (skipped) *skipped = r.skipped();
    return r.error();
  }
  using R = typename detail::map_result<Map>::type;
  struct piece_result {
    detail::piece_records<R> items;
    ndjson_error error;
    std::size_t skipped = 0;
    std::size_t own[2] = {0, 0};  // the piece's lines and records, when !numbered
    std::exception_ptr thrown;    // from map: handed on after the records before it
  };
  const std::vector<std::size_t> starts =
      detail::split_lines(text, piece_bytes, std::max<std::size_t>(pool.size(), 2));
  const std::size_t n = starts.size();
  if (n == 0) {
    if (skipped) *skipped = 0;
    return {};
  }
  // Whether the pieces are numbered as they are parsed (map or on_skip sees the numbers), or
  // from their own first line, the calling thread adding the lines and records before each.
  const bool numbered =
      detail::map_takes_info<Map> || (options.skip_bad_records && options.on_skip != nullptr);
  std::optional<detail::piece_counts> counts;
  if (numbered) counts.emplace(text, starts, options);
  // Piece i goes to slot i % slot_count once piece i - window was consumed (detail::slot_turn):
  // at most `window` pieces' results are held.
  const std::size_t helpers = std::min(pool.size() > 1 ? pool.size() - 1 : std::size_t{1}, n - 1);
  const std::size_t window = 4 * (helpers + 1);
  // A slot keeps its result arrays' memory from piece to piece (cleared when consumed), up to
  // piece_bytes / 8 of it: the thread that fills a slot writes memory the consuming thread last
  // read slot_count pieces ago, long gone from that core's caches, not memory it has just read
  // (as a freed vector would be, going straight to the next piece's allocation); a write to a
  // line another core holds waits for that core.
  const std::size_t slot_count = 4 * window;
  const std::size_t kept_bytes = piece_bytes / 8;
  struct alignas(64) slot {
    detail::slot_turn turn;
    piece_result result;
  };
  const std::unique_ptr<slot[]> slots(new slot[slot_count]);
  for (std::size_t s = 0; s < slot_count; ++s)
    slots[s].turn.reset(s < window ? detail::slot_turn::free_for(s) : detail::slot_turn::kNone);
  std::atomic<std::size_t> next{0};  // the first piece nobody has taken
  std::atomic<bool> stop{false};
  // Parses piece i into its slot (free: piece i - window was consumed).
  auto work = [&](std::size_t i) {
    slot& sl = slots[i % slot_count];
    // Built on the parsing thread's own stack, written to the slot once: the vectors written per
    // record of two pieces parsed at once are never on one cache line.
    piece_result out;
    out.items = std::move(sl.result.items);
    struct ctx_t {
      Map* map;
      detail::piece_records<R>* items;
    } ctx{&map, &out.items};
    try {
      out.error = detail::parse_piece(
          text, starts, i, counts ? &*counts : nullptr, options, out.skipped, out.own,
          [](void* c, std::size_t records) { static_cast<ctx_t*>(c)->items->reserve(records); },
          [](void* c, const value& v, const record_info& info) {
            auto* x = static_cast<ctx_t*>(c);
            x->items->add(detail::call_map(*x->map, v, info), info);
          },
          &ctx);
    } catch (...) {
      out.thrown = std::current_exception();
    }
    sl.result = std::move(out);
    sl.turn.set(detail::slot_turn::done(i));
  };
  // A worker takes pieces in input order until none is left or the caller stops, each once its
  // slot is free: it waits for the slot before taking the piece, so that the calling thread may
  // take it meanwhile, and a piece taken is parsed at once (the thread of the piece after it
  // counts its lines itself when its counts are not known yet).
  auto helper = [&] {
    while (!stop.load(std::memory_order_acquire)) {
      std::size_t i = next.load(std::memory_order_relaxed);
      if (i >= n || !slots[i % slot_count].turn.await(detail::slot_turn::free_for(i), stop)) return;
      if (next.compare_exchange_strong(i, i + 1, std::memory_order_relaxed)) work(i);
    }
  };
  std::vector<pool::future<void>> running;
  // The workers refer to this frame: they end before it is left.
  auto finish = [&] {
    stop.store(true, std::memory_order_seq_cst);
    for (std::size_t s = 0; s < slot_count; ++s) slots[s].turn.interrupt();
    for (auto& f : running) f.wait();
  };
  std::size_t total_skipped = 0;
  std::size_t lines_before = 0, records_before = 0;  // of the next piece consumed, when !numbered
  ndjson_error first;
  try {
    running.reserve(helpers);
    for (std::size_t h = 0; h < helpers; ++h) running.push_back(pool.submit(helper));
    for (std::size_t c = 0; c < n;) {  // c: the next piece to consume
      slot& s = slots[c % slot_count];
      if (!s.turn.is(detail::slot_turn::done(c))) {
        // Not done: the calling thread parses the next piece meanwhile, if its slot is free.
        std::size_t i = next.load(std::memory_order_relaxed);
        while (i < n && i < c + window &&
               !next.compare_exchange_weak(i, i + 1, std::memory_order_relaxed)) {
        }
        if (i < n && i < c + window) {
          work(i);
        } else {
          s.turn.await(detail::slot_turn::done(c), stop);  // taken by a worker: it is parsing it
        }
        continue;
      }
      piece_result& res = s.result;
      for (std::size_t k = 0, m = res.items.size(); k < m; ++k) {
        record_info info = res.items.info(k);
        info.record += records_before;
        info.line += lines_before;
        consume(res.items.take(k), std::as_const(info));
      }
      // (map threw at the record after the last one it returned)
      if (res.thrown) std::rethrow_exception(res.thrown);
      total_skipped += res.skipped;
      if (res.error) {
        first = res.error;
        first.record += records_before;
        first.line += lines_before;
        break;
      }
      if (!numbered) {
        lines_before += res.own[0];
        records_before += res.own[1];
      }
      res.items.clear(kept_bytes);  // (the memory stays for the slot's next piece)
      slots[(c + window) % slot_count].turn.set(detail::slot_turn::free_for(c + window));
      ++c;
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
  if (skipped) *skipped = total_skipped;
  return first;
}

}  // namespace keel::json
