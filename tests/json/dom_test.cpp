// SPDX-License-Identifier: MIT
// DOM reading: types, get<T>, lookup, indexing, iteration, sizes, O(1) skip, JSON Pointer,
// equality.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "keel/json.h"

namespace {

using namespace keel::json;

const char* kDoc = R"({
  "name": "keel", "version": 1, "big": 18446744073709551615, "pi": 3.25, "ok": true, "none": null,
  "list": [1, [2, 3], {"x": "y"}, "four", []],
  "a/b": 1, "m~n": 2, "": 3, "nested": {"deep": {"er": [10, 20, 30]}}
})";

document doc() {
  auto r = parse(kDoc);
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return std::move(*r);
}

TEST(Dom, TypesAndGet) {
  const auto d = doc();
  const value root = d.root();
  EXPECT_TRUE(root.is_object());
  EXPECT_EQ(root.size(), 11u);
  EXPECT_EQ(*root["name"]->get<std::string_view>(), "keel");
  EXPECT_EQ(root["name"]->size(), 4u);
  EXPECT_EQ(*root["version"]->get<std::int64_t>(), 1);
  EXPECT_EQ(*root["version"]->get<std::uint64_t>(), 1u);
  EXPECT_EQ(*root["version"]->get<double>(), 1.0);
  EXPECT_EQ(*root["big"]->get<std::uint64_t>(), UINT64_MAX);
  EXPECT_EQ(root["big"]->get<std::int64_t>().code(), error_code::type_mismatch);
  EXPECT_EQ(*root["pi"]->get<double>(), 3.25);
  EXPECT_EQ(root["pi"]->get<std::int64_t>().code(), error_code::type_mismatch);
  EXPECT_EQ(*root["ok"]->get<bool>(), true);
  EXPECT_TRUE(root["none"]->is_null());
  EXPECT_EQ(root["none"]->get<bool>().code(), error_code::type_mismatch);
  EXPECT_EQ(root["name"]->get<double>().code(), error_code::type_mismatch);
  EXPECT_EQ(root["ok"]->get<std::string_view>().code(), error_code::type_mismatch);
  EXPECT_EQ(root["missing"].code(), error_code::not_found);
  EXPECT_EQ(root.at(0).code(), error_code::type_mismatch);
  EXPECT_EQ(root["name"]->find("x").code(), error_code::type_mismatch);
  EXPECT_THROW((void)root["missing"].value(), exception);
  EXPECT_TRUE(root["pi"]->is_number());
  EXPECT_FALSE(root["pi"]->is_integer());
}

TEST(Dom, MovedFromDocumentIsEmpty) {
  document a = doc();
  const std::size_t nodes = a.node_count();
  ASSERT_GT(nodes, 0u);
  document b(std::move(a));
  EXPECT_EQ(b.node_count(), nodes);
  EXPECT_EQ(*b.root()["name"]->get<std::string_view>(), "keel");
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the state a move leaves is specified
  EXPECT_EQ(a.node_count(), 0u);
  EXPECT_EQ(a.dom_bytes(), 0u);
  EXPECT_FALSE(a.root().valid());
  document c;
  c = std::move(b);
  EXPECT_EQ(*c.root()["version"]->get<std::int64_t>(), 1);
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move)
  parser p;
  const std::string_view text = R"([1,"two"])";
  ASSERT_FALSE(p.parse_into(b, text.data(), text.size()));  // parsed into again
  EXPECT_EQ(b.root().size(), 2u);
}

