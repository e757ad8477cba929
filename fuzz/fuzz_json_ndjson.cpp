// SPDX-License-Identifier: MIT
// libFuzzer: the NDJSON reader, for lines and for concatenated JSON. The same input read from a
// buffer, from a source handing out a few bytes at a time (chunk size, record size limit, kernel
// set and the mode from the first bytes), and by the parallel reader must give the same records
// and the same error; with skipping, the same count of skipped records. Lines must also read as
// each line parsed alone (the readers run stage 1 over many lines at once). Nothing may crash or
// allocate beyond the limits.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include <keel/json.h>
#include <keel/json/ndjson.h>
#include <keel/pool.h>

namespace {

using namespace keel::json;

void check(bool cond) {
  if (!cond) std::abort();
}

// A record in transcript()'s form: "record:line:" and its value written, a line.
std::string numbers(std::size_t record, std::size_t line) {
  return std::to_string(record) + ":" + std::to_string(line) + ":";
}
std::string written(const value& v) {
  auto w = write(v, {.nonfinite = nonfinite_policy::literal});
  check(w.ok());
  return *w + "\n";
}

std::string transcript(ndjson_reader& r) {
  std::string out;
  while (r.next()) out += numbers(r.info().record, r.info().line) + written(r.value());
  out += r.error().to_string() + " skipped " + std::to_string(r.skipped());
  return out;
}

// The lines of text, each parsed alone, in transcript()'s form.
std::string line_by_line(std::string_view text, const ndjson_options& o) {
  std::string out;
  parser p(o.parse);
  std::size_t pos = 0, line = 0, record = 0, skipped = 0;
  ndjson_error stop;
  while (pos < text.size() && !stop) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view l = text.substr(pos, nl - pos);
    const std::size_t at = pos;
    pos = nl + 1;
    ++line;
    const bool too_long = l.size() > o.max_record_size;
    if (!too_long && l.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ++record;
    ndjson_error e{error_code::record_too_long, record, line, 1, at};
    if (!too_long) {
      auto r = p.parse(l);
      if (r) {
        out += numbers(record, line) + written(*r);
        continue;
      }
      e = {r.code(), record, line, r.error().column, at + r.error().offset};
    }
    if (o.skip_bad_records) {
      ++skipped;
    } else {
      stop = e;
    }
  }
  return out + stop.to_string() + " skipped " + std::to_string(skipped);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  ndjson_options o;
  o.chunk_size = 1 + data[0] % 16;
  o.max_record_size = 8 + data[1] % 64;
  o.skip_bad_records = (data[1] & 0x80) != 0;
  o.parse.allow_nan_inf = (data[0] & 0x40) != 0;
  o.concatenated = (data[0] & 0x20) != 0;
  constexpr keel::isa kIsas[] = {keel::isa::automatic, keel::isa::scalar, keel::isa::avx2,
                                 keel::isa::avx512};
  o.parse.isa = kIsas[((data[0] >> 4) & 1) | ((data[0] >> 6) & 2)];
  if (!keel::isa_supported(o.parse.isa)) o.parse.isa = keel::isa::scalar;
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);

  ndjson_reader a(o);
  a.open_buffer(text);
  const std::string from_buffer = transcript(a);
  if (!o.concatenated) check(from_buffer == line_by_line(text, o));

  ndjson_reader b(o);
  std::size_t pos = 0;
  b.open_source([&](char* buf, std::size_t n) {
    const std::size_t k = std::min(n, text.size() - pos);
    std::memcpy(buf, text.data() + pos, k);
    pos += k;
    return k;
  });
  check(transcript(b) == from_buffer);

  static keel::pool::thread_pool pool(2);
  std::string parallel;
  std::size_t skipped = 0;
  const ndjson_error e = parallel_ndjson(
      pool, text, o,
      [](const value& v, const record_info& info) {
        return numbers(info.record, info.line) + written(v);
      },
      [&](std::string&& s, const record_info&) { parallel += s; }, &skipped, 1 + data[0] % 32);
  parallel += e.to_string() + " skipped " + std::to_string(skipped);
  check(parallel == from_buffer);
  // A map of the value alone: the calling thread numbers the records as it consumes them.
  std::string unnumbered;
  skipped = 0;
  const ndjson_error e2 = parallel_ndjson(
      pool, text, o, written,
      [&](std::string&& s, const record_info& info) {
        unnumbered += numbers(info.record, info.line) + s;
      },
      &skipped, 1 + data[0] % 32);
  unnumbered += e2.to_string() + " skipped " + std::to_string(skipped);
  check(unnumbered == from_buffer);
  return 0;
}
