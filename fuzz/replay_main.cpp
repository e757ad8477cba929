// SPDX-License-Identifier: MIT
// Replays inputs through a fuzz target's harness (LLVMFuzzerTestOneInput) without libFuzzer, so
// the harness's checks run over a fixed corpus in every build, the AArch64 one under qemu
// included (tests/fuzz_replay). A harness reports a failure by aborting.
//
//   replay_<target> [--max-len N] PATH...   each file, and each file of each directory (sorted),
//                                           its first N bytes as libFuzzer's -max_len would
//
// Exit status: 0 when every input ran (and at least one did), 2 on a usage or I/O error.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

bool read_prefix(const fs::path& file, std::size_t max_len, std::vector<char>& out) {
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) return false;
  out.clear();
  char buf[65536];
  for (std::size_t n; out.size() < max_len && (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
    out.insert(out.end(), buf, buf + std::min(n, max_len - out.size()));
  const bool ok = std::ferror(f) == 0;
  std::fclose(f);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t max_len = SIZE_MAX;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--max-len" && i + 1 < argc) {
      max_len = std::strtoull(argv[++i], nullptr, 10);
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> in_dir;
      for (const auto& e : fs::directory_iterator(arg, ec))
        if (e.is_regular_file()) in_dir.push_back(e.path());
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(arg, ec)) {
      files.emplace_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", arg.c_str());
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s [--max-len N] PATH... (no input given)\n", argv[0]);
    return 2;
  }
  std::vector<char> bytes;
  for (const fs::path& f : files) {
    if (!read_prefix(f, max_len, bytes)) {
      std::fprintf(stderr, "replay: %s: cannot read\n", f.c_str());
      return 2;
    }
    // An allocation of exactly the input's size, as libFuzzer passes it: a read past the end is
    // a sanitizer report in the asan build.
    const std::unique_ptr<std::uint8_t[]> data(new std::uint8_t[bytes.size()]);
    std::copy(bytes.begin(), bytes.end(), data.get());
    std::fprintf(stderr, "replay: %s\n", f.c_str());
    LLVMFuzzerTestOneInput(data.get(), bytes.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
