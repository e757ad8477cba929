// SPDX-License-Identifier: MIT
// keel bench msg: serialize and deserialize the same messages (10, 100, 1000 mixed values and a
// ~1 KB order message) in keel's binary, MessagePack and CBOR forms and in each peer; lookups by
// name (map and view); the plain JSON form against keel::json writing the same document.
#include <keel/json.h>
#include <keel/msg.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "harness/keel_bench.h"
#include "msg/data.h"

namespace {

namespace md = keel::bench::msg_data;
namespace km = keel::msg;

km::map to_map(const std::vector<md::item>& items) {
  km::map m;
  m.reserve(items.size());
  for (const md::item& it : items) {
    switch (it.k) {
      case md::kind::i64:
        m.add(it.name, it.i);
        break;
      case md::kind::f64:
        m.add(it.name, it.d);
        break;
      case md::kind::str:
        m.add(it.name, it.s);
        break;
      case md::kind::boolean:
        m.add(it.name, it.b);
        break;
      case md::kind::map:
        m.add(it.name, to_map(it.map));
        break;
      case md::kind::f64_array:
        m.add(it.name, it.array);
        break;
    }
  }
  return m;
}

km::message to_message(const md::dataset& d) {
  km::message m({d.header[0], d.header[1], d.header[2], d.header[3], d.header[4], d.header[5]});
  m.body() = to_map(d.items);
  return m;
}

km::bytes_view bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// keel writing one form: writer(message, buffer) and reader(bytes, message).
struct keel_form {
  const char* impl;
  void (*write)(const km::message&, std::string&);
  km::error (*read)(km::bytes_view, km::message&, const km::read_options&);
};

const keel_form kForms[] = {
    {"keel", [](const km::message& m, std::string& out) { km::write_binary(m, out); },
     km::read_binary},
    {"keel-msgpack", [](const km::message& m, std::string& out) { km::write_msgpack(m, out); },
     km::read_msgpack},
    {"keel-cbor", [](const km::message& m, std::string& out) { km::write_cbor(m, out); },
     km::read_cbor},
};

struct peer_maker {
  const char* impl;
  std::unique_ptr<md::peer> (*make)(const md::dataset&);
};

const peer_maker kPeers[] = {
    {"msgpack", md::make_msgpack_cxx},
    {"protobuf", md::make_protobuf},
    {"cereal", md::make_cereal},
    {"nlohmann-msgpack", [](const md::dataset& d) { return md::make_nlohmann(d, false); }},
    {"nlohmann-cbor", [](const md::dataset& d) { return md::make_nlohmann(d, true); }},
};

double per_value(std::size_t bytes, std::uint64_t values) {
  return static_cast<double>(bytes) / static_cast<double>(values);
}

void add_size(keel::bench::suite& s, const std::string& label, const md::dataset& data) {
  const auto msg = std::make_shared<const km::message>(to_message(data));
  const std::uint64_t values = data.items.size();
  std::string sizes = label + ": bytes per value:";
  for (const keel_form& f : kForms) {
    auto buf = std::make_shared<std::string>();
    f.write(*msg, *buf);
    sizes += " " + std::string(f.impl) + " " +
             std::to_string(per_value(buf->size(), values)).substr(0, 5);
    s.add(
        "serialize/" + label, f.impl,
        [msg, buf, f](benchmark::State& st) {
          for (auto _ : st) {
            f.write(*msg, *buf);
            benchmark::DoNotOptimize(buf->data());
            benchmark::ClobberMemory();
          }
        },
        buf->size(), values);
    s.add(
        "deserialize/" + label, f.impl,
        [msg, buf, f](benchmark::State& st) {
          km::message m;
          for (auto _ : st) {
            if (f.read(bytes_of(*buf), m, {})) st.SkipWithError("read failed");
            benchmark::DoNotOptimize(m);
            benchmark::ClobberMemory();
          }
          // Checked after the timing: what was read is the message (MessagePack and CBOR keep
          // values, not integer widths; this data has int64, double, string, bool only).
          if (m.size() != msg->size()) st.SkipWithError("wrong message");
        },
        buf->size(), values);
  }
  for (const peer_maker& p : kPeers) {
    std::shared_ptr<md::peer> peer = p.make(data);
    const std::size_t size = peer->serialize();
    sizes += " " + std::string(p.impl) + " " + std::to_string(per_value(size, values)).substr(0, 5);
    s.add(
        "serialize/" + label, p.impl,
        [peer](benchmark::State& st) {
          for (auto _ : st) {
            benchmark::DoNotOptimize(peer->serialize());
            benchmark::ClobberMemory();
          }
        },
        size, values);
    s.add(
        "deserialize/" + label, p.impl,
        [peer, values](benchmark::State& st) {
          std::size_t n = 0;
          for (auto _ : st) {
            n = peer->deserialize();
            benchmark::ClobberMemory();
          }
          if (n != values) st.SkipWithError("wrong message");
        },
        size, values);
  }
  s.note(sizes);

  // Lookups of every name: the map (hash index) and the view over the binary form.
  auto names = std::make_shared<std::vector<std::string>>();
  for (const md::item& it : data.items) names->push_back(it.name);
  s.add(
      "get/" + label, "keel",
      [msg, names](benchmark::State& st) {
        for (auto _ : st) {
          std::size_t found = 0;
          for (const std::string& n : *names) found += msg->find(n) != nullptr;
          benchmark::DoNotOptimize(found);
        }
      },
      0, values);
  auto bin = std::make_shared<const std::string>(km::to_binary(*msg));
  s.add(
      "get/" + label, "keel-view",
      [bin, names](benchmark::State& st) {
        for (auto _ : st) {
          auto v = km::view::open(*bin);
          std::size_t found = 0;
          for (const std::string& n : *names) found += v->find(n).ok();
          benchmark::DoNotOptimize(found);
        }
      },
      0, values);

  // The plain JSON form, against keel::json writing the same document from its DOM.
  auto text = std::make_shared<const std::string>(km::to_json(*msg));
  s.add(
      "json/" + label, "keel",
      [msg](benchmark::State& st) {
        std::string out;
        for (auto _ : st) {
          km::write_json(*msg, out);
          benchmark::DoNotOptimize(out.data());
        }
      },
      text->size(), values);
  auto doc = std::make_shared<keel::json::document>(std::move(*keel::json::parse(*text)));
  s.add(
      "json/" + label, "keel-json",
      [doc](benchmark::State& st) {
        keel::json::writer w;
        for (auto _ : st) benchmark::DoNotOptimize(w.write(doc->root()));
      },
      text->size(), values);
}

// sum and dot of float64 arrays on each instruction-set path, against a plain loop (what a
// compiler makes of `s += a[i]` without -ffast-math: one sequential chain) and memcpy of the
// same bytes (the read-bandwidth floor for arrays that do not fit in cache).
void add_simd(keel::bench::suite& s, const std::string& label, std::size_t n) {
  auto a = std::make_shared<std::vector<double>>(n);
  auto b = std::make_shared<std::vector<double>>(n);
  for (std::size_t i = 0; i < n; ++i) {
    (*a)[i] = static_cast<double>(i % 1000) * 0.001 + 0.5;
    (*b)[i] = static_cast<double>(i % 777) * 0.002 - 0.7;
  }
  const std::uint64_t bytes = n * sizeof(double);
  const std::pair<const char*, km::simd_isa> paths[] = {
      {"keel", km::simd_isa::automatic},
      {"keel-avx2", km::simd_isa::avx2},
      {"keel-scalar", km::simd_isa::scalar},
  };
  for (const auto& [impl, isa] : paths) {
    if (!keel::isa_supported(isa == km::simd_isa::automatic ? km::numeric_isa() : isa)) continue;
    const km::simd_isa path = isa;
    s.add(
        "simd/sum/" + label, impl,
        [a, path](benchmark::State& st) {
          for (auto _ : st) benchmark::DoNotOptimize(*km::sum(std::span<const double>(*a), path));
        },
        bytes, n);
    s.add(
        "simd/dot/" + label, impl,
        [a, b, path](benchmark::State& st) {
          for (auto _ : st)
            benchmark::DoNotOptimize(
                *km::dot(std::span<const double>(*a), std::span<const double>(*b), path));
        },
        2 * bytes, n);
  }
  s.add(
      "simd/sum/" + label, "plain",
      [a](benchmark::State& st) {
        for (auto _ : st) {
          double t = 0;
          for (double x : *a) t += x;
          benchmark::DoNotOptimize(t);
        }
      },
      bytes, n);
  s.add(
      "simd/dot/" + label, "plain",
      [a, b](benchmark::State& st) {
        for (auto _ : st) {
          double t = 0;
          for (std::size_t i = 0; i < a->size(); ++i) t += (*a)[i] * (*b)[i];
          benchmark::DoNotOptimize(t);
        }
      },
      2 * bytes, n);
  auto dst = std::make_shared<std::vector<double>>(n);
  for (const char* op : {"sum", "dot"}) {
    const int arrays = std::string_view(op) == "dot" ? 2 : 1;
    s.add(
        std::string("simd/") + op + "/" + label, "memcpy",
        [a, b, dst, arrays](benchmark::State& st) {
          for (auto _ : st) {
            std::memcpy(dst->data(), a->data(), a->size() * sizeof(double));
            if (arrays == 2) std::memcpy(dst->data(), b->data(), b->size() * sizeof(double));
            benchmark::ClobberMemory();
          }
        },
        arrays * bytes, n);
  }
}

// shared_message with 1 and 2 threads: per iteration every thread reads kReads values (a
// snapshot and a lookup each) and thread 0 also publishes kUpdates updates of the ~1 KB message.
// The helper thread sleeps between iterations (std::atomic wait/notify, a futex), never spins: on
// a loaded machine a spinning waiter holds the CPU the other thread needs, and an iteration then
// lasts a scheduler time slice instead of the work (16x the 1-thread time with both threads on
// one CPU).
void add_shared(keel::bench::suite& s, const md::dataset& data) {
  constexpr int kReads = 20000, kUpdates = 10;
  for (int threads : {1, 2}) {
    s.add(
        "shared/" + std::to_string(threads) + "t", "keel",
        [data, threads](benchmark::State& st) {
          km::shared_message shared(to_message(data));
          std::atomic<std::uint64_t> go{0}, done{0};
          constexpr std::uint64_t kStop = ~std::uint64_t{0};
          auto work = [&](bool writer) {
            std::size_t found = 0;
            for (int i = 0; i < kReads; ++i) {
              if (writer && i % (kReads / kUpdates) == 0)
                shared.update([i](km::message& m) { m.set("sequence", std::int64_t{i}); });
              found += shared.snapshot()->contains(
                  data.items[static_cast<std::size_t>(i) % data.items.size()].name);
            }
            benchmark::DoNotOptimize(found);
          };
          std::vector<std::thread> helpers;
          for (int t = 1; t < threads; ++t) {
            helpers.emplace_back([&] {
              for (std::uint64_t seen = 0;;) {
                go.wait(seen, std::memory_order_acquire);
                seen = go.load(std::memory_order_acquire);
                if (seen == kStop) return;
                work(false);
                done.fetch_add(1, std::memory_order_acq_rel);
                done.notify_all();
              }
            });
          }
          const auto helpers_n = static_cast<std::uint64_t>(threads - 1);
          std::uint64_t round = 0;
          for (auto _ : st) {
            ++round;
            go.store(round, std::memory_order_release);
            go.notify_all();
            work(true);
            for (std::uint64_t d; (d = done.load(std::memory_order_acquire)) < round * helpers_n;)
              done.wait(d, std::memory_order_acquire);
          }
          go.store(kStop, std::memory_order_release);
          go.notify_all();
          for (auto& h : helpers) h.join();
        },
        0, static_cast<std::uint64_t>(threads) * kReads);
  }
}

}  // namespace

