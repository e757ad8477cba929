// SPDX-License-Identifier: MIT
// Fuzzes keel::bincode decoding: the first byte picks a config (the eight presets, with and
// without a limit) and a type (selector 15: a second byte picks one with nested sequences or
// zero-size values); the rest is decoded. Anything decoded must re-encode to bytes
// that decode and re-encode to themselves. Run with -malloc_limit_mb to catch any allocation a
// forged length could cause (see scripts/test-bincode).
#include <array>
#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "keel/bincode.h"

namespace kb = keel::bincode;

namespace {

enum class side : std::uint8_t { buy, sell, cross };
KEEL_BINCODE_ENUM(side, 3)

struct fill {
  double px;
  std::uint32_t qty;
};
struct trade {
  std::uint64_t id;
  std::int64_t ts;
  std::string symbol;
  side s;
  std::optional<std::string> venue;
  std::vector<fill> fills;
  std::chrono::nanoseconds ttl;
  char32_t mark;
};
KEEL_BINCODE_FIELDS(trade, id, ts, symbol, s, venue, fills, ttl, mark)

struct rect {
  std::uint32_t w, h;
};
struct empty {  // a field-less struct: zero bytes on the wire
  bool operator==(const empty&) const = default;
  auto operator<=>(const empty&) const = default;
};

using shape =
    std::variant<std::monostate, double, rect, std::vector<std::pair<std::int16_t, std::int16_t>>,
                 std::tuple<std::string, char32_t>>;

const kb::config configs[] = {
    kb::v1_serialize(),
    kb::v1_options(),
    kb::standard(),
    kb::legacy(),
    kb::v1_serialize().with_big_endian(),
    kb::v1_options().with_big_endian(),
    kb::standard().with_big_endian(),
    kb::legacy().with_big_endian(),
};

template <class T>
void run(std::span<const std::uint8_t> in, const kb::config& c) {
  T v{};
  if (!kb::decode_into(v, in, c)) return;
  auto once = kb::encode_to_vector(v, c);
  if (!once) {
    if (once.error().code == kb::error_code::limit_exceeded)
      return;      // v1 limit applies to encoding
    std::abort();  // a decoded value always encodes
  }
  if (kb::encoded_size(v, c) != once->size()) std::abort();
  T w{};
  auto r = kb::decode_into(w, *once, c.with_no_limit());
  if (!r || *r != once->size()) std::abort();
  auto twice = kb::encode_to_vector(w, c.with_no_limit());
  if (!twice || *twice != *once) std::abort();
}

// Selector 15: the next byte picks a type with nested sequences or values that take no bytes,
// whose counts nothing in the input bounds (the decode's zero-size budget does).
void nested_or_zero_size(std::span<const std::uint8_t> in, const kb::config& c) {
  if (in.empty()) return;
  const std::uint8_t which = in[0];
  in = in.subspan(1);
  switch (which & 7) {
    case 0:
      run<std::vector<trade>>(in, c);
      break;
    case 1:
      run<std::vector<std::vector<std::monostate>>>(in, c);
      break;
    case 2:
      run<std::map<std::uint8_t, std::vector<std::vector<std::monostate>>>>(in, c);
      break;
    case 3:
      run<std::vector<std::array<std::monostate, 64>>>(in, c);
      break;
    case 4:
      run<std::vector<std::optional<std::vector<std::tuple<std::monostate, empty>>>>>(in, c);
      break;
    case 5:
      run<std::vector<std::vector<std::vector<std::uint8_t>>>>(in, c);
      break;
    case 6:
      run<std::tuple<std::set<std::monostate>, std::map<std::monostate, std::vector<empty>>>>(in,
                                                                                              c);
      break;
    default:
      run<std::vector<std::variant<std::monostate, std::vector<std::monostate>, std::string>>>(in,
                                                                                               c);
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t sel = data[0];
  kb::config c = configs[sel & 7];
  if (sel & 8) c = c.with_limit(size / 2);
  const std::span<const std::uint8_t> in(data + 1, size - 1);
  switch (sel >> 4) {
    case 0:
      run<trade>(in, c);
      break;
    case 1:
      run<shape>(in, c);
      break;
    case 2:
      run<std::vector<shape>>(in, c);
      break;
    case 3:
      run<std::map<std::string, std::vector<std::uint64_t>>>(in, c);
      break;
    case 4:
      run<std::vector<std::optional<std::pair<std::uint16_t, std::vector<std::string>>>>>(in, c);
      break;
    case 5:
      run<std::tuple<kb::uint128, kb::int128, std::int16_t, std::uint32_t>>(in, c);
      break;
    case 6:
      run<std::vector<char32_t>>(in, c);
      break;
    case 7:
      run<std::vector<bool>>(in, c);
      break;
    case 8:
      run<std::vector<std::monostate>>(in, c);
      break;
    case 9:
      run<std::vector<std::vector<std::uint8_t>>>(in, c);
      break;
    case 10:
      run<std::tuple<std::string_view, std::span<const std::uint8_t>>>(in, c);
      break;
    case 11:
      run<std::array<std::int64_t, 3>>(in, c);
      break;
    case 12:
      run<std::vector<std::chrono::microseconds>>(in, c);
      break;
    case 13:
      run<std::vector<float>>(in, c);
      break;
    case 14:
      run<std::optional<side>>(in, c);
      break;
    default:
      nested_or_zero_size(in, c);
      break;
  }
  return 0;
}
