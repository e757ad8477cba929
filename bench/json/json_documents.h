// SPDX-License-Identifier: MIT
// The documents `keel bench json` parses and writes: every .json file of the corpus's json/
// directory, and documents of kinds the corpus lacks, generated here (never stored).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace keel::bench::json_docs {

struct document {
  std::string name;  // the file name, or "generated-<kind>.json"
  std::shared_ptr<const std::string> text;
};

// A file's bytes (empty if it cannot be read).
std::string read_text(const std::filesystem::path& p);

// The corpus files in name order (`dir` is the corpus's json/ directory; none if it is missing).
std::vector<document> corpus_documents(const std::filesystem::path& dir);

// Generated documents, the same bytes on every run (a fixed-seed generator):
// - generated-escapes.json: strings made mostly of \uXXXX escapes (BMP and surrogate pairs);
// - generated-floats-pretty.json: a pretty-printed array of [x, y, z] doubles, full precision;
// - generated-repeated-keys.json: thousands of objects with the same keys.
std::vector<document> generated_documents();

}  // namespace keel::bench::json_docs
