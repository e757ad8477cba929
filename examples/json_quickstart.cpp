// SPDX-License-Identifier: MIT
// keel::json quick start: parse, read values, iterate, handle errors, write.
//
//   json_quickstart            parses a built-in document
//   json_quickstart FILE       parses FILE (or '-' for standard input) and prints it pretty
//
// Exit status: 0 parsed, 1 invalid JSON (the error with line and column on stderr), 2 I/O error.
#include <keel/json.h>

#include <cstdio>
#include <string>

namespace {

const char* const kOrder = R"({
  "id": 1042,
  "customer": "Ada",
  "paid": true,
  "lines": [
    {"item": "coffee", "qty": 2, "price": 3.5},
    {"item": "tea", "qty": 1, "price": 2.25}
  ]
})";

// Reads a whole file ('-': standard input); false when it cannot be read.
bool read_all(const char* path, std::string& out) {
  const bool from_stdin = std::string(path) == "-";
  std::FILE* f = from_stdin ? stdin : std::fopen(path, "rb");
  if (!f) return false;
  char buf[65536];
  out.clear();
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  const bool ok = !std::ferror(f);
  if (!from_stdin) std::fclose(f);
  return ok;
}

// Reads the built-in order: lookups, JSON Pointer, iteration. Every access is checked.
int show_order(keel::json::value order) {
  auto customer = order.find("customer");
  auto first_item = order.at_pointer("/lines/0/item");  // RFC 6901
  if (!customer || !first_item || !customer->is_string()) {
    std::fprintf(stderr, "unexpected document shape\n");
    return 1;
  }
  std::printf("customer: %.*s, first item: %.*s\n", static_cast<int>(customer->raw_string().size()),
              customer->raw_string().data(), static_cast<int>(first_item->raw_string().size()),
              first_item->raw_string().data());

  double total = 0;
  auto lines = order.find("lines");
  if (!lines) return 1;
  for (keel::json::value line : lines->elements()) {  // document order, no allocation
    auto qty = line.find("qty");
    auto price = line.find("price");
    if (!qty || !price) return 1;
    auto q = qty->get<std::int64_t>();
    auto p = price->get<double>();  // integers convert to double too
    if (!q || !p) {
      std::fprintf(stderr, "qty/price: %s\n", q ? p.error().message() : q.error().message());
      return 1;
    }
    total += static_cast<double>(*q) * *p;
  }
  std::printf("total: %.2f\n", total);

  for (const keel::json::member& m : order.members()) {
    std::printf("member %.*s (%zu nodes)\n", static_cast<int>(m.key.size()), m.key.data(),
                m.value.node_count());
  }
  // A wrong type is an error value, never undefined behaviour.
  auto wrong = customer->get<std::int64_t>();
  std::printf("customer as integer: %s\n", wrong ? "?" : wrong.error().message());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string text = kOrder;
  if (argc > 1 && !read_all(argv[1], text)) {
    std::fprintf(stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }

  // A parser reuses its buffers: parsing many documents with one parser allocates nothing once
  // it has seen the largest. The value lives until the parser's next parse.
  keel::json::parser parser;
  auto root = parser.parse(text);
  if (!root) {
    // code, message, byte offset, line and column
    std::fprintf(stderr, "%s: %s\n", argc > 1 ? argv[1] : "input",
                 root.error().to_string().c_str());
    return 1;
  }

  if (argc == 1) {
    if (show_order(*root) != 0) return 1;
    // One-shot parse into a document that owns its storage (values live as long as it does).
    auto bad = keel::json::parse(R"({"a": [1, 2,]})");
    if (bad) return 1;  // trailing commas are an error unless parse_options allow them
    std::printf("bad input: %s\n", bad.error().to_string().c_str());
  }

  auto pretty = keel::json::write(*root, {.pretty = true});
  if (!pretty) {
    std::fprintf(stderr, "write: %s\n", pretty.error().message());
    return 1;
  }
  std::printf("%s\n", pretty->c_str());
  return 0;
}
