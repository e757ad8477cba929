// SPDX-License-Identifier: MIT
// Bulk copies of contiguous blocks (vectors of u8 / fixint integers / floats), out of line on
// purpose: inlined into the decoder, GCC 12 expands a memcpy of a run-time multiple-of-8 size into
// an 8-bytes-per-iteration loop. A/B (same build, user CPU time, 8M decodes of a 64 B Vec<u64>):
// inline 0.86 s, out of line 0.56 s; encoding 2 KiB blocks: 0.14 s vs 0.11 s. Blocks of at most
// 64 bytes in the whole-vector fast paths are copied inline (copy_upto64, wire.h).
//
// The copy: the C library's memcpy, except for 65 .. 16384 bytes where the CPU has AVX-512F: the
// kernels of copy_kernel.h (chosen once, at the first call in that range). copy_block_prefixed
// (encode: the u64 length, then the payload) writes the length inside the first vector there.
// Why the kernel: in a same-binary A/B of the `keel bench bincode` 16 KiB cases (keel / memcpy,
// 3 alternating runs of 9 rounds) the C library's memcpy measured 0.91..1.05, the kernel
// 1.37..1.74; the range down to 65 bytes: docs/bincode.md, "Fast paths".
//
// KEEL_BINCODE_ISA (the options table, src/common/options.h) is read once, at that first call.
#include <atomic>
#include <cstring>

#include "bincode/copy_kernel.h"
#include "common/options.h"
#include "keel/bincode/detail/wire.h"

namespace keel::bincode::detail {
namespace {

enum choice : int { unpicked, libc, avx512 };

// KEEL_BINCODE_ISA=scalar or avx2 (there is no AVX2 copy kernel) takes the C library's memcpy;
// otherwise the kernels run where the CPU has AVX-512F.
int pick_isa() noexcept {
  const char* want = keel::detail::option_value("KEEL_BINCODE_ISA");
  const isa forced = want ? parse_isa(want) : isa::automatic;
  if (forced == isa::scalar || forced == isa::avx2) return libc;
  return cpu().avx512f ? avx512 : libc;
}

// Every thread that races on the first call picks the same value.
std::atomic<int> chosen{unpicked};

int chosen_isa() noexcept {
  int c = chosen.load(std::memory_order_relaxed);
  if (c == unpicked) {
    c = pick_isa();
    chosen.store(c, std::memory_order_relaxed);
  }
  return c;
}

inline bool in_kernel_range(std::size_t n) noexcept {
  return n - copy_kernel_min <= copy_kernel_max - copy_kernel_min;
}

[[gnu::cold, gnu::noinline]] void copy_first(void* dst, const void* src, std::size_t n) noexcept {
  (void)chosen_isa();
  copy_block(dst, src, n);
}
[[gnu::cold, gnu::noinline]] void copy_prefixed_first(void* dst, std::uint64_t len, const void* src,
                                                      std::size_t n) noexcept {
  (void)chosen_isa();
  copy_block_prefixed(dst, len, src, n);
}

}  // namespace

const char* copy_block_isa() noexcept { return chosen_isa() == avx512 ? "avx512" : "scalar"; }

// Every path ends in a tail call: no stack frame.
void copy_block(void* dst, const void* src, std::size_t n) noexcept {
  if (in_kernel_range(n)) {
    const int c = chosen.load(std::memory_order_relaxed);
    if (c == avx512) return copy_kernel_avx512(dst, src, n);
    if (c == unpicked) return copy_first(dst, src, n);
  }
  std::memcpy(dst, src, n);
}

void copy_block_prefixed(void* dst, std::uint64_t len, const void* src, std::size_t n) noexcept {
  if (in_kernel_range(n)) {
    const int c = chosen.load(std::memory_order_relaxed);
    if (c == avx512) return copy_prefixed_kernel_avx512(dst, len, src, n);
    if (c == unpicked) return copy_prefixed_first(dst, len, src, n);
  }
  std::memcpy(dst, &len, 8);
  copy_block(static_cast<std::uint8_t*>(dst) + 8, src, n);
}

}  // namespace keel::bincode::detail
