// SPDX-License-Identifier: MIT
// NDJSON: records from a buffer, a file and a stream read in small chunks (same results), error
// positions, skipping bad records, the record size limit and bounded memory, and the parallel
// reader on keel::pool delivering in input order.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "keel/json.h"
#include "keel/json/ndjson.h"
#include "test_util.h"

namespace {

using namespace keel::json;

// Every record as "record:line:offset:text", then "error ..." or "end", then "skipped N".
std::string transcript(ndjson_reader& r) {
  std::string out;
  while (r.next()) {
    out += std::to_string(r.info().record) + ":" + std::to_string(r.info().line) + ":" +
           std::to_string(r.info().offset) + ":" + *write(r.value()) + "\n";
  }
  out += r.error() ? "error " + r.error().to_string() : std::string("end");
  out += "\nskipped " + std::to_string(r.skipped());
  return out;
}

std::string read_buffer(std::string_view text, const ndjson_options& o = {}) {
  ndjson_reader r(o);
  r.open_buffer(text);
  return transcript(r);
}

// The same text served `chunk` bytes at a time.
std::string read_chunked(std::string_view text, std::size_t chunk, ndjson_options o = {}) {
  o.chunk_size = chunk;
  ndjson_reader r(o);
  std::size_t pos = 0;
  r.open_source([&](char* buf, std::size_t size) {
    const std::size_t n = std::min(size, text.size() - pos);
    std::memcpy(buf, text.data() + pos, n);
    pos += n;
    return n;
  });
  return transcript(r);
}

// "[0]\n[1]\n..." up to n - 1.
std::string numbered_lines(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    text += '[';
    text += std::to_string(i);
    text += "]\n";
  }
  return text;
}

std::string numbers(const record_info& info) {
  return std::to_string(info.record) + ":" + std::to_string(info.line) + ":" +
         std::to_string(info.offset) + ":";
}

// parallel_ndjson's records, as transcript() writes the reader's. Read twice: with a map that
// takes each record's info (numbered on the parsing threads) and with one that takes the value
// alone (numbered on the calling thread as it consumes); both must give the same.
std::string read_parallel(keel::pool::thread_pool& pool, std::string_view text,
                          const ndjson_options& o, std::size_t piece) {
  std::string out, unnumbered;
  std::size_t skipped = 0, skipped_unnumbered = 0;
  const ndjson_error e = parallel_ndjson(
      pool, text, o,
      [](const value& v, const record_info& info) { return numbers(info) + *write(v) + "\n"; },
      [&](std::string&& s, const record_info&) { out += s; }, &skipped, piece);
  out += e ? "error " + e.to_string() : std::string("end");
  out += "\nskipped " + std::to_string(skipped);
  const ndjson_error e2 = parallel_ndjson(
      pool, text, o, [](const value& v) { return *write(v) + "\n"; },
      [&](std::string&& s, const record_info& info) { unnumbered += numbers(info) + s; },
      &skipped_unnumbered, piece);
  unnumbered += e2 ? "error " + e2.to_string() : std::string("end");
  unnumbered += "\nskipped " + std::to_string(skipped_unnumbered);
  EXPECT_EQ(unnumbered, out) << "map without the record's info";
  return out;
}

const char* kText = "{\"a\":1}\n\n  \r\n[1,2]\r\n\"s\"\n  {\"b\":[true,null]}  \n7";

TEST(Ndjson, RecordsFromABuffer) {
  EXPECT_EQ(read_buffer(kText),
            "1:1:0:{\"a\":1}\n2:4:13:[1,2]\n3:5:20:\"s\"\n4:6:24:{\"b\":[true,null]}\n"
            "5:7:46:7\nend\nskipped 0");
  EXPECT_EQ(read_buffer(""), "end\nskipped 0");
  EXPECT_EQ(read_buffer("\n\n \n"), "end\nskipped 0");
}

TEST(Ndjson, ChunkedSourcesGiveTheSameRecords) {
  const std::string want = read_buffer(kText);
  for (std::size_t chunk : {1, 2, 3, 5, 7, 64}) EXPECT_EQ(read_chunked(kText, chunk), want);
}

TEST(Ndjson, BadRecordsNameRecordLineColumn) {
  const std::string text = "{\"a\":1}\n\n[1,\n{\"b\":x}\n1 2\n\"ok\"\n";
  EXPECT_EQ(read_buffer(text),
            "1:1:0:{\"a\":1}\nerror record 2 (line 3, column 4): unexpected end "
            "of input\nskipped 0");
  ndjson_options skip;
  skip.skip_bad_records = true;
  ndjson_reader r(skip);
  r.open_buffer(text);
  EXPECT_EQ(transcript(r), "1:1:0:{\"a\":1}\n5:6:25:\"ok\"\nend\nskipped 3");
  EXPECT_EQ(r.first_skipped().record, 2u);
  EXPECT_EQ(r.first_skipped().offset, 12u);  // the end of "[1,"
  // The same from a stream read a byte at a time.
  EXPECT_EQ(read_chunked(text, 1, skip), "1:1:0:{\"a\":1}\n5:6:25:\"ok\"\nend\nskipped 3");
  ndjson_reader bad;
  bad.open_buffer("[1]\n{\"k\":tru}\n");
  ASSERT_TRUE(bad.next());
  EXPECT_FALSE(bad.next());
  EXPECT_EQ(bad.error().code, error_code::invalid_literal);
  EXPECT_EQ(bad.error().line, 2u);
  EXPECT_EQ(bad.error().column, 6u);
  EXPECT_EQ(bad.error().offset, 9u);
  EXPECT_FALSE(bad.next());  // stays stopped
}

