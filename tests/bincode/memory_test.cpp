// SPDX-License-Identifier: MIT
// What a hostile input can make a decode allocate: values that take no bytes (Vec<()>) share one
// budget over the whole decode, and a failed allocation is the error out_of_memory, never an
// exception out of a decode: checked in a child process under an address-space limit.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "keel/bincode.h"
#include "keel/bincode/batch.h"

namespace kb = keel::bincode;
using bytes = std::vector<std::uint8_t>;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // the sanitizers reserve terabytes of address space
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// Varint (standard config) length prefixes.
void put_len(bytes& b, std::uint64_t n) {
  if (n <= 250) {
    b.push_back(static_cast<std::uint8_t>(n));
  } else if (n <= 0xffff) {
    b.push_back(251);
    b.push_back(static_cast<std::uint8_t>(n));
    b.push_back(static_cast<std::uint8_t>(n >> 8));
  } else {
    b.push_back(252);
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
  }
}

// n inner vectors of `inner` zero-size elements each.
bytes nested_zero_size(std::uint64_t n, std::uint64_t inner) {
  bytes b;
  put_len(b, n);
  for (std::uint64_t i = 0; i < n; ++i) put_len(b, inner);
  return b;
}

// Runs f in a child process whose address space may grow by at most `extra` bytes beyond what
// it has at the start; returns f's result, or 128 + the signal that ended the child.
int in_child_with_address_space_limit(std::size_t extra, const std::function<int()>& f) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    long pages = 0;
    if (std::FILE* s = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(s, "%ld", &pages) != 1) pages = 0;
      std::fclose(s);
    }
    const auto now = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE));
    const rlimit rl{now + extra, now + extra};
    if (pages == 0 || setrlimit(RLIMIT_AS, &rl) != 0) _exit(99);
    _exit(f());
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST(BincodeMemory, ZeroSizeElementsShareOneBudgetPerDecode) {
  using nested = std::vector<std::vector<std::monostate>>;
  const std::size_t half = kb::max_zero_size_elements / 2;
  // Two halves of the budget: fine; a third inner vector: over it.
  auto two = kb::decode<nested>(nested_zero_size(2, half), kb::standard());
  ASSERT_TRUE(two.ok()) << two.error().to_string();
  EXPECT_EQ((*two)[1].size(), half);
  const bytes three = nested_zero_size(3, half);
  auto over = kb::decode<nested>(three, kb::standard());
  EXPECT_EQ(over.code(), kb::error_code::limit_exceeded);
  EXPECT_EQ(over.error().offset, three.size());  // after the third length
  // The budget is per decode: the next decode has all of it again.
  EXPECT_TRUE(kb::decode<nested>(nested_zero_size(2, half), kb::standard()).ok());
  // Elements of a bigger zero-size type count their size in memory.
  using wide = std::vector<std::array<std::monostate, 16>>;
  bytes fits, too_many;
  put_len(fits, kb::max_zero_size_elements / 16);
  put_len(too_many, kb::max_zero_size_elements / 16 + 1);
  EXPECT_TRUE(kb::decode<wide>(fits, kb::standard()).ok());
  EXPECT_EQ(kb::decode<wide>(too_many, kb::standard()).code(), kb::error_code::limit_exceeded);
  // Maps and sets of zero-size keys hold one element, whatever the count.
  bytes many;
  put_len(many, kb::max_zero_size_elements);
  auto set = kb::decode<std::set<std::monostate>>(many, kb::standard());
  ASSERT_TRUE(set.ok());
  EXPECT_EQ(set->size(), 1u);
  auto map = kb::decode<std::map<std::monostate, std::monostate>>(many, kb::standard());
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(map->size(), 1u);
}

// The input of the report: 64 KiB claiming 2^20 std::monostate per inner vector (13 GB in all
// before the budget). Under a 1 GiB address-space limit the decode must fail cleanly.
TEST(BincodeMemory, NestedZeroSizeInputUnderAnAddressSpaceLimit) {
  if (kSanitized) GTEST_SKIP() << "address-space limits do not work under sanitizers";
  const std::uint64_t inner = std::uint64_t{1} << 20;
  const bytes input = nested_zero_size((65536 - 3) / 5, inner);
  ASSERT_LE(input.size(), 65536u);
  const int rc = in_child_with_address_space_limit(std::size_t{1} << 30, [&] {
    auto r = kb::decode<std::vector<std::vector<std::monostate>>>(input, kb::standard());
    if (r.ok()) return 1;
    return r.code() == kb::error_code::limit_exceeded ? 0 : 2;
  });
  EXPECT_EQ(rc, 0) << "1: decoded; 2: another error; 134: aborted (std::bad_alloc escaped)";
}

// A well-formed input whose value needs more memory than the process may have: out_of_memory
// (every vector<string> element takes 32 bytes in memory for its one byte on the wire).
TEST(BincodeMemory, AllocationFailureIsAnErrorValue) {
  if (kSanitized) GTEST_SKIP() << "address-space limits do not work under sanitizers";
  const std::size_t n = std::size_t{64} << 20;
  bytes input;
  put_len(input, n);
  input.resize(input.size() + n, 0);  // n empty strings
  const int rc = in_child_with_address_space_limit(std::size_t{1} << 30, [&] {
    auto r = kb::decode<std::vector<std::string>>(input, kb::standard());
    if (r.ok()) return 1;
    if (r.code() != kb::error_code::out_of_memory) return 2;
    auto s = kb::decode<std::vector<std::vector<std::string>>>(
        [&] {
          bytes outer{1};  // one vector<string>: the input above
          outer.resize(1 + input.size());
          std::copy(input.begin(), input.end(), outer.begin() + 1);
          return outer;
        }(),
        kb::standard());
    return !s.ok() && s.code() == kb::error_code::out_of_memory ? 0 : 3;
  });
  EXPECT_EQ(rc, 0) << "1: decoded; 2/3: another error; 134: aborted (std::bad_alloc escaped)";
  // The batch form reports it as well.
  const int batch_rc = in_child_with_address_space_limit(std::size_t{1} << 30, [&] {
    std::vector<bytes> inputs(1, input);
    std::vector<std::vector<std::string>> outs;
    auto st = kb::decode_batch(kb::serial, std::span<const bytes>(inputs), outs, kb::standard());
    return !st.ok() && st.error.code == kb::error_code::out_of_memory ? 0 : 1;
  });
  EXPECT_EQ(batch_rc, 0);
}

TEST(BincodeMemory, OutOfMemoryHasAMessage) {
  EXPECT_STREQ(kb::message(kb::error_code::out_of_memory), "out of memory");
  const kb::size_result r = kb::error{kb::error_code::out_of_memory, 7};
  EXPECT_EQ(r.code(), kb::error_code::out_of_memory);
  EXPECT_EQ(r.error().to_string(), "out of memory at byte 7");
}
