// SPDX-License-Identifier: MIT
// keel bench bincode: keel::bincode against memcpy (POD vectors) and against the Rust crates
// (bincode 1.3.3 and 2.0.1, timed by tests/bincode/oracle/src/bench.rs, built --release, run as an
// external measurement). The data shapes match tests/bincode/oracle/src/bench.rs exactly.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "harness/keel_bench.h"
#include "keel/bincode.h"
#include "keel/bincode/batch.h"
#include "keel/pool.h"

namespace kb = keel::bincode;

namespace {

std::string size_label(std::size_t n) {
  return n >= (1u << 20) ? std::to_string(n >> 20) + "MiB"
         : n >= 1024     ? std::to_string(n >> 10) + "KiB"
                         : std::to_string(n) + "B";
}

// The trade-like record (tests/bincode/oracle/src/lib.rs Trade; bench_trade(i) there builds the
// same values).
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
  for (std::uint64_t k = 0; k < i % 4; ++k)
    t.fills.push_back({100.0 + static_cast<double>(k), 10 * (static_cast<std::uint32_t>(k) + 1)});
  return t;
}

constexpr std::size_t kRecords = 1000;

template <class T>
std::vector<T> pod_values(std::size_t n) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, double>)
      v[i] = static_cast<double>(i) * 0.5 + 0.25;
    else
      v[i] = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
  }
  return v;
}

// Where the pod cases copy: a copy's speed depends on the addresses (alignment to the vector
// width, and the destination's distance ahead of the source modulo 4 KiB: a load from the address
// of a pending store modulo 4 KiB waits for it), and one pair of buffers per size measured one
// such placement, which differed from run to run. So every pod case, keel's row and its memcpy
// row alike, cycles through the same eight placements, one per operation: the figure is the time
// per operation averaged over them. `values` is the u64/f64 array's offset in one 4 KiB-aligned
// arena, `payload` the offset of the encoding's payload (after its u64 length) in another; encode
// copies values -> payload, decode payload -> values.
struct placement {
  std::size_t values, payload;
};
constexpr placement kPlacements[] = {
    {0, 64},       // both 64-byte aligned; encode's destination 64 bytes ahead (mod 4 KiB)
    {0, 2048},     // both 64-byte aligned, 2 KiB apart
    {16, 8},       // malloc-like (16-byte aligned vector, buffer + 8); decode's 8 bytes ahead
    {1040, 3080},  // malloc-like, far apart
    {2056, 2100},  // misaligned both (8 and 52 mod 64); encode's destination 44 bytes ahead
    {512, 3605},   // aligned source, odd destination (21 mod 64), far apart
    {3000, 24},    // 56 mod 64 and 24 mod 64, 1120 bytes apart
    {1568, 1376},  // 32 and 32 mod 64; decode's destination 192 bytes ahead
};
constexpr std::size_t kPlacementCount = std::size(kPlacements);

// An allocator that hands out one fixed address (a vector of the encoded size or element count,
// placed where a placement says; never reallocated in the timed loops).
template <class T>
struct placed_allocator {
  using value_type = T;
  using propagate_on_container_move_assignment = std::true_type;  // the vector keeps its place
  T* at = nullptr;
  placed_allocator() = default;
  explicit placed_allocator(void* p) : at(static_cast<T*>(p)) {}
  template <class U>
  placed_allocator(const placed_allocator<U>& o) : at(reinterpret_cast<T*>(o.at)) {}
  T* allocate(std::size_t) { return at; }
  void deallocate(T*, std::size_t) noexcept {}
  friend bool operator==(const placed_allocator& a, const placed_allocator& b) {
    return a.at == b.at;
  }
};

