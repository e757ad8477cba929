// DOM reading: types, get<T>, lookup, indexing, iteration, sizes, O(1) skip, JSON Pointer,
// equality.
#include <gtest/gtest.h>

#include <string>
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
  EXPECT_TRUE(r.ok()) << r.err().to_string();
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

TEST(Dom, DocumentSizes) {
  auto d = parse(R"(["ab","c"])");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->node_count(), 3u);
  EXPECT_EQ(d->string_bytes(), 5u);  // "ab\0c\0"
  EXPECT_EQ(d->dom_bytes(), 3u * 16 + 5);
}

}  // namespace
