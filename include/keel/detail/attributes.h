// SPDX-License-Identifier: MIT
// Compiler attribute macros for every component (one definition; GCC and Clang spell them the
// same, other compilers get the plain forms).
#pragma once

#if defined(__GNUC__) || defined(__clang__)
// Always inlined (hot paths whose call overhead or lost constant folding was measured).
#define KEEL_INLINE inline __attribute__((always_inline))
// The same for a lambda: `[&](int x) KEEL_INLINE_LAMBDA { ... }`.
#define KEEL_INLINE_LAMBDA __attribute__((always_inline))
// Never inlined (keeps a rare path's code out of its caller).
#define KEEL_NOINLINE __attribute__((noinline))
// Rarely run and never inlined (error paths).
#define KEEL_COLD __attribute__((cold, noinline))
#define KEEL_LIKELY(x) __builtin_expect(!!(x), 1)
#define KEEL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define KEEL_INLINE inline
#define KEEL_INLINE_LAMBDA
#define KEEL_NOINLINE
#define KEEL_COLD
#define KEEL_LIKELY(x) (x)
#define KEEL_UNLIKELY(x) (x)
#endif
