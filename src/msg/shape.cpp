// SPDX-License-Identifier: MIT
// A document form's top-level value as a message (shape.h).
#include "shape.h"

namespace keel::msg::detail {

namespace {

bool read_header(const map& m, header& h) {
  auto fields = header_fields(h);
  for (const auto& e : m) {
    std::size_t i = 0;
    while (i < kHeaderNames.size() && kHeaderNames[i] != e.name) ++i;
    if (i == kHeaderNames.size() || e.value.type() != type::string) return false;
    fields[i]->assign(e.value.as_text());
  }
  return true;
}

}  // namespace

error message_from_value(value&& v, message& out) {
  for (std::string* f : header_fields(out.header)) f->clear();
  if (map* m = v.as_map()) {
    out.body() = std::move(*m);
    return {};
  }
  if (array* a = v.as_array(); a != nullptr && a->size() == 2) {
    map* h = (*a)[0].as_map();
    map* b = (*a)[1].as_map();
    if (h != nullptr && b != nullptr && read_header(*h, out.header)) {
      out.body() = std::move(*b);
      return {};
    }
  }
  clear_message(out);
  return error{error_code::bad_value, 0};
}

value document_shell(message& out) {
  value body(std::move(out.body()));
  if (header_empty(out.header)) return body;
  array a(2);
  a[0] = value(map());
  a[1] = std::move(body);
  return value(std::move(a));
}

void clear_message(message& out) noexcept {
  for (std::string* f : header_fields(out.header)) f->clear();
  out.body().clear();
}

}  // namespace keel::msg::detail
