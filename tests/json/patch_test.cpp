// SPDX-License-Identifier: MIT
// JSON Pointer (every example of RFC 6901), JSON Patch (RFC 6902 Appendix A), JSON Merge Patch
// (RFC 7396 section 3 and Appendix A), edge cases, and diffs checked by applying them.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "keel/json.h"
#include "keel/json/patch.h"
#include "test_util.h"

namespace {

using namespace keel::json;

document parsed(std::string_view s) {
  auto d = parse(s);
  EXPECT_TRUE(d.ok()) << s;
  return d.ok() ? std::move(*d) : document();
}

// The document after the patch, or the error text.
std::string patched(std::string_view doc, std::string_view patch) {
  const document d = parsed(doc), p = parsed(patch);
  mutable_document m(d.root());
  if (patch_error e = apply_patch(m, p.root())) {
    // A failed patch leaves the document as it was.
    EXPECT_TRUE(m.root().equals(d.root())) << patch;
    std::string s = "error: ";
    s += e.to_string();
    return s;
  }
  return *write(m.root());
}

// Equal as JSON values (member order ignored).
bool same(std::string_view a, std::string_view b) {
  if (a.substr(0, 6) == "error:" || b.substr(0, 6) == "error:") return a == b;
  return parsed(a).root() == parsed(b).root();
}

const char* kRfc6901 = R"({
  "foo": ["bar", "baz"],
  "": 0,
  "a/b": 1,
  "c%d": 2,
  "e^f": 3,
  "g|h": 4,
  "i\\j": 5,
  "k\"l": 6,
  " ": 7,
  "m~n": 8
})";

// RFC 6901 section 5 (JSON String representation) and section 6 (URI fragment).
TEST(Pointer, Rfc6901Examples) {
  const document d = parsed(kRfc6901);
  const mutable_document m(d.root());
  const struct {
    const char* pointer;
    const char* fragment;
    const char* expect;
  } cases[] = {
      {"", "#", kRfc6901},
      {"/foo", "#/foo", R"(["bar", "baz"])"},
      {"/foo/0", "#/foo/0", R"("bar")"},
      {"/", "#/", "0"},
      {"/a~1b", "#/a~1b", "1"},
      {"/c%d", "#/c%25d", "2"},
      {"/e^f", "#/e%5Ef", "3"},
      {"/g|h", "#/g%7Ch", "4"},
      {"/i\\j", "#/i%5Cj", "5"},
      {"/k\"l", "#/k%22l", "6"},
      {"/ ", "#/%20", "7"},
      {"/m~0n", "#/m~0n", "8"},
  };
  for (const auto& c : cases) {
    const document want = parsed(c.expect);
    auto v = d.root().at_pointer(c.pointer);
    ASSERT_TRUE(v.ok()) << c.pointer;
    EXPECT_TRUE(*v == want.root()) << c.pointer;
    auto mv = m.root().at_pointer(c.pointer);
    ASSERT_TRUE(mv.ok()) << c.pointer;
    EXPECT_TRUE(mv->equals(want.root())) << c.pointer;
    auto from_fragment = pointer_from_fragment(c.fragment);
    ASSERT_TRUE(from_fragment.ok()) << c.fragment;
    EXPECT_EQ(*from_fragment, c.pointer);
  }
  EXPECT_EQ(pointer_from_fragment("/foo").code(), error_code::invalid_pointer);
  EXPECT_EQ(pointer_from_fragment("#foo").code(), error_code::invalid_pointer);
  EXPECT_EQ(pointer_from_fragment("#/a%2").code(), error_code::invalid_pointer);
  EXPECT_EQ(pointer_from_fragment("#/a%zz").code(), error_code::invalid_pointer);
  std::string p;
  append_pointer_token(p, "a/b~c");
  EXPECT_EQ(p, "/a~1b~0c");
}

struct rfc_case {
  const char* name;
  const char* doc;
  const char* patch;
  const char* result;  // "error: ..." for an expected failure
};

