// SPDX-License-Identifier: MIT
// keel::alloc quick start: the prefixed API, keel's allocator in standard containers, and the
// process figures. To give a whole program keel's malloc without changing it, preload the shared
// library instead: LD_PRELOAD=/path/to/libkeel_malloc.so ./program (see docs/alloc.md).
#include <keel/alloc.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

int main() {
  // The prefixed API is keel's allocator whether or not keel also replaces malloc. Memory from
  // keel_* is returned with keel_free / keel_realloc.
  char* text = static_cast<char*>(keel_malloc(64));
  if (!text) {
    std::perror("keel_malloc");
    return 1;
  }
  std::strcpy(text, "hello from keel_malloc");
  char* longer = static_cast<char*>(keel_realloc(text, 4096));  // grows, keeps the contents
  if (!longer) {
    keel_free(text);  // realloc failure leaves the block as it was
    return 1;
  }
  std::printf("%s (%zu usable bytes)\n", longer, keel_malloc_usable_size(longer));
  keel_free(longer);

  // Failures are values, as with glibc: an impossible request returns NULL and sets errno.
  errno = 0;
  void* huge = keel_calloc(SIZE_MAX / 2, 4);  // count * size overflows
  std::printf("calloc overflow: %s, errno %s\n", huge ? "allocated?" : "NULL",
              errno == ENOMEM ? "ENOMEM" : "other");
  if (huge) return 1;

  void* aligned = nullptr;
  if (keel_posix_memalign(&aligned, 64, 1000) != 0) return 1;
  std::printf("64-byte aligned: %s\n",
              reinterpret_cast<std::uintptr_t>(aligned) % 64 == 0 ? "yes" : "no");
  keel_free(aligned);

  // keel::alloc::allocator<T> puts keel under standard containers without replacing malloc.
  std::vector<int, keel::alloc::allocator<int>> numbers;
  for (int i = 0; i < 100000; ++i) numbers.push_back(i);
  using kstring = std::basic_string<char, std::char_traits<char>, keel::alloc::allocator<char>>;
  std::map<int, kstring, std::less<>, keel::alloc::allocator<std::pair<const int, kstring>>> names;
  names.emplace(1, kstring("one, long enough to leave the small-string buffer"));

  // Process-wide figures (cheap: kept on slow paths).
  const keel_alloc_info info = keel_alloc_info_get();
  std::printf("vector of %zu ints; keel has %zu KiB mapped in %zu segments, %zu thread heaps\n",
              numbers.size(), info.mapped / 1024, info.segments, info.heaps);
  return numbers.back() == 99999 && info.mapped > 0 ? 0 : 1;
}
