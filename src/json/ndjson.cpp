// SPDX-License-Identifier: MIT
// NDJSON: the record reader over a buffer, file or stream (chunked, bounded memory), and the
// line splitting the parallel reader (ndjson.h) runs on each piece.
#include "keel/json/ndjson.h"

#include <cerrno>
#include <cstring>

namespace keel::json {
namespace {

bool blank(std::string_view line) noexcept {
  for (const char c : line)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

std::size_t find_newline(std::string_view text, std::size_t from) noexcept {
  if (from >= text.size()) return std::string_view::npos;
  const void* p = std::memchr(text.data() + from, '\n', text.size() - from);
  return p ? static_cast<std::size_t>(static_cast<const char*>(p) - text.data())
           : std::string_view::npos;
}

}  // namespace

std::string ndjson_error::to_string() const {
  if (record == 0) return message();
  return "record " + std::to_string(record) + " (line " + std::to_string(line) + ", column " +
         std::to_string(column) + "): " + message();
}

namespace detail {

ndjson_error parse_lines(std::string_view text, std::size_t base, std::size_t line,
                         std::size_t record, const ndjson_options& o, std::size_t& skipped,
                         void (*f)(void* ctx, const value& v, const record_info& info), void* ctx) {
  // One parser per thread, kept between calls: steady-state parsing allocates nothing.
  thread_local parser p;
  p.options() = o.parse;
  p.options().stop_after_first = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = find_newline(text, pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view l = text.substr(pos, nl - pos);
    const std::size_t at = pos;
    pos = nl + 1;
    ++line;
    // The size first (as the streaming reader, which meets it before the line's end).
    if (l.size() <= o.max_record_size && blank(l)) continue;
    ++record;
    const record_info info{record, line, base + at};
    if (l.size() > o.max_record_size) {
      const ndjson_error e{error_code::record_too_long, record, line, 1, base + at};
      if (!o.skip_bad_records) return e;
      ++skipped;
      if (o.on_skip) o.on_skip(e);
      continue;
    }
    auto r = p.parse(l);
    if (r) {
      f(ctx, *r, info);
      continue;
    }
    const ndjson_error e{r.code(), record, line, r.error().column, base + at + r.error().offset};
    if (!o.skip_bad_records) return e;
    ++skipped;
    if (o.on_skip) o.on_skip(e);
  }
  return {};
}

std::vector<std::size_t> split_lines(std::string_view text, std::size_t target) {
  std::vector<std::size_t> starts;
  if (target == 0) target = 1;
  std::size_t pos = 0;
  while (pos < text.size()) {
    starts.push_back(pos);
    if (text.size() - pos <= target) break;
    const std::size_t nl = find_newline(text, pos + target - 1);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return starts;
}

void count_lines(std::string_view text, std::size_t max_record_size, std::size_t& lines,
                 std::size_t& records) noexcept {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = find_newline(text, pos);
    if (nl == std::string_view::npos) nl = text.size();
    ++lines;
    if (nl - pos > max_record_size || !blank(text.substr(pos, nl - pos))) ++records;
    pos = nl + 1;
  }
}

}  // namespace detail

ndjson_reader::ndjson_reader(const ndjson_options& options)
    : options_(options), parser_(options.parse) {
  parser_.options().stop_after_first = false;
}

ndjson_reader::~ndjson_reader() {
  if (owned_ != nullptr) std::fclose(owned_);
}

ndjson_reader::ndjson_reader(ndjson_reader&& o) noexcept
    : options_(std::move(o.options_)),
      parser_(std::move(o.parser_)),
      doc_(std::move(o.doc_)),
      read_(std::move(o.read_)),
      owned_(std::exchange(o.owned_, nullptr)),
      buf_(std::move(o.buf_)),
      text_(o.text_),
      begin_(o.begin_),
      base_(o.base_),
      line_(o.line_),
      record_(o.record_),
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
  if (owned_ != nullptr) std::fclose(std::exchange(owned_, nullptr));
  read_ = nullptr;
  buf_.clear();
  text_ = text;
  begin_ = base_ = line_ = record_ = skipped_ = 0;
  eof_ = true;
  streaming_ = stopped_ = false;
  info_ = {};
  error_ = first_skipped_ = {};
  io_reason_.clear();
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

bool ndjson_reader::next() {
  bool discarding = false;  // inside a too-long record being skipped
  while (!stopped_) {
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
    const json::error pe = parser_.parse_into(doc_, l.data(), l.size());
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
