// Decoding from a byte span. string_view and span<const uint8_t> (and std::byte / char spans)
// borrow the input: they stay valid as long as the input does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "keel/bincode/codec.h"

namespace keel::bincode {

namespace detail {
template <class T>
result<std::size_t> decode_general(T& out, std::span<const std::uint8_t> in, const config& c) {
  return dispatch(c, [&](auto f) -> result<std::size_t> {
    reader r(in.data(), in.size(), c);
    if (!get<decltype(f)>(r, out)) return r.err;
    const auto used = static_cast<std::size_t>(r.p - r.base);
    if (c.reject_trailing && used != in.size()) return error{error_code::trailing_bytes, used};
    return used;
  });
}

// The fast path of decode_into() a std::vector of memcpy-able elements under a fixint config in
// the machine's byte order, with no limit below the input size: length check, resize, one copy
// (inline up to 64 bytes). False (nothing changed) when it does not apply or the input is bad:
// the general path then decodes and reports the error.
template <class T>
KEEL_BINCODE_INLINE bool decode_block_fast(T& out, std::span<const std::uint8_t> in,
                                           const config& c, std::size_t& used) {
  if constexpr (length_prefixed_block<T>::value) {
    using E = typename length_prefixed_block<T>::element;
    if constexpr (length_prefixed_block<T>::owning && memcpy_decodable<native_fixint, E>) {
      if (!is_native_fixint(c) || in.size() < 8 || c.limit < in.size()) return false;
      std::uint64_t len;
      std::memcpy(&len, in.data(), 8);
      if (len > (in.size() - 8) / sizeof(E)) return false;
      const std::size_t bytes = static_cast<std::size_t>(len) * sizeof(E);
      if (c.reject_trailing && 8 + bytes != in.size()) return false;
      if (out.size() != len) out.resize(static_cast<std::size_t>(len));  // resize may not inline
      auto* dst = reinterpret_cast<std::uint8_t*>(out.data());
      if (bytes <= 64)
        copy_upto64(dst, in.data() + 8, bytes);
      else
        copy_block(dst, in.data() + 8, bytes);
      used = 8 + bytes;
      return true;
    }
  }
  (void)out, (void)in, (void)c, (void)used;
  return false;
}
}  // namespace detail

// Decodes into an existing object (reusing its vectors' and strings' capacity); returns the bytes
// the value used. On error `out` holds a partly decoded value.
template <class T>
result<std::size_t> decode_into(T& out, std::span<const std::uint8_t> in,
                                const config& c = standard()) {
  if (std::size_t n{}; detail::decode_block_fast(out, in, c, n)) return n;
  return detail::decode_general(out, in, c);
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
