// The writer: one loop over the node array in document order, with an explicit stack of open
// containers. The output cursor and the innermost container live in locals (registers); the
// buffer keeps kSlack spare bytes past its limit, so only strings (and pretty indentation) need
// a size-dependent room check, everything else one compare per value.
#include <emmintrin.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "json/number_format.h"
#include "json/utf8.h"
#include "keel/json/writer.h"

namespace keel::json {
namespace {

using detail::node;

// Room that is always there past `lim`: the longest fixed-size write (a number's whole-register
// stores: 64 bytes) plus separators, with margin.
constexpr std::ptrdiff_t kSlack = 128;

// Grows the buffer to hold `used` bytes plus `need` more plus the slack; returns the new base.
// Out of line and without the cursor, so the cursor stays in a register.
__attribute__((noinline)) char* grow(std::unique_ptr<char[]>& buf, std::size_t& cap,
                                     std::size_t used, std::size_t need) {
  std::size_t want = (cap + need + static_cast<std::size_t>(kSlack)) * 2;
  if (want < 4096) want = 4096;
  auto fresh = std::make_unique_for_overwrite<char[]>(want);
  if (used) std::memcpy(fresh.get(), buf.get(), used);
  buf = std::move(fresh);
  cap = want;
  return buf.get();
}

char* hex_escape(char* p, std::uint32_t u) noexcept {
  static constexpr char kHex[] = "0123456789abcdef";
  const char e[6] = {
      '\\', 'u', kHex[(u >> 12) & 15], kHex[(u >> 8) & 15], kHex[(u >> 4) & 15], kHex[u & 15]};
  std::memcpy(p, e, 6);
  return p + 6;
}

// Escapes the character at s[i] at p (advancing i past it); nullptr on invalid UTF-8 (only
// reachable with escape_unicode). Rare: kept out of line.
__attribute__((noinline)) char* escape(char* p, const char* s, std::size_t len,
                                       std::size_t& i) noexcept {
  // Two-character escapes: the letter after '\' for each byte, 0 for none.
  static constexpr auto kShort = [] {
    struct table {
      char c[128] = {};
    } t;
    t.c['"'] = '"';
    t.c['\\'] = '\\';
    t.c['/'] = '/';
    t.c['\b'] = 'b';
    t.c['\f'] = 'f';
    t.c['\n'] = 'n';
    t.c['\r'] = 'r';
    t.c['\t'] = 't';
    return t;
  }();
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    ++i;
    if (const char e = kShort.c[c]) {
      p[0] = '\\';
      p[1] = e;
      return p + 2;
    }
    return hex_escape(p, c);  // other control characters
  }
  const auto* u = reinterpret_cast<const std::uint8_t*>(s);
  const std::size_t n = detail::utf8_sequence(u + i, u + len);
  if (n == 0) return nullptr;
  const std::uint32_t cp = detail::utf8_decode(u + i, n);
  if (cp >= 0x10000) {
    p = hex_escape(p, 0xd800 + ((cp - 0x10000) >> 10));
    p = hex_escape(p, 0xdc00 + ((cp - 0x10000) & 0x3ff));
  } else {
    p = hex_escape(p, cp);
  }
  i += n;
  return p;
}

// A quoted string at p (room: 6 * len + 2 + 16 bytes). Strings are scanned 16 bytes at a time
// (SSE2, part of x86-64); each block is stored whole before it is checked. Reads may run up to 15
// bytes past the string: every string in the string area is followed by its NUL and the area
// keeps spare bytes, so they stay inside the allocation; bytes past the end are masked off.
// Plain: neither '/' nor non-ASCII is escaped (the default options): the scan skips those tests.
template <bool Plain>
__attribute__((always_inline)) inline char* put_string(char* p, const char* s, std::size_t len,
                                                       const write_options& o) noexcept {
  *p++ = '"';
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i ctrl = _mm_set1_epi8(0x1f);
  std::size_t i = 0;
  while (i < len) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
    __m128i special =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                     _mm_cmpeq_epi8(_mm_min_epu8(v, ctrl), v));
    if constexpr (!Plain) {
      if (o.escape_slash) special = _mm_or_si128(special, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
    }
    auto mask = static_cast<unsigned>(_mm_movemask_epi8(special));
    if constexpr (!Plain) {
      if (o.escape_unicode) mask |= static_cast<unsigned>(_mm_movemask_epi8(v));
    }
    const std::size_t remain = len - i;
    if (remain < 16) mask &= (1u << remain) - 1;
    if (!mask) {
      const std::size_t step = remain < 16 ? remain : 16;
      i += step;
      p += step;
      continue;
    }
    const auto k = static_cast<std::size_t>(std::countr_zero(mask));
    i += k;
    p += k;
    p = escape(p, s, len, i);
    if (p == nullptr) return nullptr;
  }
  *p++ = '"';
  return p;
}