TEST(Dom, MovedFromParserParsesAgain) {
  parser a;
  ASSERT_TRUE(a.parse(kDoc).ok());
  const std::size_t fresh = parser().scratch_bytes();
  ASSERT_GT(a.scratch_bytes(), fresh);
  parser b(std::move(a));
  EXPECT_EQ(*b.doc().root()["name"]->get<std::string_view>(), "keel");
  EXPECT_EQ(a.scratch_bytes(), fresh);  // NOLINT(bugprone-use-after-move): specified empty
  EXPECT_TRUE(a.doc().empty());
  auto r = a.parse(kDoc);  // allocates its buffers again
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->size(), 11u);
  parser c;
  c = std::move(b);
  EXPECT_EQ(*c.doc().root()["version"]->get<std::int64_t>(), 1);
  EXPECT_TRUE(b.parse("[1,2]").ok());  // NOLINT(bugprone-use-after-move)
}

TEST(Dom, ArraysAndIteration) {
  const auto d = doc();
  const value list = *d.root()["list"];
  ASSERT_TRUE(list.is_array());
  EXPECT_EQ(list.size(), 5u);
  EXPECT_EQ(*list[0]->get<std::int64_t>(), 1);
  EXPECT_EQ(*list[1]->at(1)->get<std::int64_t>(), 3);
  EXPECT_EQ(*list[2]->find("x")->get<std::string_view>(), "y");
  EXPECT_EQ(*list[3]->get<std::string_view>(), "four");
  EXPECT_EQ(list[4]->size(), 0u);
  EXPECT_EQ(list[5].code(), error_code::not_found);
  std::vector<type> types;
  for (const value v : list.elements()) types.push_back(v.type());
  EXPECT_EQ(types,
            (std::vector<type>{type::int64, type::array, type::object, type::string, type::array}));
  std::vector<std::string> keys;
  for (const member m : d.root().members()) keys.emplace_back(m.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "version", "big", "pi", "ok", "none", "list",
                                            "a/b", "m~n", "", "nested"}));
  int n = 0;
  for (const value v : list[4]->elements()) n += v.valid();
  EXPECT_EQ(n, 0);
  for (const member m : list[0]->members()) n += !m.key.empty();  // not an object: empty range
  EXPECT_EQ(n, 0);
}

TEST(Dom, SkipIsConstantTime) {
  const auto d = doc();
  const value list = *d.root()["list"];
  // next() jumps over the whole container: the node after it is the key "a/b".
  const value after = list.next();
  EXPECT_EQ(*after.get<std::string_view>(), "a/b");
  EXPECT_EQ(list.node_count(), 1u + 1 + 3 + 3 + 1 + 1);
  EXPECT_EQ(d.root().node_count(), d.node_count());
}

TEST(Dom, JsonPointer) {
  const auto d = doc();
  const value root = d.root();
  EXPECT_EQ(root.at_pointer("")->node_ptr(), root.node_ptr());
  EXPECT_EQ(*root.at_pointer("/name")->get<std::string_view>(), "keel");
  EXPECT_EQ(*root.at_pointer("/list/1/0")->get<std::int64_t>(), 2);
  EXPECT_EQ(*root.at_pointer("/list/2/x")->get<std::string_view>(), "y");
  EXPECT_EQ(*root.at_pointer("/a~1b")->get<std::int64_t>(), 1);
  EXPECT_EQ(*root.at_pointer("/m~0n")->get<std::int64_t>(), 2);
  EXPECT_EQ(*root.at_pointer("/")->get<std::int64_t>(), 3);
  EXPECT_EQ(*root.at_pointer("/nested/deep/er/2")->get<std::int64_t>(), 30);
  EXPECT_EQ(root.at_pointer("name").code(), error_code::invalid_pointer);
  EXPECT_EQ(root.at_pointer("/m~2n").code(), error_code::invalid_pointer);
  EXPECT_EQ(root.at_pointer("/list/01").code(), error_code::invalid_pointer);
  EXPECT_EQ(root.at_pointer("/list/-").code(), error_code::not_found);
  EXPECT_EQ(root.at_pointer("/list/9").code(), error_code::not_found);
  EXPECT_EQ(root.at_pointer("/list/18446744073709551616").code(), error_code::not_found);
  EXPECT_EQ(root.at_pointer("/list/1x").code(), error_code::invalid_pointer);
  EXPECT_EQ(root.at_pointer("/name/x").code(), error_code::not_found);
  EXPECT_EQ(root.at_pointer("/nope").code(), error_code::not_found);
}