TEST(Ndjson, OnSkipSeesEveryBadRecord) {
  std::vector<std::string> seen;
  ndjson_options o;
  o.skip_bad_records = true;
  o.max_record_size = 10;
  o.on_skip = [&](const ndjson_error& e) { seen.push_back(e.to_string()); };
  // A line of blanks longer than the limit is a record too (the streaming reader cannot know).
  EXPECT_EQ(read_buffer("[1\n2\n" + std::string(20, ' ') + "\n{]\n", o), "2:2:3:2\nend\nskipped 3");
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "record 1 (line 1, column 3): unexpected end of input",
                      "record 3 (line 3, column 1): record longer than the maximum record size",
                      "record 4 (line 4, column 2): unexpected character"}));
  seen.clear();
  EXPECT_EQ(read_chunked("[1\n2\n" + std::string(20, ' ') + "\n{]\n", 3, o),
            "2:2:3:2\nend\nskipped 3");
  EXPECT_EQ(seen.size(), 3u);
}

// held(): a bad record's line, from on_skip, as the reader still holds it (read in small chunks).
TEST(Ndjson, HeldGivesABadRecordsLine) {
  const std::string text = "[1]\n{\"a\": x}\n[2]\n  [3,]\n";
  for (const std::size_t chunk : {std::size_t{3}, std::size_t{1} << 20}) {
    std::vector<std::string> lines;
    ndjson_options o;
    o.skip_bad_records = true;
    o.chunk_size = chunk;
    const ndjson_reader* rp = nullptr;
    o.on_skip = [&](const ndjson_error& e) {
      const std::string_view held = rp->held(e.offset - (e.column - 1));
      lines.emplace_back(held.substr(0, held.find('\n')));
    };
    ndjson_reader r(o);
    rp = &r;
    std::size_t pos = 0;
    r.open_source([&](char* buf, std::size_t size) {
      const std::size_t n = std::min(size, text.size() - pos);
      std::copy_n(text.data() + pos, n, buf);
      pos += n;
      return n;
    });
    while (r.next()) {
    }
    EXPECT_EQ(lines, (std::vector<std::string>{"{\"a\": x}", "  [3,]"})) << chunk;
    EXPECT_TRUE(r.held(0).empty() || chunk > text.size());
  }
}

TEST(Ndjson, FilesAndIoErrors) {
  const auto path = std::filesystem::temp_directory_path() / "keel_ndjson_test.ndjson";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs(kText, f);
    std::fclose(f);
  }
  ndjson_options small;
  small.chunk_size = 4;
  ndjson_reader r(small);
  ASSERT_FALSE(r.open_file(path.string()));
  EXPECT_EQ(transcript(r), read_buffer(kText));
  std::filesystem::remove(path);
  EXPECT_EQ(r.open_file(path.string()).code, error_code::io_error);
  EXPECT_EQ(r.io_reason(), "No such file or directory");
  EXPECT_FALSE(r.next());
  EXPECT_EQ(r.open_file(std::filesystem::temp_directory_path().string()).code, error_code::ok);
  EXPECT_FALSE(r.next());  // a directory: fopen works, reading fails
  EXPECT_EQ(r.error().code, error_code::io_error);
  EXPECT_EQ(r.io_reason(), "Is a directory");
}

TEST(Ndjson, RecordSizeLimitAndBoundedMemory) {
  ndjson_options o;
  o.max_record_size = 100;
  o.chunk_size = 16;
  const std::string big = "[" + std::string(200, '1') + "]";
  const std::string text = "1\n" + big + "\n2\n";
  EXPECT_EQ(read_chunked(text, 16, o),
            "1:1:0:1\nerror record 2 (line 2, column 1): record longer than the maximum record "
            "size\nskipped 0");
  EXPECT_EQ(read_buffer(text, o),
            "1:1:0:1\nerror record 2 (line 2, column 1): record longer than the maximum record "
            "size\nskipped 0");
  o.skip_bad_records = true;
  EXPECT_EQ(read_chunked(text, 16, o), "1:1:0:1\n3:3:205:2\nend\nskipped 1");
  EXPECT_EQ(read_buffer(text, o), "1:1:0:1\n3:3:205:2\nend\nskipped 1");

  // 64 MiB of records served in 64 KiB chunks: the reader's buffer stays small.
  const std::string line = R"({"id":12345,"name":"a record of some length","tags":[1,2,3]})"
                           "\n";
  const std::size_t total = std::size_t{64} << 20;
  std::size_t served = 0;
  ndjson_options chunked;
  chunked.chunk_size = 64 << 10;
  ndjson_reader r(chunked);
  r.open_source([&](char* buf, std::size_t size) {
    std::size_t n = 0;
    while (served < total && n + line.size() <= size) {
      line.copy(buf + n, line.size());
      n += line.size();
      served += line.size();
    }
    return n;
  });
  std::size_t records = 0;
  while (r.next()) ++records;
  EXPECT_FALSE(r.error());
  EXPECT_EQ(records, served / line.size());
  EXPECT_GT(served, total - line.size() - 1);
  EXPECT_LT(r.buffer_capacity(), 1u << 20);
}

TEST(Ndjson, ParallelDeliversInInputOrder) {
  std::string text;
  for (int i = 0; i < 20000; ++i) {
    text += "{\"i\":" + std::to_string(i) + ",\"s\":\"" + std::string(i % 37, 'x') + "\"}\n";
    if (i % 1000 == 0) text += "\n";
  }
  keel::pool::thread_pool pool(2);
  for (std::size_t piece : {std::size_t{1}, std::size_t{700}, std::size_t{1} << 20}) {
    std::vector<std::int64_t> seen;
    std::vector<std::size_t> lines;
    const ndjson_error e = parallel_ndjson(
        pool, text, {},
        [](const value& v, const record_info&) { return *v["i"]->get<std::int64_t>(); },
        [&](std::int64_t i, const record_info& info) {
          seen.push_back(i);
          lines.push_back(info.line);
        },
        nullptr, piece);
    ASSERT_FALSE(e) << e.to_string();
    ASSERT_EQ(seen.size(), 20000u);
    for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], static_cast<std::int64_t>(i));
    EXPECT_EQ(lines[1000], 1002u);  // a blank line after record 0 and after record 1000
    EXPECT_EQ(lines[1001], 1004u);
  }
}

