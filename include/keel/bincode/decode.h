// SPDX-License-Identifier: MIT
// Decoding from a byte span. string_view and span<const uint8_t> (and std::byte / char spans)
// borrow the input: they stay valid as long as the input does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>

#include "keel/bincode/codec.h"
#include "keel/detail/attributes.h"

namespace keel::bincode {

namespace detail {
// Every decode's allocations (vectors, strings, maps, a user codec's) happen under one of these
// catches: a failed allocation is the error out_of_memory at the current input position, never
// an exception out of a decode.
template <class T>
size_result decode_general(T& out, std::span<const std::uint8_t> in, const config& c) {
  return dispatch(c, [&](auto f) -> size_result {
    reader r(in.data(), in.size(), c);
    try {
      if (!get<decltype(f)>(r, out)) return r.err;
    } catch (const std::bad_alloc&) {
      return error{error_code::out_of_memory, static_cast<std::size_t>(r.p - r.base)};
    }
    const auto used = static_cast<std::size_t>(r.p - r.base);
    if (c.reject_trailing && used != in.size()) return error{error_code::trailing_bytes, used};
    return used;
  });
}

// The whole-vector fast path of decode_into(): a std::vector of memcpy-able elements under a
// fixint config in the machine's byte order.
template <class T>
inline constexpr bool decode_block_fast = [] {
  if constexpr (length_prefixed_block<T>::value) {
    if constexpr (length_prefixed_block<T>::owning)
      return memcpy_decodable<native_fixint, typename length_prefixed_block<T>::element>;
  }
  return false;
}();

// The element count of a well-formed fast-path input, or npos (bad, truncated, over the limit,
// trailing bytes rejected): the general path then decodes and reports the error.
template <class E>
KEEL_INLINE std::size_t block_count(std::span<const std::uint8_t> in, const config& c) noexcept {
  if (!is_native_fixint(c) || in.size() < 8 || c.limit < in.size()) return npos;
  std::uint64_t len;
  std::memcpy(&len, in.data(), 8);
  if (len > (in.size() - 8) / sizeof(E)) return npos;
  if (c.reject_trailing && 8 + len * sizeof(E) != in.size()) return npos;
  return static_cast<std::size_t>(len);
}

// The rest of decode_into() for a fast-path type, out of line so that the inline part needs no
// saved registers: an `out` of another size (resized), or the general path.
template <class T>
[[gnu::noinline]] size_result decode_block_other(T& out, std::span<const std::uint8_t> in,
                                                 config c) {
  using E = typename length_prefixed_block<T>::element;
  const std::size_t len = block_count<E>(in, c);
  if (len == npos) return decode_general(out, in, c);
  try {
    out.resize(len);
  } catch (const std::bad_alloc&) {
    return error{error_code::out_of_memory, 0};
  }
  const std::size_t bytes = len * sizeof(E);
  copy_block(out.data(), in.data() + 8, bytes);
  return 8 + bytes;
}
}  // namespace detail

// Decodes into an existing object (reusing its vectors' and strings' capacity); returns the bytes
// the value used. On error `out` holds a partly decoded value. A std::vector of memcpy-able
// elements under a fixint config in the machine's byte order, decoded into a vector of the right
// size already (a reused object), is a few checks and one copy (inline up to 64 bytes).
template <class T>
KEEL_INLINE size_result decode_into(T& out, std::span<const std::uint8_t> in,
                                    const config& c = standard()) {
  if constexpr (detail::decode_block_fast<T>) {
    using E = typename detail::length_prefixed_block<T>::element;
    const std::size_t len = detail::block_count<E>(in, c);
    if (KEEL_LIKELY(len != npos && out.size() == len)) {
      // The size from out (equal to len here), not from len: the copy's size then waits on one
      // load (out's end) instead of two in a chain (the input's pointer, then the length there).
      const auto bytes =
          static_cast<std::size_t>(reinterpret_cast<const std::uint8_t*>(out.data() + out.size()) -
                                   reinterpret_cast<const std::uint8_t*>(out.data()));
      auto* dst = reinterpret_cast<std::uint8_t*>(out.data());
      if (bytes <= 64)
        detail::copy_upto64(dst, in.data() + 8, bytes);
      else
        detail::copy_block_direct(dst, in.data() + 8, bytes);
      return 8 + bytes;
    }
    return detail::decode_block_other(out, in, c);
  } else {
    return detail::decode_general(out, in, c);
  }
}

// Decodes a new T (default-constructed first).
template <class T>
result<T> decode(std::span<const std::uint8_t> in, const config& c = standard()) {
  T v{};
  auto r = decode_into(v, in, c);
  if (!r) return r.error();
  return v;
}

}  // namespace keel::bincode
