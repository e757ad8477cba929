// SPDX-License-Identifier: MIT
// Mutable documents: building every type, editing objects and arrays, pointer edits, deep copies
// in both directions, and the writer giving the same text as for the immutable DOM.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "keel/json.h"
#include "keel/json/mutable.h"
#include "test_util.h"

namespace {

using namespace keel::json;

std::string text(const mutable_value& v, const write_options& o = {}) {
  auto r = write(v, o);
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return r.ok() ? *r : std::string();
}

mutable_document from_text(std::string_view s) {
  auto d = parse(s);
  EXPECT_TRUE(d.ok()) << s;
  return mutable_document(d->root());
}

TEST(Mutable, BuildsEveryType) {
  mutable_document d;
  auto root = d.root();
  EXPECT_TRUE(root.is_null());
  EXPECT_EQ(text(root), "null");
  ASSERT_FALSE(root.set(empty_object));
  ASSERT_TRUE(root.insert("null", nullptr).ok());
  ASSERT_TRUE(root.insert("t", true).ok());
  ASSERT_TRUE(root.insert("f", false).ok());
  ASSERT_TRUE(root.insert("i", -42).ok());
  ASSERT_TRUE(root.insert("u", std::uint64_t{18446744073709551615u}).ok());
  ASSERT_TRUE(root.insert("small_u", 7u).ok());
  ASSERT_TRUE(root.insert("d", 2.5).ok());
  ASSERT_TRUE(root.insert("s", "he said \"hi\"\n").ok());
  ASSERT_TRUE(root.insert("std", std::string("x/y")).ok());
  auto arr = root.insert("a", empty_array);
  ASSERT_TRUE(arr.ok());
  ASSERT_TRUE(arr->push_back(1).ok());
  ASSERT_TRUE(arr->push_back(empty_object).ok());
  ASSERT_TRUE(root.insert("o", empty_object).ok());
  EXPECT_EQ(text(root),
            R"({"null":null,"t":true,"f":false,"i":-42,"u":18446744073709551615,"small_u":7,)"
            R"("d":2.5,"s":"he said \"hi\"\n","std":"x/y","a":[1,{}],"o":{}})");
  EXPECT_EQ(root["u"]->type(), type::uint64);
  EXPECT_EQ(root["small_u"]->type(), type::int64);  // fits int64: stored as the parser does
  EXPECT_EQ(*root["i"]->get<std::int64_t>(), -42);
  EXPECT_EQ(*root["d"]->get<double>(), 2.5);
  EXPECT_EQ(*root["s"]->get<std::string_view>(), "he said \"hi\"\n");
  EXPECT_EQ(*root["t"]->get<bool>(), true);
  EXPECT_EQ(root["t"]->get<std::int64_t>().code(), error_code::type_mismatch);
  EXPECT_EQ(root.size(), 11u);
  EXPECT_EQ(root["missing"].code(), error_code::not_found);
  EXPECT_EQ(root.at(0).code(), error_code::type_mismatch);
  EXPECT_EQ(text(root, {.pretty = true, .indent = 1}).substr(0, 15), "{\n \"null\": null");
}

TEST(Mutable, ObjectEdits) {
  auto d = from_text(R"({"a":1,"b":2,"c":3})");
  auto root = d.root();
  ASSERT_TRUE(root.assign("b", "two").ok());  // replaces
  ASSERT_TRUE(root.assign("d", 4).ok());      // appends
  ASSERT_TRUE(root.insert("a", 9).ok());      // a second "a": kept, find() returns the first
  EXPECT_EQ(text(root), R"({"a":1,"b":"two","c":3,"d":4,"a":9})");
  EXPECT_EQ(*root["a"]->get<std::int64_t>(), 1);
  EXPECT_FALSE(root.erase("a"));
  EXPECT_EQ(text(root), R"({"b":"two","c":3,"d":4,"a":9})");
  EXPECT_EQ(root.erase("zz").code, error_code::not_found);
  EXPECT_FALSE(root.erase(std::size_t{1}));  // member 1: "c"
  EXPECT_EQ(text(root), R"({"b":"two","d":4,"a":9})");
  EXPECT_EQ(root.erase(std::size_t{3}).code, error_code::not_found);
  std::vector<std::string> keys;
  for (const mutable_member m : root.members()) keys.emplace_back(m.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "d", "a"}));
  EXPECT_EQ(root.key_at(2), "a");
  EXPECT_FALSE(root.clear());
  EXPECT_EQ(text(root), "{}");
  EXPECT_EQ(root.push_back(1).code(), error_code::type_mismatch);
  EXPECT_EQ(root.insert(std::size_t{0}, 1).code(), error_code::type_mismatch);
  // Many members: the block grows and keeps its contents.
  for (int i = 0; i < 1000; ++i) {
    std::string key = std::to_string(i);
    key.insert(key.begin(), 'k');
    ASSERT_TRUE(root.insert(key, i).ok());
  }
  EXPECT_EQ(root.size(), 1000u);
  EXPECT_EQ(*root["k999"]->get<std::int64_t>(), 999);
  EXPECT_EQ(*root["k0"]->get<std::int64_t>(), 0);
}

