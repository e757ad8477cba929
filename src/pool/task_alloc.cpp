// SPDX-License-Identifier: MIT
// Task node memory. Nodes are small, made on one thread and usually freed on another (an outside
// thread submits, a worker runs and frees), so a plain per-thread free list would drain on the
// submitting side and overflow on the running side. Each thread keeps, per size class (64, 128,
// 256 bytes), one batch: an array of up to kBatch free blocks used as a stack. A thread whose
// batch is full hands it whole to a shared transfer stack and goes on with an empty one; a thread
// whose batch is empty swaps it for a full one from there before falling back to operator new.
// The transfer stack holds at most kMaxBatches full batches; beyond that a full batch's blocks go
// back to operator delete.
//
// Arrays rather than linked lists: a block freed on another thread sits in that thread's cache,
// and a list's next link is inside the block, so every allocation waited for one cross-core fetch
// before it could even find the following block. With the addresses in an array, allocation
// prefetches kAhead blocks ahead and those fetches overlap. (A/B against linked lists, and of
// linked lists against plain operator new/delete: docs/pool.md, "Task memory".)
#include <cstddef>
#include <mutex>
#include <new>

#include "keel/pool/detail/task.h"

namespace keel::pool::detail {

namespace {

constexpr int kClasses = 3;
constexpr std::size_t kBatch = 256;
constexpr std::size_t kMaxBatches = 64;
constexpr std::size_t kAhead = 16;  // blocks prefetched ahead of the one handed out (docs/pool.md)

struct batch {
  std::size_t n = 0;
  void* block[kBatch];
};

int size_class(std::size_t bytes) noexcept {
  if (bytes <= 64) {
    return 0;
  }
  if (bytes <= 128) {
    return 1;
  }
  if (bytes <= 256) {
    return 2;
  }
  return -1;
}

std::size_t class_bytes(int c) noexcept { return std::size_t{64} << c; }

void prefetch_for_write(const void* p) noexcept { __builtin_prefetch(p, 1); }

// Gives a batch's blocks back to operator delete; the batch is left empty.
void free_blocks(batch& b) noexcept {
  for (std::size_t i = 0; i < b.n; ++i) {
    ::operator delete(b.block[i]);
  }
  b.n = 0;
}

// Full batches passed between threads, and empty ones kept for reuse.
struct transfer_stack {
  std::mutex mu;
  batch* full[kMaxBatches] = {};
  std::size_t full_count = 0;
  batch* empty[kMaxBatches] = {};
  std::size_t empty_count = 0;

  // Takes a full batch in exchange for the caller's empty one (kept or deleted); nullptr if none.
  batch* swap_for_full(batch* spent) noexcept {
    batch* got = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (full_count == 0) {
        return nullptr;
      }
      got = full[--full_count];
      if (empty_count < kMaxBatches) {
        empty[empty_count++] = spent;
        spent = nullptr;
      }
    }
    delete spent;
    return got;
  }
  // Gives a full batch; returns an empty one for the caller (reused, or new; nullptr when there is
  // no memory for one). When kMaxBatches full batches are already waiting, the blocks are deleted
  // and the same batch comes back empty.
  batch* swap_for_empty(batch* filled) noexcept {
    batch* got = nullptr;
    bool kept = false;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (full_count < kMaxBatches) {
        full[full_count++] = filled;
        kept = true;
        if (empty_count != 0) {
          got = empty[--empty_count];
        }
      }
    }
    if (!kept) {
      free_blocks(*filled);
      return filled;
    }
    return got ? got : new (std::nothrow) batch;
  }
};

struct transfer_set {
  transfer_stack cls[kClasses];
};

// Never destroyed: a pool with static storage duration may free tasks after other statics died.
transfer_set& transfers() {
  static transfer_set* t = new transfer_set;
  return *t;
}

// Trivially destructible, so every access is a plain thread-local load (no init guard); the
// reaper below, touched only on slow paths, frees what is left when the thread exits.
struct cache {
  batch* cur[kClasses];
  bool reaped;  // the thread is exiting and its batches are gone: plain new / delete from now on
};

thread_local cache tls_cache;

struct cache_reaper {
  ~cache_reaper() {
    tls_cache.reaped = true;  // later frees (other thread_locals' destructors) must not cache
    for (batch*& b : tls_cache.cur) {
      if (b) {
        free_blocks(*b);
        delete b;
        b = nullptr;
      }
    }
  }
};

thread_local cache_reaper tls_reaper;

void arm_reaper() noexcept {
  [[maybe_unused]] cache_reaper* r = &tls_reaper;  // first use registers its destructor
}

void* alloc_slow(int c) {
  cache& k = tls_cache;
  if (k.reaped) {
    return ::operator new(class_bytes(c));
  }
  arm_reaper();
  batch* b = k.cur[c];
  if (b == nullptr) {
    b = new (std::nothrow) batch;  // without one, every block comes from operator new
    k.cur[c] = b;
  }
  if (b != nullptr) {
    if (batch* full = transfers().cls[c].swap_for_full(b)) {
      k.cur[c] = full;
      for (std::size_t i = 1; i <= kAhead && i < full->n; ++i) {
        prefetch_for_write(full->block[full->n - 1 - i]);
      }
      return full->block[--full->n];
    }
  }
  return ::operator new(class_bytes(c));
}

void free_slow(int c, void* p) noexcept {
  cache& k = tls_cache;
  if (k.reaped) {
    ::operator delete(p);
    return;
  }
  arm_reaper();
  batch* b = k.cur[c];
  if (b == nullptr) {
    b = new (std::nothrow) batch;
  } else {
    b = transfers().cls[c].swap_for_empty(b);
  }
  k.cur[c] = b;
  if (b == nullptr) {
    ::operator delete(p);
    return;
  }
  b->block[b->n++] = p;
}

}  // namespace

void* task_alloc(std::size_t bytes) {
  const int c = size_class(bytes);
  if (c < 0) {
    return ::operator new(bytes);
  }
  batch* b = tls_cache.cur[c];
  if (b == nullptr || b->n == 0) {
    return alloc_slow(c);
  }
  const std::size_t n = --b->n;
  if (n >= kAhead) {
    prefetch_for_write(b->block[n - kAhead]);
  }
  return b->block[n];
}

void task_free(void* p, std::size_t bytes) noexcept {
  const int c = size_class(bytes);
  if (c < 0) {
    ::operator delete(p);
    return;
  }
  batch* b = tls_cache.cur[c];
  if (b == nullptr || b->n == kBatch) {
    free_slow(c, p);
    return;
  }
  b->block[b->n++] = p;
}

}  // namespace keel::pool::detail
