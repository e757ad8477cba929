// SPDX-License-Identifier: MIT
// The prefixed API (keel_malloc ...): sizes, alignment, realloc, calloc, usable size, misuse.
#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "keel/alloc.h"

namespace {

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

void fill(void* p, std::size_t n, unsigned seed) {
  auto* b = static_cast<unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<unsigned char>(seed + i * 7);
}
bool check(const void* p, std::size_t n, unsigned seed) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) {
    if (b[i] != static_cast<unsigned char>(seed + i * 7)) return false;
  }
  return true;
}

TEST(AllocApi, EverySizeIs16ByteAlignedAndUsable) {
  std::vector<void*> blocks;
  for (std::size_t n = 0; n <= 70000; n = n < 4096 ? n + 1 : n + 997) {
    void* p = keel_malloc(n);
    ASSERT_NE(p, nullptr) << n;
    EXPECT_TRUE(aligned(p, 16)) << n;
    EXPECT_GE(keel_malloc_usable_size(p), n);
    fill(p, n, static_cast<unsigned>(n));
    blocks.push_back(p);
  }
  std::size_t n = 0;
  for (void* p : blocks) {
    EXPECT_TRUE(check(p, n, static_cast<unsigned>(n))) << n;
    keel_free(p);
    n = n < 4096 ? n + 1 : n + 997;
  }
}

TEST(AllocApi, DistinctBlocksDoNotOverlap) {
  std::vector<unsigned char*> v;
  for (int i = 0; i < 5000; ++i) {
    auto* p = static_cast<unsigned char*>(keel_malloc(24));
    std::memset(p, i & 0xff, 24);
    v.push_back(p);
  }
  for (int i = 0; i < 5000; ++i) {
    for (int k = 0; k < 24; ++k) ASSERT_EQ(v[static_cast<std::size_t>(i)][k], i & 0xff);
    keel_free(v[static_cast<std::size_t>(i)]);
  }
}

// Every block of a full page (and a little more) of every class up to 64 KiB: the usable size of
// each block start is its class size. realloc and usable_size find the block start of a pointer
// by a multiply with a per-class reciprocal instead of a division: an index off by one would
// abort here ("pointer into the middle of a block").
TEST(AllocApi, EveryBlockStartOfFullPagesIsFound) {
  int classes = 0;
  for (std::size_t n = 16, usable = 0; n <= 65536; n = usable + 1, ++classes) {
    void* probe = keel_malloc(n);
    ASSERT_NE(probe, nullptr);
    usable = keel_malloc_usable_size(probe);  // the class size
    keel_free(probe);
    const std::size_t page_bytes = usable <= 8192 ? 65536 : 524288;
    const std::size_t count = page_bytes / usable + 2;
    std::vector<void*> v;
    for (std::size_t i = 0; i < count; ++i) {
      void* p = keel_malloc(n);
      ASSERT_NE(p, nullptr);
      ASSERT_EQ(keel_malloc_usable_size(p), usable) << n << " block " << i;
      v.push_back(p);
    }
    for (void* p : v) keel_free(p);
  }
  EXPECT_EQ(classes, 44);  // C0..C43: every class below the one-block pages
}

