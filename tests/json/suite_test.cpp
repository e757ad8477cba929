// SPDX-License-Identifier: MIT
// JSONTestSuite test_parsing on every kernel set: y_ accepted, n_ rejected, i_ either way without
// a crash; accepted documents survive parse -> write -> parse; the corpus files likewise.
#include <gtest/gtest.h>

#include <algorithm>

#include "keel/json.h"
#include "test_util.h"

namespace {

using namespace keel::json;
using keel::json::test::corpus;
using keel::json::test::files_in;
using keel::json::test::slurp;

class Suite : public ::testing::TestWithParam<isa> {
 protected:
  void SetUp() override {
    if (!isa_supported(GetParam())) GTEST_SKIP() << "CPU lacks " << isa_name(GetParam());
  }
};

// Parses `text` on the parameter's kernels and round-trips accepted documents (minified and
// pretty) back to an equal DOM.
void check_round_trip(const value& v, const std::string& name) {
  for (bool pretty : {false, true}) {
    write_options wo;
    wo.pretty = pretty;
    auto text = write(v, wo);
    ASSERT_TRUE(text.ok()) << name << ": " << text.error().message();
    auto again = parse(*text);
    ASSERT_TRUE(again.ok()) << name << ": rewritten text rejected: " << again.error().to_string()
                            << "\n"
                            << *text;
    EXPECT_TRUE(again->root() == v) << name << ": round trip differs:\n" << *text;
  }
}

TEST_P(Suite, TestParsing) {
  const auto files = files_in(corpus() / "JSONTestSuite" / "test_parsing");
  ASSERT_GT(files.size(), 300u) << "corpus missing: " << corpus();
  parser p;
  p.options().isa = GetParam();
  int y = 0, n = 0, i = 0;
  for (const auto& f : files) {
    const std::string name = f.filename().string();
    const std::string text = slurp(f);
    auto r = p.parse(text);
    switch (name[0]) {
      case 'y':
        ++y;
        EXPECT_TRUE(r.ok()) << name << " rejected: " << r.error().to_string();
        if (r.ok()) check_round_trip(*r, name);
        break;
      case 'n':
        ++n;
        EXPECT_FALSE(r.ok()) << name << " accepted";
        if (!r.ok()) {
          EXPECT_LE(r.error().offset, text.size()) << name;
          EXPECT_GE(r.error().line, 1u) << name;
        }
        break;
      default:
        ++i;
        if (r.ok()) check_round_trip(*r, name);
        break;
    }
  }
  EXPECT_GT(y, 90);
  EXPECT_GT(n, 180);
  EXPECT_GT(i, 20);
}

TEST_P(Suite, CorpusRoundTrip) {
  parser p;
  p.options().isa = GetParam();
  int seen = 0;
  for (const auto& f : files_in(corpus() / "json")) {
    if (f.extension() != ".json") continue;
    const std::string text = slurp(f);
    auto r = p.parse(text);
    ASSERT_TRUE(r.ok()) << f << ": " << r.error().to_string();
    check_round_trip(*r, f.filename().string());
    ++seen;
  }
  EXPECT_GE(seen, 4);
}

// The NDJSON corpus file: one document per line with stop_after_first.
TEST_P(Suite, NdjsonStopAfterFirst) {
  const std::string text = slurp(corpus() / "json" / "amazon_cellphones.ndjson");
  if (text.empty()) GTEST_SKIP();
  parser p;
  p.options().isa = GetParam();
  p.options().stop_after_first = true;
  std::size_t pos = 0, docs = 0;
  while (pos < text.size() && docs < 200) {
    auto r = p.parse(text.data() + pos, text.size() - pos);
    ASSERT_TRUE(r.ok()) << "document " << docs << ": " << r.error().to_string();
    ASSERT_TRUE(r->is_array());  // each line is one array
    pos += p.consumed();
    while (pos < text.size() && (text[pos] == '\n' || text[pos] == '\r')) ++pos;
    ++docs;
  }
  EXPECT_EQ(docs, 200u);
}

// Every JSONTestSuite parsing file and corpus document.
std::vector<std::filesystem::path> suite_and_corpus() {
  std::vector<std::filesystem::path> files = files_in(corpus() / "JSONTestSuite" / "test_parsing");
  for (const auto& f : files_in(corpus() / "json"))
    if (f.extension() == ".json") files.push_back(f);
  return files;
}

// The defaults, and the options that change what is accepted or how much is read.
std::vector<parse_options> grammar_variants() {
  std::vector<parse_options> v(4);
  v[1].allow_comments = v[1].allow_trailing_commas = true;
  v[2].allow_nan_inf = v[2].allow_bom = v[2].big_integers_as_raw = true;
  v[3].stop_after_first = v[3].allow_invalid_utf8 = true;
  v[3].max_depth = 8;
  return v;
}

// agree(a, b, text, name) for every file under every grammar variant, with two parsers of the
// variant on kernel set k; false at the first disagreement.
template <class Agree>
bool on_every_file(const std::vector<std::filesystem::path>& files, isa k, Agree&& agree) {
  for (const parse_options& base : grammar_variants()) {
    parse_options o = base;
    o.isa = k;
    parser a(o), b(o);
    for (const auto& f : files) {
      if (!agree(a, b, slurp(f), f.filename().string())) return false;
    }
  }
  return true;
}

// validate() returns exactly what parse() does (error, position, consumed bytes) on every
// JSONTestSuite file and corpus document, every prefix of a few of them, and under the options
// that change the grammar, without touching the parser's document beyond emptying it.
TEST_P(Suite, ValidateAgreesWithParse) {
  const std::vector<std::filesystem::path> files = suite_and_corpus();
  ASSERT_GT(files.size(), 300u) << "corpus missing: " << corpus();
  // Stops at the first disagreement (false).
  const auto agree = [&](parser& parse_with, parser& check_with, std::string_view text,
                         const std::string& what) {
    auto r = parse_with.parse(text);
    const error e = check_with.validate(text);
    EXPECT_EQ(r.ok() ? error{} : r.error(), e) << what;
    if (r.ok()) {
      EXPECT_EQ(check_with.consumed(), parse_with.consumed()) << what;
    }
    EXPECT_TRUE(check_with.doc().empty()) << what;
    return !::testing::Test::HasFailure();
  };
  if (!on_every_file(files, GetParam(), agree)) return;
  // Every prefix of a document with every kind of token (a cut inside strings, escapes, numbers,
  // literals), on one reused parser of each kind.
  const std::string doc =
      R"({"a": [1, -2.5e3, true, false, null, "x\u00e9\n\"y\ud83d\ude00"], "b": {"c": []}})";
  parser a, b;
  a.options().isa = b.options().isa = GetParam();
  for (std::size_t n = 0; n <= doc.size(); ++n) {
    if (!agree(a, b, std::string_view(doc).substr(0, n), "prefix " + std::to_string(n))) return;
  }
}

