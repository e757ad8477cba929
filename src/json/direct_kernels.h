// SPDX-License-Identifier: MIT
// The kernels of struct mapping's direct read (keel/json/mapping.h: text_cursor, direct_mapper),
// written once over an ISA traits type I and instantiated in parse_<isa>.cpp beside the parser:
// after stage 1, one value at a time is parsed by stage 2 (parse_kernels.h) from its position.
#pragma once

#include <cstdint>

#include "json/parse_kernels.h"
#include "json/parse_state.h"
#include "keel/json/mapping.h"

namespace keel::json::detail {

// The value at position ip as a DOM written from v.nodes / v.strings: a string or scalar is one
// node, a container its subtree (at most st.opt->max_depth levels). st holds stage 1's positions
// with their sentinels (sentinels()). Returns the position after the value, or nullptr with the
// error in st.
template <class I>
const std::uint32_t* value_at(parse_state& st, const direct_view& v,
                              const std::uint32_t* ip) noexcept {
  const std::uint32_t* const end = st.idx + st.n_idx;
  stage2<I, stage2_mode::one_value> s2{
      st,     v.buf,   st.len,    ip,        static_cast<std::size_t>(end - ip),
      v.safe, v.nodes, v.strings, v.strings, v.nodes};
  const std::uint8_t c = v.buf[*ip];
  if (c == '"') return s2.string(ip) ? ip + 2 : nullptr;  // no grammar state: straight to it
  if (c != '{' && c != '[' && c != ']' && c != '}' && c != ',' && c != ':' && ip < end)
    return s2.scalar(ip) ? ip + 1 : nullptr;
  return s2.run() ? st.next_position : nullptr;
}

// From ip, the position of a key in an object (after '{' or ','), parses and drops the members
// whose (unescaped) key no field can have (f), each validated like any value. Returns the
// position of the first member whose key may be a field's, or of whatever else stands where a
// key should (the object's '}' after its last member or a trailing comma, or a byte the caller
// rejects); nullptr when the text is not valid JSON there.
template <class I>
const std::uint32_t* skip_members(parse_state& st, const direct_view& v, const std::uint32_t* ip,
                                  const key_filter& f) noexcept {
  const auto may_be_field = [&f](const std::uint8_t* key, std::size_t len) {
    std::uint64_t candidates = f.by_len[len < 63 ? len : 63];
    if (len != 0) candidates &= f.by_first[key[0]];
    return candidates != 0;
  };
  const std::uint32_t* const end = st.idx + st.n_idx;
  // One stage 2 for every member, each value's nodes and strings written over the last one's.
  // (The validating stage 2 of parser::validate, nodes round a ring, measured slower here: 146 us
  // against 139 on twitter.json.)
  stage2<I, stage2_mode::one_value> s2{st,     v.buf,   st.len,    st.idx,    st.n_idx,
                                       v.safe, v.nodes, v.strings, v.strings, v.nodes};
  for (;;) {
    if (v.buf[*ip] != '"') return ip;
    // The key as written first: without a backslash it is the key.
    if (may_be_field(v.buf + ip[0] + 1, ip[1] - ip[0] - 1)) return ip;
    s2.out = v.nodes;
    s2.sout = v.strings;
    if (!s2.string(ip)) return nullptr;
    if ((v.nodes[0].tag & kNoEscape) == 0 &&
        may_be_field(v.strings, static_cast<std::size_t>(v.nodes[0].tag >> 8)))
      return ip;
    ip += 2;
    if (v.buf[*ip] != ':') return nullptr;
    ++ip;
    s2.out = v.nodes;
    s2.sout = v.strings;
    const std::uint8_t c = v.buf[*ip];
    if (c == '"') {
      if (!s2.string(ip)) return nullptr;
      ip += 2;
    } else if (c == '{' || c == '[') {
      s2.idx = ip;
      s2.n = static_cast<std::size_t>(end - ip);
      if (!s2.run()) return nullptr;
      ip = st.next_position;
    } else {
      if (!s2.scalar(ip)) return nullptr;  // fails on a byte that cannot start a value
      ++ip;
    }
    const std::uint8_t after = v.buf[*ip];
    if (after == '}') return ip;
    if (after != ',') return nullptr;
    ++ip;
  }
}

}  // namespace keel::json::detail
