// SPDX-License-Identifier: MIT
// keel::json::writer: picks the kernel set (write_kernels.h: the writer loop instantiated here
// once per kernel set, with baseline flags) and keeps the output buffer; the out-of-line helpers
// the kernels share.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

#include "common/utf8.h"
#include "json/write_kernels.h"
#include "keel/json/mutable.h"
#include "keel/json/writer.h"
#include "keel/utf8.h"

namespace keel::json {
namespace detail {

char* grow_output(output_buffer& out, std::size_t& used, std::size_t need) {
  const auto slack = static_cast<std::size_t>(kWriteSlack);
  if (out.sink != nullptr) {
    write_sink& s = *out.sink;
    if (used > 0) {
      s.failed = !s.put(s.ctx, out.buf.get(), used);
      s.written += used;
      if (s.failed) throw sink_stopped{};  // nothing more to write: writer::write_nodes
    }
    used = 0;
    if (out.cap >= need + slack && out.cap >= kStreamChunk) return out.buf.get();
    const std::size_t want = std::max(need + slack, kStreamChunk);
    out.buf = std::make_unique_for_overwrite<char[]>(want);
    out.cap = want;
    return out.buf.get();
  }
  std::size_t want = (out.cap + need + slack) * 2;
  if (want < 4096) want = 4096;
  auto fresh = std::make_unique_for_overwrite<char[]>(want);
  if (used) std::memcpy(fresh.get(), out.buf.get(), used);
  out.buf = std::move(fresh);
  out.cap = want;
  return out.buf.get();
}

const node** grow_stack(std::vector<const node*>& stack, std::size_t depth) {
  stack.resize(depth < 16 ? 32 : depth * 2);
  return stack.data();
}

namespace {

char* hex_escape(char* p, std::uint32_t u) noexcept {
  static constexpr char kHex[] = "0123456789abcdef";
  const char e[6] = {
      '\\', 'u', kHex[(u >> 12) & 15], kHex[(u >> 8) & 15], kHex[(u >> 4) & 15], kHex[u & 15]};
  std::memcpy(p, e, 6);
  return p + 6;
}

}  // namespace

char* escape(char* p, const char* s, std::size_t len, std::size_t& i) noexcept {
  // Two-character escapes: the letter after '\' for each byte, 0 for none.
  static constexpr auto kShort = [] {
    struct table {
      char c[128] = {};
    } t;
    for (const auto& [from, to] :
         {std::pair{'"', '"'}, std::pair{'\\', '\\'}, std::pair{'/', '/'}, std::pair{'\b', 'b'},
          std::pair{'\f', 'f'}, std::pair{'\n', 'n'}, std::pair{'\r', 'r'}, std::pair{'\t', 't'}})
      t.c[static_cast<unsigned char>(from)] = to;
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
  const std::size_t n = keel::detail::utf8_sequence(u + i, u + len);
  if (n == 0) return nullptr;
  const std::uint32_t cp = keel::detail::utf8_decode(u + i, n);
  if (cp >= 0x10000) {
    p = hex_escape(p, 0xd800 + ((cp - 0x10000) >> 10));
    p = hex_escape(p, 0xdc00 + ((cp - 0x10000) & 0x3ff));
  } else {
    p = hex_escape(p, cp);
  }
  i += n;
  return p;
}

}  // namespace detail

// ---- text_sink ----

static_assert(detail::text_sink::kSlack == static_cast<std::size_t>(detail::kWriteSlack));

void detail::text_sink::grow(std::size_t n) {
  detail::output_buffer out{buf_, cap_};
  grow_output(out, size_, n);
}

bool detail::text_sink::string(std::string_view s) {
  const std::size_t len = s.size();
  constexpr std::size_t kBlock = wisa_base::kBlock;
  // The bytes after the last whole 16-byte block, copied into a block padded with a byte that
  // needs no escape: the string has no slack after it to read past.
  const std::size_t whole = len - len % kBlock;
  alignas(16) char tail[kBlock];
  std::memcpy(tail, s.data() + whole, len - whole);
  std::memset(tail + (len - whole), 'a', kBlock - (len - whole));
  // Only a string with a byte above 0x7f needs the UTF-8 check.
  auto high = wisa_base::high_bytes(tail);
  for (std::size_t i = 0; i < whole && high == 0; i += kBlock) {
    high = wisa_base::high_bytes(s.data() + i);
  }
  if (high != 0 && !keel::utf8_valid(s)) return false;
  char* p = room(len * 6 + 2);
  char* const start = p;
  const escape_extra x{o_.escape_slash, o_.escape_unicode};
  const bool plain = !x.slash && !x.unicode;
  *p++ = '"';
  // Whole 16-byte blocks with the writer's block scan, then the padded tail the same way (up to
  // its first byte to escape), then the rest byte by byte.
  std::size_t i = 0;
  while (len - i >= kBlock) {
    const auto m = plain ? wisa_base::copy_block<true>(s.data() + i, p, x)
                         : wisa_base::copy_block<false>(s.data() + i, p, x);
    if (m == 0) {
      i += wisa_base::kBlock;
      p += wisa_base::kBlock;
      continue;
    }
    const auto k = static_cast<std::size_t>(std::countr_zero(m));
    i += k;
    p = escape(p + k, s.data(), len, i);
  }
  if (i == whole && i < len) {
    const auto m = (plain ? wisa_base::copy_block<true>(tail, p, x)
                          : wisa_base::copy_block<false>(tail, p, x)) &
                   ((1u << (len - i)) - 1);
    const std::size_t k = m == 0 ? len - i : static_cast<std::size_t>(std::countr_zero(m));
    i += k;
    p += k;
  }
  while (i < len) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool special =
        c < 0x20 || c == '"' || c == '\\' || (x.slash && c == '/') || (x.unicode && c >= 0x80);
    if (special) {
      p = escape(p, s.data(), len, i);
    } else {
      *p++ = static_cast<char>(c);
      ++i;
    }
  }
  *p++ = '"';
  size_ += static_cast<std::size_t>(p - start);
  return true;
}

void detail::text_sink::integer(std::int64_t v) {
  char* p = room(24);
  size_ = static_cast<std::size_t>(write_i64(v, p) - buf_.get());
}

void detail::text_sink::unsigned_integer(std::uint64_t v) {
  char* p = room(24);
  size_ = static_cast<std::size_t>(write_u64(v, p) - buf_.get());
}

bool detail::text_sink::number(double v) {
  if (std::isfinite(v)) {
    char* p = room(32);
    size_ = static_cast<std::size_t>(write_double(v, p) - buf_.get());
    return true;
  }
  switch (o_.nonfinite) {
    case nonfinite_policy::error:
      return false;
    case nonfinite_policy::null:
      put("null");
      return true;
    case nonfinite_policy::literal:
      put(v != v ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
      return true;
  }
  return false;
}

template <bool Mut>
error_code writer::write_nodes(const detail::node* root, const char* strings, std::size_t& size,
                               detail::write_sink* sink) noexcept {
  try {
    const isa which = options_.isa == isa::automatic ? default_isa() : options_.isa;
    if (!isa_supported(which)) return error_code::isa_unavailable;
    last_isa_ = which;
    size = 0;
    // The avx512 kernel set writes long strings with the avx2 set's 32-byte blocks (docs/json.md:
    // 64-byte blocks left some processes in a slow state on twitter.json).
#if defined(__x86_64__)
    constexpr detail::long_scan wide = detail::scan_long_avx2;
#elif defined(__aarch64__)
    constexpr detail::long_scan wide = detail::scan_long_neon;
#endif
    // A streamed write hands on pieces of the chunk's size: a buffer grown by earlier whole
    // writes is given back first.
    if (sink != nullptr && capacity_ > 2 * detail::kStreamChunk) {
      buf_.reset();
      capacity_ = 0;
    }
    detail::output_buffer out{buf_, capacity_, sink};
    return which == isa::scalar
               ? detail::write_document<nullptr, Mut>(out, size, root, strings, stack_, options_)
               : detail::write_document<wide, Mut>(out, size, root, strings, stack_, options_);
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  } catch (const detail::sink_stopped&) {
    return error_code::io_error;
  }
}

result<std::string_view> writer::write(const value& v) noexcept {
  if (!v.valid()) return error_code::not_found;
  std::size_t size = 0;
  const error_code e = write_nodes<false>(v.node_ptr(), v.string_area(), size, nullptr);
  if (e != error_code::ok) return e;
  return std::string_view(buf_.get(), size);
}

result<std::string_view> writer::write(const mutable_value& v) noexcept {
  if (!v.valid()) return error_code::not_found;
  std::size_t size = 0;
  const error_code e = write_nodes<true>(v.node_ptr(), nullptr, size, nullptr);
  if (e != error_code::ok) return e;
  return std::string_view(buf_.get(), size);
}

namespace {
// The last piece of a streamed write, and its result.
result<std::size_t> finish_stream(error_code e, const char* last, std::size_t size,
                                  detail::write_sink& sink) noexcept {
  if (e != error_code::ok) return e;
  if (size > 0) {
    sink.failed = !sink.put(sink.ctx, last, size);
    sink.written += size;
  }
  if (sink.failed) return error_code::io_error;
  return sink.written;
}

bool put_file(void* ctx, const char* data, std::size_t size) noexcept {
  return std::fwrite(data, 1, size, static_cast<std::FILE*>(ctx)) == size;
}
}  // namespace

result<std::size_t> writer::write_to(const value& v, detail::write_sink sink) noexcept {
  if (!v.valid()) return error_code::not_found;
  std::size_t size = 0;
  const error_code e = write_nodes<false>(v.node_ptr(), v.string_area(), size, &sink);
  return finish_stream(e, buf_.get(), size, sink);
}

result<std::size_t> writer::write_to(const mutable_value& v, detail::write_sink sink) noexcept {
  if (!v.valid()) return error_code::not_found;
  std::size_t size = 0;
  const error_code e = write_nodes<true>(v.node_ptr(), nullptr, size, &sink);
  return finish_stream(e, buf_.get(), size, sink);
}

result<std::size_t> writer::write_to(const value& v, std::FILE* f) noexcept {
  return write_to(v, detail::write_sink{f, &put_file});
}

result<std::size_t> writer::write_to(const mutable_value& v, std::FILE* f) noexcept {
  return write_to(v, detail::write_sink{f, &put_file});
}

namespace {
template <class V>
result<std::string> write_new(const V& v, const write_options& options) {
  writer w(options);
  auto r = w.write(v);
  if (!r) return r.error();
  return std::string(*r);
}
}  // namespace

result<std::string> write(const value& v, const write_options& options) {
  return write_new(v, options);
}
result<std::string> write(const mutable_value& v, const write_options& options) {
  return write_new(v, options);
}

}  // namespace keel::json
