// keel bench bincode: keel::bincode against memcpy (POD vectors) and against the Rust crates
// (bincode 1.3.3 and 2.0.1, timed by compat/src/bench.rs, built --release, run as an external
// measurement). The data shapes match compat/src/bench.rs exactly.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "harness/keel_bench.h"
#include "keel/bincode.h"
#include "keel/pool.h"

namespace kb = keel::bincode;

namespace {

std::string size_label(std::size_t n) {
  return n >= (1u << 20) ? std::to_string(n >> 20) + "MiB" : n >= 1024 ? std::to_string(n >> 10) + "KiB" : std::to_string(n) + "B";
}

// The trade-like record (compat/src/lib.rs Trade; bench_trade(i) there builds the same values).
enum class side : std::uint8_t { buy, sell };
KEEL_BINCODE_ENUM(side, 2)
struct fill {
  double px;
  std::uint32_t qty;
};
struct trade {
  std::uint64_t id;
  std::int64_t ts;
  std::string symbol;
  side s;
  double price;
  std::uint32_t qty;
  std::optional<std::string> venue;
  std::vector<fill> fills;
  std::uint8_t flags;
  std::int32_t account;
};
KEEL_BINCODE_FIELDS(trade, id, ts, symbol, s, price, qty, venue, fills, flags, account)

trade bench_trade(std::uint64_t i) {
  static const char* symbols[] = {"EURUSD", "AAPL", "BTC-PERP", "ESZ6"};
  trade t{1000000 + i,
          1700000000000000000ll + static_cast<std::int64_t>(i) * 1000,
          symbols[i % 4],
          i % 2 == 0 ? side::buy : side::sell,
          100.0 + static_cast<double>(i % 1000) * 0.25,
          static_cast<std::uint32_t>(i % 5000) + 1,
          i % 3 == 0 ? std::nullopt : std::optional<std::string>("XNAS"),
          {},
          static_cast<std::uint8_t>(i % 7),
          static_cast<std::int32_t>(i % 100) - 50};
  for (std::uint64_t k = 0; k < i % 4; ++k) t.fills.push_back({100.0 + static_cast<double>(k), 10 * (static_cast<std::uint32_t>(k) + 1)});
  return t;
}

constexpr std::size_t kRecords = 1000;

template <class T>
std::vector<T> pod_values(std::size_t n) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, double>) v[i] = static_cast<double>(i) * 0.5 + 0.25;
    else v[i] = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  }
  return v;
}

template <class T>
void add_pod(keel::bench::suite& s, const char* type, std::size_t size) {
  const std::size_t n = size / 8;
  const std::string label = size_label(size) + "/" + type;
  // Encode: the vector into a reused buffer, as bincode::serialize / legacy() lays it out
  // (u64 length, then the elements little endian) — one memcpy after the length.
  s.add("pod/encode/" + label, "keel",
        [n](benchmark::State& st) {
          const auto v = pod_values<T>(n);
          kb::buffer out;
          (void)kb::encode(v, out, kb::legacy());
          for (auto _ : st) {
            auto r = kb::encode(v, out, kb::legacy());
            benchmark::DoNotOptimize(r);
            benchmark::ClobberMemory();
          }
          if (out.size() != 8 + n * 8) st.SkipWithError("wrong size");
        },
        size, n);
  s.add("pod/encode/" + label, "memcpy",
        [n](benchmark::State& st) {
          const auto v = pod_values<T>(n);
          std::vector<std::uint8_t> out(n * 8 + 8, 1);
          for (auto _ : st) {
            std::memcpy(out.data() + 8, v.data(), n * 8);
            benchmark::ClobberMemory();
          }
        },
        size, n);
  s.add("pod/decode/" + label, "keel",
        [n](benchmark::State& st) {
          const auto bytes = *kb::encode_to_vector(pod_values<T>(n), kb::legacy());
          std::vector<T> v;
          (void)kb::decode_into(v, bytes, kb::legacy());
          for (auto _ : st) {
            auto r = kb::decode_into(v, bytes, kb::legacy());
            benchmark::DoNotOptimize(r);
            benchmark::ClobberMemory();
          }
          if (v != pod_values<T>(n)) st.SkipWithError("wrong values");
        },
        size, n);
  s.add("pod/decode/" + label, "memcpy",
        [n](benchmark::State& st) {
          const auto bytes = *kb::encode_to_vector(pod_values<T>(n), kb::legacy());
          std::vector<T> v(n);
          for (auto _ : st) {
            std::memcpy(v.data(), bytes.data() + 8, n * 8);
            benchmark::ClobberMemory();
          }
        },
        size, n);
}

std::shared_ptr<const std::vector<trade>> trades() {
  static auto t = [] {
    auto v = std::make_shared<std::vector<trade>>();
    for (std::size_t i = 0; i < kRecords; ++i) v->push_back(bench_trade(i));
    return v;
  }();
  return t;
}