// parse_in_place() returns what parse() does on every JSONTestSuite file, corpus document and
// prefix of the escape-heavy document below, under the options that change the grammar: an equal
// DOM that writes the same text, or the same error with the text left as it was.
TEST_P(Suite, InPlaceAgreesWithParse) {
  const std::vector<std::filesystem::path> files = suite_and_corpus();
  ASSERT_GT(files.size(), 300u) << "corpus missing: " << corpus();
  std::string buf;
  const auto agree = [&](parser& a, parser& b, std::string_view text, const std::string& what) {
    auto r = a.parse(text);
    buf.assign(text);
    buf.append(in_place_padding, 'x');
    auto q = b.parse_in_place(buf.data(), text.size(), buf.size());
    EXPECT_EQ(r.ok(), q.ok()) << what;
    if (r.ok() && q.ok()) {
      EXPECT_TRUE(b.doc().in_place()) << what;
      EXPECT_TRUE(*r == *q) << what;
      write_options wo;
      wo.nonfinite = nonfinite_policy::literal;
      EXPECT_EQ(*write(*r, wo), *write(*q, wo)) << what;
      EXPECT_EQ(a.consumed(), b.consumed()) << what;
      EXPECT_EQ(a.doc().node_count(), b.doc().node_count()) << what;
    } else if (!r.ok() && !q.ok()) {
      EXPECT_EQ(r.error(), q.error()) << what;
      EXPECT_EQ(std::string_view(buf).substr(0, text.size()), text) << what << ": text changed";
    }
    return !::testing::Test::HasFailure();
  };
  if (!on_every_file(files, GetParam(), agree)) return;
  // Escapes of every kind, at every distance from the end of the text.
  const std::string doc =
      R"({"k\"ey": ["\u00e9\n\t\"x\\\/", "\ud83d\ude00 end", "plain", "", "\u0000", 1e5, 123456789012345678901234567890]})";
  parser a, b;
  a.options().isa = b.options().isa = GetParam();
  a.options().big_integers_as_raw = b.options().big_integers_as_raw = true;
  for (std::size_t n = 0; n <= doc.size(); ++n) {
    if (!agree(a, b, std::string_view(doc).substr(0, n), "prefix " + std::to_string(n))) return;
  }
  auto whole = a.parse(doc);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(*whole->at_pointer("/k\"ey/0")->get<std::string_view>(), "\u00e9\n\t\"x\\/");
  // With comments and stop_after_first, the text after the value stays as it was (the stripped
  // copy goes back only up to the value's end).
  parse_options c;
  c.isa = GetParam();
  c.allow_comments = c.stop_after_first = true;
  parser pc(c);
  std::string text = R"(["a\n" /* x */] /* next */ [1])";
  const std::string tail = text.substr(text.find("/* next"));
  text.append(in_place_padding, ' ');
  auto first = pc.parse_in_place(text.data(), text.size() - in_place_padding, text.size());
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first->at(0)->get<std::string_view>(), "a\n");
  EXPECT_EQ(text.substr(text.find("/* next"), tail.size()), tail);
  // Too little padding: an error, nothing read.
  std::string small = "[1]";
  EXPECT_EQ(b.parse_in_place(small.data(), 3, 3 + in_place_padding - 1).code(),
            error_code::padding_too_small);
}

