// SPDX-License-Identifier: MIT
// Struct mapping's direct read: stage 1 over the text, then one value at a time parsed by the
// kernel set's stage 2 (value_at in parse_kernels.h) into the parser's own document buffers.
#include <cstring>
#include <limits>
#include <new>

#include "json/direct_kernels.h"
#include "json/parse_kernels.h"
#include "json/parse_state.h"
#include "keel/json/mapping.h"

namespace keel::json::detail {

bool text_cursor::start(std::string_view text) noexcept {
  opt_ = p_.options();
  if (opt_.allow_comments || opt_.stop_after_first) return false;
  const isa which = opt_.isa == isa::automatic ? default_isa() : opt_.isa;
  if (!isa_supported(which)) return false;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  std::size_t size = text.size();
  if (size >= std::numeric_limits<std::uint32_t>::max() - kIndexSlack) return false;
  if (opt_.allow_bom && size >= 3 && bytes[0] == 0xef && bytes[1] == 0xbb && bytes[2] == 0xbf) {
    bytes += 3;
    size -= 3;
  }
  const kernel_set k = kernel_set_for(which);
  static_assert(sizeof(parse_state) <= sizeof(state_) && alignof(parse_state) <= 8);
  auto* st = new (state_) parse_state;
  st_ = st;
  st->buf = bytes;
  st->len = size;
  st->opt = &opt_;
  st->owner = &p_;
  st->doc = const_cast<document*>(&p_.doc());
  // The string area (each value's strings at its front) with, after it, stage 1's map of the
  // blocks that hold a backslash.
  const std::size_t string_room = (size + kStringSlack + 7) & ~std::size_t{7};
  const std::size_t map_words = size / 4096 + 2;
  try {
    view_.strings = reinterpret_cast<std::uint8_t*>(st->strings(string_room + 8 * map_words));
    if (view_.strings == nullptr) return false;
    auto* map = reinterpret_cast<std::uint64_t*>(view_.strings + string_room);
    std::memset(map, 0, 8 * map_words);
    st->backslash_blocks = map;
    st->idx = st->positions(size + kIndexSlack);
    if (st->idx == nullptr) return false;
    k.positions(*st);
    view_.backslash_blocks = st->backslash_blocks;  // nullptr: this stage 1 marks none
    view_.clean_to = 0;                             // nothing known of this text yet
    st->backslash_blocks = nullptr;
    if (st->s1_error != error_code::ok || st->n_idx == 0) return false;
    // Room for the largest value (the whole text). The positions stay in their own buffer (no
    // overlay into the node area, see parse_state::nodes): each value's nodes start at the
    // area's front, not behind the positions already read.
    const std::uint32_t* const positions = st->idx;
    st->idx = nullptr;
    view_.nodes = st->nodes(st->n_idx + 1);
    st->idx = const_cast<std::uint32_t*>(positions);
  } catch (const std::bad_alloc&) {
    return false;
  }
  if (view_.nodes == nullptr) return false;
  st->finish(0, 0);  // the parser's document no longer holds its last parse
  std::size_t safe = st->n_idx;
  while (safe > 0 && st->idx[safe - 1] + kPad > st->len) --safe;
  view_.buf = sentinels(*st);
  if (view_.buf == nullptr) return false;
  idx_ = st->idx;
  end_ = st->idx + st->n_idx;
  view_.safe = st->idx + safe;
  value_ = k.value_at;
  skip_ = k.skip_members;
  unescape_ = k.unescape;
  return true;
}

}  // namespace keel::json::detail