void add_struct(keel::bench::suite& s, const char* name, kb::config c) {
  auto ts = trades();
  kb::buffer all;
  std::vector<std::size_t> offsets;
  (void)kb::encode_batch(kb::serial, std::span<const trade>(*ts), all, offsets, c);
  const std::size_t total = all.size();
  // Each record appended after the previous one in a reused buffer.
  s.add(std::string("struct/encode/") + name, "keel",
        [ts, c, total](benchmark::State& st) {
          kb::buffer out;
          out.reserve(total);
          for (auto _ : st) {
            out.clear();
            for (const auto& t : *ts) (void)kb::encode_append(t, out, c);
            benchmark::DoNotOptimize(out.data());
            benchmark::ClobberMemory();
          }
          if (out.size() != total) st.SkipWithError("wrong size");
        },
        total, kRecords);
  // Each record decoded from its own slice into a reused object.
  auto bytes = std::make_shared<kb::buffer>(std::move(all));
  auto offs = std::make_shared<std::vector<std::size_t>>(std::move(offsets));
  s.add(std::string("struct/decode/") + name, "keel",
        [bytes, offs, c, ts](benchmark::State& st) {
          std::vector<trade> out(kRecords);
          bool ok = true;
          for (auto _ : st) {
            for (std::size_t i = 0; i < kRecords; ++i) {
              auto r = kb::decode_into(out[i], std::span<const std::uint8_t>(bytes->data() + (*offs)[i], (*offs)[i + 1] - (*offs)[i]), c);
              ok &= r.ok();
            }
            benchmark::ClobberMemory();
          }
          if (!ok || out[kRecords - 1].symbol != (*ts)[kRecords - 1].symbol) st.SkipWithError("decode failed");
        },
        total, kRecords);
}

void add_batch(keel::bench::suite& s) {
  auto many = std::make_shared<std::vector<trade>>();
  for (std::size_t i = 0; i < 10000; ++i) many->push_back(bench_trade(i));
  auto encode = [many](auto&& exec, benchmark::State& st) {
    kb::buffer out;
    std::vector<std::size_t> offsets;
    for (auto _ : st) {
      auto r = kb::encode_batch(exec, std::span<const trade>(*many), out, offsets, kb::standard());
      benchmark::DoNotOptimize(r);
      benchmark::ClobberMemory();
    }
  };
  const std::size_t bytes = kb::encoded_size(*many, kb::standard());
  s.add("batch/encode/10k/1-thread", "keel", [encode](benchmark::State& st) { encode(kb::serial, st); }, bytes, 10000);
  s.add("batch/encode/10k/2-threads", "keel",
        [encode](benchmark::State& st) {
          static keel::pool::thread_pool pool(1);  // one worker + the calling thread
          encode(pool, st);
        },
        bytes, 10000);
}

std::vector<keel::bench::record> run_rust(const keel::bench::context& ctx) {
  std::vector<keel::bench::record> out;
  const std::string cmd = std::string(KEEL_BINCODE_RUST_BENCH) + (ctx.quick ? " --quick" : "");
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {{"", "rust", "rust_bincode2", 0, 0, 0, 0, "cannot run " + cmd}};
  char line[512];
  while (std::fgets(line, sizeof line, p)) {
    std::istringstream is(line);
    keel::bench::record r;
    if (is >> r.case_name >> r.impl >> r.median_ns >> r.bytes >> r.items) out.push_back(r);
  }
  if (pclose(p) != 0 || out.empty()) out.push_back({"", "rust", "rust_bincode2", 0, 0, 0, 0, cmd + " failed"});
  return out;
}

}  // namespace

KEEL_BENCH_SUITE(bincode, "Rust-bincode-compatible codec vs memcpy and the Rust crates") {
  const std::size_t max = ctx.quick ? (std::size_t{1} << 20) : (std::size_t{64} << 20);
  for (std::size_t size = 64; size <= max; size *= 16) {
    add_pod<std::uint64_t>(s, "u64", size);
    add_pod<double>(s, "f64", size);
  }
  add_struct(s, "standard", kb::standard());
  add_struct(s, "legacy", kb::v1_serialize());
  add_batch(s);
  s.add_external("rust bincode 1.3.3 / 2.0.1", run_rust);
  s.note("pod: Vec<u64>/Vec<f64> in the legacy (fixint LE) layout; keel encodes into / decodes into a reused "
         "buffer; memcpy copies the same payload; rust_bincode1 serialize_into a cleared Vec / deserialize "
         "(allocates), rust_bincode2 encode_into_slice / decode_from_slice (allocates)");
  s.note("struct: 1000 trade records (u64, i64, String, enum, f64, u32, Option<String>, Vec<Fill>, u8, i32), "
         "each encoded after the previous into one reused buffer, each decoded from its slice; keel decodes into "
         "reused objects, Rust builds new ones; rust_bincode2 uses its Encode/Decode derive, rust_bincode1 serde");
  s.note("batch: 10k trades, encode_batch standard(): sizes, prefix sum, fill; 2-threads = pool of 1 worker + caller");
  s.note("Rust side: cargo --release (opt-level 3), timed in its own process: median of rounds (not interleaved)");
}