TEST(Dom, Equality) {
  auto a = parse(R"({"x":[1,2.5,"s",null,true],"y":{"k":-0.0}})");
  auto b = parse(R"({"y":{"k":0.0},"x":[1,2.5,"s",null,true]})");
  auto c = parse(R"({"x":[1,2.5,"s",null,false],"y":{"k":0.0}})");
  auto e = parse(R"({"x":[1.0,2.5,"s",null,true],"y":{"k":0.0}})");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok() && e.ok());
  EXPECT_TRUE(a->root() == b->root());
  EXPECT_FALSE(a->root() == c->root());
  EXPECT_FALSE(a->root() == e->root());  // 1 (int64) vs 1.0 (double)
  EXPECT_FALSE(*parse("[1,2]")->root().at(0) == parse("[1,2]")->root());
  EXPECT_FALSE(parse("[1,2]")->root() == parse("[1,2,3]")->root());
  EXPECT_FALSE(parse(R"({"a":1})")->root() == parse(R"({"b":1})")->root());
}

std::vector<isa> isas() {
  std::vector<isa> v;
  for (isa i : keel::all_isas)
    if (isa_supported(i)) v.push_back(i);
  return v;
}

TEST(Dom, DocumentSizes) {
  const std::string text = R"(["ab","c"])";
  for (const isa which : isas()) {
    parse_options o;
    o.isa = which;
    auto d = parse(text, o);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->node_count(), 3u);
    // The scalar set's string area is a copy of the text (its strings stay there); the others
    // store the strings back to back: "ab\0c\0".
    const std::size_t strings = which == isa::scalar ? text.size() : 5u;
    EXPECT_EQ(d->string_bytes(), strings) << isa_name(which);
    EXPECT_EQ(d->dom_bytes(), std::size_t{3} * 16 + strings) << isa_name(which);
    EXPECT_EQ(*d->root()[1]->get<std::string_view>(), "c");
  }
}

// kNoEscape (docs/json-dom.md): set on a string node, value or key, exactly when its source text
// had no backslash; on every kernel set and under every parse option. Type queries, equality,
// lookup and JSON Pointer see through it.
bool no_escape(const value& v) { return (v.node_ptr()->tag & detail::kNoEscape) != 0; }

TEST(Dom, NoEscapeFlagPerString) {
  const std::pair<std::string, bool> cases[] = {
      {R"("")", true},
      {R"("plain ascii")", true},
      {"\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", true},  // non-ASCII UTF-8
      {R"("a/b")", true},                                       // '/' needs no escape by default
      {"\"\x7f\"", true},
      {R"("a\nb")", false},
      {R"("a\"b")", false},
      {R"("a\\b")", false},
      {R"("caf\u00e9")", false},
      {R"("\ud83d\ude00")", false},  // surrogate pair
      {R"("a\/b")", false},
      {R"("\u0000")", false},
      {R"("\b\f\r\t")", false},
  };
  for (const isa which : isas()) {
    for (const auto& [json, flag] : cases) {
      auto d = parse(json, {.isa = which});
      ASSERT_TRUE(d.ok()) << json;
      EXPECT_EQ(no_escape(d->root()), flag) << json << " " << isa_name(which);
      EXPECT_EQ(d->root().type(), type::string);
      EXPECT_TRUE(d->root().is_string());
    }
    // Every length up to 150 (the short path, one and several chunks), without an escape and with
    // one at a few positions; as values and as keys.
    for (std::size_t len = 0; len <= 150; ++len) {
      std::string body(len, 'x');
      for (std::size_t i = 0; i < len; ++i) body[i] = static_cast<char>('a' + (i * 5) % 26);
      for (std::size_t pos = 0; pos <= len + 1; pos += (len < 70 ? 1 : 13)) {
        std::string b = body;
        const bool escaped = pos <= len;
        if (escaped) b.insert(pos, "\\t");
        const std::string json = "{\"" + b + "\":\"" + b + "\"}";
        auto d = parse(json, {.isa = which});
        ASSERT_TRUE(d.ok()) << json;
        const value key(d->root().node_ptr() + 1, d->root().string_area());
        const value val = key.next();
        EXPECT_EQ(no_escape(key), !escaped) << json << " " << isa_name(which);
        EXPECT_EQ(no_escape(val), !escaped) << json << " " << isa_name(which);
        EXPECT_EQ(key.type(), type::string);
        EXPECT_EQ(val.size(), len + (escaped ? 1 : 0));
      }
    }
  }
}