// map may return any movable type (results are kept per piece in a compact form): bool (no
// std::vector<bool> inside) and a move-only type, with each record's numbers and offset.
TEST(Ndjson, ParallelResultsOfAnyMovableType) {
  const std::string text = "[1]\n\n[2]\n[3]\n";
  keel::pool::thread_pool pool(2);
  std::string seen;
  EXPECT_FALSE(parallel_ndjson(
      pool, text, {},
      [](const value& v, const record_info&) { return (*v[0]->get<std::int64_t>() & 1) != 0; },
      [&](bool odd, const record_info& info) {
        seen += std::to_string(info.record) + ":" + std::to_string(info.line) + ":" +
                std::to_string(info.offset) + (odd ? "o " : "e ");
      },
      nullptr, 1));
  EXPECT_EQ(seen, "1:1:0o 2:3:5e 3:4:9o ");
  std::vector<int> got;
  EXPECT_FALSE(parallel_ndjson(
      pool, text, {},
      [](const value& v, const record_info&) {
        return std::make_unique<int>(static_cast<int>(*v[0]->get<std::int64_t>()));
      },
      [&](std::unique_ptr<int>&& p, const record_info&) { got.push_back(*p); }, nullptr,
      std::size_t{1} << 20));
  EXPECT_EQ(got, (std::vector<int>{1, 2, 3}));
  // Any callable: a pointer to a member function of value as map (called through std::invoke).
  std::size_t arrays = 0;
  EXPECT_FALSE(parallel_ndjson(
      pool, text, {}, &value::is_array,
      [&](bool is_array, const record_info&) { arrays += is_array ? 1 : 0; }, nullptr, 1));
  EXPECT_EQ(arrays, 3u);
}

// Pieces are parsed ahead of consume: a consume that waits for a record two pieces ahead sees it
// parsed by the worker (with a pool of one, the caller and one worker parse).
TEST(Ndjson, ParallelParsesAheadOfConsume) {
  keel::pool::thread_pool pool(1);
  std::atomic<bool> third{false};
  bool seen = false;
  const ndjson_error e = parallel_ndjson(
      pool, "[1]\n[2]\n[3]\n[4]\n", {},
      [&](const value&, const record_info& info) {
        if (info.record == 3) third = true;
        return info.record;
      },
      [&](std::size_t record, const record_info&) {
        if (record != 1) return;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!third && std::chrono::steady_clock::now() < until) std::this_thread::yield();
        seen = third;
      },
      nullptr, 1);
  EXPECT_FALSE(e);
  EXPECT_TRUE(seen);
}

// Memory stays bounded however slow consume is: the threads hold the results of at most four
// pieces each, plus the piece being consumed.
TEST(Ndjson, ParallelHoldsFourPiecesPerThread) {
  const std::string text = numbered_lines(200);
  for (const std::size_t threads : {std::size_t{2}, std::size_t{3}}) {
    keel::pool::thread_pool pool(threads);
    std::atomic<std::size_t> mapped{0};
    std::size_t consumed = 0, most_ahead = 0;
    const ndjson_error e = parallel_ndjson(
        pool, text, {},
        [&](const value&, const record_info& info) {
          mapped.fetch_add(1);
          return info.record;
        },
        [&](std::size_t record, const record_info&) {
          ASSERT_EQ(record, ++consumed);
          // Give the workers time to run ahead as far as they may.
          if (record % 50 == 1) std::this_thread::sleep_for(std::chrono::milliseconds(20));
          most_ahead = std::max(most_ahead, mapped.load() - consumed);
        },
        nullptr, 1);  // a piece a line
    EXPECT_FALSE(e);
    EXPECT_EQ(consumed, 200u);
    EXPECT_LE(most_ahead, 4 * threads) << threads << " threads";
    EXPECT_GE(most_ahead, 2u) << "the workers never ran ahead";
  }
}

// A slot's turn is awaited as "this state or a later one": a worker waiting for a slot to be
// free for piece i returns when the calling thread took piece i meanwhile (the state went on to
// done(i)), rather than sleeping until the end; kNone is before every state; stop ends a wait.
TEST(Ndjson, SlotTurnAwaitsThisStateOrALaterOne) {
  using keel::json::detail::slot_turn;
  std::atomic<bool> stop{false};
  slot_turn t;
  t.reset(slot_turn::done(5));
  EXPECT_TRUE(t.await(slot_turn::free_for(5), stop));
  EXPECT_TRUE(t.await(slot_turn::done(5), stop));
  // The states wrap at 2^32 (piece 2^31): "later" is a signed difference.
  const std::size_t p = (std::size_t{1} << 31) - 2;
  t.reset(slot_turn::free_for(p + 2));  // 0
  EXPECT_TRUE(t.await(slot_turn::done(p), stop));
  t.reset(slot_turn::kNone);
  std::thread setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    t.set(slot_turn::done(7));
  });
  EXPECT_TRUE(t.await(slot_turn::free_for(7), stop));  // asleep until set
  setter.join();
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stop.store(true);
    t.interrupt();
  });
  EXPECT_FALSE(t.await(slot_turn::done(8), stop));
  stopper.join();
}