TEST(AllocApi, HugeBlocks) {
  for (std::size_t n : {std::size_t{1} << 20, (std::size_t{1} << 20) + 1, std::size_t{5} << 20,
                        (std::size_t{9} << 20) + 12345}) {
    auto* p = static_cast<unsigned char*>(keel_malloc(n));
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(aligned(p, 16));
    EXPECT_GE(keel_malloc_usable_size(p), n);
    p[0] = 1;
    p[n - 1] = 2;
    keel_free(p);
  }
  errno = 0;
  EXPECT_EQ(keel_malloc(static_cast<std::size_t>(-1) - 100), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  EXPECT_EQ(keel_malloc(std::size_t{1} << 50), nullptr);
}

TEST(AllocApi, AlignmentSweep) {
  for (std::size_t a = 1; a <= (std::size_t{8} << 20); a <<= 1) {
    for (std::size_t n : {std::size_t{1}, std::size_t{15}, std::size_t{100}, a, a + 1, 3 * a + 5,
                          std::size_t{70000}}) {
      if (n > (std::size_t{40} << 20)) continue;
      void* p = keel_aligned_alloc(a, n);
      ASSERT_NE(p, nullptr) << a << " " << n;
      EXPECT_TRUE(aligned(p, a < 16 ? 16 : a)) << a << " " << n;
      EXPECT_GE(keel_malloc_usable_size(p), n);
      fill(p, n, 3);
      EXPECT_TRUE(check(p, n, 3));
      void* q = nullptr;
      if (a >= sizeof(void*)) {
        ASSERT_EQ(keel_posix_memalign(&q, a, n), 0);
        EXPECT_TRUE(aligned(q, a));
        fill(q, n, 5);
      }
      void* r = keel_memalign(a, n);
      ASSERT_NE(r, nullptr);
      EXPECT_TRUE(aligned(r, a));
      keel_free(p);
      keel_free(q);
      keel_free(r);
    }
  }
}

TEST(AllocApi, AlignmentErrors) {
  void* p = reinterpret_cast<void*>(0x1234);
  EXPECT_EQ(keel_posix_memalign(&p, 24, 10), EINVAL);
  EXPECT_EQ(keel_posix_memalign(&p, 4, 10), EINVAL);  // not a multiple of sizeof(void*)
  EXPECT_EQ(keel_posix_memalign(&p, 0, 10), EINVAL);
  EXPECT_EQ(p, reinterpret_cast<void*>(0x1234));  // untouched on error
  errno = 0;
  EXPECT_EQ(keel_aligned_alloc(48, 96), nullptr);
  EXPECT_EQ(errno, EINVAL);
  void* m = keel_memalign(48, 10);  // glibc rounds the alignment up to 64
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(aligned(m, 64));
  keel_free(m);
  void* v = keel_valloc(100);
  EXPECT_TRUE(aligned(v, 4096));
  keel_free(v);
  void* pv = keel_pvalloc(5000);
  EXPECT_TRUE(aligned(pv, 4096));
  EXPECT_GE(keel_malloc_usable_size(pv), 8192u);
  keel_free(pv);
}

TEST(AllocApi, ExtremeArgumentsFailCleanly) {
  const std::size_t max = static_cast<std::size_t>(-1);
  errno = 0;
  EXPECT_EQ(keel_aligned_alloc(std::size_t{1} << 62, 1), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  void* p = nullptr;
  EXPECT_EQ(keel_posix_memalign(&p, std::size_t{1} << 63, 1), ENOMEM);
  EXPECT_EQ(keel_posix_memalign(&p, 64, max), ENOMEM);
  EXPECT_EQ(p, nullptr);
  errno = 0;
  EXPECT_EQ(keel_memalign(max / 2 + 2, 1), nullptr);
  EXPECT_EQ(errno, EINVAL);
  EXPECT_EQ(keel_valloc(max - 100), nullptr);
  EXPECT_EQ(keel_pvalloc(max - 100), nullptr);
  void* q = keel_malloc(100);
  errno = 0;
  EXPECT_EQ(keel_realloc(q, max - 4096), nullptr);  // fails; q is untouched
  EXPECT_EQ(errno, ENOMEM);
  EXPECT_GE(keel_malloc_usable_size(q), 100u);
  void* big = keel_malloc(std::size_t{2} << 20);
  EXPECT_EQ(keel_realloc(big, max / 2), nullptr);
  keel_free(big);
  keel_free(q);
  void* z = keel_calloc(0, 100);
  EXPECT_NE(z, nullptr);
  keel_free(z);
}

TEST(AllocApi, CallocZeroesAndChecksOverflow) {
  for (int round = 0; round < 3; ++round) {
    // Dirty some memory first so reuse is visible.
    std::vector<void*> dirty;
    for (std::size_t n = 16; n < 200000; n *= 3) {
      void* p = keel_malloc(n);
      std::memset(p, 0xAB, n);
      dirty.push_back(p);
    }
    for (void* p : dirty) keel_free(p);
    for (std::size_t n = 16; n < 200000; n *= 3) {
      auto* p = static_cast<unsigned char*>(keel_calloc(n / 4, 4));
      ASSERT_NE(p, nullptr);
      for (std::size_t i = 0; i < n / 4 * 4; ++i) ASSERT_EQ(p[i], 0) << n << " " << i;
      keel_free(p);
    }
  }
  auto* z = static_cast<unsigned char*>(keel_calloc(3, std::size_t{1} << 20));
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z[(std::size_t{3} << 20) - 1], 0);
  keel_free(z);
  errno = 0;
  EXPECT_EQ(keel_calloc(static_cast<std::size_t>(-1) / 2, 3), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  errno = 0;
  EXPECT_EQ(keel_reallocarray(nullptr, static_cast<std::size_t>(-1) / 2, 3), nullptr);
  EXPECT_EQ(errno, ENOMEM);
}

TEST(AllocApi, ReallocGrowAndShrinkKeepContents) {
  void* p = keel_realloc(nullptr, 10);  // realloc(NULL) is malloc
  ASSERT_NE(p, nullptr);
  fill(p, 10, 9);
  std::size_t n = 10;
  while (n < (std::size_t{6} << 20)) {  // through every class and into huge blocks
    const std::size_t m = n + n / 3 + 1;
    p = keel_realloc(p, m);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(check(p, n, 9)) << n;
    fill(p, m, 9);
    n = m;
  }
  while (n > 8) {
    const std::size_t m = n / 2;
    p = keel_realloc(p, m);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(check(p, m, 9)) << m;
    n = m;
  }
  EXPECT_EQ(keel_realloc(p, 0), nullptr);  // glibc: frees, returns NULL
  void* q = keel_malloc(100);
  void* same = keel_realloc(q, 90);  // shrinking within the class stays in place
  EXPECT_EQ(same, q);
  keel_free(same);
  void* arr = keel_reallocarray(nullptr, 10, 10);
  EXPECT_GE(keel_malloc_usable_size(arr), 100u);
  keel_free(arr);
}

// A lone buffer above 64 KiB grown by realloc in x1.25 steps grows in place (its page takes the
// free slices behind it) nearly every time: a one-block page is placed with free slices behind
// it (at the top of the free slices it moved at 4 of these 12 steps), and a page that grew is
// not kept for its class once empty (the next round's first block would be the grown one, too
// big for it: realloc moved it). Hardened pages never grow in place (a guard page ends each).
TEST(AllocApi, LoneGrowingBufferGrowsInPlace) {
  const char* hardened = std::getenv("KEEL_ALLOC_HARDENED");
  if (hardened && std::strcmp(hardened, "1") == 0) GTEST_SKIP() << "no in-place growth";
  for (int round = 0; round < 3; ++round) {
    std::size_t n = 80 << 10;
    void* p = keel_malloc(n);
    ASSERT_NE(p, nullptr);
    fill(p, n, 5);
    int in_place = 0, steps = 0;
    while (n < (std::size_t{1} << 20)) {
      const std::size_t m = std::min(n + n / 4, std::size_t{1} << 20);
      void* q = keel_realloc(p, m);
      ASSERT_NE(q, nullptr);
      ASSERT_TRUE(check(q, n, 5)) << m;
      fill(q, m, 5);
      in_place += q == p;
      ++steps;
      p = q;
      n = m;
    }
    keel_free(p);
    EXPECT_EQ(steps, 12);
    EXPECT_GE(in_place, 10) << "round " << round;
  }
}

TEST(AllocApi, ReallocarrayOverflowKeepsBlock) {
  auto* p = static_cast<unsigned char*>(keel_malloc(64));
  ASSERT_NE(p, nullptr);
  fill(p, 64, 3);
  errno = 0;
  EXPECT_EQ(keel_reallocarray(p, static_cast<std::size_t>(-1) / 8 + 1, 8), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  EXPECT_TRUE(check(p, 64, 3));  // untouched, still owned by the caller
  auto* q = static_cast<unsigned char*>(keel_reallocarray(p, 100, 8));
  ASSERT_NE(q, nullptr);
  EXPECT_TRUE(check(q, 64, 3));
  EXPECT_GE(keel_malloc_usable_size(q), 800u);
  keel_free(q);
}

// The process's mapped size in bytes (from /proc, without allocating).
std::size_t mapped_bytes() {
  char buf[128] = {};
  const int fd = open("/proc/self/statm", O_RDONLY);
  if (fd < 0) return 0;
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return 0;
  std::size_t pages = 0;
  for (const char* c = buf; *c >= '0' && *c <= '9'; ++c) pages = pages * 10 + (*c - '0');
  return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// With the address space capped, every entry point runs out: NULL with ENOMEM, never a crash,
// and memory freed afterwards is usable again. In a child process (the cap is process-wide).
TEST(AllocApi, ExhaustionGivesNullAndEnomem) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::size_t vm = mapped_bytes();
    if (vm == 0) _exit(10);
    const rlimit cap{vm + (std::size_t{48} << 20), vm + (std::size_t{48} << 20)};
    if (setrlimit(RLIMIT_AS, &cap) != 0) _exit(11);
    static void* held[1 << 18];
    std::size_t n = 0;
    // Largest first: each size then finds only what the larger ones left. 2 MiB too: a free
    // region that earlier tests in this process left cached (a shuffled run) can hold 2 MiB but
    // not 3, and the aligned_alloc of 2 MiB below would then succeed.
    const std::size_t sizes[] = {std::size_t{3} << 20, std::size_t{2} << 20, 60000, 3000, 48};
    for (const std::size_t size : sizes) {
      for (;;) {
        if (n == sizeof held / sizeof held[0]) _exit(12);  // the cap did not bite
        errno = 0;
        void* p = keel_malloc(size);
        if (!p) {
          if (errno != ENOMEM) _exit(13);
          break;
        }
        static_cast<char*>(p)[size - 1] = 1;  // the memory is really there
        held[n++] = p;
      }
    }
    errno = 0;
    if (keel_calloc(1000, 1000) != nullptr || errno != ENOMEM) _exit(14);
    errno = 0;
    if (keel_aligned_alloc(4096, std::size_t{2} << 20) != nullptr || errno != ENOMEM) _exit(15);
    void* out = nullptr;
    if (keel_posix_memalign(&out, 64, std::size_t{8} << 20) != ENOMEM) _exit(16);
    errno = 0;
    void* grown = keel_realloc(held[0], std::size_t{64} << 20);  // a huge block
    if (grown != nullptr || errno != ENOMEM) _exit(17);
    for (std::size_t i = 0; i < n; ++i) keel_free(held[i]);
    keel_malloc_trim(0);
    void* again = keel_malloc(60000);
    void* big = keel_malloc(std::size_t{3} << 20);
    if (!again || !big) _exit(18);
    keel_free(again);
    keel_free(big);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child died with signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(AllocApi, FreeKeepsErrnoAndAcceptsNull) {
  keel_free(nullptr);
  EXPECT_EQ(keel_malloc_usable_size(nullptr), 0u);
  void* a = keel_malloc(100);
  void* b = keel_malloc(std::size_t{3} << 20);
  errno = 1234;
  keel_free(a);
  keel_free(b);
  EXPECT_EQ(errno, 1234);
}

TEST(AllocApi, InfoAndTrim) {
  const keel_alloc_info before = keel_alloc_info_get();
  std::vector<void*> v;
  for (int i = 0; i < 512; ++i) v.push_back(keel_malloc(60000));  // ~30 MiB in pages
  void* huge = keel_malloc(std::size_t{16} << 20);
  const keel_alloc_info during = keel_alloc_info_get();
  EXPECT_GE(during.in_pages, before.in_pages + 512u * 60000u / 2);
  EXPECT_GE(during.huge_mapped, before.huge_mapped + (std::size_t{16} << 20));
  EXPECT_GE(during.mapped, during.in_pages);
  EXPECT_GE(during.heaps, 1u);
  for (void* p : v) keel_free(p);
  keel_free(huge);
  EXPECT_EQ(keel_malloc_trim(0), 1);
  const keel_alloc_info after = keel_alloc_info_get();
  EXPECT_LT(after.in_pages, during.in_pages);
  EXPECT_EQ(after.huge_mapped, before.huge_mapped);
  EXPECT_GT(after.purged, before.purged);
}

TEST(AllocApi, StdAllocator) {
  std::vector<int, keel::alloc::allocator<int>> v;
  for (int i = 0; i < 100000; ++i) v.push_back(i);
  long long sum = 0;
  for (int x : v) sum += x;
  EXPECT_EQ(sum, 4999950000LL);
  struct alignas(64) wide {
    char c[64];
  };
  std::vector<wide, keel::alloc::allocator<wide>> w(10);
  EXPECT_TRUE(aligned(w.data(), 64));
}

using AllocMisuseDeathTest = ::testing::Test;

TEST_F(AllocMisuseDeathTest, FreeOfForeignPointerAborts) {
  static int on_stack_like = 0;
  EXPECT_DEATH(keel_free(&on_stack_like), "pointer not allocated by keel");
  int local = 0;
  EXPECT_DEATH(keel_free(&local), "pointer not allocated by keel");
  // glibc reads a header in front of any pointer; keel refuses pointers it does not own.
  EXPECT_DEATH((void)keel_malloc_usable_size(&local), "pointer not allocated by keel");
  std::vector<char> foreign(100);  // std::allocator, not keel
  EXPECT_DEATH((void)keel_realloc(foreign.data(), 200), "pointer not allocated by keel");
}

TEST_F(AllocMisuseDeathTest, DoubleFreeAborts) {
  EXPECT_DEATH(
      {
        void* keep = keel_malloc(32);  // the page stays in use
        void* p = keel_malloc(32);
        keel_free(p);
        keel_free(p);
        keel_free(keep);
      },
      "double free");
  EXPECT_DEATH(
      {
        void* p = keel_malloc(std::size_t{2} << 20);
        keel_free(p);
        keel_free(p);
      },
      "not allocated by keel|double free");
}

// A free from a thread that does not own the page takes the remote path: a block already free
// there (on the owner's list or on the page's remote list) is still caught.
TEST_F(AllocMisuseDeathTest, DoubleFreeFromAnotherThreadAborts) {
  EXPECT_DEATH(
      {
        void* keep = keel_malloc(48);
        void* p = keel_malloc(48);
        keel_free(p);
        std::thread([p] { keel_free(p); }).join();
        keel_free(keep);
      },
      "double free");
  EXPECT_DEATH(
      {
        void* keep = keel_malloc(48);
        void* p = keel_malloc(48);
        std::thread([p] {
          keel_free(p);
          keel_free(p);
        }).join();
        keel_free(keep);
      },
      "double free");
}

// Inside a keel segment but in no page (the header slice): the page lookup gives the no-page
// sentinel, which must reach the checks, never the free lists.
TEST_F(AllocMisuseDeathTest, FreeInsideSegmentOutsidePagesAborts) {
  EXPECT_DEATH(
      {
        void* keep = keel_malloc(64);
        const auto seg = reinterpret_cast<std::uintptr_t>(keep) & ~((std::uintptr_t{4} << 20) - 1);
        keel_free(reinterpret_cast<void*>(seg + 16384));
      },
      "not allocated by keel");
  EXPECT_DEATH(
      {
        void* keep = keel_malloc(64);
        const auto seg = reinterpret_cast<std::uintptr_t>(keep) & ~((std::uintptr_t{4} << 20) - 1);
        (void)keel_realloc(reinterpret_cast<void*>(seg + 16384), 100);
      },
      "not allocated by keel");
}

TEST_F(AllocMisuseDeathTest, MisalignedPointerAborts) {
  EXPECT_DEATH(
      {
        auto* p = static_cast<char*>(keel_malloc(64));
        keel_free(p + 4);
      },
      "middle of a block|not allocated by keel");
  EXPECT_DEATH(
      {
        auto* p = static_cast<char*>(keel_malloc(64));
        keel_free(p + 1);
      },
      "middle of a block|not allocated by keel");
}

TEST_F(AllocMisuseDeathTest, InteriorPointerAborts) {
  EXPECT_DEATH(
      {
        auto* p = static_cast<char*>(keel_malloc(std::size_t{3} << 20));
        keel_free(p + 4096);
      },
      "not allocated by keel");
  EXPECT_DEATH(
      {
        auto* p = static_cast<char*>(keel_malloc(100));
        keel_free(p + 8);
      },
      "middle of a block|not allocated by keel");
}

// Run by the `alloc.hardened.*` ctest entries (KEEL_ALLOC_HARDENED=1); skipped otherwise.
TEST_F(AllocMisuseDeathTest, HardenedDetectsCorruptedFreeList) {
  const char* hardened = std::getenv("KEEL_ALLOC_HARDENED");
  if (!hardened || std::strcmp(hardened, "1") != 0) GTEST_SKIP() << "needs KEEL_ALLOC_HARDENED=1";
  EXPECT_DEATH(
      {
        auto* a = static_cast<std::uintptr_t*>(keel_malloc(48));
        void* keep = keel_malloc(48);
        keel_free(a);
        a[0] = 0x4141414141414141ull;  // use after free: overwrite the free-list link
        void* x = keel_malloc(48);
        void* y = keel_malloc(48);
        keel_free(x);
        keel_free(y);
        keel_free(keep);
      },
      "heap corruption");
}

// A hardened page's frees all leave the fast path (owner or not); a 16-byte aligned pointer into
// the middle of a block must still be refused, never pushed onto a free list.
TEST_F(AllocMisuseDeathTest, HardenedInteriorPointerAborts) {
  const char* hardened = std::getenv("KEEL_ALLOC_HARDENED");
  if (!hardened || std::strcmp(hardened, "1") != 0) GTEST_SKIP() << "needs KEEL_ALLOC_HARDENED=1";
  EXPECT_DEATH(
      {
        auto* p = static_cast<char*>(keel_malloc(48));
        keel_free(p + 16);
      },
      "middle of a block");
  EXPECT_DEATH(
      {
        auto* p = static_cast<char*>(keel_malloc(48));
        std::thread([p] { keel_free(p + 32); }).join();
      },
      "middle of a block");
}

// realloc of a hardened page's block is checked before it can return the pointer (even when the
// new size fits): a freed block, the middle of a block, a block start not carved yet.
TEST_F(AllocMisuseDeathTest, HardenedReallocChecksThePointer) {
  const char* hardened = std::getenv("KEEL_ALLOC_HARDENED");
  if (!hardened || std::strcmp(hardened, "1") != 0) GTEST_SKIP() << "needs KEEL_ALLOC_HARDENED=1";
  EXPECT_DEATH(
      {
        void* keep = keel_malloc(100);  // the page stays in use
        void* p = keel_malloc(100);
        keel_free(p);
        void* q = keel_realloc(p, 100);  // fits: returned p before the fix
        void* r = keel_malloc(100);      // ... and this was p again: live twice
        std::fprintf(stderr, "not refused: %p %p\n", q, r);
        keel_free(keep);
      },
      "realloc\\(\\): pointer to a freed block");
  EXPECT_DEATH(
      {
        auto* p = static_cast<char*>(keel_malloc(112));
        void* q = keel_realloc(p + 16, 60);  // returned the interior pointer before the fix
        std::fprintf(stderr, "not refused: %p\n", q);
      },
      "middle of a block");
  EXPECT_DEATH(
      {
        // A fresh page of the 40 KiB class (a new thread: a heap with no pages of its own) has
        // carved its first block only; the next block start lies past the carved blocks.
        std::thread([] {
          auto* p = static_cast<char*>(keel_malloc(40000));
          void* q = keel_realloc(p + keel_malloc_usable_size(p), 30000);  // fits
          std::fprintf(stderr, "not refused: %p\n", q);
        }).join();
      },
      "outside the page's blocks");
}

}  // namespace
