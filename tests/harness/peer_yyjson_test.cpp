// SPDX-License-Identifier: MIT
// The yyjson peer (0.12.0, built from ../shared/peers) links and works from C++.
#include <gtest/gtest.h>
#include <yyjson.h>

#include <cstdlib>
#include <string>

TEST(PeerYyjson, ParsesAndWrites) {
  const std::string text = R"({"a":[1,2.5,"x"],"b":true})";
  yyjson_doc* doc = yyjson_read(text.data(), text.size(), 0);
  ASSERT_NE(doc, nullptr);
  yyjson_val* a = yyjson_obj_get(yyjson_doc_get_root(doc), "a");
  ASSERT_EQ(yyjson_arr_size(a), 3u);
  EXPECT_EQ(yyjson_get_int(yyjson_arr_get(a, 0)), 1);
  EXPECT_DOUBLE_EQ(yyjson_get_real(yyjson_arr_get(a, 1)), 2.5);
  std::size_t len = 0;
  char* out = yyjson_write(doc, 0, &len);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(std::string(out, len), text);
  std::free(out);
  yyjson_doc_free(doc);
}

TEST(PeerYyjson, RejectsInvalid) {
  const std::string text = "[1,]";
  yyjson_read_err err;
  yyjson_doc* doc = yyjson_read_opts(const_cast<char*>(text.data()), text.size(), 0, nullptr, &err);
  EXPECT_EQ(doc, nullptr);
  EXPECT_NE(err.code, YYJSON_READ_SUCCESS);
}