// A bad record stops the reading while a worker that ran ahead sleeps for a free slot: it is
// woken, and parallel_ndjson returns the error with only the records before it consumed.
TEST(Ndjson, ParallelStopsWithAWorkerWaiting) {
  std::string text = "[1]\n[2]\n{bad}\n";
  for (int i = 0; i < 100; ++i) text += "[3]\n";
  keel::pool::thread_pool pool(2);
  std::size_t consumed = 0;
  const ndjson_error e = parallel_ndjson(
      pool, text, {}, [](const value&, const record_info& info) { return info.record; },
      [&](std::size_t, const record_info&) {
        ++consumed;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      },
      nullptr, 1);
  EXPECT_EQ(e.record, 3u);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(consumed, 2u);
}

// A map of the value alone: the pieces count their own lines and records, the calling thread
// numbers what it consumes and the error it returns (stopping, or skipping without on_skip);
// with on_skip under skip_bad_records (handed numbered errors on the parsing threads) the pieces
// are numbered as they are parsed. Blank lines and skipped records in earlier pieces shift the
// numbers of the later ones: the first bad record is past the first piece at every size but 1 MiB.
TEST(Ndjson, ParallelMapOfTheValueAloneIsNumberedInOrder) {
  std::string text;
  for (int i = 0; i < 3000; ++i) {
    if (i % 397 == 250) {
      text += "[1,]\n";
    } else {
      text += '[';
      text += std::to_string(i);
      text += "]\n";
    }
    if (i % 13 == 0) text += "\n \n";
  }
  text += "{\"late\": tru}\n[1]\n";
  keel::pool::thread_pool pool(2);
  for (const std::size_t piece : {std::size_t{1}, std::size_t{700}, std::size_t{1} << 20}) {
    SCOPED_TRACE(piece);
    ndjson_options o;
    ndjson_reader r(o);
    r.open_buffer(text);
    while (r.next()) {
    }
    std::size_t consumed = 0;
    const ndjson_error e = parallel_ndjson(
        pool, text, o, [](const value& v) { return v.is_array(); },
        [&](bool, const record_info&) { ++consumed; }, nullptr, piece);
    EXPECT_EQ(e.to_string(), r.error().to_string());
    EXPECT_EQ(e.record, 251u);
    EXPECT_EQ(e.offset, r.error().offset);
    EXPECT_EQ(consumed, 250u);  // records 0-249, before the first "[1,]"
    o.skip_bad_records = true;
    std::vector<std::string> seen_reader;
    o.on_skip = [&](const ndjson_error& bad) { seen_reader.push_back(bad.to_string()); };
    ndjson_reader all(o);
    all.open_buffer(text);
    std::vector<std::size_t> reader_lines;
    while (all.next()) reader_lines.push_back(all.info().line);
    for (const bool on_skip : {false, true}) {
      std::vector<std::string> seen;
      o.on_skip = nullptr;
      if (on_skip) o.on_skip = [&](const ndjson_error& bad) { seen.push_back(bad.to_string()); };
      std::vector<std::size_t> lines;
      std::size_t skipped = 0;
      const ndjson_error none = parallel_ndjson(
          pool, text, o, [](const value& v) { return v.is_array(); },
          [&](bool, const record_info& info) { lines.push_back(info.line); }, &skipped, piece);
      EXPECT_FALSE(none);
      EXPECT_EQ(skipped, 8u);  // 7 "[1,]" and the late literal
      EXPECT_EQ(lines, reader_lines);
      EXPECT_EQ(seen, on_skip ? seen_reader : std::vector<std::string>{});
    }
  }
}

// An exception from map leaves parallel_ndjson when its record's turn comes: consume has seen
// every record before it (those of its own piece too), in order, and none after.
TEST(Ndjson, ParallelMapExceptionInInputOrder) {
  const std::string text = numbered_lines(5000);
  keel::pool::thread_pool pool(2);
  for (const std::size_t piece : {std::size_t{1}, std::size_t{700}, std::size_t{1} << 20}) {
    std::vector<std::size_t> seen;
    EXPECT_THROW(parallel_ndjson(
                     pool, text, {},
                     [](const value&, const record_info& info) {
                       if (info.record == 3210 || info.record == 4000)
                         throw std::runtime_error("map");
                       return info.record;
                     },
                     [&](std::size_t record, const record_info&) { seen.push_back(record); },
                     nullptr, piece),
                 std::runtime_error);
    ASSERT_EQ(seen.size(), 3209u) << "piece " << piece;
    for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], i + 1);
    // The same from a map of the value alone (numbered by the calling thread).
    seen.clear();
    EXPECT_THROW(parallel_ndjson(
                     pool, text, {},
                     [](const value& v) {
                       const std::int64_t i = *v[0]->get<std::int64_t>();
                       if (i == 3209 || i == 3999) throw std::runtime_error("map");
                       return i;
                     },
                     [&](std::int64_t i, const record_info& info) {
                       ASSERT_EQ(info.record, static_cast<std::size_t>(i) + 1);
                       seen.push_back(info.record);
                     },
                     nullptr, piece),
                 std::runtime_error);
    ASSERT_EQ(seen.size(), 3209u) << "piece " << piece;
  }
}

