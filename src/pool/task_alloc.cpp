// Task node memory. Nodes are small, made on one thread and usually freed on another. Each thread
// keeps a short free list per size class (64, 128, 256 bytes); a free goes to the freeing
// thread's list (up to kMaxCached blocks, beyond that back to operator delete), an allocation
// takes from the allocating thread's list first. KEEL_POOL_TASK_CACHE=0 turns the lists off.
#include <cstddef>
#include <new>

#include "keel/pool/detail/task.h"
#include "pool/options.h"

namespace keel::pool::detail {

namespace {

constexpr std::size_t kClasses = 3;
constexpr std::size_t kMaxCached = 512;

struct free_block {
  free_block* next;
};

int size_class(std::size_t bytes) noexcept {
  if (bytes <= 64) return 0;
  if (bytes <= 128) return 1;
  if (bytes <= 256) return 2;
  return -1;
}

std::size_t class_bytes(int c) noexcept { return std::size_t{64} << c; }

struct cache {
  free_block* head[kClasses] = {};
  std::size_t count[kClasses] = {};
  ~cache() {
    for (std::size_t c = 0; c < kClasses; ++c) {
      while (free_block* b = head[c]) {
        head[c] = b->next;
        ::operator delete(b, class_bytes(static_cast<int>(c)));
      }
    }
  }
};

thread_local cache tls_cache;

}  // namespace

void* task_alloc(std::size_t bytes) {
  const int c = size_class(bytes);
  if (c < 0 || !env().task_cache) return ::operator new(bytes);
  cache& k = tls_cache;
  if (free_block* b = k.head[c]) {
    k.head[c] = b->next;
    --k.count[c];
    return b;
  }
  return ::operator new(class_bytes(c));
}

void task_free(void* p, std::size_t bytes) noexcept {
  const int c = size_class(bytes);
  if (c < 0 || !env().task_cache) {
    ::operator delete(p, bytes);
    return;
  }
  cache& k = tls_cache;
  if (k.count[c] >= kMaxCached) {
    ::operator delete(p, class_bytes(c));
    return;
  }
  auto* b = static_cast<free_block*>(p);
  b->next = k.head[c];
  k.head[c] = b;
  ++k.count[c];
}

}  // namespace keel::pool::detail
