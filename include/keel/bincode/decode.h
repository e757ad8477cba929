// Decoding from a byte span. string_view and span<const uint8_t> (and std::byte / char spans)
// borrow the input: they stay valid as long as the input does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/bincode/codec.h"

namespace keel::bincode {

// Decodes into an existing object (reusing its vectors' and strings' capacity); returns the bytes
// the value used. On error `out` holds a partly decoded value.
template <class T>
result<std::size_t> decode_into(T& out, std::span<const std::uint8_t> in,
                                const config& c = standard()) {
  return detail::dispatch(c, [&](auto f) -> result<std::size_t> {
    detail::reader r(in.data(), in.size(), c);
    if (!detail::get<decltype(f)>(r, out)) return r.err;
    const auto used = static_cast<std::size_t>(r.p - r.base);
    if (c.reject_trailing && used != in.size()) return error{error_code::trailing_bytes, used};
    return used;
  });
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