TEST(Ndjson, ParallelErrorsMatchTheSequentialReader) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += (i == 3210 || i == 4000) ? "{\"bad\" 1}\n" : "[1,2,3]\n";
  keel::pool::thread_pool pool(2);
  std::size_t count = 0;
  const ndjson_error e = parallel_ndjson(
      pool, text, {}, [](const value& v, const record_info&) { return v.size(); },
      [&](std::size_t, const record_info&) { ++count; }, nullptr, 1000);
  ndjson_reader r;
  r.open_buffer(text);
  while (r.next()) {
  }
  EXPECT_EQ(e.to_string(), r.error().to_string());
  EXPECT_EQ(e.record, 3211u);
  EXPECT_EQ(count, 3210u);  // every record before the bad one, none after
  ndjson_options skip;
  skip.skip_bad_records = true;
  std::size_t skipped = 0;
  count = 0;
  EXPECT_FALSE(parallel_ndjson(
      pool, text, skip, [](const value& v, const record_info&) { return v.size(); },
      [&](std::size_t, const record_info&) { ++count; }, &skipped, 1000));
  EXPECT_EQ(skipped, 2u);
  EXPECT_EQ(count, 4998u);
}

// A kernel set this CPU lacks stops the reading with isa_unavailable, even when bad records are
// skipped: it is no bad record (the reader, the chunked reader and the parallel reader alike).
TEST(Ndjson, UnavailableKernelSetStopsEvenWhenSkipping) {
  isa missing = isa::automatic;
  for (isa i : keel::all_isas)
    if (!isa_supported(i)) missing = i;
  if (missing == isa::automatic) GTEST_SKIP() << "this CPU runs every kernel set";
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "[1,2,3]\n";
  for (const bool skip : {false, true}) {
    ndjson_options o;
    o.parse.isa = missing;
    o.skip_bad_records = skip;
    ndjson_reader r(o);
    r.open_buffer(text);
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.error().code, error_code::isa_unavailable);
    EXPECT_EQ(r.skipped(), 0u);
    r.open_source([](char*, std::size_t) -> std::size_t { return 0; });
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.error().code, error_code::isa_unavailable);
    keel::pool::thread_pool pool(2);
    std::size_t count = 0, skipped = 0;
    const ndjson_error e = parallel_ndjson(
        pool, text, o, [](const value& v, const record_info&) { return v.size(); },
        [&](std::size_t, const record_info&) { ++count; }, &skipped, 1000);
    EXPECT_EQ(e.code, error_code::isa_unavailable);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(skipped, 0u);
    const ndjson_error e2 = parallel_ndjson(
        pool, text, o, [](const value& v) { return v.size(); },
        [&](std::size_t, const record_info&) { ++count; }, &skipped, 1000);
    EXPECT_EQ(e2.code, error_code::isa_unavailable);
    EXPECT_EQ(e2.record, 1u);
    EXPECT_EQ(count, 0u);
    EXPECT_EQ(skipped, 0u);
  }
}

ndjson_options concatenated() {
  ndjson_options o;
  o.concatenated = true;
  return o;
}

// Values one after another: with and without whitespace, across lines, strings holding brackets
// and escaped quotes, scalars ended by the next value's first byte.
const char* kConcatenated =
    "{\"a\":1}{\"a\":2} [3]\n\"x\\\"]\"  4 true null{\"b\":[1,{\"c\":\"}]\"}]}\n\n  -5.5e1[]\"\"";

TEST(Ndjson, ConcatenatedValues) {
  const std::string want =
      "1:1:0:{\"a\":1}\n2:1:7:{\"a\":2}\n3:1:15:[3]\n4:2:19:\"x\\\"]\"\n5:2:27:4\n6:2:29:true\n"
      "7:2:34:null\n8:2:38:{\"b\":[1,{\"c\":\"}]\"}]}\n9:4:62:-55.0\n10:4:68:[]\n11:4:70:\"\"\n"
      "end\nskipped 0";
  EXPECT_EQ(read_buffer(kConcatenated, concatenated()), want);
  for (std::size_t chunk : {1, 2, 3, 5, 7, 64}) {
    EXPECT_EQ(read_chunked(kConcatenated, chunk, concatenated()), want) << chunk;
  }
  EXPECT_EQ(read_buffer(" \n\t ", concatenated()), "end\nskipped 0");
  // Without the option the same text is NDJSON: the first line holds three values.
  EXPECT_EQ(read_buffer("{\"a\":1}{\"a\":2}"),
            "error record 1 (line 1, column 8): content "
            "after the JSON value\nskipped 0");
}

TEST(Ndjson, ConcatenatedErrorsAndSkipping) {
  // Line and column of an error count from the start of the input, not of the value.
  const std::string text = "{\"a\":1}\n  {\"a\":}\n[1,\n2,x]  \"ok\" {\"open\":[";
  EXPECT_EQ(read_buffer(text, concatenated()),
            "1:1:0:{\"a\":1}\nerror record 2 (line 2, column 8): unexpected character\n"
            "skipped 0");
  ndjson_options skip = concatenated();
  skip.skip_bad_records = true;
  std::vector<std::string> seen;
  skip.on_skip = [&](const ndjson_error& e) { seen.push_back(e.to_string()); };
  const std::string want = "1:1:0:{\"a\":1}\n4:4:27:\"ok\"\nend\nskipped 3";
  EXPECT_EQ(read_buffer(text, skip), want);
  EXPECT_EQ(seen,
            (std::vector<std::string>{"record 2 (line 2, column 8): unexpected character",
                                      "record 3 (line 4, column 3): unexpected character",
                                      "record 5 (line 4, column 21): unexpected end of input"}));
  for (std::size_t chunk : {1, 3, 64}) EXPECT_EQ(read_chunked(text, chunk, skip), want) << chunk;
}

