// SPDX-License-Identifier: MIT
// The installed keel::json: parse, read, write.
#include <keel/json.h>

#include <cstdio>

int use_json() {
  keel::json::parser parser;
  auto root = parser.parse(R"({"name":"keel","list":[1,2.5,"\u00e9"],"ok":true})");
  if (!root) {
    std::printf("use_json: parse failed: %s\n", root.error().to_string().c_str());
    return 1;
  }
  auto name = root->find("name");
  auto second = root->at_pointer("/list/1");
  if (!name || *name->get<std::string_view>() != "keel" || !second ||
      *second->get<double>() != 2.5) {
    std::printf("use_json: unexpected values\n");
    return 1;
  }
  auto text = keel::json::write(*root);
  if (!text || *text != "{\"name\":\"keel\",\"list\":[1,2.5,\"\xc3\xa9\"],\"ok\":true}") {
    std::printf("use_json: unexpected output\n");
    return 1;
  }
  auto bad = keel::json::parse("[1,]");
  if (bad || bad.error().column != 4) {
    std::printf("use_json: error not reported\n");
    return 1;
  }
  return 0;
}