// RFC 6902 Appendix A, every example.
TEST(Patch, Rfc6902AppendixA) {
  const rfc_case cases[] = {
      {"A.1 adding an object member", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/baz","value":"qux"}])", R"({"baz":"qux","foo":"bar"})"},
      {"A.2 adding an array element", R"({"foo":["bar","baz"]})",
       R"([{"op":"add","path":"/foo/1","value":"qux"}])", R"({"foo":["bar","qux","baz"]})"},
      {"A.3 removing an object member", R"({"baz":"qux","foo":"bar"})",
       R"([{"op":"remove","path":"/baz"}])", R"({"foo":"bar"})"},
      {"A.4 removing an array element", R"({"foo":["bar","qux","baz"]})",
       R"([{"op":"remove","path":"/foo/1"}])", R"({"foo":["bar","baz"]})"},
      {"A.5 replacing a value", R"({"baz":"qux","foo":"bar"})",
       R"([{"op":"replace","path":"/baz","value":"boo"}])", R"({"baz":"boo","foo":"bar"})"},
      {"A.6 moving a value", R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
       R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
       R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
      {"A.7 moving an array element", R"({"foo":["all","grass","cows","eat"]})",
       R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])",
       R"({"foo":["all","cows","eat","grass"]})"},
      {"A.8 testing a value: success", R"({"baz":"qux","foo":["a",2,"c"]})",
       R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
       R"({"baz":"qux","foo":["a",2,"c"]})"},
      {"A.9 testing a value: error", R"({"baz":"qux"})",
       R"([{"op":"test","path":"/baz","value":"bar"}])",
       "error: operation 0 (test \"/baz\"): test operation failed: the values differ"},
      {"A.10 adding a nested member object", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
       R"({"foo":"bar","child":{"grandchild":{}}})"},
      {"A.11 ignoring unrecognized elements", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])", R"({"foo":"bar","baz":"qux"})"},
      {"A.12 adding to a nonexistent target", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/baz/bat","value":"qux"}])",
       "error: operation 0 (add \"/baz/bat\"): not found"},
      {"A.13 invalid JSON Patch document", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/baz","value":"qux","op":"remove"}])",
       "error: operation 0 (add \"/baz\"): invalid JSON Patch operation"},
      {"A.14 ~ escape ordering", R"({"/":9,"~1":10})",
       R"([{"op":"test","path":"/~01","value":10}])", R"({"/":9,"~1":10})"},
      {"A.15 comparing strings and numbers", R"({"/":9,"~1":10})",
       R"([{"op":"test","path":"/~01","value":"10"}])",
       "error: operation 0 (test \"/~01\"): test operation failed: the values differ"},
      {"A.16 adding an array value", R"({"foo":["bar"]})",
       R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
       R"({"foo":["bar",["abc","def"]]})"},
  };
  for (const auto& c : cases) {
    const std::string got = patched(c.doc, c.patch);
    EXPECT_TRUE(same(got, c.result)) << c.name << ": " << got;
  }
}