// The two arenas of one pod size and type, shared by keel and memcpy and by every path, and the
// vectors and spans of each placement: keel encodes a span into a vector, decodes a span into a
// vector; the memcpy rows take their addresses and sizes from the same ones, so that both sides
// load the same words before each copy. Where those words lie modulo 4 KiB matters as much as
// the placements (a load from the address of a pending store modulo 4 KiB waits for it: with the
// words on the heap, whichever of u64 or f64 had its words under the previous copies' stores
// measured 0.6-0.7 of the other at 256 bytes, keel's row or memcpy's, changing with the run's
// heap layout). So they sit at fixed offsets in a 4 KiB-aligned object where no placement's copy
// of up to 256 bytes stores (larger copies store all over 4 KiB): the encode rows' words at
// 2360 .. 2744, the decode rows' at 3400 .. 3784 (the free ranges differ: encode stores at
// payload - 8 .. payload + size, decode at values .. values + size). Allocated on first use,
// kept for the run (the working set is the size plus 4 KiB, as one pair of buffers).
constexpr std::size_t kEncodeRefs = 2360, kDecodeRefs = 3400;

template <class T>
struct alignas(4096) pod_buffers {
  using bytes_vec = std::vector<std::uint8_t, placed_allocator<std::uint8_t>>;
  using values_vec = std::vector<T, placed_allocator<T>>;
  static constexpr std::size_t kPage = 4096;
  static constexpr std::size_t kEncodeRefsSize =
      kPlacementCount * (sizeof(bytes_vec) + sizeof(std::span<const T>));
  std::array<std::uint8_t, kEncodeRefs> unused{};  // puts the next two at kEncodeRefs
  std::array<bytes_vec, kPlacementCount> encoded;  // 8 + size bytes at payload - 8
  std::array<std::span<const T>, kPlacementCount> sources;
  std::array<std::uint8_t, kDecodeRefs - kEncodeRefs - kEncodeRefsSize> unused2{};
  std::array<values_vec, kPlacementCount> decoded;  // n values at `values`
  std::array<std::span<const std::uint8_t>, kPlacementCount> inputs;
  std::size_t n, size;
  std::unique_ptr<std::uint8_t[]> arena_values, arena_bytes;
  std::uint8_t* values_base = nullptr;  // 4 KiB aligned
  std::uint8_t* bytes_base = nullptr;   // 4 KiB aligned

  explicit pod_buffers(std::size_t count) : n(count), size(count * sizeof(T)) {}
  // A 4 KiB boundary in a new arena with a page before it and room for `size` + 4 KiB after.
  static std::uint8_t* page_base(std::unique_ptr<std::uint8_t[]>& a, std::size_t size) {
    a = std::make_unique<std::uint8_t[]>(3 * kPage + size + 64);
    const auto p = reinterpret_cast<std::uintptr_t>(a.get());
    return a.get() + ((kPage - (p & (kPage - 1))) & (kPage - 1)) + kPage;
  }
  std::uint8_t* values_at(const placement& p) const { return values_base + p.values; }
  std::uint8_t* payload_at(const placement& p) const { return bytes_base + p.payload; }

