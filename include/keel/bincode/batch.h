// SPDX-License-Identifier: MIT
// Batches: many values encoded into one contiguous buffer (sizes computed, offsets prefix-summed,
// slices filled in parallel) or into separate buffers, and batches decoded in parallel — on a
// keel::pool::thread_pool, or on the calling thread alone with keel::bincode::serial.
//
//   keel::pool::thread_pool pool(2);
//   kb::buffer out; std::vector<std::size_t> offsets;
//   auto st = kb::encode_batch(pool, std::span<const trade>(trades), out, offsets, kb::standard());
//   // value i is out[offsets[i] .. offsets[i+1])
//   std::vector<trade> back;
//   st = kb::decode_batch(pool, out, offsets, back, kb::standard());
//
// Every function returns a batch_status: ok(), or the lowest failing index and its error (the
// error's offset is relative to that value's bytes).
//
// Not part of the keel/bincode.h umbrella: include this header and link keel::bincode_batch (which
// brings keel::pool).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <vector>

#include "keel/bincode/codec.h"
#include "keel/bincode/decode.h"
#include "keel/bincode/encode.h"
#include "keel/pool/parallel.h"
#include "keel/pool/thread_pool.h"

namespace keel::bincode {

// Runs a batch on the calling thread only.
struct serial_t {};
inline constexpr serial_t serial{};

struct batch_status {
  std::size_t failed = npos;  // lowest index that failed, npos when none did
  bincode::error error{};
  bool ok() const noexcept { return failed == npos; }
};

namespace detail {

inline void for_each_index(serial_t, std::size_t n, const auto& f) {
  for (std::size_t i = 0; i < n; ++i) f(i);
}
inline void for_each_index(pool::thread_pool& p, std::size_t n, const auto& f) {
  pool::parallel_for(p, 0, n, f);
}

// outs.resize(n); false when that allocation fails (decode_batch then reports out_of_memory).
template <class T>
bool resize_outputs(std::vector<T>& outs, std::size_t n) {
  try {
    outs.resize(n);
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

// The lowest failing index, kept across threads.
struct first_failure {
  std::atomic<std::size_t> index{npos};
  void note(std::size_t i) noexcept {
    std::size_t cur = index.load(std::memory_order_relaxed);
    while (i < cur && !index.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {
    }
  }
};

}  // namespace detail

// Encodes values back to back into `out` (its contents replaced, its capacity reused); offsets gets
// n + 1 entries: value i occupies [offsets[i], offsets[i + 1]).
template <class Exec, class T, class A>
batch_status encode_batch(Exec&& exec, std::span<const T> values, std::vector<std::uint8_t, A>& out,
                          std::vector<std::size_t>& offsets, const config& c = standard()) {
  const std::size_t n = values.size();
  offsets.resize(n + 1);
  return detail::dispatch(c, [&](auto f) {
    using F = decltype(f);
    detail::for_each_index(exec, n,
                           [&](std::size_t i) { offsets[i + 1] = detail::size_of<F>(values[i]); });
    offsets[0] = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (detail::over_encode_limit(c, offsets[i + 1]))
        return batch_status{i, {error_code::limit_exceeded, offsets[i + 1]}};
      offsets[i + 1] += offsets[i];
    }
    out.resize(offsets[n]);
    detail::first_failure bad;
    std::uint8_t* base = out.data();
    detail::for_each_index(exec, n, [&](std::size_t i) {
      detail::span_sink w{base + offsets[i]};
      detail::put<F>(w, values[i]);
      if (w.err != error_code::ok) bad.note(i);
    });
    const std::size_t i = bad.index.load();
    if (i == npos) return batch_status{};
    detail::span_sink w{base + offsets[i]};
    detail::put<F>(w, values[i]);
    return batch_status{i, {w.err, 0}};
  });
}

// Encodes each value into its own buffer (outs resized to values.size(); their capacity reused).
template <class Exec, class T, class B>
batch_status encode_batch(Exec&& exec, std::span<const T> values, std::vector<B>& outs,
                          const config& c = standard()) {
  outs.resize(values.size());
  detail::first_failure bad;
  detail::for_each_index(exec, values.size(), [&](std::size_t i) {
    if (!encode(values[i], outs[i], c)) bad.note(i);
  });
  const std::size_t i = bad.index.load();
  if (i == npos) return {};
  return {i, encode(values[i], outs[i], c).error()};
}

// Decodes inputs[i] into outs[i] (outs resized; existing elements reused). Each input must hold
// exactly one value: bytes after it are trailing_bytes.
template <class Exec, class T, class In>
batch_status decode_batch(Exec&& exec, std::span<const In> inputs, std::vector<T>& outs,
                          const config& c = standard()) {
  if (!detail::resize_outputs(outs, inputs.size())) return {0, {error_code::out_of_memory, 0}};
  const config strict = c.reject_trailing_bytes();
  detail::first_failure bad;
  detail::for_each_index(exec, inputs.size(), [&](std::size_t i) {
    if (!decode_into(outs[i], std::span<const std::uint8_t>(inputs[i]), strict)) bad.note(i);
  });
  const std::size_t i = bad.index.load();
  if (i == npos) return {};
  return {i, decode_into(outs[i], std::span<const std::uint8_t>(inputs[i]), strict).error()};
}

// Decodes a contiguous batch made by encode_batch: value i from bytes[offsets[i], offsets[i + 1]).
template <class Exec, class T>
batch_status decode_batch(Exec&& exec, std::span<const std::uint8_t> bytes,
                          std::span<const std::size_t> offsets, std::vector<T>& outs,
                          const config& c = standard()) {
  const std::size_t n = offsets.empty() ? 0 : offsets.size() - 1;
  for (std::size_t i = 0; i < n; ++i)  // offsets must be ascending and inside the bytes
    if (offsets[i] > offsets[i + 1] || offsets[i + 1] > bytes.size())
      return {i, {error_code::unexpected_end, 0}};
  if (!detail::resize_outputs(outs, n)) return {0, {error_code::out_of_memory, 0}};
  const config strict = c.reject_trailing_bytes();
  auto item = [&](std::size_t i) { return bytes.subspan(offsets[i], offsets[i + 1] - offsets[i]); };
  detail::first_failure bad;
  detail::for_each_index(exec, n, [&](std::size_t i) {
    if (!decode_into(outs[i], item(i), strict)) bad.note(i);
  });
  const std::size_t i = bad.index.load();
  if (i == npos) return {};
  return {i, decode_into(outs[i], item(i), strict).error()};
}

}  // namespace keel::bincode
