// SPDX-License-Identifier: MIT
// keel bench json, cases ndjson/<threads>: the corpus NDJSON file repeated to >= 100 MB, a full
// DOM per record with every value visited, keel's reader (1 thread) and parallel reader on
// keel::pool (2 threads) against simdjson 4.6.1's parse_many; ndjson/<path>/1, keel's kernel set
// forced beside simdjson's kernel of the same family; and the peak RSS of reading a generated
// multi-GB stream (made while reading, never stored).
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <keel/cpu.h>
#include <keel/json.h>
#include <keel/json/ndjson.h>
#include <keel/pool.h>

#include "harness/keel_bench.h"
#include "json/peers.h"

namespace keel::bench::json_ndjson {
namespace {

std::size_t visit(const json::value& v) {
  std::size_t n = 1;
  if (v.is_array()) {
    for (const json::value e : v.elements()) n += visit(e);
  } else if (v.is_object()) {
    for (const json::member m : v.members()) n += 1 + visit(m.value);
  }
  return n;
}

// Peak RSS (KiB) of `keel json validate --ndjson -` (a fresh process: `self`) reading `bytes` of
// generated records (the sample over and over) from a pipe; -1 if it failed.
long stream_peak_rss_kb(const std::filesystem::path& self, const std::string& sample,
                        std::size_t bytes) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  // posix_spawn (vfork-like): the child never holds a copy of this process's memory, which
  // would count in its peak RSS.
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  std::string exe = self.string();
  char* argv[] = {exe.data(),
                  const_cast<char*>("json"),
                  const_cast<char*>("validate"),
                  const_cast<char*>("--ndjson"),
                  const_cast<char*>("-"),
                  nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  close(fds[0]);
  std::size_t sent = 0;
  bool ok = true;
  while (ok && sent < bytes) {
    const std::size_t k = std::min(sample.size(), bytes - sent);
    std::size_t done = 0;
    while (done < k) {
      const ssize_t w = write(fds[1], sample.data() + done, k - done);
      if (w <= 0) {
        ok = false;
        break;
      }
      done += static_cast<std::size_t>(w);
    }
    sent += done;
  }
  // The child's own high-water mark (its rusage would include this process's memory, which the
  // kernel charges to a spawned child at exec). The child has read everything but the last pipe
  // buffer and waits for the end of its input.
  long hwm = -1;
  {
    std::ifstream st("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(st, line))
      if (line.rfind("VmHWM:", 0) == 0) hwm = std::stol(line.substr(6));
  }
  close(fds[1]);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return -1;
  return hwm;
}

std::string load_sample(const context& ctx) {
  std::ifstream f(ctx.corpus / "json" / "amazon_cellphones.ndjson", std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string sample = ss.str();
  if (!sample.empty() && sample.back() != '\n') sample.push_back('\n');
  return sample;
}

// Path against path: keel's kernel set forced, beside simdjson's kernel of the same family.
struct path {
  keel::isa isa;
  const char* simdjson_kernel;
};
constexpr path kPaths[] = {
    {keel::isa::avx512, "icelake"}, {keel::isa::avx2, "haswell"}, {keel::isa::scalar, "fallback"}};

// keel's reader over the whole text, every value visited.
void add_reader(suite& s, const std::string& c, const std::shared_ptr<std::string>& text,
                std::size_t records, const json::ndjson_options& o) {
  s.add(
      c, "keel",
      [text, o](benchmark::State& st) {
        json::ndjson_reader r(o);
        for (auto _ : st) {
          r.open_buffer(*text);
          std::size_t values = 0;
          while (r.next()) values += visit(r.value());
          if (r.error() || values == 0) st.SkipWithError("ndjson failed");
          benchmark::DoNotOptimize(values);
        }
      },
      text->size(), records);
}

// simdjson's parse_many over the same text (prepared once).
void add_parse_many(suite& s, const std::string& c, const std::string& impl,
                    const std::shared_ptr<json_peers::ndjson_peer>& peer, std::size_t bytes,
                    std::size_t records) {
  s.add(
      c, impl,
      [peer](benchmark::State& st) {
        for (auto _ : st) {
          std::size_t recs = 0;
          if (peer->run(recs) == 0) st.SkipWithError("parse_many failed");
          benchmark::DoNotOptimize(recs);
        }
      },
      bytes, records);
}

std::string path_case(const path& p) {
  return std::string("ndjson/") + keel::isa_name(p.isa) + "/1";
}

}  // namespace

KEEL_BENCH_SUITE(json, "NDJSON: full DOM per record, 1 and 2 threads, vs simdjson parse_many") {
  bool any_path = false;
  for (const path& p : kPaths) any_path = any_path || ctx.wants(path_case(p));
  if (!ctx.wants("ndjson/1") && !ctx.wants("ndjson/2") && !ctx.wants("ndjson/stream") &&
      !any_path) {
    return;
  }
  std::string sample = load_sample(ctx);
  if (sample.empty()) {
    for (const char* c : {"ndjson/1", "ndjson/2"})
      s.unmeasured(c, "keel", "missing corpus file json/amazon_cellphones.ndjson");
    return;
  }
  const std::size_t target = ctx.quick ? (std::size_t{20} << 20) : (std::size_t{100} << 20);
  auto text = std::make_shared<std::string>();
  while (text->size() < target) *text += sample;
  std::size_t records = 0;
  {
    json::ndjson_reader r;
    r.open_buffer(*text);
    while (r.next()) ++records;
  }

  add_reader(s, "ndjson/1", text, records, {});
  auto pool2 = std::make_shared<pool::thread_pool>(2);
  s.add(
      "ndjson/2", "keel",
      [text, pool2](benchmark::State& st) {
        for (auto _ : st) {
          std::size_t values = 0;
          const json::ndjson_error e = json::parallel_ndjson(
              *pool2, *text, {}, [](const json::value& v) { return visit(v); },
              [&](std::size_t n, const json::record_info&) { values += n; });
          if (e || values == 0) st.SkipWithError("ndjson failed");
          benchmark::DoNotOptimize(values);
        }
      },
      text->size(), records);
  std::shared_ptr<json_peers::ndjson_peer> sj = json_peers::make_simdjson_parse_many();
  sj->prepare(*text);
  for (const char* c : {"ndjson/1", "ndjson/2"})
    add_parse_many(s, c, "simdjson", sj, text->size(), records);
  for (const path& p : kPaths) {
    const std::string c = path_case(p);
    if (!ctx.wants(c) || !keel::isa_supported(p.isa)) continue;
    json::ndjson_options o;
    o.parse.isa = p.isa;
    add_reader(s, c, text, records, o);
    std::shared_ptr<json_peers::ndjson_peer> peer =
        json_peers::make_simdjson_parse_many(p.simdjson_kernel);
    if (!peer) continue;
    peer->prepare(*text);
    add_parse_many(s, c, std::string("simdjson-") + p.simdjson_kernel, peer, text->size(), records);
  }
  char line[400];
  std::snprintf(line, sizeof line,
                "ndjson: json/amazon_cellphones.ndjson repeated to %zu MB (%zu records); every "
                "record parsed to a full DOM and every value visited; simdjson %s parse_many "
                "(single-threaded document_stream, padded copy made once) on both rows; "
                "ndjson/2: parallel_ndjson on a pool of 2, map(value), consume(result, info)",
                text->size() >> 20, records, json_peers::simdjson4_version());
  s.note(line);
  s.note(
      "ndjson/<path>/1: path against path, 1 thread: keel's kernel set forced (avx512, avx2, "
      "scalar) beside simdjson's parse_many on the kernel of the same family (icelake, haswell, "
      "fallback; its run-time dispatch build)");
  // A generated multi-GB stream in a child process: its peak RSS, independent of the size.
  std::size_t records_per_sample = 0;
  {
    json::ndjson_reader r;
    r.open_buffer(sample);
    while (r.next()) ++records_per_sample;
  }
  s.add_external("ndjson/stream", [sample, records_per_sample](const context& c) {
    std::vector<record> out;
    if (!c.wants("ndjson/stream")) return out;
    // Whole copies of the sample, so the last record is complete.
    const std::size_t want = c.quick ? (std::size_t{256} << 20) : (std::size_t{2} << 30);
    const std::size_t bytes = (want + sample.size() - 1) / sample.size() * sample.size();
    const auto t0 = std::chrono::steady_clock::now();
    const long rss = stream_peak_rss_kb(c.self, sample, bytes);
    const auto t1 = std::chrono::steady_clock::now();
    record r;
    r.case_name = "ndjson/stream";
    r.impl = "keel";
    r.median_ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    r.bytes = bytes;
    r.items = bytes / sample.size() * records_per_sample;
    r.peak_rss_kb = rss;
    if (rss < 0) r.error = "the reading process failed";
    out.push_back(r);
    return out;
  });
  s.note(
      "ndjson/stream: `keel json validate --ndjson -` in a new process reading the sample repeated "
      "to 2 GiB from a pipe (generated while read, never stored; ndjson_reader, 1 MiB chunks), "
      "timed once; peak RSS is that process's");
}

}  // namespace keel::bench::json_ndjson
