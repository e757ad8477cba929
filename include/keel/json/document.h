// SPDX-License-Identifier: MIT
// keel::json::document: an immutable parsed document (the parser is in keel/json/parser.h).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "keel/json/error.h"
#include "keel/json/options.h"
#include "keel/json/value.h"

namespace keel::json {

class parser;

namespace detail {
struct parse_state;
struct dom_builder;  // builds a document from a mutable one (src/json/mutable.cpp)
}  // namespace detail

// An immutable parsed document: a node array and a string area (docs/json-dom.md). It owns its
// storage; values taken from it are valid while it lives and is not parsed into again.
class document {
 public:
  document() = default;
  // A moved-from document is empty (no nodes, no strings), as a default-constructed one.
  document(document&& o) noexcept { take(o); }
  document& operator=(document&& o) noexcept {
    if (this != &o) take(o);
    return *this;
  }

  value root() const noexcept { return {nodes_.get(), in_place_ ? in_place_ : strings_.get()}; }
  bool empty() const noexcept { return node_count_ == 0; }
  std::size_t node_count() const noexcept { return node_count_; }
  std::size_t string_bytes() const noexcept { return string_bytes_; }
  // True after parser::parse_in_place: the strings are the input's text, unescaped there.
  bool in_place() const noexcept { return in_place_ != nullptr; }
  // Bytes of DOM in use: 16 per node plus the string area (none in place).
  std::size_t dom_bytes() const noexcept {
    return node_count_ * sizeof(detail::node) + string_bytes_;
  }

 private:
  friend class parser;
  friend struct detail::parse_state;
  friend struct detail::dom_builder;
  void take(document& o) noexcept {
    nodes_ = std::move(o.nodes_);
    strings_ = std::move(o.strings_);
    node_capacity_ = std::exchange(o.node_capacity_, 0);
    node_count_ = std::exchange(o.node_count_, 0);
    string_capacity_ = std::exchange(o.string_capacity_, 0);
    string_bytes_ = std::exchange(o.string_bytes_, 0);
    in_place_ = std::exchange(o.in_place_, nullptr);
  }
  std::unique_ptr<detail::node[]> nodes_;
  std::size_t node_capacity_ = 0, node_count_ = 0;
  std::unique_ptr<char[]> strings_;
  std::size_t string_capacity_ = 0, string_bytes_ = 0;
  const char* in_place_ = nullptr;  // parse_in_place: the caller's text is the string area
};

}  // namespace keel::json
