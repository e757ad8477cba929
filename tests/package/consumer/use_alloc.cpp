// SPDX-License-Identifier: MIT
// keel::alloc from the installed package: the prefixed API without replacing malloc.
#include <keel/alloc.h>

#include <cstring>
#include <vector>

int use_alloc() {
  char* p = static_cast<char*>(keel_malloc(100));
  if (!p) return 1;
  std::strcpy(p, "keel");
  p = static_cast<char*>(keel_realloc(p, 5000));
  if (!p || std::strcmp(p, "keel") != 0 || keel_malloc_usable_size(p) < 5000) return 1;
  keel_free(p);
  std::vector<int, keel::alloc::allocator<int>> v(1000, 7);
  return v[999] == 7 ? 0 : 1;
}
