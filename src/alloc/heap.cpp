// SPDX-License-Identifier: MIT
// Thread heaps: the shared empty heap every thread starts with (so the fast path needs no
// initialisation check), process initialisation, creating a heap on a thread's first slow path,
// handing it back at thread exit (pthread key destructor), collection and trimming, fork.
#include <pthread.h>
#include <sched.h>

#include <cstring>
#include <utility>

#include "alloc/internal.h"
#include "common/cpu_hints.h"

namespace keel::alloc::detail {

page g_empty_page{};
std::uint64_t g_link_secret = 0;

namespace {
template <std::size_t... I>
constexpr heap make_empty_heap(std::index_sequence<I...>) {
  heap h{};
  ((h.current[I] = &g_empty_page), ...);
  for (page*& d : h.direct) d = &g_empty_page;
  h.is_static = 1;
  return h;
}
}  // namespace

heap g_empty_heap = make_empty_heap(std::make_index_sequence<kClasses>{});
__thread heap* t_heap __attribute__((tls_model("initial-exec"))) = &g_empty_heap;

void spinlock::lock() {
  for (int spins = 0;; ++spins) {
    int expected = 0;
    if (v.load(std::memory_order_relaxed) == 0 &&
        v.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                std::memory_order_relaxed)) {
      return;
    }
    if (spins > 64)
      sched_yield();
    else
      keel::detail::cpu_relax();
  }
}

namespace {

std::atomic<int> g_init_state{0};  // 0 none, 1 running, 2 done
pthread_key_t g_heap_key;
std::atomic<bool> g_atfork_done{false};
spinlock g_heaps_lock;
heap* g_heap_pool = nullptr;  // recycled heaps
heap* g_live = nullptr;       // every live heap (linked through next_free), for fork
std::uint8_t* g_meta_cursor = nullptr;
std::size_t g_meta_left = 0;

void heap_done(void* value);

void heap_unlink_live(heap* h) {
  for (heap** q = &g_live; *q; q = &(*q)->next_free) {
    if (*q == h) {
      *q = h->next_free;
      return;
    }
  }
}

// Hands a heap's memory back: empty pages return to their segments, segments still holding live
// blocks are abandoned for another thread to adopt. Frees from other threads stay on the pages'
// remote lists and are collected by the adopter: nothing is lost.
void heap_abandon(heap* h) {
  heap_collect(h, true, false);
  for (segment* s = h->segments; s;) {
    segment* next = s->next;
    for (std::size_t i = 1; i < kSlices;) {
      page* pg = s->slice_page[i];
      if (pg == &g_no_page) {
        ++i;
        continue;
      }
      i += pg->slice_count;
      pg->next = pg->prev = nullptr;
      pg->owner.store(owner_word(nullptr, pg), std::memory_order_release);
    }
    if (s->used_pages == 0) {
      segment_release(nullptr, s);  // empty: to the process-wide cache
    } else {
      segment_abandon(s);
    }
    s = next;
  }
  h->segments = nullptr;
  h->pages = h->new_pages = 0;
  h->retired_count = 0;
  h->purge_at = 0;
  for (std::size_t c = 0; c < kClasses; ++c) {
    set_current(h, c, &g_empty_page);
    h->queue[c] = nullptr;
  }
}

void atfork_prepare() {
  g_heaps_lock.lock();
  segment_locks(0);
  huge_locks(0);
}
void atfork_parent() {
  huge_locks(1);
  segment_locks(1);
  g_heaps_lock.unlock();
}
// In the child only the forking thread exists. Other threads' heaps may have been mid-update at
// the fork, so the child never touches them: their pages stay as they were (blocks the child
// frees there go to remote lists) and the child allocates from its own heap. Locks are released.
void atfork_child() {
  huge_locks(1);
  segment_locks(1);
  heap* me = t_heap;
  g_live = me->is_static ? nullptr : me;
  if (g_live) g_live->next_free = nullptr;
  g_heaps_lock.unlock();
}

void heap_done(void* value) {
  auto* h = static_cast<heap*>(value);
  if (!h || h->is_static) return;
  t_heap = &g_empty_heap;  // frees after this point go to the pages' remote lists
  heap_abandon(h);
  g_heaps_lock.lock();
  heap_unlink_live(h);
  h->next_free = g_heap_pool;
  g_heap_pool = h;
  g_heaps_lock.unlock();
  g_stats.heaps.fetch_sub(1, std::memory_order_relaxed);
}

heap* heap_new() {
  g_heaps_lock.lock();
  heap* h = g_heap_pool;
  if (h) {
    g_heap_pool = h->next_free;
  } else {
    constexpr std::size_t sz = (sizeof(heap) + 63) & ~std::size_t{63};
    if (g_meta_left < sz) {
      constexpr std::size_t chunk = std::size_t{256} << 10;
      g_meta_cursor = static_cast<std::uint8_t*>(os_map(chunk));
      g_meta_left = g_meta_cursor ? chunk : 0;
    }
    if (g_meta_left >= sz) {
      h = reinterpret_cast<heap*>(g_meta_cursor);
      g_meta_cursor += sz;
      g_meta_left -= sz;
    }
  }
  if (h) {
    std::memset(static_cast<void*>(h), 0, sizeof(heap));
    for (std::size_t c = 0; c < kClasses; ++c) set_current(h, c, &g_empty_page);
    h->next_free = g_live;
    g_live = h;
  }
  g_heaps_lock.unlock();
  return h;
}

}  // namespace

void process_init() {
  int state = g_init_state.load(std::memory_order_acquire);
  if (state == 2) return;
  state = 0;
  if (g_init_state.compare_exchange_strong(state, 1, std::memory_order_acq_rel)) {
    options_init();
    g_link_secret = os_random();
    pthread_key_create(&g_heap_key, heap_done);
    if (g_options.verbose) options_print();
    g_init_state.store(2, std::memory_order_release);
    return;
  }
  while (g_init_state.load(std::memory_order_acquire) != 2) sched_yield();
}

heap* heap_get_or_init() {
  heap* h = t_heap;
  if (!h->is_static) return h;
  process_init();
  h = heap_new();
  if (!h) return nullptr;
  h->tid = os_thread_id();
  t_heap = h;
  g_stats.heaps.fetch_add(1, std::memory_order_relaxed);
  pthread_setspecific(g_heap_key, h);
  // Registered after the heap exists: pthread_atfork may allocate, which now succeeds.
  if (!g_atfork_done.exchange(true)) pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
  return h;
}

// Collects every page's remote frees; empty pages other than the current ones (all of them with
// all_pages) return to their segments; decayed (all, with purge_all) free slices go to the OS.
void heap_collect(heap* h, bool all_pages, bool purge_all) {
  for (std::size_t c = 0; c < kClasses; ++c) {
    for (page* pg = h->queue[c]; pg;) {
      page* next = pg->next;
      page_collect_remote(pg);
      if (pg->used == 0 && (all_pages || h->current[c] != pg)) {
        page_queue_remove(h, pg);
        segment_page_free(h, pg);
      }
      pg = next;
    }
  }
  segment_purge_expired(h, os_now_ms(), purge_all);
}

void heap_trim() {
  heap* h = heap_get_or_init();
  if (!h) return;
  while (segment* s = segment_take_abandoned()) heap_adopt(h, s);
  heap_collect(h, true, true);
  huge_cache_release_all();
}

}  // namespace keel::alloc::detail
