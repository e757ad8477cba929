// SPDX-License-Identifier: MIT
// What a program that writes into freed blocks can make malloc do, with keel preloaded
// (LD_PRELOAD=libkeel_malloc.so; this binary does not link keel): in the default mode, a
// write into the link word of a freed block must not steer a later malloc to an address of the
// writer's choice, nor crash inside malloc without a word: malloc reports heap corruption and
// aborts. Another thread's free of a pointer into the middle of a block is refused too.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

// Keeps the compiler from seeing through the pointer (use after free is the point here).
void* hide(void* p) {
  asm volatile("" : "+r"(p));
  return p;
}

// Writes v into the first word of p, a freed block (through memcpy: no aliasing assumption).
void poke(void* p, std::uintptr_t v) { std::memcpy(hide(p), &v, sizeof v); }

bool keel_is_malloc() { return dlsym(RTLD_DEFAULT, "keel_alloc_override_anchor") != nullptr; }

alignas(64) char g_target[256];  // where a poisoned free list would send malloc

class AllocPoisonDeathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(keel_is_malloc()) << "run with LD_PRELOAD=libkeel_malloc.so";
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
};

// Frees one block of `size` (the head of its page's free list afterwards), writes `link` into
// it, then allocates twice from the class: the first malloc pops the written block, the second
// would return whatever the written link decodes to. Prints where the second one went.
void write_after_free(std::size_t size, std::uintptr_t link) {
  void* keep = hide(std::malloc(size));  // the page stays in use
  void* p = hide(std::malloc(size));
  std::free(hide(p));
  poke(p, link);
  // (hide: the compiler may assume that malloc never returns a global, or drop a malloc/free pair)
  void* a = hide(std::malloc(size));
  void* b = hide(std::malloc(size));
  std::fprintf(stderr, "second malloc returned %s\n",
               b == hide(g_target) ? "the written address" : "another block");
  std::free(a);
  std::free(b);
  std::free(keep);
}

TEST_F(AllocPoisonDeathTest, WriteAfterFreeCannotSteerMalloc) {
  for (std::size_t size : {16u, 48u, 200u, 1000u, 5000u}) {
    EXPECT_DEATH(write_after_free(size, reinterpret_cast<std::uintptr_t>(g_target)),
                 "keel::alloc: heap corruption")
        << size;
  }
}

TEST_F(AllocPoisonDeathTest, NonCanonicalLinkIsReportedNotACrash) {
  EXPECT_DEATH(write_after_free(64, 0xdead000000000000ull), "keel::alloc: heap corruption");
  EXPECT_DEATH(write_after_free(64, 0x4141414141414141ull), "keel::alloc: heap corruption");
}

// A block that is live in the same page, written unencoded: still not accepted.
TEST_F(AllocPoisonDeathTest, LinkToALiveBlockIsRejected) {
  EXPECT_DEATH(
      {
        void* live = hide(std::malloc(32));
        write_after_free(32, reinterpret_cast<std::uintptr_t>(live));
      },
      "keel::alloc: heap corruption");
}

// A block freed by another thread waits on the page's remote list; a write into it (here: the
// address of a live block of the same page, which a check of the page bounds alone accepts) is
// caught when the owner collects the list.
TEST_F(AllocPoisonDeathTest, WriteAfterRemoteFreeIsCaught) {
  EXPECT_DEATH(
      {
        constexpr int kBlocks = 8;
        void* blocks[kBlocks];
        for (void*& b : blocks) b = hide(std::malloc(96));
        void* live = hide(std::malloc(96));
        std::thread([&] {
          for (void* b : blocks) std::free(hide(b));
        }).join();
        poke(blocks[kBlocks - 1], reinterpret_cast<std::uintptr_t>(live));  // the list's head
        // Use up the page's local list and carved blocks, so that the remote list is collected.
        for (int i = 0; i < 100000; ++i) {
          if (hide(std::malloc(96)) == live) {
            std::fprintf(stderr, "malloc returned a live block\n");
            break;
          }
        }
      },
      "keel::alloc: heap corruption");
}

// A pointer into the middle of a block freed by a thread other than the page's owner (the remote
// free checks for a block start; the owner's own fast path does not: docs/alloc.md).
TEST_F(AllocPoisonDeathTest, RemoteFreeOfAnInteriorPointerIsRefused) {
  for (std::size_t size : {32u, 256u, 3000u}) {
    EXPECT_DEATH(
        {
          char* p = static_cast<char*>(hide(std::malloc(size)));
          std::thread([p] { std::free(hide(p + 16)); }).join();
        },
        "keel::alloc: free\\(\\): pointer into the middle of a block")
        << size;
  }
}

}  // namespace
