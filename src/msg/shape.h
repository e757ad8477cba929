// SPDX-License-Identifier: MIT
// How a message sits in the document forms (MessagePack, CBOR, plain JSON): the body map alone
// when the header is empty, else an array of two maps, [header, body], the header map holding
// the six fields by name. Also the stand-in for maps whose keys are not all strings.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "keel/msg/error.h"
#include "keel/msg/message.h"

namespace keel::msg::detail {

inline constexpr std::array<std::string_view, 6> kHeaderNames = {
    "source_id", "source_sub_id", "target_id", "target_sub_id", "type", "version"};

inline std::array<const std::string*, 6> header_fields(const header& h) {
  return {&h.source_id, &h.source_sub_id, &h.target_id, &h.target_sub_id, &h.type, &h.version};
}
inline std::array<std::string*, 6> header_fields(header& h) {
  return {&h.source_id, &h.source_sub_id, &h.target_id, &h.target_sub_id, &h.type, &h.version};
}
inline bool header_empty(const header& h) {
  for (const std::string* f : header_fields(h))
    if (!f->empty()) return false;
  return true;
}

// A MessagePack or CBOR map with a key that is not a string is held as
// tagged(kAnyKeyMap, array of [key, value] arrays) and written back as a map. (259 is CBOR's tag
// for "a map with keys of any type", whose content is always a map, so a tag 259 on an array of
// pairs cannot come from anywhere else.) Only pairs with a key that is not a string are such a
// map: with string keys only (or none) the map would read back as a keel map, so those are
// written as the tagged value they are.
inline constexpr std::uint64_t kAnyKeyMap = 259;
inline const array* any_key_pairs(const value& v) {
  if (v.type() != type::tagged || v.tag() != kAnyKeyMap) return nullptr;
  const array* a = v.tagged_value().as_array();
  if (a == nullptr) return nullptr;
  bool other_key = false;
  for (const value& p : *a) {
    const array* pair = p.as_array();
    if (pair == nullptr || pair->size() != 2) return nullptr;
    other_key |= (*pair)[0].type() != type::string;
  }
  return other_key ? a : nullptr;
}

// The message a document's top-level value stands for (see above); bad_value otherwise, with
// `out` left empty.
error message_from_value(value&& v, message& out);

// A top-level value shaped as `out` would be written (its body map, or [header map, body map])
// and holding out's body, for a reader that fills values in place: reading a message of the
// same shape then reuses the body's storage (message_from_value moves it back).
value document_shell(message& out);
// Empties a message (a failed read).
void clear_message(message& out) noexcept;

}  // namespace keel::msg::detail
