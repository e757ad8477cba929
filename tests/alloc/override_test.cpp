// SPDX-License-Identifier: MIT
// The glibc surface and C++ operators when keel replaces malloc (this binary links
// libkeel_malloc.so, so its definitions take precedence over glibc's, as with LD_PRELOAD).
#include <errno.h>
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "keel/alloc.h"

extern "C" {
void cfree(void*);
void* __libc_malloc(size_t);
void __libc_free(void*);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void* __libc_valloc(size_t);
void* __libc_pvalloc(size_t);
}

namespace {

// Keeps the compiler from eliding an allocation it can see is unused (new/delete pairs may be).
void escape(void* p) { asm volatile("" : : "g"(p) : "memory"); }

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

// keel's usable size aborts on pointers keel did not allocate: a cheap ownership check.
// (Through a volatile: gcc would otherwise warn that the block's bytes are read uninitialised.)
std::size_t keel_owned(void* p) {
  void* volatile v = p;
  return keel_malloc_usable_size(v);
}

TEST(AllocOverride, MallocFamilyIsKeel) {
  void* p = std::malloc(100);
  EXPECT_GE(keel_owned(p), 100u);
  EXPECT_EQ(malloc_usable_size(p), keel_owned(p));
  keel_free(p);  // the same allocator: mixing is fine
  void* q = keel_malloc(50);
  std::free(q);
  auto* c = static_cast<unsigned char*>(std::calloc(1000, 3));
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(c[i], 0);
  EXPECT_GE(keel_owned(c), 3000u);
  c = static_cast<unsigned char*>(std::realloc(c, 100000));
  EXPECT_GE(keel_owned(c), 100000u);
  std::free(c);
  void* r = reallocarray(nullptr, 7, 9);
  EXPECT_GE(keel_owned(r), 63u);
  std::free(r);
  char* s = strdup("libc calls keel too");  // glibc's strdup calls malloc
  EXPECT_GE(keel_owned(s), 20u);
  std::free(s);
  EXPECT_EQ(mallinfo2().arena > 0, true);
}

TEST(AllocOverride, GlibcSemantics) {
  errno = 0;
  volatile std::size_t huge_count = static_cast<std::size_t>(-1) / 4;  // hidden from the compiler
  EXPECT_EQ(std::calloc(huge_count, 8), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  void* z = std::malloc(0);
  EXPECT_NE(z, nullptr);
  std::free(z);
  void* p = std::malloc(10);
  EXPECT_EQ(std::realloc(p, 0), nullptr);
  void* n = std::realloc(nullptr, 33);
  EXPECT_GE(keel_owned(n), 33u);
  errno = 77;
  std::free(n);
  std::free(nullptr);
  EXPECT_EQ(errno, 77);
  void* out = nullptr;
  EXPECT_EQ(posix_memalign(&out, 3, 10), EINVAL);
  ASSERT_EQ(posix_memalign(&out, 256, 1000), 0);
  EXPECT_TRUE(aligned(out, 256));
  std::free(out);
  void* al = aligned_alloc(4096, std::size_t{4096} * 3);
  EXPECT_TRUE(aligned(al, 4096));
  std::free(al);
  void* m = memalign(128, 77);
  EXPECT_TRUE(aligned(m, 128));
  EXPECT_GE(malloc_usable_size(m), 77u);
  std::free(m);
  void* v = valloc(10);
  EXPECT_TRUE(aligned(v, 4096));
  std::free(v);
  void* pv = pvalloc(1);
  EXPECT_TRUE(aligned(pv, 4096));
  EXPECT_GE(malloc_usable_size(pv), 4096u);
  cfree(pv);
  EXPECT_EQ(malloc_usable_size(nullptr), 0u);
}

TEST(AllocOverride, LibcAliases) {
  void* a = __libc_malloc(40);
  EXPECT_GE(keel_owned(a), 40u);
  a = __libc_realloc(a, 4000);
  EXPECT_GE(keel_owned(a), 4000u);
  __libc_free(a);
  auto* c = static_cast<unsigned char*>(__libc_calloc(10, 10));
  EXPECT_EQ(c[99], 0);
  __libc_free(c);
  void* m = __libc_memalign(64, 10);
  EXPECT_TRUE(aligned(m, 64));
  __libc_free(m);
  void* v = __libc_valloc(1);
  EXPECT_TRUE(aligned(v, 4096));
  __libc_free(v);
  void* pv = __libc_pvalloc(1);
  EXPECT_TRUE(aligned(pv, 4096));
  __libc_free(pv);
}

TEST(AllocOverride, MallinfoAndTrim) {
  const struct mallinfo2 before = mallinfo2();
  std::vector<void*> v;
  for (int i = 0; i < 200; ++i) v.push_back(std::malloc(50000));
  void* huge = std::malloc(std::size_t{8} << 20);
  escape(huge);
  for (void* p : v) escape(p);
  const struct mallinfo2 during = mallinfo2();
  EXPECT_GE(during.uordblks, before.uordblks + 200u * 50000u / 2);
  EXPECT_GE(during.hblkhd, before.hblkhd + (std::size_t{8} << 20));
  EXPECT_EQ(during.hblks, before.hblks + 1);
  EXPECT_GE(during.arena, during.uordblks - during.hblkhd);
  for (void* p : v) std::free(p);
  std::free(huge);
  EXPECT_EQ(malloc_trim(0), 1);
  const struct mallinfo2 after = mallinfo2();
  EXPECT_LT(after.uordblks, during.uordblks);
  EXPECT_EQ(after.hblks, before.hblks);
}

struct alignas(256) overaligned {
  unsigned char bytes[300];
};

TEST(AllocOverride, OperatorNewDeletePairs) {
  auto* i = new int(5);
  EXPECT_GE(keel_owned(i), sizeof(int));
  delete i;
  auto* arr = new long[1000];
  EXPECT_GE(keel_owned(arr), 8000u);
  delete[] arr;
  auto* nt = new (std::nothrow) char[64];
  EXPECT_GE(keel_owned(nt), 64u);
  delete[] nt;
  auto* oa = new overaligned;
  EXPECT_TRUE(aligned(oa, 256));
  EXPECT_GE(keel_owned(oa), sizeof(overaligned));
  delete oa;
  auto* oarr = new overaligned[5];
  EXPECT_TRUE(aligned(oarr, 256));
  delete[] oarr;
  auto* oant = new (std::nothrow) overaligned;
  EXPECT_TRUE(aligned(oant, 256));
  delete oant;
  void* raw = ::operator new (100, std::align_val_t{1024});
  EXPECT_TRUE(aligned(raw, 1024));
  ::operator delete (raw, 100, std::align_val_t{1024});
  void* sized = ::operator new(48);
  ::operator delete(sized, 48);
  void* sized_arr = ::operator new[](480);
  ::operator delete[](sized_arr, 480);
  void* ant = ::operator new[](100, std::align_val_t{64}, std::nothrow);
  ::operator delete[](ant, std::align_val_t{64}, std::nothrow);
  std::vector<std::string> strings;
  for (int k = 0; k < 1000; ++k) strings.push_back(std::string(k % 100 + 20, 'x'));
  EXPECT_EQ(strings[999].size(), 119u);
  auto sp = std::make_shared<std::vector<int>>(1000, 3);
  EXPECT_EQ((*sp)[999], 3);
}

TEST(AllocOverride, NewFailureThrowsAndNothrowReturnsNull) {
  const std::size_t too_big = std::size_t{1} << 62;
  EXPECT_THROW((void)::operator new(too_big), std::bad_alloc);
  EXPECT_EQ(::operator new(too_big, std::nothrow), nullptr);
  EXPECT_EQ(::operator new[](too_big, std::align_val_t{64}, std::nothrow), nullptr);
  EXPECT_THROW((void)::operator new (too_big, std::align_val_t{64}), std::bad_alloc);
}

// The new-handler loop: a failed new calls std::get_new_handler()'s handler and retries while one
// is installed (re-read every round); the nothrow forms return NULL once none is left.
int g_handler_calls = 0;
void handler_gives_up_after_three() {
  if (++g_handler_calls == 3) std::set_new_handler(nullptr);
}
void handler_throws() {
  ++g_handler_calls;
  throw std::bad_alloc();
}

TEST(AllocOverride, NewHandlerLoop) {
  const std::size_t too_big = std::size_t{1} << 62;
  g_handler_calls = 0;
  std::set_new_handler(handler_gives_up_after_three);
  EXPECT_THROW((void)::operator new(too_big), std::bad_alloc);
  EXPECT_EQ(g_handler_calls, 3);
  g_handler_calls = 0;
  std::set_new_handler(handler_gives_up_after_three);
  EXPECT_EQ(::operator new[](too_big, std::align_val_t{128}, std::nothrow), nullptr);
  EXPECT_EQ(g_handler_calls, 3);
  g_handler_calls = 0;
  std::set_new_handler(handler_throws);  // the handler's exception reaches the caller
  EXPECT_THROW((void)::operator new[](too_big), std::bad_alloc);
  EXPECT_EQ(g_handler_calls, 1);
  g_handler_calls = 0;  // ... and a nothrow form turns it into NULL
  EXPECT_EQ(::operator new(too_big, std::nothrow), nullptr);
  EXPECT_EQ(::operator new (too_big, std::align_val_t{64}, std::nothrow), nullptr);
  EXPECT_EQ(g_handler_calls, 2);
  std::set_new_handler(nullptr);
  // A handler is not called when memory is there.
  std::set_new_handler(handler_throws);
  g_handler_calls = 0;
  int* p = new int[1000];
  escape(p);
  delete[] p;
  EXPECT_EQ(g_handler_calls, 0);
  std::set_new_handler(nullptr);
}

using AllocOverrideDeathTest = ::testing::Test;

TEST_F(AllocOverrideDeathTest, FreeOfForeignPointerAbortsWithMessage) {
  static char not_heap[64];
  void* volatile foreign = not_heap + 16;  // hidden from the compiler's free-nonheap check
  EXPECT_DEATH(std::free(foreign), "keel::alloc: free\\(\\): pointer not allocated by keel");
  EXPECT_DEATH(
      {
        int* p = new int[4];
        int* volatile again = p;  // the compiler cannot see it is the same pointer
        escape(p);
        delete[] p;
        delete[] again;
      },
      "double free");
}

}  // namespace
