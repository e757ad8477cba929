// SPDX-License-Identifier: MIT
// keel::bincode quick start: a struct encoded byte for byte as Rust's bincode 2
// (`bincode::encode_to_vec(&trade, bincode::config::standard())`) and decoded back; a
// truncated or forged input is an error value with its byte offset, never a crash.
#include <keel/bincode.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace market {

// Rust: #[derive(Encode, Decode)] enum Side { Buy, Sell }
enum class side : std::uint8_t { buy, sell };

// Rust: #[derive(Encode, Decode)] struct Trade { id: u64, symbol: String, side: Side,
//                                                 price: Option<f64>, fills: Vec<u32> }
struct trade {
  std::uint64_t id = 0;
  std::string symbol;
  side s = side::buy;
  std::optional<double> price;
  std::vector<std::uint32_t> fills;
};

}  // namespace market

// The field list in Rust's declaration order, and a field-less enum's variant count: at namespace
// scope in the type's own namespace (the codec finds them by argument-dependent lookup).
namespace market {
KEEL_BINCODE_ENUM(side, 2)
KEEL_FIELDS(trade, id, symbol, s, price, fills)
}  // namespace market

int main() {
  namespace kb = keel::bincode;
  const market::trade t{42, "KEEL", market::side::sell, 101.25, {100, 250, 50}};

  // encode into a reusable buffer (kb::buffer does not zero-fill when it grows).
  kb::buffer out;
  auto written = kb::encode(t, out, kb::standard());
  if (!written) {
    std::fprintf(stderr, "encode: %s\n", written.error().to_string().c_str());
    return 1;
  }
  std::printf("%zu bytes:", out.size());
  for (std::uint8_t b : out) std::printf(" %02x", b);
  std::printf("\n");

  auto back = kb::decode<market::trade>(out, kb::standard());
  if (!back) {
    std::fprintf(stderr, "decode: %s\n", back.error().to_string().c_str());
    return 1;
  }
  std::printf("decoded: id %llu, %s, price %.2f, %zu fills\n",
              static_cast<unsigned long long>(back->id), back->symbol.c_str(),
              back->price.value_or(0), back->fills.size());

  // The same value under bincode 1.x's default layout (fixed-width integers) is longer.
  std::printf("legacy() size %zu, standard() size %zu\n", kb::encoded_size(t, kb::legacy()),
              kb::encoded_size(t, kb::standard()));

  // Bad input: every prefix of the encoding fails cleanly, with the offset of the fault.
  const std::span<const std::uint8_t> bytes(out.data(), out.size());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto cut = kb::decode<market::trade>(bytes.first(n), kb::standard());
    if (cut) return 1;  // a truncated input must never decode
    if (n == 5) std::printf("truncated to 5 bytes: %s\n", cut.error().to_string().c_str());
  }
  return back->id == t.id && back->fills == t.fills ? 0 : 1;
}