TEST(Ndjson, ConcatenatedRecordSizeLimit) {
  ndjson_options o = concatenated();
  o.max_record_size = 16;
  const std::string text =
      "[1]{\"long\":\"" + std::string(100, 'x') + "\",\"k\":[\"]}\"]}\n{\"b\":2}";
  EXPECT_EQ(read_buffer(text, o),
            "1:1:0:[1]\nerror record 2 (line 1, column 4): record longer "
            "than the maximum record size\nskipped 0");
  o.skip_bad_records = true;
  const std::string want = "1:1:0:[1]\n3:2:126:{\"b\":2}\nend\nskipped 1";
  EXPECT_EQ(read_buffer(text, o), want);
  // A stream meets the limit before the value's end, drops what it read and finds the end.
  for (std::size_t chunk : {1, 4, 7}) EXPECT_EQ(read_chunked(text, chunk, o), want) << chunk;
  o.skip_bad_records = false;
  EXPECT_EQ(read_chunked(text, 4, o),
            "1:1:0:[1]\nerror record 2 (line 1, column 4): record longer than the maximum "
            "record size\nskipped 0");
}

TEST(Ndjson, ConcatenatedOddStarts) {
  // A too-long bare token starting with a NUL byte, whose end a stream may meet as the first byte
  // of a new chunk after dropping the token's start.
  ndjson_options o = concatenated();
  o.max_record_size = 16;
  o.skip_bad_records = true;
  std::string text(1, '\0');
  text.append(20, 'z');
  text += "\t[2]";
  const std::string want = "2:1:22:[2]\nend\nskipped 1";
  EXPECT_EQ(read_buffer(text, o), want);
  for (std::size_t chunk : {1, 3, 17}) EXPECT_EQ(read_chunked(text, chunk, o), want) << chunk;
}

TEST(Ndjson, ParallelReadsConcatenatedInOrder) {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "{\"i\":" + std::to_string(i) + "}" + (i % 7 ? "" : "\n");
  keel::pool::thread_pool pool(2);
  std::vector<std::int64_t> seen;
  const ndjson_error e = parallel_ndjson(
      pool, text, concatenated(),
      [](const value& v, const record_info&) { return *v["i"]->get<std::int64_t>(); },
      [&](std::int64_t i, const record_info&) { seen.push_back(i); }, nullptr, 100);
  ASSERT_FALSE(e) << e.to_string();
  ASSERT_EQ(seen.size(), 3000u);
  for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], static_cast<std::int64_t>(i));
}

// The records of a text, each line parsed alone by a fresh parse (what the reader guarantees),
// in transcript()'s form; skipping bad records.
std::string line_by_line(std::string_view text, const ndjson_options& o) {
  std::string out;
  std::size_t pos = 0, line = 0, record = 0, skipped = 0;
  ndjson_error first;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view l = text.substr(pos, nl - pos);
    const std::size_t at = pos;
    pos = nl + 1;
    ++line;
    const bool too_long = l.size() > o.max_record_size;
    if (!too_long && l.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ++record;
    if (too_long) {
      if (++skipped == 1) first = {error_code::record_too_long, record, line, 1, at};
      continue;
    }
    auto r = parse(l, o.parse);
    if (r) {
      out += std::to_string(record) + ":" + std::to_string(line) + ":" + std::to_string(at) + ":" +
             *write(r->root()) + "\n";
    } else if (++skipped == 1) {
      first = {r.code(), record, line, r.error().column, at + r.error().offset};
    }
  }
  return out + "end\nskipped " + std::to_string(skipped) + "\n" + first.to_string();
}

// Expects the reader, and parallel_ndjson in pieces of `piece` bytes, to give what each line
// parsed alone gives (line_by_line); returns the records, "end" and the skipped count.
std::string expect_as_lines_alone(keel::pool::thread_pool& pool, std::string_view text,
                                  const ndjson_options& o, std::size_t piece) {
  const std::string want = line_by_line(text, o);
  ndjson_reader r(o);
  r.open_buffer(text);
  const std::string got = transcript(r);
  EXPECT_EQ(got + "\n" + r.first_skipped().to_string(), want);
  std::string records = want.substr(0, want.rfind('\n'));
  EXPECT_EQ(read_parallel(pool, text, o, piece), records);
  return records;
}

// Lines of every kind, good and bad, many times over (beyond one stage-1 batch of lines):
// stage-1 errors (a string left open, a control character in a string, invalid UTF-8), stage-2
// errors, blank lines, CRLF, a BOM, lines only of brackets, a backslash outside a string.
std::string mixed_lines() {
  const std::vector<std::string> kinds = {
      "{\"id\":1,\"name\":\"caf\xc3\xa9 \\u00e9\\n\",\"v\":[1.5,-2e10,true,null,{}]}",
      "[[],[[]],{}]",
      "\"just a string with \\\" quotes\"",
      "{\"a\":\"open string",
      "{\"a\":\"tab\there\"}",
      "[\"\xff\"]",
      "[\"\xe2\x82\"]",
      "{\"k\" 1}",
      "1 2",
      "  \t ",
      "",
      "{\"crlf\":12345678901234567890}\r",
      "\xef\xbb\xbf{\"bom\":1}",
      "[1,\\]",
      "-0.000001234e-5",
      "{\"deep\":[[[[[[[[[[1]]]]]]]]]]}",
      "\"\\ud83d\\ude00 \\\\\"",
      "nul",
      "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]",
      // Values cut at a line end, whose rest on the next line would complete them: each line
      // is a record of its own (stage 2 of a record stops at its line's '\n').
      "[1,",
      "2]",
      "{\"a\":",
      "{\"b\"",
      ":1}",
      "[[{}]]",
      // Numbers whose first digit decides: a leading zero alone, before a fraction or exponent,
      // or before more digits (invalid), at every length the record kernel tests in one step.
      "[0,-0,01]",
      "-01",
      "00",
      "0.5",
      "[7,10,0,0123456789012345]",
      "[-0.0,0e1,1e0,9,99999,123456789012345678]",
  };
  std::string text;
  std::uint32_t x = 12345;
  while (text.size() < (std::size_t{600} << 10)) {
    x = x * 1103515245u + 12345u;
    const std::string& k = kinds[(x >> 16) % kinds.size()];
    text += k;
    if ((x >> 8) % 5 == 0) text += std::string((x >> 4) % 90, ' ');  // lines of varied lengths
    text += '\n';
  }
  return text + "{\"last\":\"line without a newline\"}";
}

