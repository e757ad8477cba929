// SPDX-License-Identifier: MIT
// Every KEEL_ALLOC_* variable in one table, read once from the environment at process start
// (walking `environ` directly: no getenv, no allocation). Nothing reads them on a hot path.
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "alloc/internal.h"

extern char** environ;

namespace keel::alloc::detail {

#ifndef KEEL_ALLOC_HARDENED_DEFAULT
#define KEEL_ALLOC_HARDENED_DEFAULT 0
#endif

options_t g_options = {
    /*stats=*/0, /*hardened=*/KEEL_ALLOC_HARDENED_DEFAULT, /*decay_ms=*/30, /*segment_cache=*/8,
    /*verbose=*/0};

namespace {

struct option_desc {
  const char* name;  // after the KEEL_ALLOC_ prefix
  long* value;
  long min, max;
  const char* help;
};

const option_desc kOptions[] = {
    {"STATS", &g_options.stats, 0, 1, "print statistics at exit"},
    {"HARDENED", &g_options.hardened, 0, 1, "encoded free lists, guard pages, list checks"},
    {"DECAY_MS", &g_options.decay_ms, 0, 3600000, "ms free memory is kept before madvise"},
    {"SEGMENT_CACHE", &g_options.segment_cache, 0, 1024, "empty 4 MiB segments kept mapped"},
    {"VERBOSE", &g_options.verbose, 0, 1, "print the options at start"},
};

// Parses a decimal number; false (and the default stays) when malformed or out of range.
bool parse(const char* s, long min, long max, long* out) {
  if (*s == 0) return false;
  long v = 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return false;
    v = v * 10 + (*s - '0');
    if (v > max) return false;
  }
  if (v < min) return false;
  *out = v;
  return true;
}

void write_num(long v) {
  char buf[24];
  int n = 0;
  char tmp[24];
  if (v == 0) tmp[n++] = '0';
  while (v > 0) {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
  int i = 0;
  while (n > 0) buf[i++] = tmp[--n];
  buf[i] = 0;
  os_write(buf);
}

}  // namespace

void options_init() {
  static const char kPrefix[] = "KEEL_ALLOC_";
  for (char** e = environ; e && *e; ++e) {
    const char* kv = *e;
    if (std::strncmp(kv, kPrefix, sizeof kPrefix - 1) != 0) continue;
    const char* name = kv + sizeof kPrefix - 1;
    const char* eq = std::strchr(name, '=');
    if (!eq) continue;
    bool known = false;
    for (const option_desc& o : kOptions) {
      const std::size_t len = std::strlen(o.name);
      if (static_cast<std::size_t>(eq - name) == len && std::strncmp(name, o.name, len) == 0) {
        known = true;
        if (!parse(eq + 1, o.min, o.max, o.value)) {
          os_write("keel::alloc: ignoring malformed or out-of-range ");
          os_write(kv);
          os_write("\n");
        }
      }
    }
    if (!known) {
      os_write("keel::alloc: unknown option ");
      os_write(kv);
      os_write("\n");
    }
  }
}

void options_print() {
  for (const option_desc& o : kOptions) {
    os_write("keel::alloc: KEEL_ALLOC_");
    os_write(o.name);
    os_write("=");
    write_num(*o.value);
    os_write("  (");
    os_write(o.help);
    os_write(")\n");
  }
}

}  // namespace keel::alloc::detail
