// SPDX-License-Identifier: MIT
// Bulk copies of contiguous blocks (vectors of u8 / fixint integers / floats), out of line on
// purpose: inlined into the decoder, GCC 12 expands a memcpy of a run-time multiple-of-8 size into
// an 8-bytes-per-iteration loop. A/B (same build, user CPU time, 8M decodes of a 64 B Vec<u64>):
// inline 0.86 s, out of line 0.56 s; encoding 2 KiB blocks: 0.14 s vs 0.11 s. Blocks of at most
// 64 bytes in the whole-vector fast paths are copied inline (copy_upto64, wire.h).
//
// The copy: for copy_kernel_min .. copy_kernel_max bytes the kernels of copy_kernel.h for the
// chosen instruction set (AVX-512F or AVX2), the C library's memcpy outside that range and on
// the scalar path. Why the kernels: docs/bincode.md, "Fast paths".
//
// The set: KEEL_BINCODE_ISA (the options table, src/common/options.h) if this CPU runs it, else
// the best it runs; picked once, at the first call in the kernels' range (set_copy_block_isa
// replaces it, for tests and benchmarks).
#include <atomic>
#include <cstring>

#include "bincode/copy_kernel.h"
#include "common/options.h"
#include "keel/bincode/detail/wire.h"

namespace keel::bincode::detail {
namespace {

void copy_first(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) noexcept;

// The chosen kernels; until the first call, a function that chooses them. Every thread that races
// on the first call stores the same values.
std::atomic<isa> chosen{isa::automatic};

// The scalar path: the C library's memcpy (a tail call).
void libc_copy(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) noexcept {
  std::memcpy(dst, src, n);
}
// The copy function of a set: its kernel, or libc_copy.
copy_fn kernel_of(isa which) noexcept {
  switch (which) {
#if defined(__x86_64__)
    case isa::avx512:
      return copy_kernel_avx512;
    case isa::avx2:
      return copy_kernel_avx2;
#endif
    default:
      return libc_copy;
  }
}

isa use(isa which) noexcept {
  if (which == isa::automatic || !isa_supported(which))
    which = keel::detail::choose_isa("KEEL_BINCODE_ISA");
  const copy_fn k = kernel_of(which);
  if (k == libc_copy) which = isa::scalar;  // a set without a copy kernel (neon): memcpy
  copy_kernel_chosen.store(k == libc_copy ? nullptr : k, std::memory_order_relaxed);
  chosen.store(which, std::memory_order_relaxed);
  return which;
}

[[gnu::cold, gnu::noinline]] void copy_first(std::uint8_t* dst, const std::uint8_t* src,
                                             std::size_t n) noexcept {
  kernel_of(use(isa::automatic))(dst, src, n);
}

inline bool in_kernel_range(std::size_t n) noexcept {
  return n - copy_kernel_min <= copy_kernel_max - copy_kernel_min;
}

}  // namespace

std::atomic<copy_fn> copy_kernel_chosen{copy_first};

const char* copy_block_isa() noexcept {
  isa c = chosen.load(std::memory_order_relaxed);
  if (c == isa::automatic) c = use(isa::automatic);
  return isa_name(c);
}

isa set_copy_block_isa(isa which) noexcept { return use(which); }

// Every path ends in a tail call: no stack frame.
void copy_block(void* dst, const void* src, std::size_t n) noexcept {
  if (in_kernel_range(n)) {
    if (const copy_fn f = copy_kernel_chosen.load(std::memory_order_relaxed))
      return f(static_cast<std::uint8_t*>(dst), static_cast<const std::uint8_t*>(src), n);
  }
  std::memcpy(dst, src, n);
}

}  // namespace keel::bincode::detail
