// SPDX-License-Identifier: MIT
// Calls one function per installed component (use_<component>.cpp); each returns 0 on success.
#include <cstdio>

int use_common();
int use_json();
int use_alloc();
int use_pool();
int use_bincode();
int use_bincode_batch();
int use_msg();

int main() {
  int failures = 0;
  int used = 0;
#ifdef KEEL_CONSUMER_COMMON
  failures += use_common(), ++used;
#endif
#ifdef KEEL_CONSUMER_JSON
  failures += use_json(), ++used;
#endif
#ifdef KEEL_CONSUMER_ALLOC
  failures += use_alloc(), ++used;
#endif
#ifdef KEEL_CONSUMER_POOL
  failures += use_pool(), ++used;
#endif
#ifdef KEEL_CONSUMER_BINCODE
  failures += use_bincode(), ++used;
#endif
#ifdef KEEL_CONSUMER_BINCODE_BATCH
  failures += use_bincode_batch(), ++used;
#endif
#ifdef KEEL_CONSUMER_MSG
  failures += use_msg(), ++used;
#endif
  std::printf("consumer: %d components used, %d failures\n", used, failures);
  return failures == 0 ? 0 : 1;
}