  pod_buffers& get() {
    if (values_base != nullptr) return *this;
    values_base = page_base(arena_values, size);
    bytes_base = page_base(arena_bytes, size);
    for (std::size_t i = 0; i < kPlacementCount; ++i) {
      const placement& p = kPlacements[i];
      encoded[i] = bytes_vec(8 + size, placed_allocator<std::uint8_t>(payload_at(p) - 8));
      decoded[i] = values_vec(n, placed_allocator<T>(values_at(p)));
      sources[i] = std::span<const T>(reinterpret_cast<const T*>(values_at(p)), n);
      inputs[i] = std::span<const std::uint8_t>(payload_at(p) - 8, 8 + size);
    }
    return *this;
  }
  // The u64 length before every placement's payload, as decode_into reads it (the placements'
  // payloads overlap one another's lengths: before a decode case these are written again).
  void put_lengths() {
    const std::uint64_t len = n;
    for (const placement& p : kPlacements) std::memcpy(payload_at(p) - 8, &len, 8);
  }
  // Whether keel encodes / decodes correctly at every placement (after the timed loop: it
  // rewrites what the placements share).
  bool encodes_right() {
    const auto want = *kb::encode_to_vector(pod_values<T>(n), kb::legacy());
    for (std::size_t i = 0; i < kPlacementCount; ++i) {
      const auto v = pod_values<T>(n);
      std::memcpy(values_at(kPlacements[i]), v.data(), size);
      if (!kb::encode(sources[i], encoded[i], kb::legacy()) ||
          !std::ranges::equal(encoded[i], want))
        return false;
    }
    return true;
  }
  bool decodes_right() {
    const auto want = pod_values<T>(n);
    const auto bytes = *kb::encode_to_vector(want, kb::legacy());
    for (std::size_t i = 0; i < kPlacementCount; ++i) {
      std::memcpy(payload_at(kPlacements[i]) - 8, bytes.data(), bytes.size());
      if (!kb::decode_into(decoded[i], inputs[i], kb::legacy()) ||
          !std::ranges::equal(decoded[i], want))
        return false;
    }
    return true;
  }
};

// An instruction-set path of the block copies: the automatic choice (case names without a suffix)
// and every other set this CPU runs, forced in this process (case names ending in "/avx2",
// "/scalar"). Each path's cases have their own memcpy row, so the ratio column is that path's.
struct isa_path {
  keel::isa which;
  std::string suffix;
};

std::vector<isa_path> isa_paths() {
  const keel::isa automatic = kb::detail::set_copy_block_isa(keel::isa::automatic);
  std::vector<isa_path> paths{{keel::isa::automatic, ""}};
  for (const keel::isa which : {keel::isa::avx2, keel::isa::scalar})
    if (which != automatic && keel::isa_supported(which))
      paths.push_back({which, std::string("/") + keel::isa_name(which)});
  return paths;
}