KEEL_BENCH_SUITE(
    msg,
    "typed messages: keel binary/MessagePack/CBOR vs msgpack-cxx, protobuf, cereal, nlohmann") {
  for (std::size_t n : {10, 100, 1000}) add_size(s, std::to_string(n), md::mixed(n));
  add_size(s, "1KB", md::one_kb());
  add_shared(s, md::one_kb());
  add_simd(s, "4096", 4096);                      // 32 KiB: in cache
  if (!ctx.quick) add_simd(s, "16M", 16u << 20);  // 128 MiB: out of cache
  s.note(
      "Same logical data in every library: n named values cycling int64, double, short string, "
      "bool; "
      "1KB: a header, 25 values incl. a nested map and a 16-double array. keel reuses its output "
      "buffer and message; deserialize builds the whole message (keel checks UTF-8 of names and "
      "strings, protobuf checks its strings, msgpack-cxx, cereal and nlohmann do not).");
  s.note(
      "serialize/deserialize: one message per iteration; get: every name looked up once; json: "
      "keel::msg's plain JSON writer vs keel::json writing the same document from its DOM.");
  s.note(
      "shared/<k>t: k threads each read 20000 values of one shared_message per iteration (thread "
      "0 also publishes 10 updates); wall time, so when the host is busy 2t also waits for two "
      "CPUs at once.");
}
