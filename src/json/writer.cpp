// The writer: walks the node array in document order with an explicit stack of open containers.
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

class emitter {
 public:
  emitter(std::unique_ptr<char[]>& buf, std::size_t& cap, const write_options& o)
      : buf_(buf), cap_(cap), o_(o) {
    p_ = buf_.get();
    end_ = p_ + cap_;
  }

  std::size_t size() const noexcept { return static_cast<std::size_t>(p_ - buf_.get()); }
  const char* data() const noexcept { return buf_.get(); }

  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) >= n) [[likely]]
      return;
    const span r = grow(buf_, cap_, size(), n);
    p_ = r.p;
    end_ = r.end;
  }
  // Out of line and without `this`, so the emitter's pointers can live in registers.
  struct span {
    char* p;
    char* end;
  };
  __attribute__((noinline)) static span grow(std::unique_ptr<char[]>& buf, std::size_t& cap,
                                             std::size_t used, std::size_t n) {
    std::size_t want = (cap + n) * 2;
    if (want < 4096) want = 4096;
    auto fresh = std::make_unique_for_overwrite<char[]>(want);
    if (used) std::memcpy(fresh.get(), buf.get(), used);
    buf = std::move(fresh);
    cap = want;
    return {buf.get() + used, buf.get() + cap};
  }

  void put(char c) noexcept { *p_++ = c; }
  void put(const char* s, std::size_t n) noexcept {
    std::memcpy(p_, s, n);
    p_ += n;
  }
  void newline(std::size_t depth) {
    const std::size_t n = depth * o_.indent;
    reserve(n + 1);
    *p_++ = '\n';
    std::memset(p_, ' ', n);
    p_ += n;
  }

  // Strings are scanned 16 bytes at a time (SSE2, part of x86-64). Reads may run up to 15 bytes
  // past the string: every string in the string area is followed by its NUL and the area keeps
  // kStringSlack spare bytes, so they stay inside the allocation; bytes past the end are masked.
  // Plain: neither '/' nor non-ASCII is escaped (the default options): the scan skips those tests.
  template <bool Plain>
  __attribute__((always_inline)) error_code string(const char* s, std::size_t len) {
    reserve(len * 6 + 2 + 32);
    *p_++ = '"';
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i ctrl = _mm_set1_epi8(0x1f);
    std::size_t i = 0;
    while (i < len) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p_), v);
      __m128i special =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                       _mm_cmpeq_epi8(_mm_min_epu8(v, ctrl), v));
      if constexpr (!Plain) {
        if (o_.escape_slash) special = _mm_or_si128(special, _mm_cmpeq_epi8(v, _mm_set1_epi8('/')));
      }
      unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
      if constexpr (!Plain) {
        if (o_.escape_unicode) mask |= static_cast<unsigned>(_mm_movemask_epi8(v));
      }
      const std::size_t remain = len - i;
      if (remain < 16) mask &= (1u << remain) - 1;
      if (!mask) {
        const std::size_t step = remain < 16 ? remain : 16;
        i += step;
        p_ += step;
        continue;
      }
      const std::size_t k = static_cast<std::size_t>(std::countr_zero(mask));
      i += k;
      p_ += k;
      p_ = escape(p_, s, len, i);
      if (p_ == nullptr) return error_code::invalid_utf8;
    }
    *p_++ = '"';
    return error_code::ok;
  }

  error_code number(const node* n) {
    reserve(64);  // write_double's fixed-size stores
    switch (static_cast<type>(n->tag & 0xff)) {
      case type::int64:
        p_ = detail::write_i64(static_cast<std::int64_t>(n->data), p_);
        break;
      case type::uint64:
        p_ = detail::write_u64(n->data, p_);
        break;
      default: {
        double d;
        std::memcpy(&d, &n->data, sizeof d);
        if (!std::isfinite(d)) {
          switch (o_.nonfinite) {
            case nonfinite_policy::error:
              return error_code::nonfinite_number;
            case nonfinite_policy::null:
              put("null", 4);
              break;
            case nonfinite_policy::literal:
              if (d != d)
                put("NaN", 3);
              else if (d > 0)
                put("Infinity", 8);
              else
                put("-Infinity", 9);
              break;
          }
          break;
        }
        p_ = detail::write_double(d, p_);
      }
    }
    return error_code::ok;
  }

 private:
  static char* hex_escape(char* p, std::uint32_t u) noexcept {
    static constexpr char kHex[] = "0123456789abcdef";
    const char e[6] = {
        '\\', 'u', kHex[(u >> 12) & 15], kHex[(u >> 8) & 15], kHex[(u >> 4) & 15], kHex[u & 15]};
    std::memcpy(p, e, 6);
    return p + 6;
  }
  static char* two(char* p, char a, char b) noexcept {
    p[0] = a;
    p[1] = b;
    return p + 2;
  }
  // Escapes the character at s[i] at p (advancing i past it); nullptr on invalid UTF-8. Rare:
  // kept out of line, and static so that the emitter does not escape.
  __attribute__((noinline)) static char* escape(char* p, const char* s, std::size_t len,
                                                std::size_t& i) noexcept {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        p = two(p, '\\', '"');
        break;
      case '\\':
        p = two(p, '\\', '\\');
        break;
      case '/':
        p = two(p, '\\', '/');
        break;
      case '\b':
        p = two(p, '\\', 'b');
        break;
      case '\f':
        p = two(p, '\\', 'f');
        break;
      case '\n':
        p = two(p, '\\', 'n');
        break;
      case '\r':
        p = two(p, '\\', 'r');
        break;
      case '\t':
        p = two(p, '\\', 't');
        break;
      default:
        if (c < 0x20) {
          p = hex_escape(p, c);
        } else {
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
    }
    ++i;
    return p;
  }

  std::unique_ptr<char[]>& buf_;
  std::size_t& cap_;
  const write_options& o_;
  char* p_;
  char* end_;
};