TEST(Patch, EdgeCases) {
  const rfc_case cases[] = {
      {"~0 and ~1 in add", R"({})", R"([{"op":"add","path":"/a~1b~0c","value":1}])",
       R"({"a/b~c":1})"},
      {"bad escape", R"({})", R"([{"op":"add","path":"/a~2","value":1}])",
       "error: operation 0 (add \"/a~2\"): invalid JSON Pointer"},
      {"leading zero", R"([1,2])", R"([{"op":"replace","path":"/01","value":0}])",
       "error: operation 0 (replace \"/01\"): invalid JSON Pointer"},
      {"index equal to size appends", R"([1,2])", R"([{"op":"add","path":"/2","value":3}])",
       "[1,2,3]"},
      {"index past size", R"([1,2])", R"([{"op":"add","path":"/3","value":3}])",
       "error: operation 0 (add \"/3\"): not found"},
      {"- appends", R"([1])", R"([{"op":"add","path":"/-","value":2}])", "[1,2]"},
      {"- cannot be removed", R"([1])", R"([{"op":"remove","path":"/-"}])",
       "error: operation 0 (remove \"/-\"): not found"},
      {"remove out of range", R"([1])", R"([{"op":"remove","path":"/1"}])",
       "error: operation 0 (remove \"/1\"): not found"},
      {"an index of 20 digits is out of range", R"([1])",
       R"([{"op":"replace","path":"/12345678901234567890","value":0}])",
       "error: operation 0 (replace \"/12345678901234567890\"): not found"},
      {"a 20-digit index inside the path", R"([[1]])",
       R"([{"op":"add","path":"/99999999999999999999/0","value":0}])",
       "error: operation 0 (add \"/99999999999999999999/0\"): not found"},
      {"replace the root", R"({"a":1})", R"([{"op":"replace","path":"","value":[1]}])", "[1]"},
      {"add the root", R"({"a":1})", R"([{"op":"add","path":"","value":null}])", "null"},
      {"add a null value", R"({})", R"([{"op":"add","path":"/n","value":null}])", R"({"n":null})"},
      {"test numbers by value", R"({"a":1,"b":[1.0,{"x":2,"y":3}]})",
       R"([{"op":"test","path":"/a","value":1.0},{"op":"test","path":"/b","value":[1,{"y":3,"x":2.0}]}])",
       R"({"a":1,"b":[1.0,{"x":2,"y":3}]})"},
      {"test a missing path", R"({})", R"([{"op":"test","path":"/a","value":1}])",
       "error: operation 0 (test \"/a\"): not found"},
      {"atomic: the third operation fails", R"({"a":1})",
       R"([{"op":"add","path":"/b","value":2},{"op":"remove","path":"/a"},{"op":"test","path":"/b","value":3}])",
       "error: operation 2 (test \"/b\"): test operation failed: the values differ"},
      {"move into its own child", R"({"a":{"b":1}})",
       R"([{"op":"move","from":"/a","path":"/a/c"}])",
       "error: operation 0 (move \"/a\"): invalid JSON Patch operation"},
      {"move to itself", R"({"a":{"b":1}})", R"([{"op":"move","from":"/a","path":"/a"}])",
       R"({"a":{"b":1}})"},
      {"move from a missing path", R"({"a":1})", R"([{"op":"move","from":"/x","path":"/y"}])",
       "error: operation 0 (move \"/x\"): not found"},
      {"move to a missing parent: nothing moved", R"({"a":1})",
       R"([{"op":"move","from":"/a","path":"/x/y"}])",
       "error: operation 0 (move \"/x/y\"): not found"},
      {"copy into its own child", R"({"a":{"b":1}})",
       R"([{"op":"copy","from":"/a","path":"/a/c"}])", R"({"a":{"b":1,"c":{"b":1}}})"},
      {"copy an array element", R"([1,[2]])", R"([{"op":"copy","from":"/1","path":"/0"}])",
       "[[2],1,[2]]"},
      {"not an array", R"({})", R"({"op":"add","path":"/a","value":1})",
       "error: the patch is not an array of operations"},
      {"operation not an object", R"({})", R"([1])",
       "error: operation 0: invalid JSON Patch operation"},
      {"unknown op", R"({})", R"([{"op":"frob","path":"/a"}])",
       "error: operation 0 (frob \"/a\"): invalid JSON Patch operation"},
      {"missing value", R"({})", R"([{"op":"add","path":"/a"}])",
       "error: operation 0 (add \"/a\"): invalid JSON Patch operation"},
      {"missing from", R"({})", R"([{"op":"copy","path":"/a"}])",
       "error: operation 0 (copy \"/a\"): invalid JSON Patch operation"},
      {"path not a string", R"({})", R"([{"op":"remove","path":1}])",
       "error: operation 0 (remove \"\"): invalid JSON Patch operation"},
      {"missing path", R"({})", R"([{"op":"remove"}])",
       "error: operation 0 (remove \"\"): invalid JSON Patch operation"},
      {"remove the root", R"({})", R"([{"op":"remove","path":""}])",
       "error: operation 0 (remove \"\"): invalid JSON Pointer"},
      {"empty patch", R"({"a":1})", "[]", R"({"a":1})"},
  };
  for (const auto& c : cases) {
    const std::string got = patched(c.doc, c.patch);
    EXPECT_TRUE(same(got, c.result)) << c.name << ": " << got;
  }
}

