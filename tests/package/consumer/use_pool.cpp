// SPDX-License-Identifier: MIT
// keel::pool from an installed package: a future, a task group and a parallel loop.
#include <keel/pool.h>

#include <atomic>
#include <cstdio>
#include <vector>

int use_pool() {
  keel::pool::thread_pool p(2);
  int failures = 0;
  if (p.size() != 2) ++failures;
  if (p.submit([](int x) { return x * 2; }, 21).get() != 42) ++failures;

  std::atomic<int> n{0};
  keel::pool::task_group g(p);
  for (int i = 0; i < 100; ++i) g.run([&] { n++; });
  g.wait();
  if (n.load() != 100) ++failures;

  std::vector<int> v(1000, 1);
  keel::pool::parallel_for(p, 0, v.size(), [&](std::size_t i) { v[i] += static_cast<int>(i); });
  long sum = 0;
  for (int x : v) sum += x;
  if (sum != 1000 + 999 * 1000 / 2) ++failures;

  if (failures) std::printf("use_pool: %d failures\n", failures);
  return failures;
}
