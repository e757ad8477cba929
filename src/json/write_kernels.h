// SPDX-License-Identifier: MIT
// The writer's kernel: one loop over the node array in document order, with an explicit stack
// of open containers. The string scan is written once over a block type (write_isa.h) and
// instantiated per instruction set: 16-byte baseline blocks (SSE2 or NEON) inline here, 32-byte
// AVX2 blocks for long strings in write_avx2.cpp (used by the avx2 and avx512 kernel sets), 32-byte
// NEON blocks in write_neon.cpp (the neon kernel set). The output cursor and
// the innermost container live in locals (registers); the buffer keeps kWriteSlack spare bytes past
// its limit, so only strings (and pretty indentation) need a size-dependent room check, everything
// else one compare per value.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "json/number_format.h"
#include "json/parse_state.h"
#include "json/write_isa.h"
#include "keel/detail/attributes.h"
#include "keel/json/error.h"
#include "keel/json/options.h"
#include "keel/json/value.h"
#include "keel/json/writer.h"

namespace keel::json::detail {

// Room that is always there past `lim`: the longest fixed-size write (a number's whole-register
// stores: 64 bytes, a string block: 32 bytes) plus separators, with margin.
inline constexpr std::ptrdiff_t kWriteSlack = 160;

// Thrown by grow_output when a streamed write's sink refuses a piece (writer.cpp turns it into
// io_error): the rest of the text is not formatted.
struct sink_stopped {};
// A streamed write's buffer: the size of the pieces it hands on (writer.cpp).
inline constexpr std::size_t kStreamChunk = std::size_t{64} << 10;

// The writer's output buffer and, for a streamed write, where full buffers go.
struct output_buffer {
  std::unique_ptr<char[]>& buf;
  std::size_t& cap;
  write_sink* sink = nullptr;  // nullptr: the whole text stays in the buffer
};
// Makes room for `need` more bytes after `used` plus the slack; returns the new base
// (writer.cpp). Grows the buffer, keeping its bytes; a streamed write first hands the `used`
// bytes to the sink and sets `used` to 0. Out of line and without the cursor, so the cursor stays
// in a register.
char* grow_output(output_buffer& out, std::size_t& used, std::size_t need);
// Escapes the character at s[i] at p (advancing i past it); nullptr on invalid UTF-8 (only
// reachable with escape_unicode). Rare: out of line (writer.cpp).
char* escape(char* p, const char* s, std::size_t len, std::size_t& i) noexcept;

// Makes room for one more open container: stack.size() > depth afterwards; returns stack.data().
const node** grow_stack(std::vector<const node*>& stack, std::size_t depth);

// The wide kernel sets' scan for strings longer than kShortString (write_avx2.cpp, compiled with
// the avx2 set's flags; the avx512 set uses it too): the quoted string's body at p.
using long_scan = char* (*)(char* p, const char* s, std::size_t len, escape_extra x) noexcept;
#if defined(__x86_64__)
char* scan_long_avx2(char* p, const char* s, std::size_t len, escape_extra x) noexcept;
#elif defined(__aarch64__)
char* scan_long_neon(char* p, const char* s, std::size_t len, escape_extra x) noexcept;
#endif

namespace {
// Integers from 10^4 up and negative ones, out of line: inlined, the loop kept fewer values in
// registers (more moves around every other value's code).
KEEL_NOINLINE inline char* write_int_rest(std::int64_t v, char* p) noexcept {
  return write_i64(v, p);
}
}  // namespace

// A literal's text (without its NUL) at p.
template <std::size_t N>
KEEL_INLINE char* put_text(char* p, const char (&text)[N]) noexcept {
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result): text, not a C string
  std::memcpy(p, text, N - 1);
  return p + N - 1;
}

