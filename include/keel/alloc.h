// SPDX-License-Identifier: MIT
// keel::alloc umbrella header: the prefixed API (keel_malloc, keel_free, ...), the process
// figures and keel::alloc::allocator<T>. See include/keel/alloc/api.h and docs/alloc.md.
#pragma once

#include "keel/alloc/api.h"
