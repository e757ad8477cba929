// SPDX-License-Identifier: MIT
// keel binary form: the reader. Every length and count is checked against the bytes that are
// left before anything is allocated, so memory stays proportional to the input; nesting is
// limited by read_options::max_depth; the form is canonical (minimal varints, exact nested
// lengths, flags 0), so what reads back writes back to the same bytes. Reading into a message
// that already holds one reuses its storage (fill.h); on an error the message is left empty.
#include "binary_read.h"
#include "fill.h"
#include "keel/detail/attributes.h"
#include "keel/msg/binary.h"
#include "text.h"
#include "wire.h"

namespace keel::msg {

namespace {

class reader {
 public:
  reader(bytes_view in, const read_options& o)
      : begin_(in.data()), p_(in.data()), end_(in.data() + in.size()), opts_(o) {}

  error one(const std::uint8_t* at, value& out) {
    p_ = at;
    if (!item(out)) return err_;
    if (p_ != end_) return stop(error_code::trailing_bytes, p_);
    return {};
  }
  void rebase(const std::uint8_t* base) { begin_ = base; }

  error run(message& out) {
    error e = whole(out);
    if (e) {
      out.header = header();
      out.body().clear();
    }
    return e;
  }

 private:
  error whole(message& out) {
    if (static_cast<std::size_t>(end_ - begin_) > opts_.max_size)
      return stop(error_code::too_large, begin_);
    if (end_ - p_ < static_cast<std::ptrdiff_t>(detail::kPreamble)) {
      const std::size_t n = static_cast<std::size_t>(end_ - p_);
      if (n != 0 && std::memcmp(p_, detail::kMagic, std::min<std::size_t>(n, 4)) != 0)
        return stop(error_code::bad_magic, p_);
      return stop(error_code::truncated, end_);
    }
    if (std::memcmp(p_, detail::kMagic, 4) != 0) return stop(error_code::bad_magic, p_);
    if (p_[4] != kBinaryVersion) return stop(error_code::bad_version, p_ + 4);
    if (p_[5] != 0) return stop(error_code::bad_tag, p_ + 5);
    p_ += detail::kPreamble;
    header& h = out.header;
    for (std::string* f :
         {&h.source_id, &h.source_sub_id, &h.target_id, &h.target_sub_id, &h.type, &h.version}) {
      std::string_view s;
      if (!text(s, true)) return err_;
      if (f->size() != s.size() || !detail::same_short(f->data(), s.data(), s.size())) f->assign(s);
    }
    if (!entries(out.body())) return err_;
    if (p_ != end_) return stop(error_code::trailing_bytes, p_);
    return {};
  }

  error stop(error_code c, const std::uint8_t* at) {
    fail(c, at);
    return err_;
  }
  bool fail(error_code c, const std::uint8_t* at) {
    err_.code = c;
    err_.offset = static_cast<std::size_t>(at - begin_);
    return false;
  }
  int failed(error_code c, const std::uint8_t* at) {
    fail(c, at);
    return 0;
  }
  std::size_t left() const noexcept { return static_cast<std::size_t>(end_ - p_); }

  bool varint(std::uint64_t& v) {
    bool bad = false;
    const std::uint8_t* at = p_;
    const std::uint8_t* q = detail::get_varint(p_, end_, v, bad);
    if (q == nullptr)
      return fail(bad ? error_code::bad_varint : error_code::truncated, bad ? at : end_);
    p_ = q;
    return true;
  }
  // A length-prefixed byte run (checked against the input left), UTF-8 checked if `utf8`.
  bool text(std::string_view& s, bool utf8) {
    std::uint64_t n;
    if (!varint(n)) return false;
    if (n > left()) return fail(error_code::truncated, end_);
    s = {reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n)};
    if (utf8 && !detail::utf8_ok(p_, s.size())) return fail(error_code::invalid_utf8, p_);
    p_ += n;
    return true;
  }
  // A count of items each at least `min_bytes` long.
  bool count(std::uint64_t& n, std::size_t min_bytes) {
    const std::uint8_t* at = p_;
    if (!varint(n)) return false;
    if (n > left() / min_bytes) return fail(error_code::bad_length, at);
    return true;
  }
  bool entries(map& m) {
    std::uint64_t n;
    if (!count(n, 2)) return false;  // a name length and a tag at least
    detail::map_filler f(m, n);
    for (std::uint64_t i = 0; i < n; ++i) {
      std::string_view name;
      if (!text(name, false)) return false;
      value* v = f.same(name);  // bytes equal to a name already checked are UTF-8
      if (v == nullptr) {
        if (!detail::utf8_ok(name.data(), name.size()))
          return fail(error_code::invalid_utf8, p_ - name.size());
        v = &f.next(name);
      }
      const int r = leaf(*v);
      if (r == 0 || (r < 0 && !item(*v))) return false;
    }
    f.finish();
    return true;
  }
  template <class T>
  bool numeric(value& v) {
    std::uint64_t n;
    if (!count(n, sizeof(T))) return false;
    std::vector<T>& a = detail::value_access::reuse_numeric<T>(v);
    a.resize(n);  // reuses the capacity of the array the value held, if any
    if (n != 0) std::memcpy(a.data(), p_, n * sizeof(T));
    p_ += n * sizeof(T);
    return true;
  }
  // Opens a nested map or array: its 4-byte length must match what follows exactly.
  bool sized(const std::uint8_t*& stop) {
    if (left() < 4) return fail(error_code::truncated, end_);
    const std::uint32_t len = detail::load<std::uint32_t>(p_);
    if (len > left() - 4) return fail(error_code::bad_length, p_);
    p_ += 4;
    stop = p_ + len;
    return true;
  }
  bool closed(const std::uint8_t* stop, const std::uint8_t* at) {
    if (p_ != stop) return fail(error_code::bad_length, at);
    return true;
  }