TEST(Mutable, ArrayEdits) {
  auto d = from_text("[1,2,3]");
  auto root = d.root();
  ASSERT_TRUE(root.insert(0, "first").ok());
  ASSERT_TRUE(root.insert(4, "last").ok());  // == size: appends
  EXPECT_EQ(root.insert(6, 0).code(), error_code::not_found);
  EXPECT_EQ(text(root), R"(["first",1,2,3,"last"])");
  EXPECT_FALSE(root.erase(std::size_t{2}));
  EXPECT_EQ(text(root), R"(["first",1,3,"last"])");
  EXPECT_EQ(root.erase(std::size_t{4}).code, error_code::not_found);
  EXPECT_FALSE(root.at(1)->set(empty_array));
  ASSERT_TRUE(root.at(1)->push_back(true).ok());
  EXPECT_EQ(text(root), R"(["first",[true],3,"last"])");
  std::string seen;
  for (const mutable_value e : root.elements()) seen += static_cast<char>('0' + int(e.type()));
  EXPECT_EQ(seen, "5725");
  EXPECT_EQ(root.insert("k", 1).code(), error_code::type_mismatch);
  EXPECT_EQ(root.erase("k").code, error_code::type_mismatch);
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(root.push_back(i).ok());
  EXPECT_EQ(*root.at(10003)->get<std::int64_t>(), 9999);
}

// A value of the document itself as the input: copied before the container changes.
TEST(Mutable, SelfCopies) {
  auto d = from_text(R"({"a":[1,[2,3]],"b":"x"})");
  auto root = d.root();
  auto a = *root["a"];
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(a.push_back(*a.at(1)).ok());  // grows a's block
  EXPECT_EQ(text(root), R"({"a":[1,[2,3],[2,3],[2,3],[2,3],[2,3],[2,3]],"b":"x"})");
  ASSERT_TRUE(root.insert("c", root).ok());  // the whole root, into itself
  EXPECT_EQ(text(*root["c"]), R"({"a":[1,[2,3],[2,3],[2,3],[2,3],[2,3],[2,3]],"b":"x"})");
  ASSERT_FALSE(root.set(*root["b"]));  // the root becomes its own member
  EXPECT_EQ(text(root), R"("x")");
}

