// SPDX-License-Identifier: MIT
// Replacing malloc: the glibc allocation surface (malloc ... mallinfo2, the __libc_* aliases) and
// every C++ operator new/delete, all on keel. Compiled into libkeel_malloc.so (LD_PRELOAD) and,
// with the CMake option KEEL_ALLOC_OVERRIDE=ON, into the keel::alloc library itself.
#include <errno.h>
#include <malloc.h>

#include <cstring>
#include <new>

#include "alloc/fast.h"
#include "keel/alloc/api.h"

using namespace keel::alloc::detail;

#define KEEL_EXPORT extern "C" __attribute__((visibility("default")))

KEEL_EXPORT void* malloc(size_t size) { return malloc_fast(size); }
KEEL_EXPORT void free(void* p) { free_fast(p); }
KEEL_EXPORT void cfree(void* p) { free_fast(p); }
KEEL_EXPORT void* calloc(size_t n, size_t size) { return keel_calloc(n, size); }
KEEL_EXPORT void* realloc(void* p, size_t size) { return realloc_impl(p, size); }
KEEL_EXPORT void* reallocarray(void* p, size_t n, size_t size) {
  return keel_reallocarray(p, n, size);
}
KEEL_EXPORT void* memalign(size_t alignment, size_t size) { return keel_memalign(alignment, size); }
KEEL_EXPORT int posix_memalign(void** out, size_t alignment, size_t size) {
  return keel_posix_memalign(out, alignment, size);
}
KEEL_EXPORT void* aligned_alloc(size_t alignment, size_t size) {
  return keel_aligned_alloc(alignment, size);
}
KEEL_EXPORT void* valloc(size_t size) { return keel_valloc(size); }
KEEL_EXPORT void* pvalloc(size_t size) { return keel_pvalloc(size); }
KEEL_EXPORT size_t malloc_usable_size(void* p) { return keel_malloc_usable_size(p); }
KEEL_EXPORT int malloc_trim(size_t pad) { return keel_malloc_trim(pad); }

KEEL_EXPORT struct mallinfo2 mallinfo2(void) {
  const keel_alloc_info i = keel_alloc_info_get();
  struct mallinfo2 m;
  std::memset(&m, 0, sizeof m);
  m.arena = i.mapped;  // segment memory
  m.ordblks = i.segments;
  m.hblks = i.huge_count;
  m.hblkhd = i.huge_mapped;
  m.uordblks = i.in_pages + i.huge_mapped;  // assigned to blocks (page granularity)
  m.fordblks = i.mapped - i.in_pages;       // mapped, not assigned
  m.usmblks = i.peak_mapped;
  return m;
}

KEEL_EXPORT struct mallinfo mallinfo(void) {
  const struct mallinfo2 m2 = mallinfo2();
  auto clamp = [](size_t v) { return static_cast<int>(v > 0x7fffffff ? 0x7fffffff : v); };
  struct mallinfo m;
  std::memset(&m, 0, sizeof m);
  m.arena = clamp(m2.arena);
  m.ordblks = clamp(m2.ordblks);
  m.hblks = clamp(m2.hblks);
  m.hblkhd = clamp(m2.hblkhd);
  m.uordblks = clamp(m2.uordblks);
  m.fordblks = clamp(m2.fordblks);
  m.usmblks = clamp(m2.usmblks);
  return m;
}

// glibc's internal names, called by some programs and libraries directly.
KEEL_EXPORT void* __libc_malloc(size_t size) { return malloc_fast(size); }
KEEL_EXPORT void __libc_free(void* p) { free_fast(p); }
KEEL_EXPORT void* __libc_calloc(size_t n, size_t size) { return keel_calloc(n, size); }
KEEL_EXPORT void* __libc_realloc(void* p, size_t size) { return realloc_impl(p, size); }
KEEL_EXPORT void* __libc_memalign(size_t alignment, size_t size) {
  return keel_memalign(alignment, size);
}
KEEL_EXPORT void* __libc_valloc(size_t size) { return keel_valloc(size); }
KEEL_EXPORT void* __libc_pvalloc(size_t size) { return keel_pvalloc(size); }
KEEL_EXPORT int __posix_memalign(void** out, size_t alignment, size_t size) {
  return keel_posix_memalign(out, alignment, size);
}

// Anchor: the keel::alloc target references it (-Wl,-u) when it overrides, so the linker always
// takes this object from the static library.
extern "C" __attribute__((visibility("default"))) int keel_alloc_override_anchor;
int keel_alloc_override_anchor = 1;

// ---- C++ ------------------------------------------------------------------------------------
// libkeel_malloc.so does not depend on libstdc++ (C programs under LD_PRELOAD should not load
// it): the new-handler and bad_alloc come from libstdc++ through weak references, bound when the
// program has loaded libstdc++ (every C++ program that can call operator new has). Without it, a
// failed throwing new aborts with a message.
using new_handler_fn = void (*)();
extern "C" {
new_handler_fn keel_get_new_handler() __asm__("_ZSt15get_new_handlerv") __attribute__((weak));
[[noreturn]] void keel_throw_bad_alloc() __asm__("_ZSt17__throw_bad_allocv") __attribute__((weak));
}

namespace {

[[gnu::noinline]] void* new_failed(std::size_t size, std::size_t align) {
  for (;;) {
    void* p = align <= 16 ? malloc_fast(size) : alloc_aligned(size, align, false);
    if (p) return p;
    new_handler_fn handler = keel_get_new_handler ? keel_get_new_handler() : nullptr;
    if (!handler) {
      if (keel_throw_bad_alloc) keel_throw_bad_alloc();
      os_fatal("operator new: out of memory (std::bad_alloc unavailable)", nullptr);
    }
    handler();  // may throw (std::bad_alloc or another exception): it reaches the caller
  }
}

inline void* new_impl(std::size_t size) {
  void* p = malloc_fast(size);
  return KEEL_LIKELY(p != nullptr) ? p : new_failed(size, 16);
}
inline void* new_aligned(std::size_t size, std::align_val_t al) {
  const auto align = static_cast<std::size_t>(al);
  void* p = alloc_aligned(size, align, false);
  return KEEL_LIKELY(p != nullptr) ? p : new_failed(size, align);
}

}  // namespace

void* operator new(std::size_t size) { return new_impl(size); }
void* operator new[](std::size_t size) { return new_impl(size); }
void* operator new(std::size_t size, std::align_val_t al) { return new_aligned(size, al); }
void* operator new[](std::size_t size, std::align_val_t al) { return new_aligned(size, al); }
// The nothrow forms are libstdc++'s own: they call the throwing forms above (keel's) and turn any
// exception — std::bad_alloc, or one a new-handler throws — into NULL, as the standard requires.
// That takes a try/catch, which this file (no exceptions, no libstdc++ dependency) cannot have.

void operator delete(void* p) noexcept { free_fast(p); }
void operator delete[](void* p) noexcept { free_fast(p); }
void operator delete(void* p, std::size_t) noexcept { free_fast(p); }
void operator delete[](void* p, std::size_t) noexcept { free_fast(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { free_fast(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { free_fast(p); }
void operator delete(void* p, std::align_val_t) noexcept { free_fast(p); }
void operator delete[](void* p, std::align_val_t) noexcept { free_fast(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { free_fast(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { free_fast(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { free_fast(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { free_fast(p); }
