// SPDX-License-Identifier: MIT
// Byte-level pieces of keel's binary form: tags, little-endian loads and stores, LEB128 varints,
// and a growable output buffer over a std::string. Private to keel::msg.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "keel/msg/binary.h"
#include "keel/msg/value.h"

namespace keel::msg::detail {

inline constexpr std::uint8_t kMagic[4] = {'K', 'M', 'S', 'G'};
inline constexpr std::size_t kPreamble = 6;  // magic, version, flags

// Tags: 0x00 null, 0x01 false, 0x02 true, then type t (int8 .. tagged) as t + 1.
inline constexpr std::uint8_t kTagNull = 0x00, kTagFalse = 0x01, kTagTrue = 0x02;
inline constexpr std::uint8_t tag_of(type t) { return static_cast<std::uint8_t>(t) + 1; }
inline constexpr std::uint8_t kTagMax = tag_of(type::tagged);
inline constexpr type type_of_tag(std::uint8_t tag) {
  return tag <= kTagTrue ? (tag == 0 ? type::null : type::boolean) : static_cast<type>(tag - 1);
}
// Payload bytes of the fixed-size types (by tag), 0 for the others.
inline constexpr std::size_t fixed_size(type t) {
  switch (t) {
    case type::int8:
    case type::uint8:
      return 1;
    case type::int16:
    case type::uint16:
      return 2;
    case type::int32:
    case type::uint32:
    case type::float32:
      return 4;
    case type::int64:
    case type::uint64:
    case type::float64:
      return 8;
    case type::timestamp:
      return 12;
    default:
      return 0;
  }
}
inline constexpr std::size_t element_size(type t) {
  return t == type::int32_array || t == type::float32_array ? 4 : 8;
}

static_assert(std::endian::native == std::endian::little, "keel::msg assumes a little-endian host");

template <class T>
inline T load(const std::uint8_t* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
inline void store(std::uint8_t* p, T v) noexcept {
  std::memcpy(p, &v, sizeof v);
}

// Byte order swaps for the big-endian forms (MessagePack, CBOR).
inline std::uint8_t bswap(std::uint8_t v) noexcept { return v; }
inline std::uint16_t bswap(std::uint16_t v) noexcept { return __builtin_bswap16(v); }
inline std::uint32_t bswap(std::uint32_t v) noexcept { return __builtin_bswap32(v); }
inline std::uint64_t bswap(std::uint64_t v) noexcept { return __builtin_bswap64(v); }
template <class T>
inline T load_be(const std::uint8_t* p) noexcept {
  return bswap(load<T>(p));
}

// Copies n <= 32 bytes with at most two overlapping fixed-size loads and stores (no call for the
// short names and strings most messages are made of).
inline void copy_short(void* dst, const void* src, std::size_t n) noexcept {
  auto* d = static_cast<std::uint8_t*>(dst);
  const auto* s = static_cast<const std::uint8_t*>(src);
  const auto two = [d, s, n](auto w) {
    decltype(w) a, b;
    std::memcpy(&a, s, sizeof a);
    std::memcpy(&b, s + n - sizeof b, sizeof b);
    std::memcpy(d, &a, sizeof a);
    std::memcpy(d + n - sizeof b, &b, sizeof b);
  };
  struct b16 {
    std::uint64_t x[2];
  };
  if (n >= 16) {
    two(b16{});
  } else if (n >= 8) {
    two(std::uint64_t{});
  } else if (n >= 4) {
    two(std::uint32_t{});
  } else {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  }
}

// a[0..n) == b[0..n) by overlapping fixed-size loads for n <= 32 (memcmp above that).
inline bool same_short(const void* a, const void* b, std::size_t n) noexcept {
  const auto* x = static_cast<const std::uint8_t*>(a);
  const auto* y = static_cast<const std::uint8_t*>(b);
  const auto diff = [x, y](std::size_t at, auto w) {
    decltype(w) u, v;
    std::memcpy(&u, x + at, sizeof w);
    std::memcpy(&v, y + at, sizeof w);
    return u ^ v;
  };
  if (n >= 8) {
    if (n > 32) return std::memcmp(x, y, n) == 0;
    std::uint64_t d = diff(0, std::uint64_t{}) | diff(n - 8, std::uint64_t{});
    if (n > 16) d |= diff(8, std::uint64_t{}) | diff(n - 16, std::uint64_t{});
    return d == 0;
  }
  if (n >= 4) return (diff(0, std::uint32_t{}) | diff(n - 4, std::uint32_t{})) == 0;
  for (std::size_t i = 0; i < n; ++i)
    if (x[i] != y[i]) return false;
  return true;
}

inline std::size_t varint_size(std::uint64_t v) noexcept {
  // 1 + floor(log2(v)) / 7 for v > 0.
  return 1 + static_cast<std::size_t>((63 - std::countl_zero(v | 1)) / 7);
}
inline std::uint8_t* put_varint(std::uint8_t* p, std::uint64_t v) noexcept {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}
// Reads a minimal LEB128 varint of at most 10 bytes; nullptr if it is truncated (at == end),
// too long, overflows 64 bits or is not minimal (`bad` set for the last three).
inline const std::uint8_t* get_varint(const std::uint8_t* p, const std::uint8_t* end,
                                      std::uint64_t& out, bool& bad) noexcept {
  if (p < end && *p < 0x80) {
    out = *p;
    return p + 1;
  }
  std::uint64_t v = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (p == end) return nullptr;
    const std::uint8_t b = *p++;
    if (shift == 63 && b > 1) break;
    v |= std::uint64_t(b & 0x7f) << shift;
    if (b < 0x80) {
      if (b == 0 && shift > 0) break;  // not minimal
      out = v;
      return p;
    }
  }
  bad = true;
  return nullptr;
}

// Appends to a std::string through a raw pointer; room() before each write.
class sink {
 public:
  explicit sink(std::string& out) : out_(out) {
    // Not cleared first: resize() zero-fills only past the old contents, which are overwritten.
    if (out_.capacity() < 64) out_.reserve(64);
    out_.resize(out_.capacity());
    p_ = base();
    end_ = p_ + out_.size();
  }
  std::uint8_t* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) grow(n);
    return p_;
  }
  void advance(std::uint8_t* to) noexcept { p_ = to; }
  std::uint8_t* pos() noexcept { return p_; }
  std::uint8_t* end() noexcept { return end_; }
  std::size_t offset() const noexcept { return static_cast<std::size_t>(p_ - base()); }
  std::uint8_t* at(std::size_t off) noexcept { return base() + off; }
  void put(const void* data, std::size_t n) {
    if (n == 0) return;  // data may be null then (an empty vector's data())
    room(n);
    std::memcpy(p_, data, n);
    p_ += n;
  }
  void put_byte(std::uint8_t b) {
    room(1);
    *p_++ = b;
  }
  void put_varint(std::uint64_t v) {
    room(10);
    p_ = detail::put_varint(p_, v);
  }
  void finish() { out_.resize(offset()); }

 private:
  std::uint8_t* base() noexcept { return reinterpret_cast<std::uint8_t*>(out_.data()); }
  const std::uint8_t* base() const noexcept {
    return reinterpret_cast<const std::uint8_t*>(out_.data());
  }
  void grow(std::size_t n) {
    const std::size_t off = offset();
    out_.resize(std::max(out_.size() * 2, off + n));
    p_ = base() + off;
    end_ = base() + out_.size();
  }
  std::string& out_;
  std::uint8_t* p_ = nullptr;
  std::uint8_t* end_ = nullptr;
};

// Writes one document of a form with two modes (MessagePack, CBOR) into `out`, replacing what it
// held: put(sink&, exact) with `exact` a std::bool_constant (true for fidelity::exact), so each
// mode is compiled apart.
template <class Put>
void write_in_mode(std::string& out, fidelity mode, Put put) {
  sink s(out);
  if (mode == fidelity::exact)
    put(s, std::true_type{});
  else
    put(s, std::false_type{});
  s.finish();
}

}  // namespace keel::msg::detail
