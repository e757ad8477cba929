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
    grow(n);
  }
  __attribute__((noinline)) void grow(std::size_t n) {
    const std::size_t used = size();
    std::size_t want = (cap_ + n) * 2;
    if (want < 4096) want = 4096;
    auto fresh = std::make_unique_for_overwrite<char[]>(want);
    if (used) std::memcpy(fresh.get(), buf_.get(), used);
    buf_ = std::move(fresh);
    cap_ = want;
    p_ = buf_.get() + used;
    end_ = buf_.get() + cap_;
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
  __attribute__((always_inline)) error_code string(const char* s, std::size_t len) {
    reserve(len * 6 + 2 + 32);
    *p_++ = '"';
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i ctrl = _mm_set1_epi8(0x1f);
    const __m128i slash = _mm_set1_epi8(o_.escape_slash ? '/' : '"');
    const bool high = o_.escape_unicode;
    std::size_t i = 0;
    while (i < len) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(p_), v);
      const __m128i special = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
          _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, ctrl), v), _mm_cmpeq_epi8(v, slash)));
      unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(special));
      if (high) mask |= static_cast<unsigned>(_mm_movemask_epi8(v));
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
      if (const error_code e = escape(s, len, i); e != error_code::ok) return e;
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
  void hex_escape(std::uint32_t u) noexcept {
    static constexpr char kHex[] = "0123456789abcdef";
    char e[6] = {'\\',        'u', kHex[(u >> 12) & 15], kHex[(u >> 8) & 15], kHex[(u >> 4) & 15],
                 kHex[u & 15]};
    put(e, 6);
  }
  // Escapes the character at s[i] (advancing i past it). Rare: kept out of line.
  __attribute__((noinline)) error_code escape(const char* s, std::size_t len,
                                              std::size_t& i) noexcept {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        put("\\\"", 2);
        break;
      case '\\':
        put("\\\\", 2);
        break;
      case '/':
        put("\\/", 2);
        break;
      case '\b':
        put("\\b", 2);
        break;
      case '\f':
        put("\\f", 2);
        break;
      case '\n':
        put("\\n", 2);
        break;
      case '\r':
        put("\\r", 2);
        break;
      case '\t':
        put("\\t", 2);
        break;
      default:
        if (c < 0x20) {
          hex_escape(c);
        } else {
          const auto* u = reinterpret_cast<const std::uint8_t*>(s);
          const std::size_t n = detail::utf8_sequence(u + i, u + len);
          if (n == 0) return error_code::invalid_utf8;
          const std::uint32_t cp = detail::utf8_decode(u + i, n);
          if (cp >= 0x10000) {
            hex_escape(0xd800 + ((cp - 0x10000) >> 10));
            hex_escape(0xdc00 + ((cp - 0x10000) & 0x3ff));
          } else {
            hex_escape(cp);
          }
          i += n;
          return error_code::ok;
        }
    }
    ++i;
    return error_code::ok;
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

error_code write_value(emitter& em, const value& root, const write_options& o,
                       std::vector<const node*>& stack) {
  stack.clear();
  const char* strings = root.string_area();
  const node* n = root.node_ptr();
  const bool pretty = o.pretty;
  auto scalar = [&](const node* x) -> error_code {
    switch (static_cast<type>(x->tag & 0xff)) {
      case type::null:
        em.reserve(4);
        em.put("null", 4);
        return error_code::ok;
      case type::boolean:
        em.reserve(5);
        if (x->data)
          em.put("true", 4);
        else
          em.put("false", 5);
        return error_code::ok;
      case type::string:
        return em.string(strings + x->data, x->tag >> 8);
      case type::raw_number:
        em.reserve(x->tag >> 8);
        em.put(strings + x->data, x->tag >> 8);
        return error_code::ok;
      default:
        return em.number(x);
    }
  };
  auto key = [&](const node* k) -> error_code {
    const error_code e = em.string(strings + k->data, k->tag >> 8);
    em.reserve(2);
    em.put(':');
    if (pretty) em.put(' ');
    return e;
  };
  for (;;) {
    const auto t = static_cast<type>(n->tag & 0xff);
    if (t == type::array || t == type::object) {
      const bool obj = t == type::object;
      em.reserve(2);
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
        em.reserve(1);
        em.put(f.object ? '}' : ']');
        continue;
      }
      em.reserve(1);
      em.put(',');
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
    const error_code e = write_value(em, v, options_, stack_);
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