// A quoted string at p (room: 6 * len + 2 + Isa::kBlock bytes). Each block of the string is
// stored whole, then checked for bytes that need an escape. Reads may run up to kBlock - 1 bytes
// past the string: every string in the string area is followed by its NUL and the area keeps
// kStringSlack spare bytes, so they stay inside the allocation; bytes past the end are masked
// off. Plain: neither '/' nor non-ASCII is escaped (the default options): the scan skips those.
template <class Isa, bool Plain>
KEEL_INLINE char* scan_string(char* p, const char* s, std::size_t len, escape_extra x) noexcept {
  static_assert(kStringSlack >= Isa::kBlock);
  constexpr std::size_t kBlock = Isa::kBlock;
  using mask = typename Isa::mask;
  std::size_t i = 0;
  for (;;) {
    mask m = Isa::template copy_block<Plain>(s + i, p, x);
    const std::size_t remain = len - i;
    if (remain < kBlock) m &= (mask{1} << remain) - 1;
    if (!m) {
      if (remain <= kBlock) return p + remain;
      i += kBlock;
      p += kBlock;
      continue;
    }
    const auto k = static_cast<std::size_t>(std::countr_zero(m));
    i += k;
    p += k;
    p = escape(p, s, len, i);
    if (p == nullptr || i == len) return p;
  }
}

// Strings up to kShortString bytes (most keys and many values) go through 16-byte blocks, which
// measured faster for them than wide blocks; longer ones through the kernel set's scan (Long,
// out of line; nullptr: 16-byte blocks throughout). The loop around them is compiled once with
// the architecture's baseline flags: built with -mavx2 it measured 8 % slower on
// citm_catalog.json.
inline constexpr std::size_t kShortString = 32;

template <long_scan Long, bool Plain>
KEEL_INLINE char* put_string(char* p, const char* s, std::size_t len, escape_extra x) noexcept {
  *p++ = '"';
  // The first 16-byte block decides alone for short strings without escapes.
  auto m = wisa_base::copy_block<Plain>(s, p, x);
  if (len < wisa_base::kBlock) m &= (1u << len) - 1;
  if (m == 0 && len <= wisa_base::kBlock) {
    p += len;
  } else {
    if (Long == nullptr || len <= kShortString)
      p = scan_string<wisa_base, Plain>(p, s, len, x);
    else
      p = Long(p, s, len, x);
    if (p == nullptr) return nullptr;
  }
  *p++ = '"';
  return p;
}

// A string whose node has kNoEscape, written with the default escaping: copied without looking
// at its bytes (room as put_string; reads past the string stay in the string area, as in
// scan_string). Keys (Key): one 16-byte block, a second ending at the string's end up to 32 bytes,
// memcpy beyond. Values, whose lengths vary more (names, URLs, dates mixed), mispredicted that
// branch on the length: two blocks whatever the length, two more up to 64 bytes, memcpy beyond.
template <bool Key>
KEEL_INLINE char* put_noescape_string(char* p, const char* s, std::size_t len) noexcept {
  constexpr std::size_t kBlock = wisa_base::kBlock;
  *p++ = '"';
  wisa_base::copy(s, p);
  if constexpr (Key) {
    if (len > kBlock) {
      if (len <= 2 * kBlock)
        wisa_base::copy(s + len - kBlock, p + len - kBlock);
      else
        std::memcpy(p, s, len);
    }
  } else {
    wisa_base::copy(s + kBlock, p + kBlock);
    if (len > 2 * kBlock) [[unlikely]] {
      if (len <= 4 * kBlock) {
        wisa_base::copy(s + 2 * kBlock, p + 2 * kBlock);
        wisa_base::copy(s + 3 * kBlock, p + 3 * kBlock);
      } else {
        std::memcpy(p, s, len);
      }
    }
  }
  p += len;
  *p++ = '"';
  return p;
}

