// SPDX-License-Identifier: MIT
// Internal: the primitives every type's codec is built from — the compile-time wire format
// (int encoding x byte order), output sinks, the input reader, integers (fixint and varint).
// Not part of the API; included by codec.h.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <type_traits>

#include "keel/bincode/config.h"
#include "keel/bincode/error.h"
#include "keel/cpu.h"
#include "keel/detail/attributes.h"
#include "keel/utf8.h"

namespace keel::bincode {
// Values that take no bytes on the wire (Vec<()>, a std::monostate, an empty struct) are bounded
// by nothing in the input, so keel bounds them: over one whole decode, sequences of such values
// may claim at most this many bytes of memory in all (2^20 elements of a one-byte type such as
// std::monostate; elements of a larger type count their size). More: limit_exceeded.
inline constexpr std::size_t max_zero_size_elements = std::size_t{1} << 20;

// Rust's u128 / i128 (GCC and Clang's 128-bit integers).
__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;
}  // namespace keel::bincode

namespace keel::bincode::detail {

using u128 = uint128;
using i128 = int128;

// The part of a config that changes the bytes, as types (one instantiation per combination).
template <bool Varint, bool Big>
struct format {
  static constexpr bool varint = Varint;
  static constexpr bool big = Big;
  static constexpr bool native_order = Big == (std::endian::native == std::endian::big);
};

template <class Fn>
KEEL_INLINE decltype(auto) dispatch(const config& c, Fn&& fn) {
  const bool v = c.ints == int_encoding::varint, b = c.order == byte_order::big;
  if (v) return b ? fn(format<true, true>{}) : fn(format<true, false>{});
  return b ? fn(format<false, true>{}) : fn(format<false, false>{});
}

// Integer-like types that go through the integer encoding (bool and chars excluded).
template <class T>
concept wire_integer = (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                        !std::is_same_v<T, char32_t> && !std::is_same_v<T, char16_t> &&
                        !std::is_same_v<T, wchar_t>) ||
                       std::is_same_v<T, u128> || std::is_same_v<T, i128>;

template <std::size_t N>
struct uint_of;
template <>
struct uint_of<1> {
  using type = std::uint8_t;
};
template <>
struct uint_of<2> {
  using type = std::uint16_t;
};
template <>
struct uint_of<4> {
  using type = std::uint32_t;
};
template <>
struct uint_of<8> {
  using type = std::uint64_t;
};
template <>
struct uint_of<16> {
  using type = u128;
};
template <class T>
using uint_t = typename uint_of<sizeof(T)>::type;

template <class U>
KEEL_INLINE constexpr U bswap(U v) noexcept {
  if constexpr (sizeof(U) == 1) {
    return v;
  } else if constexpr (sizeof(U) == 2) {
    return static_cast<U>(__builtin_bswap16(static_cast<std::uint16_t>(v)));
  } else if constexpr (sizeof(U) == 4) {
    return static_cast<U>(__builtin_bswap32(static_cast<std::uint32_t>(v)));
  } else if constexpr (sizeof(U) == 8) {
    return static_cast<U>(__builtin_bswap64(static_cast<std::uint64_t>(v)));
  } else {
    const auto x = static_cast<u128>(v);
    const u128 lo = __builtin_bswap64(static_cast<std::uint64_t>(x));
    const u128 hi = __builtin_bswap64(static_cast<std::uint64_t>(x >> 64));
    return static_cast<U>((lo << 64) | hi);
  }
}

// Unsigned value in the format's byte order (an involution).
template <class F, class U>
KEEL_INLINE constexpr U ordered(U v) noexcept {
  if constexpr (F::native_order)
    return v;
  else
    return bswap(v);
}

inline constexpr std::uint8_t varint_max_single = 250, tag_u16 = 251, tag_u32 = 252, tag_u64 = 253,
                              tag_u128 = 254;

template <class S>
KEEL_INLINE constexpr uint_t<S> zigzag(S v) noexcept {
  using U = uint_t<S>;
  return static_cast<U>(static_cast<U>(v) << 1) ^ static_cast<U>(v >> (sizeof(S) * 8 - 1));
}
template <class U>
KEEL_INLINE constexpr U unzigzag(U v) noexcept {
  return static_cast<U>((v >> 1) ^ static_cast<U>(U(0) - (v & 1)));
}

template <class U>
KEEL_INLINE constexpr std::size_t varint_size(U u) noexcept {
  if (u <= varint_max_single) return 1;
  if (u <= 0xFFFF) return 3;
  if (u <= 0xFFFFFFFFu) return 5;
  if constexpr (sizeof(U) > 8) {
    if (u > std::numeric_limits<std::uint64_t>::max()) return 17;
  }
  return 9;
}

// Wire size of an integer value.
template <class F, class T>
KEEL_INLINE constexpr std::size_t int_size(T v) noexcept {
  if constexpr (sizeof(T) == 1 || !F::varint) {
    return sizeof(T);
  } else if constexpr (std::is_signed_v<T> || std::is_same_v<T, i128>) {
    return varint_size(zigzag(v));
  } else {
    return varint_size(v);
  }
}

// The block copy, out of line (src/bincode/copy.cpp says why and which copy it uses).
void copy_block(void* dst, const void* src, std::size_t n) noexcept;
// copy_block's kernel for copy_kernel_min .. copy_kernel_max bytes as chosen (copy.cpp): null on
// the scalar path (the C library's memcpy); before the first choice, a function that makes it.
// Read by copy_block_direct; stored only by copy.cpp.
using copy_fn = void (*)(std::uint8_t*, const std::uint8_t*, std::size_t) noexcept;
inline constexpr std::size_t copy_kernel_min = 65, copy_kernel_max = 16384;
extern std::atomic<copy_fn> copy_kernel_chosen;
// copy_block for n > 64 without its call: the chosen kernel called from here, or memcpy.
KEEL_INLINE void copy_block_direct(std::uint8_t* dst, const std::uint8_t* src,
                                   std::size_t n) noexcept {
  if (dst == nullptr || src == nullptr) __builtin_unreachable();  // n > 64 bytes live there
  if (n <= copy_kernel_max) {
    if (const copy_fn f = copy_kernel_chosen.load(std::memory_order_relaxed)) return f(dst, src, n);
  }
  std::memcpy(dst, src, n);
}
// The instruction set whose kernel copy_block uses in its kernel range: "avx512", "avx2" or
// "scalar" (the C library's memcpy).
const char* copy_block_isa() noexcept;
// Tests and benchmarks: every thread's copies use the kernels of `which` from now on
// (`automatic`, or a set this CPU lacks: KEEL_BINCODE_ISA, else the best this CPU runs). Returns
// the set now used.
isa set_copy_block_isa(isa which) noexcept;

// A copy of at most 64 bytes without a call: two or four overlapping 16-byte moves (8-byte ones
// below 16 bytes), every load before the first store. Used by the whole-vector fast paths of
// encode() / decode_into() (A/B in docs/bincode.md, "Fast paths"). Loads first: a load that
// follows a store to the same address modulo 4 KiB waits for that store, and with the moves
// interleaved (load, store, load, ...) a source 16..48 bytes after the destination modulo 4 KiB
// made a 64-byte decode take 5 ns instead of 2.2 (memcpy, which loads first, 2.2).
KEEL_INLINE void copy_upto64(std::uint8_t* d, const std::uint8_t* s, std::size_t n) noexcept {
  struct block16 {
    std::uint8_t b[16];
  };
  if (n >= 32) {
    block16 a, b, c, e;
    std::memcpy(&a, s, 16);
    std::memcpy(&b, s + 16, 16);
    std::memcpy(&c, s + n - 32, 16);
    std::memcpy(&e, s + n - 16, 16);
    std::memcpy(d, &a, 16);
    std::memcpy(d + 16, &b, 16);
    std::memcpy(d + n - 32, &c, 16);
    std::memcpy(d + n - 16, &e, 16);
  } else if (n >= 16) {
    block16 a, b;
    std::memcpy(&a, s, 16);
    std::memcpy(&b, s + n - 16, 16);
    std::memcpy(d, &a, 16);
    std::memcpy(d + n - 16, &b, 16);
  } else if (n >= 8) {
    std::uint64_t a, b;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(d, &a, 8);
    std::memcpy(d + n - 8, &b, 8);
  } else {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  }
}

// A copy of at most 16 bytes without a call: two overlapping moves of the widest size that fits.
KEEL_INLINE void copy_upto16(std::uint8_t* d, const std::uint8_t* s, std::size_t n) noexcept {
  if (n >= 8) {
    std::uint64_t a, b;
    std::memcpy(&a, s, 8);
    std::memcpy(&b, s + n - 8, 8);
    std::memcpy(d, &a, 8);
    std::memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    std::uint32_t a, b;
    std::memcpy(&a, s, 4);
    std::memcpy(&b, s + n - 4, 4);
    std::memcpy(d, &a, 4);
    std::memcpy(d + n - 4, &b, 4);
  } else if (n >= 2) {
    std::uint16_t a, b;
    std::memcpy(&a, s, 2);
    std::memcpy(&b, s + n - 2, 2);
    std::memcpy(d, &a, 2);
    std::memcpy(d + n - 2, &b, 2);
  } else if (n == 1) {
    *d = *s;
  }
}

// ---- output ------------------------------------------------------------------------------
// An unchecked sink into memory whose size was computed first (encoded_size).
struct span_sink {
  std::uint8_t* p;
  error_code err = error_code::ok;
  // Strings: up to 16 bytes inline (two overlapping moves), longer ones through memcpy.
  KEEL_INLINE void put(const void* src, std::size_t n) noexcept {
    if (n <= 16)
      copy_upto16(p, static_cast<const std::uint8_t*>(src), n);
    else
      std::memcpy(p, src, n);
    p += n;
  }
  // Small blocks: GCC's inline copy wins; larger ones: glibc's memcpy (A/B in copy.cpp).
  KEEL_INLINE void put_block(const void* src, std::size_t n) noexcept {
    if (n <= 256)
      std::memcpy(p, src, n);
    else
      copy_block(p, src, n);
    p += n;
  }
  KEEL_INLINE void byte(std::uint8_t b) noexcept { *p++ = b; }
  template <class U>
  KEEL_INLINE void raw(U v) noexcept {
    std::memcpy(p, &v, sizeof(U));
    p += sizeof(U);
  }
  void fail(error_code c) noexcept {
    if (err == error_code::ok) err = c;
  }
};

// A buffered sink into a std::ostream; large blocks go straight through.
struct stream_sink {
  std::ostream& os;
  error_code err = error_code::ok;
  std::size_t n = 0;
  std::size_t total = 0;
  std::uint8_t buf[4096] =
      {};  // initialised: GCC 12 -O2 + ASan reports it maybe-uninitialized otherwise

