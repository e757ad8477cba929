// SPDX-License-Identifier: MIT
// libFuzzer: the NDJSON reader, for lines and for concatenated JSON. The same input read from a
// buffer, from a source handing out a few bytes at a time (chunk size, record size limit and the
// mode from the first bytes), and by the parallel reader must give the same records and the same
// error; with skipping, the same count of skipped records. Nothing may crash or allocate beyond
// the limits.
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

std::string transcript(ndjson_reader& r) {
  std::string out;
  while (r.next()) {
    out += std::to_string(r.info().record) + ":" + std::to_string(r.info().line) + ":";
    auto w = write(r.value(), {.nonfinite = nonfinite_policy::literal});
    check(w.ok());
    out += *w;
    out += '\n';
  }
  out += r.error().to_string() + " skipped " + std::to_string(r.skipped());
  return out;
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
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);

  ndjson_reader a(o);
  a.open_buffer(text);
  const std::string from_buffer = transcript(a);

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
        auto w = write(v, {.nonfinite = nonfinite_policy::literal});
        check(w.ok());
        return std::to_string(info.record) + ":" + std::to_string(info.line) + ":" + *w + "\n";
      },
      [&](std::string&& s, const record_info&) { parallel += s; }, &skipped, 1 + data[0] % 32);
  parallel += e.to_string() + " skipped " + std::to_string(skipped);
  check(parallel == from_buffer);
  return 0;
}
