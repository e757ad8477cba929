// SPDX-License-Identifier: MIT
// Encoding: the size of a value, and the value into a reused std::vector, a fixed buffer or a
// std::ostream. Every function takes a config (default: bincode 2 `standard()`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <span>
#include <vector>

#include "keel/bincode/codec.h"
#include "keel/detail/attributes.h"

namespace keel::bincode {

// Bytes `v` takes under `c`, without encoding it.
template <class T>
std::size_t encoded_size(const T& v, const config& c = standard()) {
  return detail::dispatch(c, [&](auto f) { return detail::size_of<decltype(f)>(v); });
}

namespace detail {
template <class F, class T>
size_result encode_exact(const T& v, std::uint8_t* out, std::size_t n) {
  span_sink w{out};
  put<F>(w, v);
  if (w.err != error_code::ok) return error{w.err, 0};
  return n;
}
inline bool over_encode_limit(const config& c, std::size_t n) {
  return c.gen == generation::v1 && n > c.limit;  // 1.3.3 checks its limit when serialising too
}
}  // namespace detail

namespace detail {
template <class T, class A>
size_result encode_general(const T& v, std::vector<std::uint8_t, A>& out, const config& c) {
  return dispatch(c, [&](auto f) -> size_result {
    using F = decltype(f);
    const std::size_t n = size_of<F>(v);
    if (over_encode_limit(c, n)) return error{error_code::limit_exceeded, n};
    out.resize(n);
    return encode_exact<F>(v, out.data(), n);
  });
}

// The whole-vector fast path of encode() into a vector: a vector/span of memcpy-able elements
// under a fixint config in the machine's byte order.
template <class T>
inline constexpr bool encode_block_fast = [] {
  if constexpr (length_prefixed_block<T>::value)
    return memcpy_encodable<native_fixint, typename length_prefixed_block<T>::element>;
  else
    return false;
}();

// The u64 length then the payload, into p (8 + bytes long): the length stored by itself, then
// the payload copied as decode_into copies (docs/bincode.md, "Fast paths", says why not the
// length inside the copy's first vector).
KEEL_INLINE void put_length_prefixed_block(std::uint8_t* p, const void* src, std::size_t count,
                                           std::size_t bytes) noexcept {
  const std::uint64_t len = count;
  if (bytes <= 64) {
    copy_upto64(p + 8, static_cast<const std::uint8_t*>(src), bytes);
    std::memcpy(p, &len, 8);  // after the copy's loads (see copy_upto64)
  } else {
    std::memcpy(p, &len, 8);
    copy_block_direct(p + 8, static_cast<const std::uint8_t*>(src), bytes);
  }
}

// The rest of encode() for a fast-path type, out of line so that the inline part needs no saved
// registers: an `out` of another size but enough capacity (resized, no reallocation; with
// keel::bincode::buffer no zero fill), or the general path (other configs, no capacity).
template <class T, class A>
[[gnu::noinline]] size_result encode_block_other(const T& v, std::vector<std::uint8_t, A>& out,
                                                 config c) {
  const std::size_t bytes = v.size() * sizeof(typename length_prefixed_block<T>::element);
  const std::size_t n = 8 + bytes;
  if (!is_native_fixint(c) || n > out.capacity() || over_encode_limit(c, n))
    return encode_general(v, out, c);
  out.resize(n);
  put_length_prefixed_block(out.data(), v.data(), v.size(), bytes);
  return n;
}
}  // namespace detail

// Replaces `out`'s contents with the encoding of `v`, reusing its capacity; returns the size.
// Nothing is zero-filled when `out` already had at least that many bytes, or when its allocator
// default-initialises (keel::bincode::buffer). A vector/span of memcpy-able elements under a
// fixint config in the machine's byte order, into an `out` of the right size already (a reused
// buffer), is a few checks, the length and one copy (inline up to 64 bytes).
template <class T, class A>
KEEL_INLINE size_result encode(const T& v, std::vector<std::uint8_t, A>& out,
                               const config& c = standard()) {
  if constexpr (detail::encode_block_fast<T>) {
    const std::size_t bytes = v.size() * sizeof(typename detail::length_prefixed_block<T>::element);
    // No vector or span holds more bytes than that (and GCC then knows 8 + bytes does not wrap).
    if (bytes > static_cast<std::size_t>(PTRDIFF_MAX)) __builtin_unreachable();
    const std::size_t n = 8 + bytes;
    if (KEEL_LIKELY(detail::is_native_fixint(c) && out.size() == n &&
                    !detail::over_encode_limit(c, n))) {
      detail::put_length_prefixed_block(out.data(), v.data(), v.size(), bytes);
      return n;
    }
    return detail::encode_block_other(v, out, c);
  } else {
    return detail::encode_general(v, out, c);
  }
}

// Appends the encoding of `v` to `out`; returns the bytes added.
template <class T, class A>
size_result encode_append(const T& v, std::vector<std::uint8_t, A>& out,
                          const config& c = standard()) {
  return detail::dispatch(c, [&](auto f) -> size_result {
    using F = decltype(f);
    const std::size_t n = detail::size_of<F>(v), old = out.size();
    if (detail::over_encode_limit(c, n)) return error{error_code::limit_exceeded, n};
    out.resize(old + n);
    auto r = detail::encode_exact<F>(v, out.data() + old, n);
    if (!r) out.resize(old);
    return r;
  });
}

// Encodes into a fixed buffer; buffer_too_small (offset = bytes needed) when it does not fit.
template <class T>
size_result encode(const T& v, std::span<std::uint8_t> out, const config& c = standard()) {
  return detail::dispatch(c, [&](auto f) -> size_result {
    using F = decltype(f);
    const std::size_t n = detail::size_of<F>(v);
    if (detail::over_encode_limit(c, n)) return error{error_code::limit_exceeded, n};
    if (n > out.size()) return error{error_code::buffer_too_small, n};
    return detail::encode_exact<F>(v, out.data(), n);
  });
}

// Writes the encoding of `v` to a stream (buffered 4 KiB at a time; large blocks written directly).
// Returns the bytes written; stream_error when the stream fails.
template <class T>
size_result encode(const T& v, std::ostream& os, const config& c = standard()) {
  return detail::dispatch(c, [&](auto f) -> size_result {
    using F = decltype(f);
    if (c.gen == generation::v1 && c.has_limit()) {
      const std::size_t n = detail::size_of<F>(v);
      if (n > c.limit) return error{error_code::limit_exceeded, n};
    }
    detail::stream_sink w(os);
    detail::put<F>(w, v);
    w.flush();
    if (w.err != error_code::ok) return error{w.err, w.total};
    return w.total;
  });
}

// A new vector with the encoding of `v`.
template <class T>
result<std::vector<std::uint8_t>> encode_to_vector(const T& v, const config& c = standard()) {
  std::vector<std::uint8_t> out;
  auto r = encode(v, out, c);
  if (!r) return r.error();
  return out;
}

}  // namespace keel::bincode
