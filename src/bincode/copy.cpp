// Bulk copies of contiguous blocks (vectors of u8 / fixint integers / floats), out of line on
// purpose: inlined into the decoder, GCC 12 expands a memcpy of a run-time multiple-of-8 size into
// an 8-bytes-per-iteration loop. A/B (same build, user CPU time, 8M decodes of a 64 B Vec<u64>):
// inline 0.86 s, out of line 0.56 s; encoding 2 KiB blocks: 0.14 s vs 0.11 s. Blocks of at most
// 64 bytes in the whole-vector fast paths are copied inline (copy_upto64, wire.h).
//
// The copy: the C library's memcpy, except for 2113 .. 16384 bytes where the CPU has AVX-512F:
// the kernel of copy_kernel.h (chosen once, at the first call in that range). Same-binary A/B,
// `keel bench bincode` 16 KiB cases (keel / memcpy, 3 alternating runs of 9 rounds, load average
// ~10): memcpy 0.91..1.05, kernel 1.37..1.74.
//
// KEEL_BINCODE_ISA=scalar forces the C library's memcpy everywhere (=avx512 asks for the kernel,
// used only where the CPU has it); read once, at that first call.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "bincode/copy_kernel.h"
#include "keel/bincode/detail/wire.h"

namespace keel::bincode::detail {
namespace {

using copy_fn = void (*)(void*, const void*, std::size_t) noexcept;

void copy_libc(void* dst, const void* src, std::size_t n) noexcept { std::memcpy(dst, src, n); }

copy_fn pick_copy() noexcept {
  __builtin_cpu_init();
  const char* want = std::getenv("KEEL_BINCODE_ISA");  // NOLINT(concurrency-mt-unsafe): read once
  if (want && std::strcmp(want, "scalar") == 0) return copy_libc;
  return __builtin_cpu_supports("avx512f") ? copy_kernel_avx512 : copy_libc;
}

void copy_first(void* dst, const void* src, std::size_t n) noexcept;
std::atomic<copy_fn> chosen_copy{copy_first};

// Every thread that races here picks the same function.
void copy_first(void* dst, const void* src, std::size_t n) noexcept {
  const copy_fn f = pick_copy();
  chosen_copy.store(f, std::memory_order_relaxed);
  f(dst, src, n);
}

}  // namespace

const char* copy_block_isa() noexcept {
  copy_fn f = chosen_copy.load(std::memory_order_relaxed);
  if (f == copy_first) {
    f = pick_copy();
    chosen_copy.store(f, std::memory_order_relaxed);
  }
  return f == copy_libc ? "scalar" : "avx512";
}

void copy_block(void* dst, const void* src, std::size_t n) noexcept {
  if (n - copy_kernel_min <= copy_kernel_max - copy_kernel_min)
    chosen_copy.load(std::memory_order_relaxed)(dst, src, n);
  else
    std::memcpy(dst, src, n);
}

}  // namespace keel::bincode::detail
