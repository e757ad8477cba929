// SPDX-License-Identifier: MIT
// Configurations: the four presets that match the Rust crates, plus the crates' builder methods.
// See docs/bincode.md for what each setting does to the bytes.
#pragma once

#include <cstdint>
#include <limits>

namespace keel::bincode {

enum class int_encoding : std::uint8_t { fixint, varint };
enum class byte_order : std::uint8_t { little, big };
// Which crate's decode rules apply where 1.3.3 and 2.0.1 differ (non-shortest varints, a
// truncated char, the encode limit).
enum class generation : std::uint8_t { v1, v2 };

struct config {
  generation gen = generation::v2;
  int_encoding ints = int_encoding::varint;
  byte_order order = byte_order::little;
  bool reject_trailing = false;
  std::uint64_t limit = std::numeric_limits<std::uint64_t>::max();  // max: no limit

  constexpr config with_big_endian() const {
    return set([](config& c) { c.order = byte_order::big; });
  }
  constexpr config with_little_endian() const {
    return set([](config& c) { c.order = byte_order::little; });
  }
  constexpr config with_fixint() const {
    return set([](config& c) { c.ints = int_encoding::fixint; });
  }
  constexpr config with_varint() const {
    return set([](config& c) { c.ints = int_encoding::varint; });
  }
  constexpr config with_limit(std::uint64_t n) const {
    return set([n](config& c) { c.limit = n; });
  }
  constexpr config with_no_limit() const {
    return set([](config& c) { c.limit = std::numeric_limits<std::uint64_t>::max(); });
  }
  constexpr config allow_trailing_bytes() const {
    return set([](config& c) { c.reject_trailing = false; });
  }
  constexpr config reject_trailing_bytes() const {
    return set([](config& c) { c.reject_trailing = true; });
  }
  constexpr bool has_limit() const { return limit != std::numeric_limits<std::uint64_t>::max(); }

  friend constexpr bool operator==(const config&, const config&) = default;

 private:
  template <class F>
  constexpr config set(F f) const {
    config c = *this;
    f(c);
    return c;
  }
};

// bincode 1.3.3 `bincode::serialize` / `bincode::deserialize`: fixint, little endian, trailing ok.
constexpr config v1_serialize() {
  return {generation::v1, int_encoding::fixint, byte_order::little, false};
}
// bincode 1.3.3 `bincode::DefaultOptions::new()`: varint, little endian, trailing bytes rejected.
constexpr config v1_options() {
  return {generation::v1, int_encoding::varint, byte_order::little, true};
}
// bincode 2.0.1 `bincode::config::standard()`: varint, little endian.
constexpr config standard() {
  return {generation::v2, int_encoding::varint, byte_order::little, false};
}
// bincode 2.0.1 `bincode::config::legacy()`: fixint, little endian.
constexpr config legacy() {
  return {generation::v2, int_encoding::fixint, byte_order::little, false};
}

}  // namespace keel::bincode