  explicit stream_sink(std::ostream& o) : os(o) {}
  void flush() {
    if (n) os.write(reinterpret_cast<const char*>(buf), static_cast<std::streamsize>(n));
    total += n;
    n = 0;
    if (!os) fail(error_code::stream_error);
  }
  void put(const void* src, std::size_t len) {
    if (len > sizeof(buf) - n) {
      flush();
      if (len >= sizeof(buf)) {
        os.write(static_cast<const char*>(src), static_cast<std::streamsize>(len));
        total += len;
        if (!os) fail(error_code::stream_error);
        return;
      }
    }
    std::memcpy(buf + n, src, len);
    n += len;
  }
  void put_block(const void* src, std::size_t len) { put(src, len); }
  void byte(std::uint8_t b) {
    if (n == sizeof(buf)) flush();
    buf[n++] = b;
  }
  template <class U>
  void raw(U v) {
    put(&v, sizeof(U));
  }
  void fail(error_code c) noexcept {
    if (err == error_code::ok) err = c;
  }
};

template <class F, class U, class W>
KEEL_INLINE void put_varint(W& w, U u) {
  if (KEEL_LIKELY(u <= varint_max_single)) {
    w.byte(static_cast<std::uint8_t>(u));
  } else if (u <= 0xFFFF) {
    w.byte(tag_u16);
    w.raw(ordered<F>(static_cast<std::uint16_t>(u)));
  } else if (u <= 0xFFFFFFFFu) {
    w.byte(tag_u32);
    w.raw(ordered<F>(static_cast<std::uint32_t>(u)));
  } else if (sizeof(U) <= 8 || u <= std::numeric_limits<std::uint64_t>::max()) {
    w.byte(tag_u64);
    w.raw(ordered<F>(static_cast<std::uint64_t>(u)));
  } else {
    w.byte(tag_u128);
    w.raw(ordered<F>(static_cast<u128>(u)));
  }
}

template <class F, class T, class W>
KEEL_INLINE void put_int(W& w, T v) {
  using U = uint_t<T>;
  if constexpr (sizeof(T) == 1) {
    w.byte(static_cast<std::uint8_t>(v));
  } else if constexpr (!F::varint) {
    w.raw(ordered<F>(static_cast<U>(v)));
  } else if constexpr (std::is_signed_v<T> || std::is_same_v<T, i128>) {
    put_varint<F>(w, zigzag(v));
  } else {
    put_varint<F>(w, static_cast<U>(v));
  }
}

// ---- input -------------------------------------------------------------------------------
struct reader {
  const std::uint8_t* base;       // start of the input (offsets are relative to it)
  const std::uint8_t* p;          // next byte
  const std::uint8_t* end;        // min(end of input, base + limit)
  const std::uint8_t* input_end;  // end of input
  std::uint64_t limit;            // the config's byte limit (max: none)
  // What sequences of zero-size values may still claim, in bytes of memory, over the whole
  // decode (nested ones included): see max_zero_size_elements.
  std::size_t zero_size_budget = max_zero_size_elements;
  bool v1;
  error err{};