TEST(Mutable, PointerEdits) {
  auto d = from_text(R"({"a":{"b":[0,1]},"m~n":1,"x/y":2})");
  EXPECT_TRUE(d.set_at_pointer("/a/c", 5).ok());         // new member
  EXPECT_TRUE(d.set_at_pointer("/a/b/1", "one").ok());   // replaces
  EXPECT_TRUE(d.set_at_pointer("/a/b/2", 2).ok());       // index == size: appends
  EXPECT_TRUE(d.set_at_pointer("/a/b/-", 3).ok());       // "-": appends
  EXPECT_TRUE(d.add_at_pointer("/a/b/0", "zero").ok());  // inserts before
  EXPECT_TRUE(d.add_at_pointer("/m~0n", 10).ok());       // ~0 is '~': replaces the member
  EXPECT_TRUE(d.replace_at_pointer("/x~1y", 20).ok());   // ~1 is '/'
  EXPECT_EQ(text(d.root()), R"({"a":{"b":["zero",0,"one",2,3],"c":5},"m~n":10,"x/y":20})");
  EXPECT_FALSE(d.remove_at_pointer("/a/b/1"));
  EXPECT_FALSE(d.remove_at_pointer("/a/c"));
  EXPECT_EQ(text(d.root()), R"({"a":{"b":["zero","one",2,3]},"m~n":10,"x/y":20})");
  EXPECT_EQ(*d.at_pointer("/a/b/3")->get<std::int64_t>(), 3);

  // Errors leave the document as it was.
  const std::string before = text(d.root());
  EXPECT_EQ(d.set_at_pointer("/a/b/5", 0).code(), error_code::not_found);         // out of range
  EXPECT_EQ(d.add_at_pointer("/a/b/01", 0).code(), error_code::invalid_pointer);  // leading 0
  EXPECT_EQ(d.add_at_pointer("/a/b/-1", 0).code(), error_code::invalid_pointer);
  EXPECT_EQ(d.add_at_pointer("/a/b/x", 0).code(), error_code::invalid_pointer);
  EXPECT_EQ(d.replace_at_pointer("/a/b/-", 0).code(), error_code::not_found);
  EXPECT_EQ(d.replace_at_pointer("/nope", 0).code(), error_code::not_found);
  EXPECT_EQ(d.remove_at_pointer("/a/b/4").code, error_code::not_found);
  EXPECT_EQ(d.remove_at_pointer("/a/b/-").code, error_code::not_found);
  EXPECT_EQ(d.add_at_pointer("/a/nope/x", 0).code(), error_code::not_found);  // no parent
  EXPECT_EQ(d.add_at_pointer("/m~0n/x", 0).code(), error_code::not_found);    // scalar parent
  EXPECT_EQ(d.add_at_pointer("a", 0).code(), error_code::invalid_pointer);
  EXPECT_EQ(d.add_at_pointer("/m~2n", 0).code(), error_code::invalid_pointer);
  EXPECT_EQ(d.add_at_pointer("/a~", 0).code(), error_code::invalid_pointer);
  EXPECT_EQ(d.remove_at_pointer("").code, error_code::invalid_pointer);
  EXPECT_EQ(d.at_pointer("/a/b/-").code(), error_code::not_found);
  EXPECT_EQ(text(d.root()), before);

  // "" is the whole document; "/" the member with the empty key.
  EXPECT_TRUE(d.add_at_pointer("/", "empty key").ok());
  EXPECT_EQ(*d.at_pointer("/")->get<std::string_view>(), "empty key");
  EXPECT_TRUE(d.set_at_pointer("", empty_array).ok());
  EXPECT_EQ(text(d.root()), "[]");
  EXPECT_TRUE(d.add_at_pointer("/-", 1).ok());
  EXPECT_TRUE(d.add_at_pointer("/0", 0).ok());
  EXPECT_EQ(text(d.root()), "[0,1]");
}

TEST(Mutable, RejectsInvalidUtf8) {
  mutable_document d;
  auto root = d.root();
  EXPECT_EQ(root.set(std::string_view("\xc3\x28")).code, error_code::invalid_utf8);
  EXPECT_TRUE(root.is_null());
  ASSERT_FALSE(root.set(empty_object));
  EXPECT_EQ(root.insert("\xff", 1).code(), error_code::invalid_utf8);
  EXPECT_EQ(root.insert("k", "\xed\xa0\x80").code(), error_code::invalid_utf8);  // surrogate
  EXPECT_EQ(root.size(), 0u);
  ASSERT_TRUE(root.insert("k\xc3\xa9", "\xf0\x9f\x98\x80").ok());
  EXPECT_EQ(text(root, {.escape_unicode = true}), R"({"k\u00e9":"\ud83d\ude00"})");
}

