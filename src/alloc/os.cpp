// SPDX-License-Identifier: MIT
// Every operating-system call of the allocator: mmap, munmap, madvise, mprotect, mremap, the
// clock, randomness and the abort message. Nothing here allocates.
#include <errno.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "alloc/internal.h"
#include "common/cpu_hints.h"

namespace keel::alloc::detail {

void* os_map(std::size_t size) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// Maps `size` bytes whose start is a multiple of `align` (a power of two >= the OS page): maps
// size + align and unmaps the misaligned head and the tail.
void* os_map_aligned(std::size_t size, std::size_t align) {
  if (size > (std::size_t{1} << kAddressBits) || align > (std::size_t{1} << 40)) return nullptr;
  const std::size_t over = size + align;
  auto* raw = static_cast<std::uint8_t*>(os_map(over));
  if (raw == nullptr) return nullptr;
  const auto a = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (a + align - 1) & ~(align - 1);
  const std::size_t head = aligned - a;
  const std::size_t tail = over - head - size;
  if (head) munmap(raw, head);
  if (tail) munmap(reinterpret_cast<std::uint8_t*>(aligned) + size, tail);
  return reinterpret_cast<void*>(aligned);
}

void os_unmap(void* p, std::size_t size) { munmap(p, size); }

void os_purge(void* p, std::size_t size) {
  madvise(p, size, MADV_DONTNEED);
  g_stats.purged.fetch_add(size, std::memory_order_relaxed);
}

bool os_protect(void* p, std::size_t size, bool accessible) {
  return mprotect(p, size, accessible ? PROT_READ | PROT_WRITE : PROT_NONE) == 0;
}

// Moves or resizes a mapping without copying. With `fixed`, the pages move to `fixed` (a range
// the caller reserved); without, the mapping grows or shrinks in place or fails.
void* os_remap(void* old, std::size_t old_size, std::size_t new_size, void* fixed) {
  void* p = fixed ? mremap(old, old_size, new_size, MREMAP_MAYMOVE | MREMAP_FIXED, fixed)
                  : mremap(old, old_size, new_size, 0);
  return p == MAP_FAILED ? nullptr : p;
}

std::uint64_t os_now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000 +
         static_cast<std::uint64_t>(ts.tv_nsec) / 1000000;
}

std::uint64_t os_random() {
  std::uint64_t r = 0;
  if (getrandom(&r, sizeof r, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof r)) {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    r = static_cast<std::uint64_t>(ts.tv_nsec) ^ (reinterpret_cast<std::uintptr_t>(&r) << 16) ^
        keel::detail::cycle_counter();
  }
  r ^= r >> 31;
  r *= 0x9E3779B97F4A7C15ull;
  return r | 1;
}

std::uint64_t os_thread_id() { return static_cast<std::uint64_t>(syscall(SYS_gettid)); }

void os_write(const char* s) {
  std::size_t n = std::strlen(s);
  while (n > 0) {
    const ssize_t w = write(STDERR_FILENO, s, n);
    if (w <= 0) {
      if (w < 0 && errno == EINTR) continue;
      return;
    }
    s += w;
    n -= static_cast<std::size_t>(w);
  }
}

void os_fatal(const char* what, const void* p) {
  char buf[160];
  const char* hex = "0123456789abcdef";
  std::size_t n = 0;
  const char* prefix = "keel::alloc: ";
  for (const char* c = prefix; *c && n < 100; ++c) buf[n++] = *c;
  for (const char* c = what; *c && n < 120; ++c) buf[n++] = *c;
  const char* mid = " (pointer 0x";
  for (const char* c = mid; *c; ++c) buf[n++] = *c;
  const auto v = reinterpret_cast<std::uintptr_t>(p);
  bool started = false;
  for (int shift = 60; shift >= 0; shift -= 4) {
    const unsigned d = (v >> shift) & 15;
    if (d || started || shift == 0) {
      buf[n++] = hex[d];
      started = true;
    }
  }
  buf[n++] = ')';
  buf[n++] = '\n';
  buf[n] = 0;
  os_write(buf);
  std::abort();
}

}  // namespace keel::alloc::detail
