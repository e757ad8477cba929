// SPDX-License-Identifier: MIT
// keel::pool quick start: futures, task groups, parallel loops, cancellation and errors.
#include <keel/pool.h>

#include <atomic>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace {

long fib(keel::pool::thread_pool& pool, int n) {
  if (n < 20) return n < 2 ? n : fib(pool, n - 1) + fib(pool, n - 2);
  long a = 0, b = 0;
  keel::pool::task_group g(pool);  // fork-join: wait() runs queued tasks, so nesting is safe
  g.run([&] { a = fib(pool, n - 1); });
  b = fib(pool, n - 2);
  g.wait();
  return a + b;
}

}  // namespace

int main() {
  keel::pool::thread_pool pool;  // one worker per CPU the process may run on
  std::printf("%zu workers\n", pool.size());

  // submit: a future of the callable's result; get() waits (running queued tasks meanwhile).
  auto answer = pool.submit([](int x) { return x * 2; }, 21);
  const int a = answer.get();  // the future is consumed: answer.valid() is now false
  std::printf("answer: %d\n", a);

  // An exception thrown by a task reaches the caller of get().
  auto failing = pool.submit([]() -> int { throw std::runtime_error("task failed"); });
  try {
    failing.get();
    return 1;
  } catch (const std::runtime_error& e) {
    std::printf("caught: %s\n", e.what());
  }

  // Fork-join recursion with task groups.
  const long f = fib(pool, 27);
  std::printf("fib(27) = %ld\n", f);

  // parallel_for splits [begin, end) into chunks; the calling thread helps.
  std::vector<double> squares(1'000'000);
  keel::pool::parallel_for(pool, 0, squares.size(), [&](std::size_t i) {
    squares[i] = static_cast<double>(i) * static_cast<double>(i);
  });
  const double sum = std::accumulate(squares.begin(), squares.end(), 0.0);
  std::printf("sum of squares: %.6g\n", sum);

  // Cancellation: tasks of a cancelled group that have not started are skipped.
  keel::pool::task_group g(pool);
  std::atomic<int> ran{0};
  g.cancel();
  for (int i = 0; i < 100; ++i) g.run([&] { ran.fetch_add(1); });
  const keel::pool::group_status status = g.wait();
  std::printf("tasks run after cancel: %d (group %s)\n", ran.load(),
              status == keel::pool::group_status::cancelled ? "cancelled" : "complete");

  return a == 42 && f == 196418 && ran.load() == 0 ? 0 : 1;
}