// An open container on the stack is its node: it ends at node + data, its type says whether keys
// come next.
struct frame {
  const node* end;
  bool object;
};
inline frame open_frame(const node* c) {
  return {c + c->data, static_cast<type>(c->tag & 0xff) == type::object};
}

template <bool Pretty, bool Plain>
error_code write_value(emitter& em, const value& root, std::vector<const node*>& stack) {
  stack.clear();
  const char* strings = root.string_area();
  const node* n = root.node_ptr();
  // Every value leaves at least kSpare bytes reserved after it (strings and numbers reserve more
  // than they write), so the ',' or ':' after a value, or a '}' / ']', needs no check of its own.
  constexpr std::size_t kSpare = 2;
  constexpr bool pretty = Pretty;
  auto scalar = [&](const node* x) -> error_code {
    switch (static_cast<type>(x->tag & 0xff)) {
      case type::null:
        em.reserve(4 + kSpare);
        em.put("null", 4);
        return error_code::ok;
      case type::boolean:
        em.reserve(5 + kSpare);
        if (x->data)
          em.put("true", 4);
        else
          em.put("false", 5);
        return error_code::ok;
      case type::string:
        return em.string<Plain>(strings + x->data, x->tag >> 8);
      case type::raw_number:
        em.reserve((x->tag >> 8) + kSpare);
        em.put(strings + x->data, x->tag >> 8);
        return error_code::ok;
      default:
        return em.number(x);
    }
  };
  auto key = [&](const node* k) -> error_code {
    if (const error_code e = em.string<Plain>(strings + k->data, k->tag >> 8); e != error_code::ok)
      return e;
    em.put(':');  // room: kSpare
    if (pretty) em.put(' ');
    return error_code::ok;
  };
  for (;;) {
    const auto t = static_cast<type>(n->tag & 0xff);
    if (t == type::array || t == type::object) {
      const bool obj = t == type::object;
      em.reserve(2 + kSpare);
      em.put(obj ? '{' : '[');
      if ((n->tag >> 8) == 0) {
        em.put(obj ? '}' : ']');
        ++n;
      } else {
        stack.push_back(n);
        ++n;
        if (pretty) em.newline(stack.size());
        if (obj) {
          if (const error_code e = key(n); e != error_code::ok) return e;
          ++n;
        }
        continue;
      }
    } else {
      if (const error_code e = scalar(n); e != error_code::ok) return e;
      ++n;
    }
    // After a value: close finished containers, or start the next element.
    while (!stack.empty()) {
      const frame f = open_frame(stack.back());
      if (n == f.end) {
        stack.pop_back();
        if (pretty) em.newline(stack.size());
        if (pretty) em.reserve(1 + kSpare);
        em.put(f.object ? '}' : ']');  // room: kSpare (minified)
        if (!pretty) em.reserve(kSpare);
        continue;
      }
      em.put(',');  // room: kSpare
      if (pretty) em.newline(stack.size());
      if (f.object) {
        if (const error_code e = key(n); e != error_code::ok) return e;
        ++n;
      }
      break;
    }
    if (stack.empty()) return error_code::ok;
  }
}

}  // namespace

result<std::string_view> writer::write(const value& v) noexcept {
  if (!v.valid()) return error_code::not_found;
  try {
    emitter em(buf_, capacity_, options_);
    const bool plain = !options_.escape_slash && !options_.escape_unicode;
    const error_code e = options_.pretty ? (plain ? write_value<true, true>(em, v, stack_)
                                                  : write_value<true, false>(em, v, stack_))
                                         : (plain ? write_value<false, true>(em, v, stack_)
                                                  : write_value<false, false>(em, v, stack_));
    if (e != error_code::ok) return e;
    return std::string_view(em.data(), em.size());
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
