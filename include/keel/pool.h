// SPDX-License-Identifier: MIT
// keel::pool — work-stealing thread pool, futures, task groups, parallel loops, cancellation.
// See docs/pool.md for the scheduler design and the exact semantics.
#pragma once

#include "keel/pool/cancel.h"
#include "keel/pool/error.h"
#include "keel/pool/future.h"
#include "keel/pool/options.h"
#include "keel/pool/parallel.h"
#include "keel/pool/task_group.h"
#include "keel/pool/thread_pool.h"
