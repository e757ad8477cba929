// SPDX-License-Identifier: MIT
// Parse errors explained (json_diagnostic.h).
#include "json_diagnostic.h"

#include <cstdio>
#include <vector>

namespace keel::tool::json_cli {
namespace {

// What the grammar expects at `offset`, from a scan of the (valid) text before it: strings are
// skipped, brackets tracked, and the last significant token kept.
std::string expected_at(std::string_view text, std::size_t offset) {
  enum class last { nothing, open_object, open_array, key, colon, comma, value };
  std::vector<char> stack;
  last prev = last::nothing;
  const std::size_t end = offset < text.size() ? offset : text.size();
  for (std::size_t i = 0; i < end; ++i) {
    const char c = text[i];
    switch (c) {
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        break;
      case '"': {
        ++i;
        while (i < end && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
        const bool is_key = !stack.empty() && stack.back() == '{' &&
                            (prev == last::open_object || prev == last::comma);
        prev = is_key ? last::key : last::value;
        break;
      }
      case '{':
      case '[':
        stack.push_back(c);
        prev = c == '{' ? last::open_object : last::open_array;
        break;
      case '}':
      case ']':
        if (!stack.empty()) stack.pop_back();
        prev = last::value;
        break;
      case ':':
        prev = last::colon;
        break;
      case ',':
        prev = last::comma;
        break;
      default:  // inside a number or literal
        prev = last::value;
        while (i + 1 < end && text[i + 1] != ',' && text[i + 1] != ']' && text[i + 1] != '}' &&
               text[i + 1] != ' ' && text[i + 1] != '\n' && text[i + 1] != '\t' &&
               text[i + 1] != '\r' && text[i + 1] != ':')
          ++i;
        break;
    }
  }
  const bool in_object = !stack.empty() && stack.back() == '{';
  switch (prev) {
    case last::nothing:
      return "a JSON value";
    case last::open_object:
      return "a string key or '}'";
    case last::open_array:
      return "a value or ']'";
    case last::key:
      return "':' after the key";
    case last::colon:
      return "a value";
    case last::comma:
      return in_object ? "a string key" : "a value";
    case last::value:
      if (stack.empty()) return "the end of the input";
      return in_object ? "',' or '}'" : "',' or ']'";
  }
  return "";
}

// The byte (or token) at offset, quoted, or "the end of the input".
std::string found_at(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return "the end of the input";
  const auto c = static_cast<unsigned char>(text[offset]);
  char buf[16];
  if (c >= 0x21 && c < 0x7f) {
    // A word (an unquoted name, a mistyped literal) is shown whole, up to 16 bytes.
    std::size_t n = 1;
    const auto word = [](unsigned char x) {
      return (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9') ||
             x == '_' || x == '.' || x == '-' || x == '+';
    };
    if (word(c))
      while (offset + n < text.size() && n < 16 &&
             word(static_cast<unsigned char>(text[offset + n])))
        ++n;
    std::string quoted(1, '\'');
    quoted.append(text.substr(offset, n));
    quoted.push_back('\'');
    return quoted;
  }
  if (c == '\n') return "a line break";
  if (c == '\t') return "a tab";
  if (c == ' ') return "a space";
  std::snprintf(buf, sizeof buf, "byte 0x%02x", c);
  return buf;
}

// Display width of bytes [from, to): UTF-8 continuation bytes take no column.
std::size_t width(std::string_view s) {
  std::size_t w = 0;
  for (const char c : s) w += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return w;
}

}  // namespace

std::string describe_parse_error(const std::string& name, std::string_view text,
                                 const json::error& e, bool bom_allowed) {
  std::string out = name;
  out.append(":").append(std::to_string(e.line)).append(":").append(std::to_string(e.column));
  out.append(": ").append(e.message());
  switch (e.code) {
    case json::error_code::unexpected_character:
    case json::error_code::unexpected_end:
    case json::error_code::trailing_content:
    case json::error_code::empty_document:
      out.append(": found ").append(found_at(text, e.offset));
      out.append(", expected ").append(expected_at(text, e.offset));
      break;
    case json::error_code::invalid_literal:
    case json::error_code::invalid_number:
      out.append(": found ").append(found_at(text, e.offset));
      break;
    default:
      break;
  }
  out += '\n';
  // The line, cut to about 76 columns around the error, and a caret.
  if (e.line != 0 && e.offset <= text.size()) {
    std::size_t start = e.offset - (e.column - 1);
    std::size_t stop = text.find('\n', e.offset);
    if (stop == std::string_view::npos) stop = text.size();
    if (stop > start && text[stop - 1] == '\r') --stop;
    std::string prefix, suffix;
    if (e.offset - start > 40) {
      start = e.offset - 36;
      while (start < e.offset && (static_cast<unsigned char>(text[start]) & 0xc0) == 0x80) ++start;
      prefix = "...";
    }
    if (stop > e.offset + 40) {
      stop = e.offset + 36;
      while (stop > e.offset && (static_cast<unsigned char>(text[stop]) & 0xc0) == 0x80) --stop;
      suffix = "...";
    }
    std::string shown(text.substr(start, stop - start));
    for (char& c : shown)
      if (c == '\t' || static_cast<unsigned char>(c) < 0x20) c = ' ';
    out.append("  ").append(prefix).append(shown).append(suffix).append("\n  ");
    out.append(prefix.size() + width(text.substr(start, e.offset - start)), ' ').append("^\n");
  }
  if (!bom_allowed && text.size() >= 3 && text.substr(0, 3) == "\xef\xbb\xbf" && e.offset == 0)
    out += "  hint: the file starts with a UTF-8 byte order mark; --bom skips it\n";
  return out;
}

}  // namespace keel::tool::json_cli