  // A null, bool, number or string value at p_ (what most entries hold), read without a call
  // from entries(): 1 read, 0 failed, -1 another type (nothing consumed; item() reads it).
  KEEL_INLINE int leaf(value& v) {
    using detail::value_access;
    if (p_ == end_) return failed(error_code::truncated, end_);
    const std::uint8_t tag = *p_;
    if (tag > detail::kTagMax) return failed(error_code::bad_tag, p_);
    const type t = detail::type_of_tag(tag);
    if (t <= type::boolean) {
      ++p_;
      value_access::set_bits(v, t, tag == detail::kTagTrue ? 1 : 0);
      return 1;
    }
    if (t <= type::float64) {
      ++p_;
      if (left() < detail::fixed_size(t)) return failed(error_code::truncated, end_);
      value_access::set_bits(v, t, fixed_bits(t));
      p_ += detail::fixed_size(t);
      return 1;
    }
    if (t == type::string || t == type::bytes) {
      ++p_;
      std::string_view s;
      if (!text(s, t == type::string)) return 0;
      value_access::set_text(v, t, s.data(), s.size());
      return 1;
    }
    return -1;
  }

  bool item(value& v) {
    using detail::value_access;
    if (const int r = leaf(v); r >= 0) return r != 0;
    const std::uint8_t* at = p_;
    const type t = detail::type_of_tag(*p_++);
    switch (t) {
      case type::null:
      case type::boolean:
      case type::int8:
      case type::int16:
      case type::int32:
      case type::int64:
      case type::uint8:
      case type::uint16:
      case type::uint32:
      case type::uint64:
      case type::float32:
      case type::float64:
      case type::string:
      case type::bytes:
        break;  // read by leaf()
      case type::timestamp: {
        if (left() < 12) return fail(error_code::truncated, end_);
        const auto ns = detail::load<std::uint32_t>(p_ + 8);
        if (ns >= 1000000000u) return fail(error_code::bad_value, at + 9);
        value_access::set_timestamp(v, detail::load<std::int64_t>(p_), ns);
        p_ += 12;
        return true;
      }
      case type::extension: {
        if (p_ == end_) return fail(error_code::truncated, end_);
        const auto code = static_cast<std::int8_t>(*p_++);
        std::string_view s;
        if (!text(s, false)) return false;
        v = value(extension{code, std::vector<std::uint8_t>(s.begin(), s.end())});
        return true;
      }
      case type::map:
      case type::array: {
        if (++depth_ > opts_.max_depth) return fail(error_code::depth_exceeded, at);
        const std::uint8_t* stop;
        if (!sized(stop)) return false;
        const std::uint8_t* saved_end = end_;
        end_ = stop;  // nothing inside may reach past the stated length
        if (t == type::map) {
          if (!entries(value_access::reuse_map(v))) return false;
        } else {
          std::uint64_t n;
          if (!count(n, 1)) return false;
          array& a = value_access::reuse_array(v);
          a.resize(n);
          for (auto& e : a)
            if (!item(e)) return false;
        }
        end_ = saved_end;
        --depth_;
        return closed(stop, at + 1);
      }
      case type::int32_array:
        return numeric<std::int32_t>(v);
      case type::int64_array:
        return numeric<std::int64_t>(v);
      case type::float32_array:
        return numeric<float>(v);
      case type::float64_array:
        return numeric<double>(v);
      case type::tagged: {
        if (++depth_ > opts_.max_depth) return fail(error_code::depth_exceeded, at);
        std::uint64_t tagno;
        if (!varint(tagno)) return false;
        value inner;
        if (!item(inner)) return false;
        v = value::tagged(tagno, std::move(inner));
        --depth_;
        return true;
      }
    }
    return fail(error_code::bad_tag, at);
  }

  // The payload of a fixed-size number as value stores it (integers extended to 64 bits).
  std::uint64_t fixed_bits(type t) const noexcept {
    switch (t) {
      case type::int8:
        return static_cast<std::uint64_t>(std::int64_t{detail::load<std::int8_t>(p_)});
      case type::int16:
        return static_cast<std::uint64_t>(std::int64_t{detail::load<std::int16_t>(p_)});
      case type::int32:
        return static_cast<std::uint64_t>(std::int64_t{detail::load<std::int32_t>(p_)});
      case type::uint8:
        return detail::load<std::uint8_t>(p_);
      case type::uint16:
        return detail::load<std::uint16_t>(p_);
      case type::uint32:
      case type::float32:
        return detail::load<std::uint32_t>(p_);
      default:  // int64, uint64, float64
        return detail::load<std::uint64_t>(p_);
    }
  }

  const std::uint8_t* begin_;
  const std::uint8_t* p_;
  const std::uint8_t* end_;
  const read_options& opts_;
  std::uint32_t depth_ = 0;
  error err_;
};

}  // namespace

error detail::read_binary_value(const std::uint8_t* base, const std::uint8_t* at,
                                const std::uint8_t* end, value& out, const read_options& options) {
  reader r(bytes_view(at, static_cast<std::size_t>(end - at)), options);
  r.rebase(base);
  return r.one(at, out);
}

error read_binary(bytes_view in, message& out, const read_options& options) {
  return reader(in, options).run(out);
}

result<message> from_binary(bytes_view in, const read_options& options) {
  message m;
  if (error e = read_binary(in, m, options)) return e;
  return m;
}

}  // namespace keel::msg