TEST(Ndjson, BatchedRecordsMatchLinesParsedAlone) {
  const std::string text = mixed_lines();
  keel::pool::thread_pool pool(2);
  for (const isa which : keel::all_isas) {
    if (!isa_supported(which)) continue;
    SCOPED_TRACE(isa_name(which));
    ndjson_options o;
    o.skip_bad_records = true;
    o.parse.isa = which;
    for (const bool bom : {false, true}) {
      o.parse.allow_bom = bom;
      o.max_record_size = bom ? 120 : std::size_t{64} << 20;  // some of the padded lines too long
      const std::string records = expect_as_lines_alone(pool, text, o, 100000);
      EXPECT_EQ(read_chunked(text, 70000, o), records);
    }
    // Without skipping: the first bad record stops the reading, as a line parsed alone says.
    o.skip_bad_records = false;
    o.parse.allow_bom = false;
    o.max_record_size = std::size_t{64} << 20;
    ndjson_reader r(o);
    r.open_buffer(text);
    while (r.next()) {
    }
    const std::string want = line_by_line(text, o);
    EXPECT_EQ(r.error().to_string(), want.substr(want.rfind('\n') + 1));
  }
}

// Stage 1 of an NDJSON batch writes a block's positions eight at a time (AVX2), from none in a
// block inside a long string to one at every byte of a dense array: lines of every density and
// length, at every offset from a block's start, give what each line parsed alone gives.
TEST(Ndjson, BlocksOfEveryDensity) {
  std::string text;
  std::uint32_t x = 777;
  for (int i = 0; i < 4000; ++i) {
    x = x * 1103515245u + 12345u;
    const std::size_t n = (x >> 8) % 64;
    std::string line;
    switch ((x >> 16) % 4) {
      case 0:  // [1,1,...,1]: a position at every byte
        line = "[";
        for (std::size_t j = 0; j < n; ++j) line += "1,";
        line += "1]";
        break;
      case 1:  // a string of up to 190 bytes: no position inside
        line = "\"" + std::string(n * 3, 'a') + "\"";
        break;
      case 2:  // dense, then blanks
        line = "[" + std::string(n / 2, '[') + std::string(n / 2, ']') + "]" +
               std::string(63 - n, ' ');
        break;
      default:  // a string, then dense, with a bad number now and then
        line = "[\"" + std::string(n, 'b') + "\",{},[]," + ((x >> 24) % 9 == 0 ? "01" : "10") + "]";
        break;
    }
    text += line;
    text += '\n';
  }
  keel::pool::thread_pool pool(2);
  for (const isa which : keel::all_isas) {
    if (!isa_supported(which)) continue;
    SCOPED_TRACE(isa_name(which));
    ndjson_options o;
    o.skip_bad_records = true;
    o.parse.isa = which;
    for (std::size_t shift = 0; shift < 64; shift += 7) {
      SCOPED_TRACE("shift " + std::to_string(shift));
      expect_as_lines_alone(pool, std::string(shift, ' ') + "\n" + text, o, 10000);
    }
  }
}

// A last line without a newline ends at the batch's sentinel positions: records made only of
// brackets there (the sentinel is then the '\n' before them), and after a record cut short.
TEST(Ndjson, LastLineWithoutNewline) {
  ndjson_options o;
  o.skip_bad_records = true;
  for (const char* text : {"[1]\n[[]]", "[1]\n[[],{}]", "[1]\n[", "[1,\n[]", "{\"a\":\n1}",
                           "[1]\n[[]]\n", "\n\n[]", "[1] [2]\n[3]"}) {
    for (const isa which : keel::all_isas) {
      o.parse.isa = which;
      ndjson_reader r(o);
      r.open_buffer(text);
      if (!isa_supported(which)) continue;
      const std::string got = transcript(r);  // (before first_skipped())
      EXPECT_EQ(got + "\n" + r.first_skipped().to_string(), line_by_line(text, o))
          << isa_name(which) << ": " << text;
    }
  }
}

// The parallel reader numbers records and lines from a count made a 64-byte block at a time, with
// a closer look at lines that start with a blank: every shape of blank and non-blank line, at
// every offset in a block, on every kernel set, gives the sequential reader's numbers.
TEST(Ndjson, ParallelCountsLinesAndRecordsAsTheReader) {
  const std::string shapes[] = {"[1]",  "",    " ",     "\t\r",   "\r",   "  [2] ",
                                "\t{}", " \r", "\"x\"", "      ", "\t 3", std::string(70, ' ')};
  std::string text;
  std::uint32_t x = 12345;
  for (int i = 0; i < 3000; ++i) {
    x = x * 1103515245u + 12345u;
    text += shapes[(x >> 8) % std::size(shapes)];
    if ((x >> 4) % 7 == 0) text += std::string((x >> 12) % 70, ' ');
    text += (x >> 20) % 5 == 0 ? "\r\n" : "\n";
  }
  keel::pool::thread_pool pool(2);
  for (const isa which : keel::all_isas) {
    if (!isa_supported(which)) continue;
    SCOPED_TRACE(isa_name(which));
    for (const std::size_t max : {std::size_t{64} << 20, std::size_t{40}}) {
      ndjson_options o;
      o.parse.isa = which;
      o.skip_bad_records = true;  // lines of blanks longer than max are bad records
      o.max_record_size = max;
      for (const std::string_view t : {std::string_view(text), std::string_view(text).substr(1),
                                       std::string_view(text).substr(0, text.size() - 1)}) {
        const std::string want = read_buffer(t, o);
        // The count a worker falls back on when a piece before its own is not counted yet.
        std::size_t lines = 0, records = 0, want_lines = 0, want_records = 0;
        keel::json::detail::count_lines(t, o, lines, records);
        for (std::size_t pos = 0; pos < t.size(); ++want_lines) {
          const std::size_t nl = std::min(t.find('\n', pos), t.size());
          const std::string_view l = t.substr(pos, nl - pos);
          if (l.size() > max || l.find_first_not_of(" \t\r") != std::string_view::npos)
            ++want_records;
          pos = nl + 1;
        }
        EXPECT_EQ(lines, want_lines);
        EXPECT_EQ(records, want_records);
        for (const std::size_t piece : {std::size_t{1}, std::size_t{63}, std::size_t{64},
                                        std::size_t{1000}, std::size_t{1} << 20}) {
          EXPECT_EQ(read_parallel(pool, t, o, piece), want) << "piece " << piece;
        }
      }
    }
  }
}