// The bytes of a document's strings, keys and raw numbers, each with its NUL.
std::size_t packed_string_bytes(const document& d) {
  std::size_t n = 0;
  const detail::node* nodes = d.root().node_ptr();
  for (std::size_t k = 0; k < d.node_count(); ++k) {
    const auto t = static_cast<type>(nodes[k].tag & detail::kTypeMask);
    if (t == type::string || t == type::raw_number) n += (nodes[k].tag >> 8) + 1;
  }
  return n;
}

// Every kernel set builds the same DOM for every accepted document.
TEST(SuiteKernels, SameDomOnEveryIsa) {
  std::vector<std::filesystem::path> files = files_in(corpus() / "JSONTestSuite" / "test_parsing");
  for (const auto& f : files_in(corpus() / "json"))
    if (f.extension() == ".json") files.push_back(f);
  for (const auto& f : files) {
    const std::string text = slurp(f);
    parse_options o;
    o.isa = isa::scalar;
    auto ref = parse(text, o);
    for (isa k : keel::all_isas) {
      if (k == isa::scalar || !isa_supported(k)) continue;
      o.isa = k;
      auto r = parse(text, o);
      ASSERT_EQ(r.ok(), ref.ok()) << f << " on " << isa_name(k);
      if (!r.ok()) {
        EXPECT_EQ(r.code(), ref.code()) << f << " on " << isa_name(k);
        EXPECT_EQ(r.error().offset, ref.error().offset) << f << " on " << isa_name(k);
        continue;
      }
      EXPECT_TRUE(r->root() == ref->root()) << f << " on " << isa_name(k);
      EXPECT_EQ(r->node_count(), ref->node_count());
      // The two passes store the strings back to back, each with its NUL (docs/json-dom.md).
      EXPECT_EQ(r->string_bytes(), packed_string_bytes(*r)) << f << " on " << isa_name(k);
    }
    // The scalar one pass leaves them in its string area's copy of the text.
    if (ref.ok()) {
      EXPECT_EQ(ref->string_bytes(), text.size()) << f;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Isa, Suite, ::testing::ValuesIn(keel::all_isas),
                         keel::json::test::isa_test_name);

}  // namespace