TEST(Mutable, DocumentCopyMoveAndBack) {
  auto d = from_text(R"({"a":[1,2.5,"s",null,true,{"k":"v"}],"big":123456789012345678901234})");
  auto handle = d.root()["a"];
  ASSERT_TRUE(handle.ok());
  mutable_document moved = std::move(d);
  ASSERT_TRUE(handle->push_back("after move").ok());  // handles survive a move
  mutable_document copy = moved;
  ASSERT_TRUE(copy.root()["a"]->push_back("only in copy").ok());
  EXPECT_EQ(moved.root()["a"]->size(), 7u);
  EXPECT_EQ(copy.root()["a"]->size(), 8u);
  EXPECT_FALSE(moved.root().equals(copy.root()));
  ASSERT_FALSE(copy.remove_at_pointer("/a/7"));
  EXPECT_TRUE(moved.root().equals(copy.root()));

  auto back = moved.to_document();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->node_count(), 14u);
  EXPECT_TRUE(moved.root().equals(back->root()));
  EXPECT_EQ(*write(back->root()), text(moved.root()));
  EXPECT_EQ(*back->root().at_pointer("/a/5/k")->get<std::string_view>(), "v");
  mutable_document again(back->root());
  EXPECT_TRUE(again.root().equals(moved.root()));
}

// Repeated edits reuse released blocks: memory stays bounded.
TEST(Mutable, ReusesReleasedBlocks) {
  mutable_document d;
  auto root = d.root();
  ASSERT_FALSE(root.set(empty_array));
  for (int round = 0; round < 2000; ++round) {
    auto a = root.push_back(empty_array);
    ASSERT_TRUE(a.ok());
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(a->push_back(i).ok());
    ASSERT_FALSE(root.erase(std::size_t{0}));
    if (round == 10) {
      EXPECT_LT(d.memory_bytes(), 64u * 1024);
    }
  }
  EXPECT_LT(d.memory_bytes(), 64u * 1024);
}

// Every corpus file: the mutable copy writes exactly what the immutable DOM writes, under every
// write option; to_document() gives an equal document.
TEST(Mutable, CorpusSameTextAsImmutable) {
  std::vector<std::pair<std::string, parse_options>> docs;
  for (const char* f : {"twitter.json", "canada.json", "citm_catalog.json", "gsoc-2018.json"})
    docs.emplace_back(test::slurp(test::corpus() / "json" / f), parse_options{});
  for (const auto& f : test::files_in(test::corpus() / "JSONTestSuite" / "test_parsing")) {
    if (f.filename().string()[0] == 'y') docs.emplace_back(test::slurp(f), parse_options{});
  }
  ASSERT_GT(docs.size(), 90u) << "corpus missing";
  const write_options opts[] = {{},
                                {.escape_unicode = true},
                                {.escape_slash = true},
                                {.pretty = true},
                                {.pretty = true, .indent = 3, .escape_unicode = true}};
  std::size_t written = 0;
  for (const auto& [src, po] : docs) {
    auto doc = parse(src, po);
    ASSERT_TRUE(doc.ok());
    const mutable_document m(doc->root());
    ASSERT_TRUE(m.root().equals(doc->root()));
    for (const isa which : keel::all_isas) {
      if (!isa_supported(which)) continue;
      for (write_options o : opts) {
        o.isa = which;
        writer a(o), b(o);
        auto x = a.write(doc->root());
        auto y = b.write(m.root());
        ASSERT_EQ(x.ok(), y.ok());
        if (x.ok()) {
          ASSERT_EQ(*x, *y) << src.substr(0, 100);
          ++written;
        }
      }
    }
    auto back = m.to_document();
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(back->root() == doc->root());
    EXPECT_EQ(back->node_count(), doc->node_count());
  }
  EXPECT_GT(written, 400u);
}

TEST(Mutable, DeepNesting) {
  mutable_document d;
  mutable_value v = d.root();
  for (int i = 0; i < 100000; ++i) {
    ASSERT_FALSE(v.set(empty_array));
    v = *v.push_back(nullptr);
  }
  auto out = write(d.root());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->size(), 100000u * 2 + 4);
  // An iterative copy and release: no recursion.
  mutable_document copy = d;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(*write(copy.root()), *out);
  EXPECT_FALSE(d.root().set(1));
  EXPECT_EQ(text(d.root()), "1");
}

TEST(Mutable, NonfiniteFollowsWriteOptions) {
  mutable_document d;
  ASSERT_FALSE(d.root().set(std::nan("")));
  EXPECT_EQ(write(d.root()).code(), error_code::nonfinite_number);
  EXPECT_EQ(*write(d.root(), {.nonfinite = nonfinite_policy::null}), "null");
}

}  // namespace
