// SPDX-License-Identifier: MIT
// The examples of docs/json.md (the overview, parsing in place, validating, writing in pieces),
// json-mutable.md, json-patch.md, json-ndjson.md and json-struct.md, as written there: each test
// holds the same code as its page (ctest json.docs_examples_in_sync checks every statement of the
// pages' C++ blocks against this file, docs_examples_sync.py).
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "keel/json.h"
#include "keel/json/mapping.h"
#include "keel/json/ndjson.h"

// docs/json-struct.md, "Example" (KEEL_FIELDS goes at namespace scope).
struct point {
  double x = 0, y = 0;
  std::optional<std::string> label;
};
KEEL_FIELDS(point, x, y, label)

// docs/json-struct.md, "Renaming".
struct order {
  std::string item;
  double unit_price = 0;
};
KEEL_FIELDS(order, item, unit_price)
template <>
struct keel::json::field_rename<order> {
  static constexpr std::pair<std::string_view, std::string_view> values[] = {
      {"unit_price", "unit-price"}};  // {C++ field, JSON key}
};

namespace {

namespace json = keel::json;

TEST(DocsExamples, Struct) {
  point p;
  if (json::mapping_error e = json::from_json(R"({"x":1,"y":2.5})", p))
    std::puts(e.to_string().c_str());    // e.g. "/y: type mismatch"
  std::string text = *json::to_json(p);  // {"x":1.0,"y":2.5}
  EXPECT_EQ(text, R"({"x":1.0,"y":2.5})");
  EXPECT_EQ(json::from_json(R"({"x":1,"y":"2"})", p).to_string(), "/y: type mismatch");
}

// docs/json-struct.md, "Renaming": the JSON key both ways, and in errors.
TEST(DocsExamples, Rename) {
  order o;
  EXPECT_FALSE(json::from_json(R"({"item":"tea","unit-price":2.5})", o));
  EXPECT_EQ(o.unit_price, 2.5);
  EXPECT_EQ(*json::to_json(o), R"({"item":"tea","unit-price":2.5})");
  EXPECT_EQ(json::from_json(R"({"item":"tea"})", o).to_string(), "/unit-price: missing field");
}

// docs/json.md, the example at the top (data and size: the caller's text).
TEST(DocsExamples, Overview) {
  const std::string input = R"({"statuses": [{"id": 505874924095815681, "text": "hi"}]})";
  const char* data = input.data();
  const std::size_t size = input.size();
  keel::json::parser p;             // keep it: steady-state parses allocate nothing
  auto root = p.parse(data, size);  // result<value>; data needs no padding
  if (!root)
    std::fprintf(stderr, "%s\n", root.error().to_string().c_str());  // "3:9: unexpected character"
  auto id = root->at_pointer("/statuses/0/id")->get<std::uint64_t>();  // result<uint64_t>
  keel::json::writer w({.pretty = true});
  auto text = w.write(*root);  // result<string_view>, valid until the next write
  EXPECT_EQ(*id, 505874924095815681u);
  EXPECT_EQ(*text,
            "{\n  \"statuses\": [\n    {\n      \"id\": 505874924095815681,\n      \"text\": "
            "\"hi\"\n    }\n  ]\n}");
}

// docs/json-mutable.md, "Example".
TEST(DocsExamples, Mutable) {
  auto parsed = json::parse(R"({"name":"keel","tags":["fast"]})");
  json::mutable_document d(parsed->root());  // deep copy
  json::mutable_value root = d.root();
  root.assign("name", "keel::json");      // replace a member (or add it)
  root.insert("version", 2);              // append a member
  root.find("tags")->push_back("small");  // result<mutable_value>
  d.add_at_pointer("/tags/0", "first");   // RFC 6902 "add" semantics
  d.remove_at_pointer("/version");
  std::string text = *json::write(d.root());
  EXPECT_EQ(text, R"({"name":"keel::json","tags":["first","fast","small"]})");
  json::document back = *d.to_document();  // immutable again
  EXPECT_EQ(back.root().size(), 2u);
}

// docs/json-patch.md, "Example".
TEST(DocsExamples, Patch) {
  auto doc = json::parse(R"({"name":"keel","tags":["fast"],"n":1})");
  auto patch = json::parse(R"([
  {"op":"test","path":"/n","value":1.0},
  {"op":"add","path":"/tags/-","value":"small"},
  {"op":"move","from":"/name","path":"/title"}
])");
  json::mutable_document m(doc->root());
  if (json::patch_error e = json::apply_patch(m, patch->root()))
    std::fprintf(stderr, "%s\n", e.to_string().c_str());  // nothing was changed
  EXPECT_EQ(*json::write(m.root()), R"({"tags":["fast","small"],"n":1,"title":"keel"})");