  reader(const std::uint8_t* data, std::size_t size, const config& c) noexcept
      : base(data),
        p(data),
        end(data + (c.limit < size ? c.limit : size)),
        input_end(data + size),
        limit(c.limit),
        v1(c.gen == generation::v1) {}

  KEEL_INLINE std::size_t remaining() const noexcept { return static_cast<std::size_t>(end - p); }
  KEEL_COLD bool fail(error_code c, const std::uint8_t* at) noexcept {
    err = {c, static_cast<std::size_t>(at - base)};
    return false;
  }
  // `n` bytes are not there: past the limit (checked first, as both crates do) or past the input.
  KEEL_COLD bool fail_need(std::size_t n) noexcept {
    const auto used = static_cast<std::uint64_t>(p - base);  // <= limit
    const bool over = limit != std::numeric_limits<std::uint64_t>::max() && n > limit - used;
    return fail(over ? error_code::limit_exceeded : error_code::unexpected_end, p);
  }
  KEEL_INLINE bool need(std::size_t n) noexcept {
    return KEEL_LIKELY(n <= remaining()) || fail_need(n);
  }
  template <class U>
  KEEL_INLINE U take_raw() noexcept {
    U v{};
    std::memcpy(&v, p, sizeof(U));
    p += sizeof(U);
    return v;
  }
};

// The varint slow path: tags 251..255. `U` is the unsigned type being decoded.
template <class F, class U>
KEEL_COLD bool get_varint_tagged(reader& r, U& out) {
  const std::uint8_t* at = r.p;
  const std::uint8_t tag = *r.p++;
  std::size_t width;
  switch (tag) {
    case tag_u16:
      width = 2;
      break;
    case tag_u32:
      width = 4;
      break;
    case tag_u64:
      width = 8;
      break;
    case tag_u128:
      width = 16;
      break;
    default:
      return r.fail(error_code::invalid_integer_type, at);
  }
  if (r.v1) {
    // 1.3.3 is value based; its 64-bit path rejects the u128 tag.
    if (sizeof(U) <= 8 && width == 16) return r.fail(error_code::invalid_integer_type, at);
  } else if (width > sizeof(U)) {
    return r.fail(error_code::invalid_integer_type, at);  // 2.0.1 is tag based
  }
  if (!r.need(width)) return false;
  u128 v{};
  switch (width) {
    case 2:
      v = ordered<F>(r.take_raw<std::uint16_t>());
      break;
    case 4:
      v = ordered<F>(r.take_raw<std::uint32_t>());
      break;
    case 8:
      v = ordered<F>(r.take_raw<std::uint64_t>());
      break;
    default:
      v = ordered<F>(r.take_raw<u128>());
      break;
  }
  if (v > static_cast<u128>(std::numeric_limits<U>::max()))
    return r.fail(error_code::invalid_integer_type, at);
  out = static_cast<U>(v);
  return true;
}

template <class F, class U>
KEEL_INLINE bool get_varint(reader& r, U& out) {
  if (!r.need(1)) return false;
  if (KEEL_LIKELY(*r.p <= varint_max_single)) {
    out = *r.p++;
    return true;
  }
  return get_varint_tagged<F>(r, out);
}

// Signed varint under 1.3.3's rules: the value is read as a 64-bit zigzag integer and must fit.
template <class F, class T>
KEEL_COLD bool get_signed_v1(reader& r, T& out) {
  const std::uint8_t* at = r.p;
  std::uint64_t z{};
  if (!get_varint<F>(r, z)) return false;
  const auto v = static_cast<std::int64_t>(unzigzag(z));
  if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
    return r.fail(error_code::invalid_integer_type, at);
  out = static_cast<T>(v);
  return true;
}

template <class F, class T>
KEEL_INLINE bool get_int(reader& r, T& out) {
  using U = uint_t<T>;
  if constexpr (sizeof(T) == 1) {
    if (!r.need(1)) return false;
    out = static_cast<T>(*r.p++);
    return true;
  } else if constexpr (!F::varint) {
    if (!r.need(sizeof(T))) return false;
    out = static_cast<T>(ordered<F>(r.take_raw<U>()));
    return true;
  } else if constexpr (std::is_signed_v<T> || std::is_same_v<T, i128>) {
    if constexpr (sizeof(T) < 8) {
      if (r.v1) {
        if (!r.need(1)) return false;
        if (*r.p <= varint_max_single) {
          out = static_cast<T>(unzigzag(static_cast<U>(*r.p++)));
          return true;
        }
        return get_signed_v1<F>(r, out);
      }
    }
    U z{};
    if (!get_varint<F>(r, z)) return false;
    out = static_cast<T>(unzigzag(z));
    return true;
  } else {
    U u{};
    if (!get_varint<F>(r, u)) return false;
    out = static_cast<T>(u);
    return true;
  }
}

// ---- UTF-8 (validation: keel::utf8_valid, keel/utf8.h: Rust's str::from_utf8 rules) --------
// Width of a UTF-8 sequence from its lead byte (Rust's utf8_char_width): 0 when invalid.
constexpr std::size_t utf8_width(std::uint8_t b) noexcept {
  return b < 0x80 ? 1 : b < 0xC2 ? 0 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF5 ? 4 : 0;
}

}  // namespace keel::bincode::detail