template <bool Pretty, bool Plain>
error_code write_tree(std::unique_ptr<char[]>& buf, std::size_t& cap, std::size_t& size,
                      const value& root, std::vector<const node*>& stack, const write_options& o) {
  if (cap < 4096) grow(buf, cap, 0, 0);
  char* base = buf.get();
  char* p = base;
  char* lim = base + cap - kSlack;
  // Room for `need` bytes past the slack-free limit.
  auto ensure = [&](std::size_t need) __attribute__((always_inline)) {
    if (lim - p < static_cast<std::ptrdiff_t>(need)) [[unlikely]] {
      const auto used = static_cast<std::size_t>(p - base);
      base = grow(buf, cap, used, need);
      p = base + used;
      lim = base + cap - kSlack;
    }
  };
  auto newline = [&](std::size_t depth) __attribute__((always_inline)) {
    const std::size_t n = depth * o.indent;
    ensure(n + 1);
    *p++ = '\n';
    std::memset(p, ' ', n);
    p += n;
  };
  const char* strings = root.string_area();
  const node* n = root.node_ptr();

  // One scalar (not a container) at n; false on a nonfinite or invalid-UTF-8 error (in `err`).
  error_code err = error_code::ok;
  auto scalar = [&](const node* x) __attribute__((always_inline))->bool {
    const std::uint64_t tag = x->tag;
    switch (static_cast<type>(tag & 0xff)) {
      case type::string: {
        const std::size_t len = tag >> 8;
        ensure(len * 6 + 8);
        p = put_string<Plain>(p, strings + x->data, len, o);
        if (p == nullptr) [[unlikely]] {
          err = error_code::invalid_utf8;
          return false;
        }
        return true;
      }
      case type::int64:
        ensure(0);
        p = detail::write_i64(static_cast<std::int64_t>(x->data), p);
        return true;
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
            std::memcpy(p, "null", 4);
            p += 4;
            return true;
          case nonfinite_policy::literal:
            if (d != d) {
              std::memcpy(p, "NaN", 3);
              p += 3;
            } else if (d > 0) {
              std::memcpy(p, "Infinity", 8);
              p += 8;
            } else {
              std::memcpy(p, "-Infinity", 9);
              p += 9;
            }
            return true;
        }
        return true;
      }
      case type::null:
        ensure(0);
        std::memcpy(p, "null", 4);
        p += 4;
        return true;
      case type::boolean:
        ensure(0);
        if (x->data) {
          std::memcpy(p, "true", 4);
          p += 4;
        } else {
          std::memcpy(p, "false", 5);
          p += 5;
        }
        return true;
      default: {  // raw_number
        const std::size_t len = tag >> 8;
        ensure(len + 2);
        std::memcpy(p, strings + x->data, len);
        p += len;
        return true;
      }
    }
  };
  // An object key and its ':'.
  auto key = [&](const node* k) __attribute__((always_inline))->bool {
    const std::size_t len = k->tag >> 8;
    ensure(len * 6 + 8);
    p = put_string<Plain>(p, strings + k->data, len, o);
    if (p == nullptr) [[unlikely]] {
      err = error_code::invalid_utf8;
      return false;
    }
    *p++ = ':';
    if constexpr (Pretty) *p++ = ' ';
    return true;
  };
  auto done = [&]() {
    size = static_cast<std::size_t>(p - base);
    return error_code::ok;
  };

  const auto root_type = static_cast<type>(n->tag & 0xff);
  if (root_type != type::array && root_type != type::object) {
    if (!scalar(n)) return err;
    return done();
  }
  // The innermost open container: where it ends and whether keys come next. stack[0, depth)
  // holds every open container's node.
  std::size_t depth = 0;
  const node* top_end = nullptr;
  bool top_obj = false;
  for (;;) {
    const std::uint64_t tag = n->tag;
    const auto t = static_cast<type>(tag & 0xff);
    if (t == type::array || t == type::object) {
      ensure(0);
      const bool obj = t == type::object;
      *p++ = obj ? '{' : '[';
      if ((tag >> 8) == 0) {
        *p++ = obj ? '}' : ']';
        if (depth == 0) return done();  // an empty root
        ++n;
      } else {
        if (depth == stack.size()) stack.push_back(n);
        stack[depth++] = n;
        top_end = n + n->data;
        top_obj = obj;
        ++n;
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
      const node* c = stack[depth - 1];
      top_end = c + c->data;
      top_obj = static_cast<type>(c->tag & 0xff) == type::object;
    }
    *p++ = ',';
    if constexpr (Pretty) newline(depth);
    if (top_obj) {
      if (!key(n)) return err;
      ++n;
    }
  }
}

}  // namespace

result<std::string_view> writer::write(const value& v) noexcept {
  if (!v.valid()) return error_code::not_found;
  try {
    const bool plain = !options_.escape_slash && !options_.escape_unicode;
    std::size_t size = 0;
    const error_code e =
        options_.pretty
            ? (plain ? write_tree<true, true>(buf_, capacity_, size, v, stack_, options_)
                     : write_tree<true, false>(buf_, capacity_, size, v, stack_, options_))
            : (plain ? write_tree<false, true>(buf_, capacity_, size, v, stack_, options_)
                     : write_tree<false, false>(buf_, capacity_, size, v, stack_, options_));
    if (e != error_code::ok) return e;
    return std::string_view(buf_.get(), size);
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  }
}

result<std::string> write(const value& v, const write_options& options) {
  writer w(options);
  auto r = w.write(v);
  if (!r) return r.err();
  return std::string(*r);
}

}  // namespace keel::json
