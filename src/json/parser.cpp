// SPDX-License-Identifier: MIT
// The parser front: buffers, the kernel choice, BOM and comment handling, error positions.
#include <cstring>
#include <limits>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "common/options.h"
#include "common/utf8.h"
#include "json/parse_state.h"

namespace keel::json {
namespace detail {
namespace {

using keel::detail::utf8_sequence;

// Room for n elements (contents not kept); nullptr when out of memory.
template <class T>
T* grow(std::unique_ptr<T[]>& p, std::size_t& cap, std::size_t n) noexcept {
  if (n > cap) {
    // Grow by at least half again so slowly growing inputs do not reallocate every time.
    const std::size_t want = n + n / 2;
    std::unique_ptr<T[]> q;
    try {
      // Plain new[] (not the nothrow form), so that a replaced operator new[] sees every buffer.
      q = std::make_unique_for_overwrite<T[]>(want);
    } catch (const std::bad_alloc&) {
      return nullptr;
    }
    p = std::move(q);
    cap = want;
  }
  return p.get();
}

// Replaces // and /* */ comments (outside strings) with spaces in dst; offsets are preserved.
// With check_utf8 a comment's text must be valid UTF-8 like the rest of the document. Returns
// error_code::ok, or unterminated_comment (at the comment's start) / invalid_utf8 (at the byte)
// with its offset in `at`.
error_code strip_comments(const std::uint8_t* src, std::size_t len, std::uint8_t* dst,
                          bool check_utf8, std::size_t& at) {
  std::memcpy(dst, src, len);
  const std::uint8_t* const end = src + len;
  // Blanks dst[i] (a byte of a comment's text; newlines stay) and returns the next offset, or
  // SIZE_MAX at invalid UTF-8.
  auto blank = [&](std::size_t i) -> std::size_t {
    if (src[i] >= 0x80 && check_utf8) {
      const std::size_t n = utf8_sequence(src + i, end);
      if (n == 0) return std::numeric_limits<std::size_t>::max();
      std::memset(dst + i, ' ', n);
      return i + n;
    }
    if (dst[i] != '\n') dst[i] = ' ';
    return i + 1;
  };
  std::size_t i = 0;
  while (i < len) {
    const std::uint8_t c = dst[i];
    if (c == '"') {
      ++i;
      while (i < len && dst[i] != '"') i += dst[i] == '\\' ? 2 : 1;
      ++i;
    } else if (c == '/' && i + 1 < len && dst[i + 1] == '/') {
      while (i < len && dst[i] != '\n') {
        const std::size_t next = blank(i);
        if (next == std::numeric_limits<std::size_t>::max()) {
          at = i;
          return error_code::invalid_utf8;
        }
        i = next;
      }
    } else if (c == '/' && i + 1 < len && dst[i + 1] == '*') {
      const std::size_t start = i;
      dst[i] = dst[i + 1] = ' ';
      i += 2;
      for (;;) {
        if (i + 1 >= len) {
          at = start;
          return error_code::unterminated_comment;
        }
        if (dst[i] == '*' && dst[i + 1] == '/') {
          dst[i] = dst[i + 1] = ' ';
          i += 2;
          break;
        }
        const std::size_t next = blank(i);
        if (next == std::numeric_limits<std::size_t>::max()) {
          at = i;
          return error_code::invalid_utf8;
        }
        i = next;
      }
    } else {
      ++i;
    }
  }
  return error_code::ok;
}

error located(const std::uint8_t* data, std::size_t size, error_code code, std::size_t offset) {
  error e;
  e.code = code;
  e.offset = offset;
  e.line = 1;
  std::size_t line_start = 0;
  const std::size_t end = offset < size ? offset : size;
  const std::uint8_t* p = data;
  while (const void* q = std::memchr(p, '\n', static_cast<std::size_t>(data + end - p))) {
    ++e.line;
    p = static_cast<const std::uint8_t*>(q) + 1;
    line_start = static_cast<std::size_t>(p - data);
  }
  e.column = offset - line_start + 1;
  return e;
}

}  // namespace

kernel_set kernel_set_for(isa which) noexcept {
  switch (which) {
#if defined(__x86_64__)
    case isa::avx512:
      return {parse_avx512,        positions_avx512, positions_lines_avx512, value_at_avx512,
              skip_members_avx512, record_avx512,    unescape_simple_avx512};
    case isa::avx2:
      return {parse_avx2,        positions_avx2, positions_lines_avx2, value_at_avx2,
              skip_members_avx2, record_avx2,    unescape_each_avx2};
#elif defined(__aarch64__)
    case isa::neon:
      return {parse_neon,  positions_neon, positions_lines_neon, value_at_neon, skip_members_neon,
              record_neon, nullptr};
#endif
    default:
      return {parse_scalar,    positions_scalar,    positions_lines_scalar,
              value_at_scalar, skip_members_scalar, record_scalar,
              nullptr};
  }
}

// Called once per parse, after stage 1 (n = structural positions + 1). For a big input the
// positions move into the node area's tail and the parser's position buffer is released: stage 2
// writes nodes from the front of the area while it reads positions further on, and a node slot
// is only written once the positions stored there have been read. So the positions cost no
// memory of their own (on an array of small numbers they were a third of the peak: 4 bytes per
// position, about 8 per value, beside the 16 of the value's node).
node* parse_state::nodes(std::size_t n) noexcept {
  node* area = grow(doc->nodes_, doc->node_capacity_, n);
  if (area != nullptr && mode != stage2_mode::validate && len >= kOverlayMinBytes &&
      idx != nullptr && idx == owner->indices_.get()) {
    overlay_positions(area, doc->node_capacity_);
  }
  return area;
}

// Where the positions can start in a node area of `cap` nodes: the least offset T (bytes) such
// that the node written while position j is read, at most one per position that can start a
// value (every byte but , : ] } and closing quotes), ends before T + 4 j, with room to spare. Moves
// them there and frees the parser's buffer; leaves everything as it was when they do not fit.
void parse_state::overlay_positions(node* area, std::size_t cap) noexcept {
  const std::size_t count = n_idx + kIndexSlack;  // room for stage 2's sentinels
  std::int64_t need = 0, nodes_so_far = 0;
  // A string's quotes are consecutive positions (nothing inside a string is one): opening and
  // closing quotes alternate, and only the opening one makes a node.
  std::int64_t closing = 0;
  for (std::size_t j = 0; j < n_idx; ++j) {
    const std::uint8_t c = buf[idx[j]];
    const bool quote = c == '"';
    nodes_so_far += (c != ',' && c != ':' && c != ']' && c != '}' && !(quote && closing)) ? 1 : 0;
    closing ^= quote ? 1 : 0;
    const std::int64_t t = 16 * (nodes_so_far + 2) - 4 * static_cast<std::int64_t>(j);
    if (t > need) need = t;
  }
  const auto at = (static_cast<std::size_t>(need) + kOverlayMargin + 63) & ~std::size_t{63};
  if (at + 4 * count > cap * sizeof(node)) return;
  auto* moved = reinterpret_cast<std::uint32_t*>(reinterpret_cast<char*>(area) + at);
  // In pieces, each piece's pages of the old buffer released once copied: the copy and the
  // buffer are never both whole in memory (the buffer is freed below; its contents are not
  // read again).
  constexpr std::size_t kPiece = std::size_t{1} << 20;  // positions per piece (4 MiB)
  for (std::size_t j = 0; j < n_idx; j += kPiece) {
    const std::size_t k = n_idx - j < kPiece ? n_idx - j : kPiece;
    std::memcpy(moved + j, idx + j, 4 * k);
#if defined(__linux__)
    auto* const lo = reinterpret_cast<char*>(idx + j);
    auto* const hi = reinterpret_cast<char*>(idx + j + k);
    char* const from = lo + (4096 - reinterpret_cast<std::uintptr_t>(lo) % 4096) % 4096;
    char* const to = hi - reinterpret_cast<std::uintptr_t>(hi) % 4096;
    if (to > from) madvise(from, static_cast<std::size_t>(to - from), MADV_DONTNEED);
#endif
  }
  idx = moved;
  owner->indices_.reset();
  owner->index_capacity_ = 0;
}
char* parse_state::strings(std::size_t n) noexcept {
  return grow(doc->strings_, doc->string_capacity_, n);
}
std::uint64_t* parse_state::stack(std::size_t n) noexcept {
  return grow(owner->stack_, owner->stack_capacity_, n);
}
char* parse_state::scratch(std::size_t n) noexcept {
  return grow(owner->scratch_, owner->scratch_capacity_, n);
}
std::uint32_t* parse_state::positions(std::size_t n) noexcept {
  return grow(owner->indices_, owner->index_capacity_, n);
}
void parse_state::finish(std::size_t node_count, std::size_t string_bytes) noexcept {
  doc->node_count_ = node_count;
  doc->string_bytes_ = string_bytes;
  doc->in_place_ = nullptr;  // parser::run sets it after a parse in place
}

}  // namespace detail

isa default_isa() noexcept {
  static const isa chosen = keel::detail::choose_isa("KEEL_JSON_ISA");
  return chosen;
}

parser::~parser() = default;

using detail::stage2_mode;

error parser::parse_into(document& doc, const void* data, std::size_t size) noexcept {
  return run(doc, data, size, stage2_mode::build);
}

error parser::validate(const void* data, std::size_t size) noexcept {
  return run(doc_, data, size, stage2_mode::validate);
}

error parser::parse_in_place_into(document& doc, char* data, std::size_t size,
                                  std::size_t capacity) noexcept {
  if (capacity < size || capacity - size < in_place_padding) {
    doc.node_count_ = 0;
    doc.in_place_ = nullptr;
    error e;
    e.code = error_code::padding_too_small;
    return e;
  }
  return run(doc, data, size, stage2_mode::in_place);
}

result<value> parser::parse_in_place(char* data, std::size_t size, std::size_t capacity) noexcept {
  const error e = parse_in_place_into(doc_, data, size, capacity);
  if (e) return e;
  return doc_.root();
}

error parser::run(document& doc, const void* data, std::size_t size, stage2_mode mode) noexcept {
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  doc.node_count_ = 0;
  doc.string_bytes_ = 0;
  doc.in_place_ = nullptr;
  consumed_ = 0;
  isa which = options_.isa == isa::automatic ? default_isa() : options_.isa;
  if (!isa_supported(which)) return detail::located(bytes, size, error_code::isa_unavailable, 0);
  last_isa_ = which;
  if (size >= std::numeric_limits<std::uint32_t>::max() - detail::kIndexSlack)
    return detail::located(bytes, size, error_code::document_too_large, 0);

  try {
    detail::parse_state st;
    st.opt = &options_;
    st.owner = this;
    st.doc = &doc;
    st.mode = mode;
    std::size_t skip = 0;
    if (options_.allow_bom && size >= 3 && bytes[0] == 0xef && bytes[1] == 0xbb && bytes[2] == 0xbf)
      skip = 3;
    st.buf = bytes + skip;
    // parse_in_place: the caller's writable text (data came in as char*).
    if (mode == stage2_mode::in_place) st.in_place_text = const_cast<std::uint8_t*>(st.buf);
    st.len = size - skip;
    if (options_.allow_comments && std::memchr(st.buf, '/', st.len)) {
      auto* copy =
          reinterpret_cast<std::uint8_t*>(detail::grow(scratch_, scratch_capacity_, st.len + 1));
      if (copy == nullptr) return detail::located(bytes, size, error_code::out_of_memory, 0);
      std::size_t at = 0;
      const error_code bad =
          detail::strip_comments(st.buf, st.len, copy, !options_.allow_invalid_utf8, at);
      if (bad != error_code::ok) return detail::located(bytes, size, bad, at + skip);
      // The kernels may use scratch_ for the final token: hand them a copy they own.
      comment_copy_.assign(reinterpret_cast<const char*>(copy), st.len);
      st.buf = reinterpret_cast<const std::uint8_t*>(comment_copy_.data());
    }
    // The scalar set's one pass finds no positions: it asks for the buffer only when it falls back
    // to the two passes or settles an error (one_pass_scalar.h), 4 bytes an input byte saved.
    if (which != isa::scalar) {
      st.idx = detail::grow(indices_, index_capacity_, st.len + detail::kIndexSlack);
      if (st.idx == nullptr) return detail::located(bytes, size, error_code::out_of_memory, 0);
    }
    detail::kernel_set_for(which).parse(st);
    if (st.code != error_code::ok) {
      doc.node_count_ = 0;
      return detail::located(bytes, size, st.code, st.offset + skip);
    }
    consumed_ = st.consumed + skip;
    if (mode == stage2_mode::validate) doc.node_count_ = 0;
    if (mode == stage2_mode::in_place)
      doc.in_place_ = reinterpret_cast<const char*>(st.in_place_text);
    return {};
  } catch (const std::bad_alloc&) {
    doc.node_count_ = 0;
    return detail::located(bytes, size, error_code::document_too_large, 0);
  }
}

result<value> parser::parse(const void* data, std::size_t size) noexcept {
  const error e = parse_into(doc_, data, size);
  if (e) return e;
  return doc_.root();
}

error validate(std::string_view text, const parse_options& options) noexcept {
  parser p(options);
  return p.validate(text);
}

result<document> parse(std::string_view text, const parse_options& options) noexcept {
  parser p(options);
  document doc;
  const error e = p.parse_into(doc, text.data(), text.size());
  if (e) return e;
  return doc;
}

}  // namespace keel::json