template <class T>
void add_pod(keel::bench::suite& s, const char* type, std::size_t size, const isa_path& path) {
  const std::size_t n = size / 8;
  const std::string label = size_label(size) + "/" + type + path.suffix;
  const keel::isa which = path.which;
  static std::map<std::size_t, std::shared_ptr<pod_buffers<T>>> shared;  // one per size, all paths
  auto& buf = shared[size];
  if (!buf) buf = std::shared_ptr<pod_buffers<T>>(new pod_buffers<T>(n));  // page-aligned
  // Every case: one operation per iteration, at the next placement in turn (i), the same way on
  // both sides. Encode: the vector (a span at the placement) into a reused buffer of the encoded
  // size, as bincode::serialize / legacy() lays it out (u64 length, then the elements little
  // endian) — the length and one copy; memcpy copies the same payload.
  s.add(
      "pod/encode/" + label, "keel",
      [buf, which](benchmark::State& st) {
        kb::detail::set_copy_block_isa(which);
        auto& b = buf->get();
        std::size_t i = 0;
        for (auto _ : st) {
          auto r = kb::encode(b.sources[i], b.encoded[i], kb::legacy());
          benchmark::DoNotOptimize(r);
          benchmark::ClobberMemory();
          i = (i + 1) % kPlacementCount;
        }
        if (!b.encodes_right()) st.SkipWithError("wrong bytes");
      },
      size, n);
  s.add(
      "pod/encode/" + label, "memcpy",
      [buf](benchmark::State& st) {
        auto& b = buf->get();
        std::size_t i = 0;
        for (auto _ : st) {
          std::memcpy(b.encoded[i].data() + 8, b.sources[i].data(), b.sources[i].size_bytes());
          benchmark::ClobberMemory();
          i = (i + 1) % kPlacementCount;
        }
      },
      size, n);
  s.add(
      "pod/decode/" + label, "keel",
      [buf, which](benchmark::State& st) {
        kb::detail::set_copy_block_isa(which);
        auto& b = buf->get();
        b.put_lengths();
        std::size_t i = 0;
        for (auto _ : st) {
          auto r = kb::decode_into(b.decoded[i], b.inputs[i], kb::legacy());
          benchmark::DoNotOptimize(r);
          benchmark::ClobberMemory();
          i = (i + 1) % kPlacementCount;
        }
        if (!b.decodes_right()) st.SkipWithError("wrong values");
      },
      size, n);
  s.add(
      "pod/decode/" + label, "memcpy",
      [buf](benchmark::State& st) {
        auto& b = buf->get();
        std::size_t i = 0;
        for (auto _ : st) {
          std::memcpy(b.decoded[i].data(), b.inputs[i].data() + 8, b.inputs[i].size() - 8);
          benchmark::ClobberMemory();
          i = (i + 1) % kPlacementCount;
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

// One timed operation of the struct cases (timed by this suite, interleaved with the Rust runs).
// Timed in short samples: on a loaded machine a sample that spans a preemption is inflated, and
// the median of many 1 ms samples leaves those out where the median of a few 5..20 ms rounds did
// not (docs/bincode.md, "Measured").
struct timed_op {
  std::string case_name;
  std::uint64_t bytes = 0, items = 0;
  std::function<void()> fn;
  std::uint64_t iters = 0;
  std::vector<double> samples;

  // `count` samples of `iters` calls each (calibrated on the first call to about sample_ns).
  void round(double sample_ns, int count) {
    using clock = std::chrono::steady_clock;
    auto time = [this](std::uint64_t n) {
      const auto t0 = clock::now();
      for (std::uint64_t i = 0; i < n; ++i) fn();
      return std::chrono::duration<double, std::nano>(clock::now() - t0).count();
    };
    if (iters == 0) {
      std::uint64_t n = 1;
      double ns = time(n);
      while (ns < sample_ns / 4 && n < (1u << 30)) ns = time(n *= 4);
      iters = std::max<std::uint64_t>(
          1, static_cast<std::uint64_t>(static_cast<double>(n) * sample_ns / std::max(ns, 1.0)));
    }
    for (int i = 0; i < count; ++i) samples.push_back(time(iters) / static_cast<double>(iters));
  }
  double median() {
    std::sort(samples.begin(), samples.end());
    return samples.empty() ? 0 : samples[samples.size() / 2];
  }
};

struct struct_case_data {
  kb::config cfg;
  kb::buffer bytes, out;
  std::vector<std::size_t> offsets;
  std::vector<trade> decoded = std::vector<trade>(kRecords);
};

// keel's two operations for one config: each record appended after the previous one into a
// reused buffer; each record decoded from its own slice into a reused object.
void add_keel_struct_ops(std::vector<timed_op>& ops,
                         const std::shared_ptr<const std::vector<trade>>& ts, const char* name,
                         kb::config c) {
  auto d = std::make_shared<struct_case_data>();
  d->cfg = c;
  (void)kb::encode_batch(kb::serial, std::span<const trade>(*ts), d->bytes, d->offsets, c);
  d->out.reserve(d->bytes.size());
  const std::uint64_t total = d->bytes.size();
  ops.push_back({std::string("struct/encode/") + name,
                 total,
                 kRecords,
                 [ts, d] {
                   d->out.clear();
                   for (const auto& t : *ts) (void)kb::encode_append(t, d->out, d->cfg);
                   benchmark::DoNotOptimize(d->out.data());
                   benchmark::ClobberMemory();
                 },
                 0,
                 {}});
  ops.push_back({std::string("struct/decode/") + name,
                 total,
                 kRecords,
                 [d] {
                   for (std::size_t i = 0; i < kRecords; ++i) {
                     auto r = kb::decode_into(
                         d->decoded[i],
                         std::span<const std::uint8_t>(d->bytes.data() + d->offsets[i],
                                                       d->offsets[i + 1] - d->offsets[i]),
                         d->cfg);
                     benchmark::DoNotOptimize(r);
                   }
                   benchmark::ClobberMemory();
                 },
                 0,
                 {}});
}

// The pod sizes: 64 B, 256 B (a copy past the inline 64 bytes but still mostly call overhead),
// then 1 KiB .. 64 MiB in steps of 16x (up to 1 MiB with --quick).
std::vector<std::size_t> pod_sizes(const keel::bench::context& ctx) {
  const std::size_t max = ctx.quick ? (std::size_t{1} << 20) : (std::size_t{64} << 20);
  std::vector<std::size_t> sizes{64, 256};
  for (std::size_t size = 1024; size <= max; size *= 16) sizes.push_back(size);
  return sizes;
}

// The Rust binary's --cases argument: the cases of `names` that --filter selects ("" if none).
std::string rust_cases(const keel::bench::context& ctx, const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names)
    if (ctx.wants(n)) list += (list.empty() ? " --cases " : ",") + n;
  return list;
}

// Runs the Rust benchmark binary; returns its records (or one record carrying the error).
std::vector<keel::bench::record> run_rust(const std::string& args) {
  std::vector<keel::bench::record> out;
  const std::string cmd = std::string(KEEL_BINCODE_RUST_BENCH) + " " + args;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {{"", "rust", "rust_bincode2", 0, 0, 0, 0, "cannot run " + cmd}};
  char line[512];
  while (std::fgets(line, sizeof line, p)) {
    std::istringstream is(line);
    keel::bench::record r;
    if (is >> r.case_name >> r.impl >> r.median_ns >> r.bytes >> r.items) out.push_back(r);
  }
  if (pclose(p) != 0 || out.empty())
    return {{"", "rust", "rust_bincode2", 0, 0, 0, 0, cmd + " failed"}};
  return out;
}

// The struct cases: per round, one run of the Rust binary (one round of each Rust case) and one
// round of each keel case, so both sides see the same machine load; medians over the rounds.
std::vector<keel::bench::record> struct_cases(const keel::bench::context& ctx) {
  auto ts = trades();
  std::vector<timed_op> ops;
  add_keel_struct_ops(ops, ts, "standard", kb::standard());
  add_keel_struct_ops(ops, ts, "legacy", kb::v1_serialize());
  std::vector<std::string> names;
  for (const auto& op : ops) names.push_back(op.case_name);
  std::erase_if(ops, [&](const timed_op& op) { return !ctx.wants(op.case_name); });
  const std::string cases = rust_cases(ctx, names);
  if (ops.empty()) return {};
  // Per round and case: `per_round` samples of 1 ms on each side (the Rust process reports the
  // median of its samples; keel's median is over every sample of every round).
  const int rounds = ctx.quick ? 5 : std::max(ctx.rounds, 3);
  const int per_round = ctx.quick ? 10 : 20;
  std::map<std::pair<std::string, std::string>, std::vector<keel::bench::record>> rust;
  for (int r = 0; r < rounds; ++r) {
    for (auto& rec :
         run_rust("--only struct --round-ms 1 --rounds " + std::to_string(per_round) + cases)) {
      if (!rec.error.empty()) return {rec};
      rust[{rec.case_name, rec.impl}].push_back(rec);
    }
    for (auto& op : ops) op.round(1e6, per_round);
  }
  std::vector<keel::bench::record> out;
  for (auto& op : ops)
    out.push_back({"", op.case_name, "keel", op.median(), op.bytes, op.items, 0, ""});
  for (auto& [key, recs] : rust) {
    std::sort(recs.begin(), recs.end(),
              [](const auto& a, const auto& b) { return a.median_ns < b.median_ns; });
    out.push_back(recs[recs.size() / 2]);
  }
  return out;
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
  s.add(
      "batch/encode/10k/1-thread", "keel",
      [encode](benchmark::State& st) { encode(kb::serial, st); }, bytes, 10000);
  s.add(
      "batch/encode/10k/2-threads", "keel",
      [encode](benchmark::State& st) {
        static keel::pool::thread_pool pool(1);  // one worker + the calling thread
        encode(pool, st);
      },
      bytes, 10000);
}

}  // namespace

KEEL_BENCH_SUITE(bincode, "Rust-bincode-compatible codec vs memcpy and the Rust crates") {
  for (const isa_path& path : isa_paths()) {
    for (const std::size_t size : pod_sizes(ctx)) {
      add_pod<std::uint64_t>(s, "u64", size, path);
      add_pod<double>(s, "f64", size, path);
    }
  }
  add_batch(s);
  s.add_external("rust bincode pod cases", [](const keel::bench::context& c) {
    std::vector<std::string> names;
    for (const std::size_t size : pod_sizes(c))
      for (const char* op : {"encode", "decode"})
        for (const char* type : {"u64", "f64"})
          names.push_back(std::string("pod/") + op + "/" + size_label(size) + "/" + type);
    const std::string cases = rust_cases(c, names);
    return cases.empty()
               ? std::vector<keel::bench::record>{}
               : run_rust(std::string("--only pod") + (c.quick ? " --quick" : "") + cases);
  });
  s.add_external("struct cases, keel and rust interleaved by round", struct_cases);
  s.note(
      "pod: Vec<u64>/Vec<f64> in the legacy (fixint LE) layout; keel encodes into / decodes into a "
      "reused buffer; memcpy copies the same payload between the same addresses, read from the "
      "same vectors and spans; each keel and memcpy row is the time per operation averaged over 8 "
      "source/destination placements (aligned, misaligned, destination just ahead of the source "
      "modulo 4 KiB), one per operation in turn; rust_bincode1 serialize_into a cleared Vec / "
      "deserialize (allocates), rust_bincode2 encode_into_slice / decode_from_slice (allocates)");
  s.note(
      "pod paths: cases without a suffix use the block-copy kernels chosen for this CPU "
      "(KEEL_BINCODE_ISA, else the best it runs); /avx2 and /scalar force that path's kernels in "
      "this process, each case with its own memcpy row (the same placements for every path)");
  // glibc picks its memcpy once per process from the CPU (its AVX-512 copy where the CPU has
  // AVX-512): the /avx2 rows compare path with path only when glibc is held to AVX2 as well.
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  s.note(std::string("pod memcpy rows: the C library's memcpy as chosen for this process (") +
         (tunables != nullptr ? std::string("GLIBC_TUNABLES=") + tunables
                              : std::string("GLIBC_TUNABLES not set")) +
         "); on a CPU with AVX-512, glibc copies with AVX-512 and the /avx2 rows compare keel's "
         "AVX2 kernels with it; GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,"
         "-AVX512DQ,-AVX512CD holds glibc to its AVX2 copy, as on an AVX2-only CPU");
  s.note(
      "struct: nothing in these cases depends on the instruction set (strings shorter than 64 "
      "bytes take the scalar UTF-8 check, no block reaches the copy kernels): one code path on "
      "every CPU");
  s.note(
      "struct: 1000 trade records (u64, i64, String, enum, f64, u32, Option<String>, Vec<Fill>, "
      "u8, i32), each encoded after the previous into one reused buffer, each decoded from its "
      "slice; keel decodes into reused objects, Rust builds new ones; rust_bincode2 uses its "
      "Encode/Decode derive, rust_bincode1 serde; median of ~1 ms samples");
  s.note(
      "batch: 10k trades, encode_batch standard(): sizes, prefix sum, fill; 2-threads = pool of 1 "
      "worker + caller");
  s.note(
      "Rust side: cargo --release (opt-level 3), timed in its own process (pod: its own rounds, "
      "not interleaved with keel; struct: one Rust process run per round, alternating with keel's "
      "round of the same cases)");
}
