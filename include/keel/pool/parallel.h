// SPDX-License-Identifier: MIT
// Data-parallel loops over a thread_pool. The calling thread takes part; all of them block until
// every index is done and rethrow the first exception a chunk threw (once one chunk threw, chunks
// not yet started are skipped). On a pool that has shut down they run on the calling thread.
//
//   keel::pool::parallel_for(pool, 0, n, [&](std::size_t i) { out[i] = f(in[i]); });
//   keel::pool::parallel_for_each(pool, items, [](item& x) { x.update(); });
//   double sum = keel::pool::parallel_reduce(pool, 0, n, 0.0,
//       [&](std::size_t lo, std::size_t hi, double acc) { for (; lo < hi; ++lo) acc += v[lo];
//       return acc; }, std::plus<>{});
//
// grain: the largest number of indices one call of the body handles; 0 picks one from the range
// size and the number of workers (about 32 chunks per worker; 8 for parallel_reduce, which keeps
// one partial result per chunk). A loop makes a task only when the thread running a range has
// nothing queued for others to take (lazy binary splitting), so a small grain costs a call per
// chunk, not a task per chunk. Called on the only worker of a one-worker pool, a loop makes no
// tasks at all.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <optional>
#include <ranges>
#include <utility>
#include <vector>

#include "keel/pool/task_group.h"
#include "keel/pool/thread_pool.h"

namespace keel::pool {

namespace detail {

// A grain that cuts n indices into about per_worker chunks per worker.
inline std::size_t auto_grain(std::size_t n, std::size_t workers, std::size_t per_worker) noexcept {
  const std::size_t chunks = std::max<std::size_t>(workers, 1) * per_worker;
  return std::max<std::size_t>(1, (n + chunks - 1) / chunks);
}

struct group_access {
  static bool local_queue_empty(const task_group& g) noexcept { return g.local_queue_empty(); }
};

// Lazy binary splitting: runs [b, e) in pieces of `grain` from the front, and before each piece
// hands the upper half of what is left to the group if the calling thread's queue is empty (a
// thief took what it had, or nothing was there), so tasks are made only where another thread may
// take them; a range nobody steals is run by one task.
template <class F>
void lbs_run(task_group& g, std::size_t b, std::size_t e, std::size_t grain, F& chunk) {
  try {
    bool may_split = true;
    while (e - b > grain) {
      if (g.is_cancelled()) {
        return;
      }
      if (may_split && group_access::local_queue_empty(g)) {
        const std::size_t mid = b + (e - b) / 2;
        if (g.run([&g, mid, e, grain, &chunk] { lbs_run(g, mid, e, grain, chunk); }) ==
            error_code::ok) {
          e = mid;
          continue;
        }
        may_split = false;  // the pool refuses work: the rest runs here
      }
      chunk(b, b + grain);
      b += grain;
    }
    if (!g.is_cancelled()) {
      chunk(b, e);
    }
  } catch (...) {
    g.cancel();
    throw;
  }
}

}  // namespace detail

// Calls chunk(lo, hi) for disjoint sub-ranges that cover [begin, end), each at most `grain` long.
template <class F>
void parallel_for_chunks(thread_pool& p, std::size_t begin, std::size_t end, F&& chunk,
                         std::size_t grain = 0) {
  if (begin >= end) {
    return;
  }
  if (grain == 0) {
    grain = detail::auto_grain(end - begin, p.size(), 32);
  }
  if (end - begin <= grain) {
    chunk(begin, end);
    return;
  }
  if (p.size() == 1 && detail::on_worker_of(p.scheduler())) {
    // The pool's only worker: no other thread could take a split-off half (threads outside the
    // pool run only their own groups' tasks), so the range runs here without a group or tasks.
    for (; end - begin > grain; begin += grain) {
      chunk(begin, begin + grain);
    }
    chunk(begin, end);
    return;
  }
  task_group g(p);
  try {
    detail::lbs_run(g, begin, end, grain, chunk);
  } catch (...) {
    g.cancel();
    try {
      g.wait();
    } catch (...) {
    }
    throw;
  }
  g.wait();
}

// Calls f(i) for every i in [begin, end).
template <class F>
void parallel_for(thread_pool& p, std::size_t begin, std::size_t end, F&& f,
                  std::size_t grain = 0) {
  parallel_for_chunks(
      p, begin, end,
      [&f](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) {
          f(i);
        }
      },
      grain);
}

// Calls f(element) for every element of a random-access range (a vector, a span, ...).
template <std::ranges::random_access_range R, class F>
requires std::ranges::sized_range<R> && std::invocable<F&, std::ranges::range_reference_t<R>>
void parallel_for_each(thread_pool& p, R&& range, F&& f, std::size_t grain = 0) {
  auto first = std::ranges::begin(range);
  parallel_for_chunks(
      p, 0, static_cast<std::size_t>(std::ranges::size(range)),
      [&f, first](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i) {
          f(first[static_cast<std::ranges::range_difference_t<R>>(i)]);
        }
      },
      grain);
}

// Reduces [begin, end): each chunk computes map(lo, hi, identity); the partial results are then
// combined left to right with reduce(acc, partial), so the result does not depend on scheduling.
// At most 65536 chunks (the grain is raised if needed).
template <class T, class Map, class Reduce>
T parallel_reduce(thread_pool& p, std::size_t begin, std::size_t end, T identity, Map&& map,
                  Reduce&& reduce, std::size_t grain = 0) {
  if (begin >= end) {
    return identity;
  }
  const std::size_t n = end - begin;
  if (grain == 0) {
    grain = detail::auto_grain(n, p.size(), 8);  // every chunk keeps a T until the end
  }
  constexpr std::size_t kMaxChunks = 65536;
  grain = std::max(grain, (n + kMaxChunks - 1) / kMaxChunks);
  const std::size_t chunks = (n + grain - 1) / grain;
  std::vector<std::optional<T>> partial(chunks);
  parallel_for(
      p, 0, chunks,
      [&](std::size_t k) {
        const std::size_t lo = begin + k * grain;
        const std::size_t hi = std::min(end, lo + grain);
        partial[k].emplace(map(lo, hi, identity));
      },
      1);
  T acc = std::move(identity);
  for (auto& v : partial) {
    acc = reduce(std::move(acc), std::move(*v));
  }
  return acc;
}

}  // namespace keel::pool
