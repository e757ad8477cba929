// SPDX-License-Identifier: MIT
// JSON Pointer (RFC 6901) segments, for map::find_path and value_view::find_path.
#pragma once

#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

namespace keel::msg::detail {

// Takes the next segment off `path` (which starts with '/'); false when the path is done or
// malformed (no leading '/').
inline bool next_segment(std::string_view& path, std::string_view& seg) noexcept {
  if (path.empty() || path[0] != '/') return false;
  path.remove_prefix(1);
  const std::size_t cut = path.find('/');
  seg = path.substr(0, cut);
  path = cut == std::string_view::npos ? std::string_view{} : path.substr(cut);
  return true;
}

// The map name a segment stands for ("~1" -> '/', "~0" -> '~'); false on another '~' escape.
inline bool segment_name(std::string_view seg, std::string& name) {
  name.clear();
  for (std::size_t i = 0; i < seg.size(); ++i) {
    if (seg[i] != '~') {
      name += seg[i];
    } else if (i + 1 < seg.size() && (seg[i + 1] == '0' || seg[i + 1] == '1')) {
      name += seg[++i] == '0' ? '~' : '/';
    } else {
      return false;
    }
  }
  return true;
}

// The array index a segment stands for: decimal digits without a leading zero.
inline bool segment_index(std::string_view seg, std::size_t& idx) noexcept {
  if (seg.empty() || (seg.size() > 1 && seg[0] == '0')) return false;
  const auto [p, ec] = std::from_chars(seg.data(), seg.data() + seg.size(), idx);
  return ec == std::errc{} && p == seg.data() + seg.size();
}

}  // namespace keel::msg::detail
