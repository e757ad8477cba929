// SPDX-License-Identifier: MIT
// The storage of a mutable document (docs/json-mutable.md): nodes as in the immutable DOM, but a
// container's data points at its own block of child nodes and a string's data at its bytes.
// Blocks and strings come from chunks the arena owns; released blocks are kept on free lists by
// size class and reused. The functions here throw std::bad_alloc; the public API catches it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "keel/json/mutable.h"

namespace keel::json::detail {

inline node* children(const node& n) noexcept { return as_ptr<node>(n.data); }
inline std::size_t count(const node& n) noexcept { return static_cast<std::size_t>(n.tag >> 8); }
inline type type_of(const node& n) noexcept { return static_cast<type>(n.tag & kTypeMask); }
// Nodes a container's children occupy: one per element, two per member.
inline std::size_t child_nodes(const node& n) noexcept {
  return type_of(n) == type::object ? 2 * count(n) : count(n);
}
inline bool is_container(const node& n) noexcept {
  const type t = type_of(n);
  return t == type::array || t == type::object;
}

struct mutable_arena {
  node root{};  // null

  mutable_arena() = default;
  mutable_arena(const mutable_arena&) = delete;
  mutable_arena& operator=(const mutable_arena&) = delete;

  // A detached node holding `in` (deep copies its strings and containers into this arena).
  node make(const mutable_input& in);
  // make() after checking that a string input is valid UTF-8 (else e = invalid_utf8).
  node make_checked(const mutable_input& in, error_code& e);
  // A detached deep copy of an immutable value / a mutable node (of any arena).
  node copy(const value& v);
  node copy(const node& n);
  // A string node with a copy of s (kNoEscape when none of its bytes needs an escape).
  node string_node(std::string_view s);
  // Releases the blocks below n (n itself stays as it is).
  void release(const node& n);

  // Container editing (n is an array or object node of this arena). Makes room for `extra` more
  // child nodes; returns the first child.
  node* reserve(node& n, std::size_t extra);
  // Inserts `nodes` (already built) at child node position pos, shifting the rest.
  node* insert_nodes(node& n, std::size_t pos, const node* nodes, std::size_t k,
                     std::size_t members);
  // Removes k child nodes at pos (their contents are not released).
  void erase_nodes(node& n, std::size_t pos, std::size_t k, std::size_t members);

  std::size_t bytes() const noexcept { return total_; }

 private:
  template <class Text>
  node copy_shallow(const node& x, Text text, node*& block_out);
  void* bump(std::size_t bytes);
  node* block(std::size_t cap);  // a block of cap >= 1 nodes
  void free_block(node* first) noexcept;

  std::vector<std::unique_ptr<char[]>> chunks_;
  char* cur_ = nullptr;
  std::size_t left_ = 0;
  std::size_t total_ = 0;
  std::size_t next_chunk_ = 4096;
  node* free_[64] = {};  // free blocks by floor(log2(capacity)), linked through the header
};

}  // namespace keel::json::detail