TEST(Dom, NoEscapeFlagUnderEveryParseOption) {
  // A strict document under each option alone, and one that needs every option at once.
  const std::string strict = R"({"k":"v", "k\n":"v\"", "n":[1, "\u00e9"], "":"w"})";
  const std::string lax =
      "\xef\xbb\xbf{\"k\":\"v\", \"k\\n\":\"v\\\"\", /* c */ \"n\":[NaN, 123456789012345678901234, "
      "\"\xff\xfe\",], // c\n \"\":\"w\"} 7";
  std::vector<parse_options> opts(9);
  opts[1].allow_comments = true;
  opts[2].allow_trailing_commas = true;
  opts[3].allow_nan_inf = true;
  opts[4].allow_bom = true;
  opts[5].allow_invalid_utf8 = true;
  opts[6].stop_after_first = true;
  opts[7].big_integers_as_raw = true;
  opts[8] = {.allow_comments = true,
             .allow_trailing_commas = true,
             .allow_nan_inf = true,
             .allow_bom = true,
             .allow_invalid_utf8 = true,
             .stop_after_first = true,
             .big_integers_as_raw = true};
  for (const isa which : isas()) {
    for (std::size_t o = 0; o < opts.size(); ++o) {
      parse_options po = opts[o];
      po.isa = which;
      auto d = parse(o == 8 ? lax : strict, po);
      ASSERT_TRUE(d.ok()) << d.error().to_string() << " option " << o << " " << isa_name(which);
      const value root = d->root();
      const detail::node* n = root.node_ptr();
      const char* s = root.string_area();
      EXPECT_TRUE(no_escape(value(n + 1, s)));   // key "k"
      EXPECT_TRUE(no_escape(value(n + 2, s)));   // "v"
      EXPECT_FALSE(no_escape(value(n + 3, s)));  // key "k\n"
      EXPECT_FALSE(no_escape(value(n + 4, s)));  // "v\""
      EXPECT_TRUE(no_escape(value(n + 5, s)));   // key "n"
      // "\u00e9", or invalid UTF-8 kept as is (the writer copies it unchanged by default).
      EXPECT_EQ(no_escape(*root.at_pointer("/n/" + std::to_string(o == 8 ? 2 : 1))), o == 8);
      EXPECT_TRUE(no_escape(*root[""]));
      EXPECT_EQ(*root["k\n"]->get<std::string_view>(), "v\"");
      EXPECT_EQ(root.at_pointer("/k")->type(), type::string);
      EXPECT_TRUE(root.at_pointer("/k\n")->is_string());
      EXPECT_EQ(root.size(), 4u);
    }
  }
  // Equality compares strings, not how they were written.
  auto a = parse("[\"caf\xc3\xa9\",{\"k\":\"a/b\"}]");
  auto b = parse(R"(["caf\u00e9",{"\u006b":"a\/b"}])");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(no_escape(*a->root().at(0)));
  EXPECT_FALSE(no_escape(*b->root().at(0)));
  EXPECT_TRUE(a->root() == b->root());
  EXPECT_TRUE(*a->root().at_pointer("/1/k") == *b->root().at_pointer("/1/k"));
}

}  // namespace