// A piece's lines are counted by stage 1 (its '\n' bytes, and the lines after one that start with
// whitespace); only a piece with such a line is looked at closely. Rare blank lines, and lines
// that start with whitespace but are records, at every offset in a block and at piece ends
// (pieces of every length mod 64, ending in '\n' or not), give the sequential reader's numbers.
TEST(Ndjson, ParallelCountsRareBlankLinesAtEveryOffset) {
  const std::string blanks[] = {"", " ", "\t", "\r", "  \r", std::string(65, ' ')};
  std::string text;
  std::uint32_t x = 777;
  for (int i = 0; i < 4000; ++i) {
    x = x * 1103515245u + 12345u;
    const std::uint32_t kind = (x >> 8) % 40;
    if (kind == 0) {
      text += blanks[(x >> 16) % std::size(blanks)];
    } else if (kind == 1) {
      text += " [0]";
    } else {
      text += '"';
      text.append((x >> 12) % 100, 'a');
      text += '"';
    }
    text += (x >> 20) % 9 == 0 ? "\r\n" : "\n";
  }
  keel::pool::thread_pool pool(2);
  for (const isa which : keel::all_isas) {
    if (!isa_supported(which)) continue;
    SCOPED_TRACE(isa_name(which));
    ndjson_options o;
    o.parse.isa = which;
    o.skip_bad_records = true;  // a cut may leave a bad first or last record
    o.max_record_size = 64;     // the longest blank line is a bad record
    for (const std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{37}}) {
      const std::string_view t = std::string_view(text).substr(cut, text.size() - 2 * cut);
      const std::string want = read_buffer(t, o);
      for (const std::size_t piece :
           {std::size_t{64}, std::size_t{100}, std::size_t{333}, std::size_t{4096}}) {
        EXPECT_EQ(read_parallel(pool, t, o, piece), want) << "cut " << cut << " piece " << piece;
      }
    }
  }
}

// The pieces of a parallel read start at line starts, in order, cover the text, and shrink at
// the end (a quarter of what is left per thread, at least a sixteenth of the size asked for), so
// that the threads finish close together.
TEST(Ndjson, SplitLinesShrinksTheLastPieces) {
  std::string text;
  for (int i = 0; i < 4000; ++i) text += "[" + std::string(97, '1') + "]\n";  // 100-byte lines
  const std::size_t target = 16384;
  const std::vector<std::size_t> starts = detail::split_lines(text, target, 2);
  ASSERT_GT(starts.size(), 8u);
  EXPECT_EQ(starts[0], 0u);
  for (std::size_t i = 1; i < starts.size(); ++i) {
    ASSERT_GT(starts[i], starts[i - 1]);
    ASSERT_LT(starts[i], text.size());
    ASSERT_EQ(text[starts[i] - 1], '\n');
  }
  auto size = [&](std::size_t i) {
    return (i + 1 < starts.size() ? starts[i + 1] : text.size()) - starts[i];
  };
  EXPECT_GE(size(0), target);
  EXPECT_LT(size(0), target + 100);
  EXPECT_LE(size(starts.size() - 1), target / 16 + 100);
  for (std::size_t i = 1; i < starts.size(); ++i) EXPECT_LE(size(i), size(i - 1) + 100) << i;
  // Text no longer than a sixteenth of a piece: one piece.
  EXPECT_EQ(detail::split_lines(std::string_view(text).substr(0, 1000), target, 2).size(), 1u);
  EXPECT_TRUE(detail::split_lines({}, target, 2).empty());
}

TEST(Ndjson, CorpusFile) {
  const std::string text = test::slurp(test::corpus() / "json" / "amazon_cellphones.ndjson");
  if (text.empty()) GTEST_SKIP() << "corpus missing";
  ndjson_reader r;
  r.open_buffer(text);
  std::size_t records = 0, nodes = 0;
  while (r.next()) {
    ++records;
    nodes += r.document().node_count();
  }
  EXPECT_FALSE(r.error()) << r.error().to_string();
  EXPECT_GT(records, 100u);
  keel::pool::thread_pool pool(2);
  std::size_t parallel_nodes = 0, parallel_records = 0;
  EXPECT_FALSE(parallel_ndjson(
      pool, text, {}, [](const value& v, const record_info&) { return v.node_count(); },
      [&](std::size_t n, const record_info&) {
        parallel_nodes += n;
        ++parallel_records;
      },
      nullptr, 4096));
  EXPECT_EQ(parallel_records, records);
  EXPECT_EQ(parallel_nodes, nodes);
}

}  // namespace
