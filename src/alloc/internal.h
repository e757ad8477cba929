// SPDX-License-Identifier: MIT
// keel::alloc internals: constants, the size classes, the in-memory structures (segment, page,
// heap, block) and the shared declarations of the allocator's files. docs/alloc.md draws the
// layouts. Nothing here is public.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "keel/detail/attributes.h"

#define KEEL_HIDDEN __attribute__((visibility("hidden")))

namespace keel::alloc::detail {

// ---- geometry -------------------------------------------------------------------------------
inline constexpr std::size_t kSegmentShift = 22;  // 4 MiB segments
inline constexpr std::size_t kSegmentSize = std::size_t{1} << kSegmentShift;
inline constexpr std::uintptr_t kSegmentMask = kSegmentSize - 1;
inline constexpr std::size_t kSliceShift = 16;  // 64 KiB slices
inline constexpr std::size_t kSliceSize = std::size_t{1} << kSliceShift;
inline constexpr std::size_t kSlices = kSegmentSize / kSliceSize;  // 64; slice 0 = header
inline constexpr std::size_t kOsPage = 4096;
inline constexpr std::size_t kAddressBits = 47;  // x86-64 user space
inline constexpr std::size_t kChunks = std::size_t{1} << (kAddressBits - kSegmentShift);

// ---- size classes ---------------------------------------------------------------------------
// C0..C7: 16..128 B in 16 B steps; then four classes per doubling up to 1 MiB (60 classes).
inline constexpr std::size_t kClasses = 60;
inline constexpr std::size_t kTinyMax = 1024;                   // table lookup up to here
inline constexpr std::size_t kSmallMax = std::size_t{1} << 20;  // largest class; above: huge

constexpr std::size_t class_size(std::size_t cls) {
  if (cls < 8) return (cls + 1) * 16;
  const std::size_t k = cls - 8, b = 7 + k / 4, idx = k % 4;
  return (std::size_t{1} << b) + (idx + 1) * (std::size_t{1} << (b - 2));
}
// Class of a size in (128, kSmallMax].
inline std::size_t class_of_large(std::size_t size) {
  const std::size_t s = size - 1;
  const std::size_t b = 63 - static_cast<std::size_t>(__builtin_clzll(s));
  return 8 + (b - 7) * 4 + ((s >> (b - 2)) & 3);
}
struct class_table {
  std::uint8_t of[kTinyMax / 16 + 1];
};
inline constexpr class_table make_class_table() {
  class_table t{};
  for (std::size_t i = 0; i <= kTinyMax / 16; ++i) {
    const std::size_t size = i == 0 ? 16 : i * 16;
    std::size_t cls = 0;
    while (class_size(cls) < size) ++cls;
    t.of[i] = static_cast<std::uint8_t>(cls);
  }
  return t;
}
constexpr class_table kClassTable = make_class_table();  // internal linkage: no GOT load

// Slices per page of a class: 1 (<= 8 KiB blocks), 8 (<= 64 KiB), else one block per page.
constexpr std::size_t class_slices(std::size_t cls) {
  const std::size_t bs = class_size(cls);
  if (bs <= 8192) return 1;
  if (bs <= 65536) return 8;
  return (bs + kSliceSize - 1) / kSliceSize;
}
static_assert(class_size(kClasses - 1) == kSmallMax);
static_assert(class_slices(kClasses - 1) <= kSlices - 1);

// ---- structures -----------------------------------------------------------------------------
struct heap;
struct segment;

// A free block: word 0 links the list (mangled with the page's link key and the block's own
// address, see encode), word 1 marks it free (the address of its page's metadata, see free_mark).
struct block {
  std::uintptr_t next;
  std::uintptr_t freed;
};

// Page metadata; lives in the segment header, one per slice (the head slice of a page is used).
struct alignas(64) page {
  std::uintptr_t free;  // head of the owner's free list (0: empty); the links are encoded
  std::uint32_t used;   // blocks out (owner's view: remote frees not yet collected)
  std::uint32_t block_size;
  std::uintptr_t lkey;  // secret mixed into every stored link (encode); set by page_init
  // The malloc fast path's check of a decoded link: (next ^ block) & lmask must be 0. One-slice
  // pages: ~(64 KiB - 1) | 15 (same slice, 16-byte aligned); others: all ones (always the full
  // check, link_ok).
  std::uintptr_t lmask;
  std::uint8_t* start;   // first block
  std::uint32_t span16;  // (reserved * block_size) / 16: a link must point below start + span
  // Blocks carved so far: written by the owner (page_extend), read by any thread that checks a
  // block start (page_block_start on a hardened free from another thread): relaxed atomics.
  std::atomic<std::uint32_t> capacity;
  std::uintptr_t key;                  // hardened page: non-zero (its list is in `hfree`)
  std::atomic<std::uintptr_t> owner;   // owning heap | kSlowFree; 0 when abandoned or free
  std::atomic<std::uintptr_t> remote;  // frees from other threads (links encoded as well)
  std::uint32_t reserved;              // blocks that fit
  page* next;                          // the heap's queue of pages of this class
  page* prev;
  std::uint16_t slice_index;  // head slice in the segment
  std::uint16_t slice_count;  // 0: slice not a page head
  std::uint8_t cls;
  std::uint8_t in_use;   // assigned to a class
  std::uint8_t aligned;  // holds over-aligned (interior) pointers: owner has kSlowFree
  std::uint8_t retire;   // empty current page kept for `retire` more slow paths (0: not)
  std::uintptr_t hfree;  // hardened page: encoded head of the owner's free list (`free` stays 0)
};
// Owner bit 0: every free of the page takes the slow path (the page holds over-aligned, interior
// pointers, or it is hardened: its list is encoded and checked).
inline constexpr std::uintptr_t kSlowFree = 1;
inline std::uintptr_t owner_word(const heap* h, const page* pg) {
  return reinterpret_cast<std::uintptr_t>(h) | (pg->aligned != 0 || pg->key != 0 ? kSlowFree : 0);
}
// The free mark of a block of pg (block::freed): written by every free, cleared by every
// allocation. The metadata address is never a value a program holds, and it is in a register on
// the free path already.
inline std::uintptr_t free_mark(const page* pg) { return reinterpret_cast<std::uintptr_t>(pg); }

enum class segment_kind : std::uint32_t { normal = 1, huge = 2 };

struct segment {
  std::uint64_t magic;  // kSegmentMagic ^ address
  segment_kind kind;
  std::uint32_t used_pages;
  std::size_t mapped;  // bytes mapped (huge: the whole mapping)
  heap* owner;         // owning heap (normal segments), nullptr when abandoned/cached
  segment* next;       // heap's segment list / abandoned list / cache
  segment* prev;
  std::uint64_t free_slices;        // bit per slice: not part of a page
  std::uint64_t dirty_slices;       // free slices not yet returned to the OS
  std::uint64_t purge_at;           // earliest decay deadline of dirty slices (coarse ms), 0: none
  std::uint64_t freed_at[kSlices];  // when each free slice became free (coarse ms)
  std::size_t huge_offset;          // huge: block offset from the segment start
  std::size_t huge_size;            // huge: usable bytes
  page* slice_page[kSlices];        // slice -> its page's metadata (&g_no_page: not in a page)
  page pages[kSlices];              // indexed by head slice
};
static_assert(sizeof(segment) <= kSliceSize);
inline constexpr std::uint64_t kSegmentMagic = 0x6b65656c2d736567ull;

// A thread's heap: one page queue per class, the page that serves each class, its segments.
inline constexpr std::size_t kDirect =
    kTinyMax / 16 + 1;  // direct[(size + 15) / 16], size <= 1 KiB
struct heap {
  page* direct[kDirect];    // fast path for size <= 1 KiB: current page by (size + 15) / 16
  page* current[kClasses];  // fast path above 1 KiB: pops current[cls]->free; empty page: none
  page* queue[kClasses];    // every page of the class owned by this heap (current first)
  segment* segments;        // normal segments owned by this heap
  std::uint64_t tid;        // for diagnostics
  std::uint32_t is_static;  // the shared empty heap
  std::size_t pages;        // pages owned (for rate-limiting full collections)
  std::size_t new_pages;    // pages taken since the last full collection
  std::uint64_t purge_at;   // earliest purge deadline over the heap's segments (0: none)
  page* retired[4];         // empty current pages of more than one slice, kept a little
  std::uint32_t retired_count;
  heap* next_free;                     // heap pool
  std::uint64_t stat_alloc[kClasses];  // counted only with KEEL_ALLOC_WITH_STATS
  std::uint64_t stat_free;
};

// The class's current page (and the direct entries of sizes in that class).
inline void set_current(heap* h, std::size_t cls, page* pg) {
  h->current[cls] = pg;
  if (class_size(cls) <= kTinyMax) {
    const std::size_t lo = cls == 0 ? 0 : class_size(cls - 1) / 16 + 1;
    const std::size_t hi = class_size(cls) / 16;
    for (std::size_t i = lo; i <= hi; ++i) h->direct[i] = pg;
  }
}

// ---- options (options.cpp) ------------------------------------------------------------------
struct options_t {
  long stats;          // KEEL_ALLOC_STATS: print statistics at exit
  long hardened;       // KEEL_ALLOC_HARDENED: encoded free lists, guard pages, list checks
  long decay_ms;       // KEEL_ALLOC_DECAY_MS: free memory kept before madvise (default 30)
  long segment_cache;  // KEEL_ALLOC_SEGMENT_CACHE: empty segments kept process-wide (default 8)
  long verbose;        // KEEL_ALLOC_VERBOSE: print options at start
};
extern options_t g_options KEEL_HIDDEN;
void options_init() KEEL_HIDDEN;  // reads environ once; no allocation
void options_print() KEEL_HIDDEN;

// ---- globals --------------------------------------------------------------------------------
// Segment map: one byte per 4 MiB chunk of the address space. 0: not keel's; 1: a segment starts
// here; k > 1: inside a huge segment that starts k-1 chunks lower (255: at least 254 lower).
extern std::uint8_t g_segmap[kChunks] KEEL_HIDDEN;
// What a slice that is not in a page maps to (slice_page never holds NULL, so the free fast path
// needs no test): not in use, owner kSlowFree, so a free or realloc of such a pointer takes the
// slow path, which reports it.
extern page g_no_page KEEL_HIDDEN;
extern heap g_empty_heap KEEL_HIDDEN;
extern page g_empty_page KEEL_HIDDEN;
// __thread, not thread_local: no C++ TLS wrapper call; initial-exec: one %fs-relative load.
extern __thread heap* t_heap KEEL_HIDDEN __attribute__((tls_model("initial-exec")));

// ---- os.cpp ---------------------------------------------------------------------------------
void* os_map(std::size_t size) KEEL_HIDDEN;  // zeroed, page aligned, or nullptr
void* os_map_aligned(std::size_t size, std::size_t align) KEEL_HIDDEN;
void os_unmap(void* p, std::size_t size) KEEL_HIDDEN;
void os_purge(void* p, std::size_t size) KEEL_HIDDEN;  // give pages back, keep the range
bool os_protect(void* p, std::size_t size, bool accessible) KEEL_HIDDEN;
void* os_remap(void* old, std::size_t old_size, std::size_t new_size, void* fixed) KEEL_HIDDEN;
std::uint64_t os_now_ms() KEEL_HIDDEN;  // coarse monotonic clock
std::uint64_t os_random() KEEL_HIDDEN;
extern std::uint64_t g_link_secret KEEL_HIDDEN;  // process-wide, from os_random at init
std::uint64_t os_thread_id() KEEL_HIDDEN;
[[noreturn]] void os_fatal(const char* what, const void* p) KEEL_HIDDEN;  // message + abort
void os_write(const char* s) KEEL_HIDDEN;  // to stderr, no allocation

// ---- lock (spin, fork-aware) ----------------------------------------------------------------
struct spinlock {
  std::atomic<int> v{0};
  void lock();
  void unlock() { v.store(0, std::memory_order_release); }
};

// ---- segment.cpp ----------------------------------------------------------------------------
inline segment* segment_of(const void* p) {
  return reinterpret_cast<segment*>(reinterpret_cast<std::uintptr_t>(p) & ~kSegmentMask);
}
segment* segment_lookup(const void* p) KEEL_HIDDEN;  // via the segment map; nullptr: not keel's
page* segment_page_alloc(heap* h, std::size_t cls) KEEL_HIDDEN;  // a fresh page for a class
// Page empty: its slices go back to the segment; true when the segment emptied and was released.
bool segment_page_free(heap* h, page* pg) KEEL_HIDDEN;
void segment_locks(int op) KEEL_HIDDEN;                           // fork: 0 lock, 1 unlock
bool segment_page_grow(page* pg, std::size_t bytes) KEEL_HIDDEN;  // one-block page, in place
void segment_release(heap* h, segment* s) KEEL_HIDDEN;            // empty segment: cache or unmap
void segment_abandon(segment* s) KEEL_HIDDEN;  // thread exit: hand the segment back
segment* segment_take_abandoned() KEEL_HIDDEN;
void segment_purge_expired(heap* h, std::uint64_t now, bool force) KEEL_HIDDEN;
void segment_cache_trim(bool force) KEEL_HIDDEN;
void segmap_set(segment* s, std::size_t bytes, bool on) KEEL_HIDDEN;

// ---- page.cpp -------------------------------------------------------------------------------
void page_init(page* pg, std::size_t cls, std::uint8_t* start, std::size_t bytes) KEEL_HIDDEN;
bool page_extend(page* pg) KEEL_HIDDEN;                   // carve more blocks; false when full
std::uint32_t page_collect_remote(page* pg) KEEL_HIDDEN;  // remote frees into the free list
// The class's current page heads its queue: push makes pg current, add puts it behind the head.
void page_queue_push(heap* h, page* pg) KEEL_HIDDEN;
void page_queue_add(heap* h, page* pg) KEEL_HIDDEN;
void page_queue_remove(heap* h, page* pg) KEEL_HIDDEN;
void page_became_empty(page* pg) KEEL_HIDDEN;       // owner's last block came back
void page_unretire(heap* h, page* pg) KEEL_HIDDEN;  // drop pg from the retired list
// On slow paths: frees retired pages retired long enough (all empty ones with release_all).
void heap_retire_tick(heap* h, bool release_all) KEEL_HIDDEN;
[[noreturn]] void page_corrupt(const page* pg, std::uintptr_t next) KEEL_HIDDEN;
inline bool page_contains(const page* pg, std::uintptr_t p) {
  return p - reinterpret_cast<std::uintptr_t>(pg->start) < std::uintptr_t{pg->span16} * 16;
}
// A decoded link is 0 (end of the list) or a 16-byte aligned address inside the page: one
// compare (the low 4 bits rotated to the top fail it when set, an address below start wraps).
// Anything else means a freed block was written to (use after free, overflow): page_corrupt.
inline bool link_ok(const page* pg, std::uintptr_t next) {
  return std::rotr(next - reinterpret_cast<std::uintptr_t>(pg->start), 4) < pg->span16 || next == 0;
}
// Block index of an offset into a page of class cls < kOneBlockClass, without a division:
// (off * kBlockRecip[cls]) >> kRecipShift is off / class_size(cls) for every off below 4 MiB
// (class sizes are at most 2^16; the multiplier is rounded up, so its error times off stays
// below one block).
inline constexpr std::size_t kRecipShift = 38;
inline constexpr std::size_t kOneBlockClass = 44;  // first class above 64 KiB: one block a page
static_assert(class_size(kOneBlockClass - 1) == 65536 && class_size(kOneBlockClass) > 65536);
struct recip_table {
  std::uint64_t of[kClasses];  // 0 for the one-block classes (every offset maps to block 0)
};
inline constexpr recip_table make_recip_table() {
  recip_table t{};
  for (std::size_t c = 0; c < kOneBlockClass; ++c) {
    const std::uint64_t d = class_size(c);
    t.of[c] = ((std::uint64_t{1} << kRecipShift) + d - 1) / d;
  }
  return t;
}
constexpr recip_table kBlockRecip = make_recip_table();
// Exactness: R = kBlockRecip.of[c] = 2^38/d + e/d with 0 <= e = R*d - 2^38 < d. For off = q*d + r
// (r < d), off*R = q*2^38 + r*2^38/d + off*e/d, and r*2^38/d <= 2^38 - 2^38/d, so the shifted
// product is q exactly when off*e < 2^38: checked for every class at the largest offset.
constexpr bool recip_exact() {
  for (std::size_t c = 0; c < kOneBlockClass; ++c) {
    const std::uint64_t e = kBlockRecip.of[c] * class_size(c) - (std::uint64_t{1} << kRecipShift);
    if (class_size(c) <= e || (kSegmentSize - 1) * e >= (std::uint64_t{1} << kRecipShift))
      return false;
  }
  return true;
}
static_assert(recip_exact());
// The start of the carved block holding p, or nullptr (p before the page or past its carved
// blocks). p lies in one of pg's slices.
inline std::uint8_t* page_block_start(const page* pg, const void* p) {
  const auto off = static_cast<std::uintptr_t>(static_cast<const std::uint8_t*>(p) - pg->start);
  if (off >= kSegmentSize) return nullptr;  // before the page (wrapped), or not in its segment
  const std::size_t idx = pg->cls < kOneBlockClass
                              ? (off * kBlockRecip.of[pg->cls]) >> kRecipShift
                              : static_cast<std::size_t>(off >= pg->block_size);
  if (idx >= pg->capacity.load(std::memory_order_relaxed)) return nullptr;
  return pg->start + idx * pg->block_size;
}
// Whether a, an address in one of pg's slices, is the start of a block (free's check against
// interior pointers: two multiplications, no branch; a one-block class accepts only offset 0).
inline bool is_block_start(const page* pg, std::uintptr_t a) {
  const std::uintptr_t off = a - reinterpret_cast<std::uintptr_t>(pg->start);
  const std::uintptr_t idx = (off * kBlockRecip.of[pg->cls]) >> kRecipShift;
  return idx * pg->block_size == off;
}
bool page_list_contains(const page* pg, const void* b) KEEL_HIDDEN;

// Free-list links are stored mangled, in every mode (glibc's "safe linking", with a secret): the
// link in block `at` holds next ^ at ^ lkey, lkey being a per-page random secret. A program that
// writes into a freed block cannot forge a link that decodes inside the page without knowing
// lkey; what it writes decodes to an address that link_ok rejects (all but 1 in 2^40 or so of
// values), so malloc reports heap corruption instead of returning an address chosen by the
// writer. Decoding is the same operation.
inline std::uintptr_t encode(std::uintptr_t next, std::uintptr_t at, const page* pg) {
  return next ^ at ^ pg->lkey;
}
// The owner's free list: `free`, read by the malloc fast path, or `hfree` on a hardened page (a
// non-zero key), whose `free` stays 0 so that the fast path never pops an encoded list and need
// not test the key.
inline std::uintptr_t& free_list(page* pg) { return pg->key != 0 ? pg->hfree : pg->free; }
inline std::uintptr_t free_list(const page* pg) { return pg->key != 0 ? pg->hfree : pg->free; }

// ---- heap.cpp -------------------------------------------------------------------------------
heap* heap_get_or_init() KEEL_HIDDEN;  // the calling thread's heap, initialising as needed
// Remote lists; empty pages back to segments (all of them with all_pages); purge decayed memory
// (all free memory with purge_all).
void heap_collect(heap* h, bool all_pages, bool purge_all) KEEL_HIDDEN;
void heap_adopt(heap* h, segment* s) KEEL_HIDDEN;
void heap_trim() KEEL_HIDDEN;  // malloc_trim: adopt abandoned, collect, purge all
void process_init() KEEL_HIDDEN;

// ---- alloc.cpp / free.cpp slow paths --------------------------------------------------------
void* malloc_slow(std::size_t size, bool zero) KEEL_HIDDEN;
void* alloc_aligned(std::size_t size, std::size_t align, bool zero) KEEL_HIDDEN;
void free_slow(void* p) KEEL_HIDDEN;
void free_remote(page* pg, block* b) KEEL_HIDDEN;
void free_block(page* pg, block* b) KEEL_HIDDEN;     // a validated block start, any thread
std::size_t usable_size(const void* p) KEEL_HIDDEN;  // aborts on a pointer keel does not own
void* realloc_impl(void* p, std::size_t size) KEEL_HIDDEN;

// ---- huge.cpp -------------------------------------------------------------------------------
void* huge_alloc(std::size_t size, std::size_t align, bool zero) KEEL_HIDDEN;
void huge_free(segment* s) KEEL_HIDDEN;
void* huge_realloc(segment* s, void* p, std::size_t size) KEEL_HIDDEN;
void huge_cache_release_all() KEEL_HIDDEN;  // malloc_trim
void huge_locks(int op) KEEL_HIDDEN;        // fork: 0 lock, 1 unlock

// ---- stats.cpp ------------------------------------------------------------------------------
struct os_stats {
  std::atomic<std::size_t> mapped{0};       // bytes mapped in normal segments
  std::atomic<std::size_t> huge_mapped{0};  // bytes mapped in huge segments
  std::atomic<std::size_t> huge_count{0};
  std::atomic<std::size_t> pages_bytes{0};  // bytes of pages assigned to size classes
  std::atomic<std::size_t> purged{0};       // bytes given back with madvise (cumulative)
  std::atomic<std::size_t> segments{0};
  std::atomic<std::size_t> peak_mapped{0};
  std::atomic<std::size_t> abandoned{0};
  std::atomic<std::size_t> heaps{0};
};
extern os_stats g_stats KEEL_HIDDEN;
void stats_print() KEEL_HIDDEN;

}  // namespace keel::alloc::detail
