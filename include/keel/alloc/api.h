// SPDX-License-Identifier: MIT
// keel::alloc — the prefixed allocation API. These functions are keel's allocator itself and work
// whether or not keel also replaces malloc in the process (libkeel_malloc.so by LD_PRELOAD, or the
// keel::alloc library built with KEEL_ALLOC_OVERRIDE=ON). Memory from keel_* functions must be
// released with keel_free / keel_realloc (not free) unless keel replaces malloc.
//
// Semantics follow glibc: every block is 16-byte aligned; keel_malloc(0) returns a unique
// pointer; keel_free(NULL) does nothing and keel_free keeps errno; keel_calloc checks n*size for
// overflow (NULL, errno ENOMEM); keel_realloc(NULL, n) is keel_malloc(n) and keel_realloc(p, 0)
// frees p and returns NULL; alignment arguments must be powers of two (EINVAL otherwise, except
// keel_memalign which rounds up like glibc). A pointer keel did not allocate, a pointer into the
// middle of a block, or a detected double free aborts the process with a message on stderr.
// Options (environment, read once): see docs/alloc.md.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void* keel_malloc(size_t size);
void keel_free(void* p);
void* keel_calloc(size_t count, size_t size);
void* keel_realloc(void* p, size_t size);
void* keel_reallocarray(void* p, size_t count, size_t size);
void* keel_aligned_alloc(size_t alignment, size_t size);
int keel_posix_memalign(void** out, size_t alignment, size_t size);
void* keel_memalign(size_t alignment, size_t size);
void* keel_valloc(size_t size);
void* keel_pvalloc(size_t size);
size_t keel_malloc_usable_size(const void* p);
// Returns free memory to the OS now (ignoring the decay delay); 1 when something was released.
int keel_malloc_trim(size_t pad);

// Process-wide figures, bytes unless noted. Cheap: kept on slow paths only.
struct keel_alloc_info {
  size_t mapped;       // mapped in 4 MiB segments (small and medium blocks)
  size_t peak_mapped;  // highest `mapped` so far
  size_t in_pages;     // segment memory assigned to size classes (blocks in use or cached)
  size_t huge_mapped;  // mapped for huge blocks (> 1 MiB)
  size_t huge_count;   // huge blocks live
  size_t purged;       // given back to the OS with madvise, cumulative
  size_t segments;     // segments mapped
  size_t abandoned;    // segments of exited threads waiting for adoption
  size_t heaps;        // thread heaps live
};
struct keel_alloc_info keel_alloc_info_get(void);

#ifdef __cplusplus
}  // extern "C"

#include <cstddef>
#include <cstdlib>
#include <new>

namespace keel::alloc {

namespace detail {
// Out of memory in allocator<T>: std::bad_array_new_length / std::bad_alloc where exceptions are
// enabled; in code compiled without them (-fno-exceptions) there is nothing to throw to, and the
// process aborts rather than hand a null pointer to a container.
[[noreturn]] inline void allocator_failed(bool too_long) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  if (too_long) throw std::bad_array_new_length();
  throw std::bad_alloc();
#else
  (void)too_long;
  std::abort();
#endif
}
}  // namespace detail

// A standard allocator drawing from keel (usable in containers without replacing malloc).
template <class T>
struct allocator {
  using value_type = T;
  allocator() noexcept = default;
  template <class U>
  allocator(const allocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) detail::allocator_failed(true);
    void* p = alignof(T) > 16 ? keel_aligned_alloc(alignof(T), n * sizeof(T))
                              : keel_malloc(n * sizeof(T));
    if (!p) detail::allocator_failed(false);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) noexcept { keel_free(p); }
  template <class U>
  bool operator==(const allocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace keel::alloc
#endif
