// SPDX-License-Identifier: MIT
// keel bench msg: the benchmark's data, described once and built by every library from this
// description (so each side holds the same logical message).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace keel::bench::msg_data {

enum class kind : std::uint8_t { i64, f64, str, boolean, map, f64_array };

struct item {
  std::string name{};
  kind k = kind::i64;
  std::int64_t i = 0;
  double d = 0;
  std::string s;
  bool b = false;
  std::vector<item> map;      // kind::map
  std::vector<double> array;  // kind::f64_array
};

struct dataset {
  std::string header[6];  // source_id, source_sub_id, target_id, target_sub_id, type, version
  std::vector<item> items;
};

inline item make(const char* name, kind k) {
  item it;
  it.name = name;
  it.k = k;
  return it;
}

// n values cycling int64, double, short string, bool ("mixed values").
inline dataset mixed(std::size_t n) {
  dataset d;
  for (std::size_t i = 0; i < n; ++i) {
    item it;
    it.name = "field_" + std::to_string(i);
    switch (i % 4) {
      case 0:
        it.k = kind::i64;
        it.i = static_cast<std::int64_t>(i) * 7919 - 5000;
        break;
      case 1:
        it.k = kind::f64;
        it.d = static_cast<double>(i) * 0.37 + 0.1;
        break;
      case 2:
        it.k = kind::str;
        it.s = "value-" + std::to_string(i);
        break;
      default:
        it.k = kind::boolean;
        it.b = i % 8 == 3;
        break;
    }
    d.items.push_back(std::move(it));
  }
  return d;
}

// A ~1 KB message: a header, strings, integers, doubles, a nested map and a small double array.
inline dataset one_kb() {
  dataset d;
  const char* header[] = {"order-gateway", "eu-west-1a", "matching-engine",
                          "shard-07",      "new-order",  "3.2"};
  for (int i = 0; i < 6; ++i) d.header[i] = header[i];
  auto add = [&](const char* name, kind k) -> item& {
    d.items.push_back(make(name, k));
    return d.items.back();
  };
  add("order_id", kind::i64).i = 912345678901;
  add("client_order_id", kind::str).s = "c-20261126-000042-7f3a9b";
  add("account", kind::str).s = "ACC-00042-EU";
  add("symbol", kind::str).s = "EURUSD";
  add("side", kind::str).s = "buy";
  add("order_type", kind::str).s = "limit";
  add("time_in_force", kind::str).s = "good-till-cancel";
  add("price", kind::f64).d = 1.08375;
  add("stop_price", kind::f64).d = 1.08125;
  add("quantity", kind::i64).i = 2500000;
  add("min_quantity", kind::i64).i = 100000;
  add("display_quantity", kind::i64).i = 500000;
  add("sent_ns", kind::i64).i = 1764150000123456789;
  add("received_ns", kind::i64).i = 1764150000123499876;
  add("trader", kind::str).s = "desk-fx-emea/trader-17";
  add("strategy", kind::str).s = "twap-slice-12-of-40";
  add("venue", kind::str).s = "XLON";
  add("comment", kind::str).s = "rebalance after the fixing; do not route to dark venues";
  add("post_only", kind::boolean).b = true;
  add("reduce_only", kind::boolean).b = false;
  add("leverage", kind::f64).d = 20.0;
  add("notional", kind::f64).d = 2709375.0;
  item& fees = add("fees", kind::map);
  fees.map.push_back(make("maker_bps", kind::f64));
  fees.map.back().d = -0.25;
  fees.map.push_back(make("taker_bps", kind::f64));
  fees.map.back().d = 0.75;
  fees.map.push_back(make("currency", kind::str));
  fees.map.back().s = "USD";
  fees.map.push_back(make("tier", kind::i64));
  fees.map.back().i = 3;
  fees.map.push_back(make("rebate_account", kind::str));
  fees.map.back().s = "REB-00042";
  item& curve = add("price_curve", kind::f64_array);
  for (int k = 0; k < 16; ++k) curve.array.push_back(1.08 + k * 0.00025);
  add("risk_check", kind::str).s = "passed:limits,fat-finger,credit";
  add("session", kind::str).s = "FIX.4.4:GW07->ME07";
  add("sequence", kind::i64).i = 884211;
  return d;
}

// A peer library holding the same data: serialize() writes it into the peer's own reused
// buffer and returns the size; deserialize() reads that buffer back into the peer's own
// representation and returns the number of top-level entries it found.
class peer {
 public:
  virtual ~peer() = default;
  virtual std::size_t serialize() = 0;
  virtual std::size_t deserialize() = 0;
};

std::unique_ptr<peer> make_msgpack_cxx(const dataset& d);
std::unique_ptr<peer> make_protobuf(const dataset& d);
std::unique_ptr<peer> make_cereal(const dataset& d);
std::unique_ptr<peer> make_nlohmann(const dataset& d, bool cbor);

}  // namespace keel::bench::msg_data