TEST(Patch, ErrorFields) {
  const document d = parsed(R"({"a":[1,2]})");
  const document p = parsed(R"([{"op":"test","path":"/a/0","value":1},
                               {"op":"replace","path":"/a/5","value":0}])");
  mutable_document m(d.root());
  const patch_error e = apply_patch(m, p.root());
  EXPECT_EQ(e.code, error_code::not_found);
  EXPECT_EQ(e.operation, 1u);
  EXPECT_EQ(e.op, "replace");
  EXPECT_EQ(e.pointer, "/a/5");
  EXPECT_TRUE(m.root().equals(d.root()));
}

// RFC 7396 section 3 and Appendix A.
TEST(MergePatch, Rfc7396Examples) {
  const rfc_case cases[] = {
      {"section 3",
       R"({"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"],"content":"This will be unchanged"})",
       R"({"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},"tags":["example"]})",
       R"({"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"content":"This will be unchanged","phoneNumber":"+01-123-456-7890"})"},
      {"A 1", R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {"A 2", R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {"A 3", R"({"a":"b"})", R"({"a":null})", R"({})"},
      {"A 4", R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {"A 5", R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {"A 6", R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {"A 7", R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {"A 8", R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {"A 9", R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
      {"A 10", R"({"a":"b"})", R"(["c"])", R"(["c"])"},
      {"A 11", R"({"a":"foo"})", "null", "null"},
      {"A 12", R"({"a":"foo"})", R"("bar")", R"("bar")"},
      {"A 13", R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
      {"A 14", R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
      {"A 15", R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
  };
  for (const auto& c : cases) {
    const document d = parsed(c.doc), p = parsed(c.patch);
    mutable_document m(d.root());
    ASSERT_FALSE(apply_merge_patch(m, p.root())) << c.name;
    const std::string got = *write(m.root());
    EXPECT_TRUE(same(got, c.result)) << c.name << ": " << got;
    // The merge diff of original and result, applied, gives the result again.
    const document want = parsed(c.result);
    auto md = merge_diff(d.root(), want.root());
    if (!md) {
      EXPECT_EQ(md.code(), error_code::not_representable) << c.name;
      continue;
    }
    const document mp = *md->to_document();
    mutable_document again(d.root());
    ASSERT_FALSE(apply_merge_patch(again, mp.root()));
    EXPECT_TRUE(again.root().equals(want.root())) << c.name << ": " << *write(md->root());
  }
}

TEST(MergePatch, DiffCases) {
  const document a = parsed(R"({"k":1,"o":{"x":1,"y":[1]},"gone":true})");
  const document b = parsed(R"({"k":2,"o":{"x":1,"y":[2],"z":{"deep":1}},"new":"v"})");
  auto md = merge_diff(a.root(), b.root());
  ASSERT_TRUE(md.ok());
  EXPECT_TRUE(
      same(*write(md->root()), R"({"gone":null,"k":2,"o":{"y":[2],"z":{"deep":1}},"new":"v"})"));
  // A null member that the patch would have to set cannot be expressed.
  const document c = parsed(R"({"k":null})");
  EXPECT_EQ(merge_diff(a.root(), c.root()).code(), error_code::not_representable);
  const document e = parsed(R"({"k":1,"o":{"x":1,"y":[1]},"gone":true,"n":{"m":null}})");
  EXPECT_EQ(merge_diff(a.root(), e.root()).code(), error_code::not_representable);
  // Nulls inside arrays are fine (arrays are replaced whole).
  const document f = parsed(R"({"k":[null,{"a":null}],"o":{"x":1,"y":[1]},"gone":true})");
  EXPECT_TRUE(merge_diff(a.root(), f.root()).ok());
  EXPECT_TRUE(same(*write(merge_diff(a.root(), a.root())->root()), "{}"));
}

// diff(a, b) applied to a gives b, for hand-picked pairs and random edits of corpus files.
void expect_diff_roundtrip(const value& a, const value& b, const char* what) {
  auto ops = diff(a, b);
  ASSERT_TRUE(ops.ok()) << what;
  const document p = *ops->to_document();
  mutable_document m(a);
  const patch_error e = apply_patch(m, p.root());
  ASSERT_FALSE(e) << what << ": " << e.to_string() << "\n" << *write(p.root());
  EXPECT_TRUE(m.root().equals(b)) << what << "\n" << *write(p.root());
}

TEST(Diff, Pairs) {
  const char* pairs[][2] = {
      {"1", "1"},
      {"1", "1.0"},
      {"{}", "[]"},
      {R"({"a":1,"b":2})", R"({"b":2,"a":1})"},
      {R"({"a":1,"b":2})", R"({"b":3,"c":{"d":[1]}})"},
      {"[1,2,3,4,5]", "[0,1,2,3,4,5]"},
      {"[1,2,3,4,5]", "[1,2,9,4,5]"},
      {"[1,2,3,4,5]", "[1,5]"},
      {"[1,2,3,4,5]", "[]"},
      {"[]", "[1,[2],{}]"},
      {"[1,2,1,2]", "[2,1,2,1]"},
      {R"({"a/b":{"~":[1]}})", R"({"a/b":{"~":[2]}})"},
      {R"({"x":[{"a":1},{"b":2}]})", R"({"x":[{"a":2},{"b":2},{"c":3}]})"},
  };
  for (const auto& [x, y] : pairs) {
    const document a = parsed(x), b = parsed(y);
    expect_diff_roundtrip(a.root(), b.root(), x);
  }
  const document a = parsed(R"({"a":1,"b":[1,2]})"), b = parsed(R"({"a":1,"b":[1,3],"c":4})");
  EXPECT_EQ(*write(diff(a.root(), b.root())->root()),
            R"([{"op":"replace","path":"/b/1","value":3},{"op":"add","path":"/c","value":4}])");
  EXPECT_EQ(*write(diff(a.root(), a.root())->root()), "[]");
}

TEST(Diff, RandomEditsOfCorpusFiles) {
  std::mt19937 rng(12345);
  for (const char* f : {"twitter.json", "citm_catalog.json"}) {
    const std::string text = test::slurp(test::corpus() / "json" / f);
    if (text.empty()) GTEST_SKIP() << "corpus missing";
    const document a = parsed(text);
    for (int round = 0; round < 20; ++round) {
      mutable_document m(a.root());
      // A few random edits: walk down to a random container and change something in it.
      for (int edit = 0; edit < 5; ++edit) {
        mutable_value v = m.root();
        while (v.is_container() && v.size() > 0 && rng() % 4 != 0) v = v.child(rng() % v.size());
        if (v.is_array()) {
          (void)v.insert(rng() % (v.size() + 1), static_cast<std::int64_t>(rng() % 100));
        } else if (v.is_object() && v.size() > 0 && rng() % 2) {
          (void)v.erase(static_cast<std::size_t>(rng() % v.size()));
        } else if (v.is_object()) {
          std::string key = "k";
          key += std::to_string(rng() % 10);
          (void)v.assign(key, "edit");
        } else {
          (void)v.set(empty_object);
        }
      }
      const document b = *m.to_document();
      expect_diff_roundtrip(a.root(), b.root(), f);
      expect_diff_roundtrip(b.root(), a.root(), f);
      if (auto md = merge_diff(a.root(), b.root())) {
        mutable_document again(a.root());
        ASSERT_FALSE(apply_merge_patch(again, md->to_document()->root()));
        EXPECT_TRUE(again.root().equals(b.root())) << f;
      }
    }
  }
}

}  // namespace