  auto merge = json::parse(R"({"n":null,"tags":["x"]})");
  json::apply_merge_patch(m, merge->root());  // {"tags":["x"],"title":"keel"}
  EXPECT_EQ(*json::write(m.root()), R"({"tags":["x"],"title":"keel"})");

  json::document after = *m.to_document();
  auto ops = json::diff(doc->root(), after.root());
  EXPECT_EQ(
      *json::write(ops->root()),
      R"([{"op":"remove","path":"/name"},{"op":"remove","path":"/n"},)"
      R"({"op":"replace","path":"/tags/0","value":"x"},{"op":"add","path":"/title","value":"keel"}])");
}

// docs/json-ndjson.md, "Example" and "Parallel reading".
TEST(DocsExamples, Ndjson) {
  json::ndjson_reader r;  // or r.open_buffer(text) / r.open_stream(stdin)
  r.open_buffer("{\"id\":1}\n\n{\"id\":2}\n{\"id\":\n");
  std::int64_t sum = 0;
  while (r.next()) sum += *r.value()["id"]->get<std::int64_t>();
  EXPECT_EQ(sum, 3);
  EXPECT_EQ(r.error().to_string(), "record 3 (line 4, column 7): unexpected end of input");

  const std::string text = "{\"name\":\"a\"}\n{\"name\":\"b\"}\n";
  keel::pool::thread_pool pool(4);
  std::vector<std::string> names;
  json::ndjson_error e = json::parallel_ndjson(
      pool, text, {},
      [](const json::value& v) {  // on a parsing thread
        return std::string(*v["name"]->get<std::string_view>());
      },
      [&](std::string&& name, const json::record_info& info) {  // on this thread, in input order
        names.push_back(std::to_string(info.record) + ": " + name);
      });
  EXPECT_FALSE(e);
  EXPECT_EQ(names, (std::vector<std::string>{"1: a", "2: b"}));
}

// docs/json.md, "Parsing in place" (read_file: a stand-in for the caller's reader).
TEST(DocsExamples, ParseInPlace) {
  const auto read_file = [](const char*) { return std::string(R"({"name": "caf\u00e9"})"); };
  const char* path = "doc.json";
  std::string text = read_file(path);  // any writable buffer
  text.reserve(text.size() + keel::json::in_place_padding);
  keel::json::parser p;
  auto root =
      p.parse_in_place(text.data(), text.size(), text.capacity());  // text must outlive root
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(*root->find("name")->get<std::string_view>(), "caf\u00e9");
  EXPECT_TRUE(p.doc().in_place());
}

// docs/json.md, "Validating without a document".
TEST(DocsExamples, Validate) {
  const std::string text = "[1, 2,]";
  keel::json::parser p;
  if (const keel::json::error e = p.validate(text))
    std::fprintf(stderr, "%s\n", e.to_string().c_str());
  EXPECT_EQ(p.validate(text).to_string(), "1:7: unexpected character");
  EXPECT_FALSE(keel::json::validate("[1, 2]"));
}

// docs/json.md, "Writing in pieces".
TEST(DocsExamples, WriteInPieces) {
  keel::json::parser p;
  auto root = p.parse(std::string_view(R"({"a": [1, 2]})"));
  ASSERT_TRUE(root.ok());
  keel::json::writer w;
  auto size = w.write_to(*root, stdout);  // result<size_t>; io_error when stdout fails
  EXPECT_EQ(*size, 11u);
  std::fflush(stdout);
}

}  // namespace
