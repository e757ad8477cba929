// SPDX-License-Identifier: MIT
// The parser's peak memory on a big document: beside the input, a parse of an array of small
// numbers needs the nodes (16 bytes a value) and little else; the structural positions (4 bytes
// each, two per value here) share the node area instead of taking a buffer of their own.
// Measured in a child process (its resident high-water mark, VmHWM).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include <keel/json.h>

namespace {

long vm_hwm_kb() {
  long kb = -1;
  if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      if (std::strncmp(line, "VmHWM:", 6) == 0) kb = std::atol(line + 6);
    }
    std::fclose(f);
  }
  return kb;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // shadow memory and quarantine change the resident set
#else
constexpr bool kSanitized = false;
#endif

// 80 MiB of "[12345,678,...]": above the size from which positions share the node area.
std::string big_array() {
  std::string text;
  text.reserve((std::size_t{80} << 20) + 16);
  text.push_back('[');
  std::uint64_t x = 88172645463325252ull;
  while (text.size() < (std::size_t{80} << 20)) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    text += std::to_string(x % 100000);
    text.push_back(',');
  }
  text.back() = ']';
  return text;
}

// Runs `child` in a forked process and expects it to exit 0 (its exit code says what failed).
void in_child(int (*child)(), const char* codes) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) _exit(child());
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << codes;
}

}  // namespace

TEST(JsonMemory, BigArrayPeakIsInputPlusNodes) {
  if (kSanitized) GTEST_SKIP() << "resident-set figures are not meaningful under sanitizers";
  in_child(
      [] {
        const std::string text = big_array();
        const long before = vm_hwm_kb();
        keel::json::parser p;
        auto r = p.parse(text);
        if (!r) return 2;
        const std::size_t nodes = p.doc().node_count();
        const long after = vm_hwm_kb();
        // The nodes, plus 8 MiB for everything else; the positions alone would be 8 bytes a value.
        const long allowed = static_cast<long>(nodes * 16 / 1024) + 8L * 1024;
        std::fprintf(stderr, "values %zu: parse peak %ld KiB, nodes %zu KiB, allowed %ld KiB\n",
                     nodes, after - before, nodes * 16 / 1024, allowed);
        if (after - before > allowed) return 3;
        // A streamed write of the whole document adds its buffer, not the text (about 80 MiB).
        keel::json::writer w;
        std::size_t bytes = 0;
        auto written = w.write_to(*r, [&](std::string_view piece) {
          bytes += piece.size();
          return true;
        });
        const long after_write = vm_hwm_kb();
        std::fprintf(stderr, "streamed write of %zu bytes: peak grew %ld KiB\n", bytes,
                     after_write - after);
        if (!written || *written != text.size() || after_write - after > 4L * 1024) return 5;
        // A parser reused after a big parse works (its position buffer was handed over).
        auto again = p.parse(std::string_view("[1,[2,3],{\"a\":4}]"));
        return again && again->size() == 3 ? 0 : 4;
      },
      "2: parse failed; 3: peak over input + nodes; 4: reuse; 5: streamed write");
}

// validate() keeps no nodes: beside the input, the positions (4 bytes each, two per value here:
// 8 bytes a value, half the 16 of a node) and little else.
TEST(JsonMemory, ValidateNeedsOnlyThePositions) {
  if (kSanitized) GTEST_SKIP() << "resident-set figures are not meaningful under sanitizers";
  in_child(
      [] {
        const std::string text = big_array();
        const long before = vm_hwm_kb();
        keel::json::parser p;
        if (p.validate(text)) return 2;
        const long after = vm_hwm_kb();
        std::size_t values = 1;
        for (char c : text) values += c == ',' ? 1 : 0;
        const long allowed = static_cast<long>(values * 8 / 1024) + 8L * 1024;
        std::fprintf(stderr, "values %zu: validate peak %ld KiB, allowed %ld KiB\n", values,
                     after - before, allowed);
        return after - before > allowed ? 3 : 0;
      },
      "2: validate failed; 3: peak over input + positions");
}

// The scalar set's one pass finds no structural positions: a parse that succeeds leaves the
// parser without a position buffer (4 bytes an input byte); an error (settled with stage 1's
// scan) takes one, and the parser goes on working.
TEST(JsonMemory, ScalarOnePassTakesNoPositionBuffer) {
  keel::json::parser p(keel::json::parse_options{.isa = keel::isa::scalar});
  std::string text = "[";
  while (text.size() < (std::size_t{1} << 20)) text += "{\"key\": \"value\", \"n\": 12345},";
  text.back() = ']';
  auto r = p.parse(text);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->size(), std::count(text.begin(), text.end(), '{'));
  EXPECT_LT(p.scratch_bytes(), text.size());  // the stack only
  // An error at a token takes the positions for stage 1's verdict on the rest of the text.
  text.back() = '}';
  auto bad = p.parse(text);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, keel::json::error_code::unexpected_character);
  EXPECT_EQ(bad.error().offset, text.size() - 1);
  EXPECT_GE(p.scratch_bytes(), 4 * text.size());
  auto again = p.parse(std::string_view("[1,[2,3],{\"a\":4}]"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->size(), 3u);
}