// Mut: the nodes of a mutable document (mutable_arena.h): a string's data is the address of its
// bytes (`strings` unused) and a container's the address of its block of children, so a closed
// container is followed by the node after it in its parent's block. Otherwise the immutable
// layout: strings at `strings + data`, children right after their container.
template <long_scan Long, bool Pretty, bool Plain, bool Mut>
error_code write_tree(output_buffer& out, std::size_t& size, const node* start, const char* strings,
                      std::vector<const node*>& stack, const write_options& o) {
  std::size_t used = 0;
  char* base = out.cap < 4096 ? grow_output(out, used, 0) : out.buf.get();
  char* p = base;
  char* lim = base + out.cap - kWriteSlack;
  // Room for `need` bytes past the slack-free limit.
  auto ensure = [&](std::size_t need) KEEL_INLINE_LAMBDA {
    if (lim - p < static_cast<std::ptrdiff_t>(need)) [[unlikely]] {
      used = static_cast<std::size_t>(p - base);
      base = grow_output(out, used, need);
      p = base + used;
      lim = base + out.cap - kWriteSlack;
    }
  };
  auto newline = [&](std::size_t depth) KEEL_INLINE_LAMBDA {
    const std::size_t n = depth * o.indent;
    ensure(n + 1);
    *p++ = '\n';
    std::memset(p, ' ', n);
    p += n;
  };
  const escape_extra extra{o.escape_slash, o.escape_unicode};
  if constexpr (Mut) (void)strings;
  const node* n = start;
  auto text = [&](const node* x) KEEL_INLINE_LAMBDA -> const char* {
    if constexpr (Mut) {
      return as_ptr<const char>(x->data);
    } else {
      return strings + x->data;
    }
  };
  // Where a container's children end (c: an open container's node, its first child).
  auto end_of = [&](const node* c, const node* first) KEEL_INLINE_LAMBDA -> const node* {
    if constexpr (Mut) {
      const std::size_t k = c->tag >> 8;
      return first + ((c->tag & kTypeMask) == static_cast<std::uint64_t>(type::object) ? 2 * k : k);
    } else {
      return c + c->data;
    }
  };
  auto first_child = [&](const node* c) KEEL_INLINE_LAMBDA -> const node* {
    if constexpr (Mut) {
      return as_ptr<const node>(c->data);
    } else {
      return c + 1;
    }
  };

  // One scalar (not a container) at n; false on a nonfinite or invalid-UTF-8 error (in `err`).
  error_code err = error_code::ok;
  // A string or key node, quoted; false on invalid UTF-8 (in `err`).
  auto string = [&]<bool Key>(const node* x) KEEL_INLINE_LAMBDA -> bool {
    const std::uint64_t tag = x->tag;
    const std::size_t len = tag >> 8;
    ensure(len * 6 + 8);
    if (Plain && (tag & kNoEscape)) [[likely]] {
      p = put_noescape_string<Key>(p, text(x), len);
      return true;
    }
    p = put_string<Long, Plain>(p, text(x), len, extra);
    if (p == nullptr) [[unlikely]] {
      err = error_code::invalid_utf8;
      return false;
    }
    return true;
  };
  auto scalar = [&](const node* x) KEEL_INLINE_LAMBDA -> bool {
    const std::uint64_t tag = x->tag;
    // Strings and integers, the commonest values, by compare and branch ahead of the switch:
    // through its jump table (an indirect branch for every value) documents that mix value
    // types took up to 16 % longer (update-center.json).
    const auto t = static_cast<type>(tag & kTypeMask);
    if (t == type::string) return string.template operator()<false>(x);
    if (t == type::int64) {
      ensure(0);
      // Small non-negative integers inline (no call), the rest out of line.
      if (x->data < 10000) {
        p = detail::write4(static_cast<std::uint32_t>(x->data), p);
      } else {
        p = write_int_rest(static_cast<std::int64_t>(x->data), p);
      }
      return true;
    }
    switch (t) {  // the other scalars (string and int64 are above)
      case type::uint64:
        ensure(0);
        p = detail::write_u64(x->data, p);
        return true;
      case type::double_: {
        ensure(0);
        double d;
        std::memcpy(&d, &x->data, sizeof d);
        if (std::isfinite(d)) [[likely]] {
          p = detail::write_double(d, p);
          return true;
        }
        switch (o.nonfinite) {
          case nonfinite_policy::error:
            err = error_code::nonfinite_number;
            return false;
          case nonfinite_policy::null:
            p = put_text(p, "null");
            return true;
          case nonfinite_policy::literal:
            if (d != d) {
              p = put_text(p, "NaN");
            } else if (d > 0) {
              p = put_text(p, "Infinity");
            } else {
              p = put_text(p, "-Infinity");
            }
            return true;
        }
        return true;
      }
      case type::null:
        ensure(0);
        p = put_text(p, "null");
        return true;
      case type::boolean:
        ensure(0);
        if (x->data) {
          p = put_text(p, "true");
        } else {
          p = put_text(p, "false");
        }
        return true;
      default: {  // raw_number
        const std::size_t len = tag >> 8;
        ensure(len + 2);
        std::memcpy(p, text(x), len);
        p += len;
        return true;
      }
    }
  };
  // An object key and its ':'.
  auto key = [&](const node* k) KEEL_INLINE_LAMBDA -> bool {
    if (!string.template operator()<true>(k)) return false;
    *p++ = ':';
    if constexpr (Pretty) *p++ = ' ';
    return true;
  };
  auto done = [&]() {
    size = static_cast<std::size_t>(p - base);
    return error_code::ok;
  };

  const auto root_type = static_cast<type>(n->tag & kTypeMask);
  if (root_type != type::array && root_type != type::object) {
    if (!scalar(n)) return err;
    return done();
  }
  // The innermost open container: where it ends and whether keys come next. stack[0, depth)
  // holds every open container's node.
  std::size_t depth = 0;
  const node** stack_base = stack.data();
  std::size_t stack_cap = stack.size();
  const node* top_end = nullptr;
  bool top_obj = false;
  for (;;) {
    const std::uint64_t tag = n->tag;
    const auto t = static_cast<type>(tag & kTypeMask);
    if (t == type::array || t == type::object) {
      ensure(0);
      const bool obj = t == type::object;
      *p++ = obj ? '{' : '[';
      if ((tag >> 8) == 0) {
        *p++ = obj ? '}' : ']';
        if (depth == 0) return done();  // an empty root
        ++n;
      } else {
        if (depth == stack_cap) [[unlikely]] {
          stack_base = grow_stack(stack, depth);
          stack_cap = stack.size();
        }
        stack_base[depth++] = n;
        const node* first = first_child(n);
        top_end = end_of(n, first);
        top_obj = obj;
        n = first;
        if constexpr (Pretty) newline(depth);
        if (obj) {
          if (!key(n)) return err;
          ++n;
        }
        continue;
      }
    } else {
      if (!scalar(n)) return err;
      ++n;
    }
    // After a value: close finished containers, then start the next element.
    while (n == top_end) {
      --depth;
      if constexpr (Pretty) newline(depth);
      ensure(0);
      *p++ = top_obj ? '}' : ']';
      if (depth == 0) return done();
      if constexpr (Mut) n = stack_base[depth] + 1;
      const node* c = stack_base[depth - 1];
      top_end = end_of(c, first_child(c));
      top_obj = static_cast<type>(c->tag & kTypeMask) == type::object;
    }
    *p++ = ',';
    if constexpr (Pretty) newline(depth);
    if (top_obj) {
      if (!key(n)) return err;
      ++n;
    }
  }
}

// The four option combinations of one kernel set, for one node layout.
template <long_scan Long, bool Mut>
error_code write_document(output_buffer& out, std::size_t& size, const node* root,
                          const char* strings, std::vector<const node*>& stack,
                          const write_options& o) {
  const bool plain = !o.escape_slash && !o.escape_unicode;
  if (o.pretty)
    return plain ? write_tree<Long, true, true, Mut>(out, size, root, strings, stack, o)
                 : write_tree<Long, true, false, Mut>(out, size, root, strings, stack, o);
  return plain ? write_tree<Long, false, true, Mut>(out, size, root, strings, stack, o)
               : write_tree<Long, false, false, Mut>(out, size, root, strings, stack, o);
}

}  // namespace keel::json::detail
