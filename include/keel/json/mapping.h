// SPDX-License-Identifier: MIT
// keel::json struct mapping: read JSON into C++ values and write them as JSON through the shared
// field list KEEL_FIELDS (keel/fields.h) (docs/json-struct.md).
//
//   struct point { double x, y; };  KEEL_FIELDS(point, x, y)
//   point p;
//   if (auto e = keel::json::from_json(R"({"x":1,"y":2})", p)) std::puts(e.to_string().c_str());
//   std::string text = *keel::json::to_json(p);
//
// Supported: bool, integers (range-checked), floating point, std::string, enums with
// keel::json::enum_names<E>, std::optional, std::vector, std::array, std::map and
// std::unordered_map with string keys, std::variant of tagged alternatives, structs with
// KEEL_FIELDS (nested), and json::mutable_document for "any JSON here".
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "keel/detail/attributes.h"
#include "keel/fields.h"
#include "keel/json/document.h"
#include "keel/json/error.h"
#include "keel/json/mutable.h"
#include "keel/json/parser.h"
#include "keel/json/value.h"
#include "keel/json/writer.h"

namespace keel::json {

// Names of an enum's values: specialise with
//   template <> struct keel::json::enum_names<color> {
//     static constexpr std::pair<color, std::string_view> values[] = {{color::red, "red"}, ...};
//   };
template <class E>
struct enum_names;

// A std::variant alternative is written as {"<tag>": value}; the tag is the alternative type's
// `static constexpr std::string_view json_tag`.
template <class T>
concept tagged = requires {
  { T::json_tag } -> std::convertible_to<std::string_view>;
};

// JSON names for some fields of T (the others keep their C++ names): specialise with
//   template <> struct keel::json::field_rename<item> {
//     static constexpr std::pair<std::string_view, std::string_view> values[] = {
//         {"unit_price", "unit-price"}};  // {C++ field, JSON key}
//   };
template <class T>
struct field_rename;

// The JSON keys of T's fields: KEEL_FIELDS' names after field_rename<T>.
template <class T>
constexpr auto json_field_names() {
  auto names = keel::field_names<T>();
  if constexpr (requires { field_rename<T>::values; }) {
    for (auto& n : names) {
      for (const auto& [from, to] : field_rename<T>::values) {
        if (n == from) n = to;
      }
    }
  }
  return names;
}

// How from_json reads text. direct: the values are parsed where they are in the text and
// converted straight into the fields, with no DOM of the whole document (a text that does not
// parse or map is then read again through the DOM for the error); dom: the text is parsed to a
// DOM and the struct filled from it. Both accept the same texts and give the same results.
enum class read_path : std::uint8_t { direct, dom };

struct read_options {
  bool reject_unknown_keys = false;  // an object key no field has: unknown_key (else ignored)
  read_path path = read_path::direct;
  parse_options parse;  // from_json's parse of the text
};

// A mapping failure: the code, and the JSON Pointer of the offending value (for missing_field,
// of the missing member; for parse errors the position in the text instead).
struct mapping_error {
  using exception_type = json::exception;
  error_code code = error_code::ok;
  std::string pointer;
  std::size_t line = 0, column = 0;  // parse errors
  explicit operator bool() const noexcept { return code != error_code::ok; }
  const char* message() const noexcept { return json::message(code); }
  // "/items/2/price: type mismatch", or "line:column: message" for a parse error.
  std::string to_string() const;
};

namespace detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};
template <class T>
struct is_string_map : std::false_type {};
template <class T, class C, class A>
struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};
template <class T, class H, class E, class A>
struct is_string_map<std::unordered_map<std::string, T, H, E, A>> : std::true_type {};
template <class T>
struct is_variant : std::false_type {};
template <class... T>
struct is_variant<std::variant<T...>> : std::true_type {};
template <class E>
concept named_enum = std::is_enum_v<E> && requires {
  enum_names<E>::values;
};

class direct_mapper;

// Element i of a vector read by read(element&): std::vector<bool>'s elements are proxies, so
// they are read into a bool and stored from it.
template <class V, class F>
bool read_element(V& out, std::size_t i, F&& read) {
  if constexpr (std::is_same_v<typename V::value_type, bool>) {
    bool b = false;
    if (!read(b)) return false;
    out[i] = b;
    return true;
  } else {
    return read(out[i]);
  }
}

// A string map read over the one out holds (both readers): its entries move aside (take_entries),
// and each key read takes its entry back, storage and all, or gets a new one (map_entry); the
// entries no key took are dropped with `old`.
template <class M>
M take_entries(M& out) {
  M old = std::move(out);
  out.clear();
  return old;
}
template <class M>
typename M::mapped_type& map_entry(M& out, M& old, std::string_view key) {
  std::string k(key);
  if (!old.empty()) {
    if (auto entry = old.extract(k)) return out.insert(std::move(entry)).position->second;
  }
  return out[std::move(k)];
}

// out = the n bytes at p (not within out): over out's storage when it has room, as a copy (and
// a fill of the new length only when it grows) instead of std::string's general replace.
inline void assign_text(std::string& out, const char* p, std::size_t n) {
  if (n <= out.capacity()) {
    out.resize(n);
    std::memcpy(out.data(), p, n);
  } else {
    out.assign(p, n);
  }
}

// The reader. The JSON Pointer of a failure is built on the way back up (each level puts its own
// token in front), so a successful read does no pointer work at all.
class mapper {
 public:
  explicit mapper(const read_options& o) : o_(o) {}
  mapping_error err;

  template <class T>
  bool read(const value& v, T& out) {
    if constexpr (std::is_same_v<T, bool>) {
      return take(v.get<bool>(), out);
    } else if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        auto r = v.get<std::int64_t>();
        if (!r) return fail(error_code::type_mismatch);
        if (*r < std::numeric_limits<T>::min() || *r > std::numeric_limits<T>::max())
          return fail(error_code::type_mismatch);
        out = static_cast<T>(*r);
      } else {
        auto r = v.get<std::uint64_t>();
        if (!r || *r > std::numeric_limits<T>::max()) return fail(error_code::type_mismatch);
        out = static_cast<T>(*r);
      }
      return true;
    } else if constexpr (std::is_floating_point_v<T>) {
      auto r = v.get<double>();
      if (!r) return fail(error_code::type_mismatch);
      out = static_cast<T>(*r);
      return true;
    } else if constexpr (std::is_same_v<T, std::string>) {
      auto r = v.get<std::string_view>();
      if (!r) return fail(error_code::type_mismatch);
      assign_text(out, r->data(), r->size());
      return true;
    } else if constexpr (named_enum<T>) {
      auto r = v.get<std::string_view>();
      if (!r) return fail(error_code::type_mismatch);
      for (const auto& [e, name] : enum_names<T>::values) {
        if (name == *r) {
          out = e;
          return true;
        }
      }
      return fail(error_code::not_found);
    } else if constexpr (std::is_same_v<T, mutable_document>) {
      out = mutable_document(v);
      return true;
    } else if constexpr (is_optional<T>::value) {
      if (v.is_null()) {
        out.reset();
        return true;
      }
      return read(v, out.emplace());
    } else if constexpr (is_vector<T>::value) {
      if (!v.is_array()) return fail(error_code::type_mismatch);
      // Read over the elements out holds (their storage reused: a steady state allocates
      // nothing), new ones added, the rest dropped.
      out.resize(v.size());
      std::size_t i = 0;
      for (const value e : v.elements()) {
        if (!read_element(out, i, [&](auto& x) { return read(e, x); })) return up_index(i);
        ++i;
      }
      return true;
    } else if constexpr (is_std_array<T>::value) {
      if (!v.is_array() || v.size() != out.size()) return fail(error_code::type_mismatch);
      std::size_t i = 0;
      for (const value e : v.elements()) {
        if (!read(e, out[i])) return up_index(i);
        ++i;
      }
      return true;
    } else if constexpr (is_string_map<T>::value) {
      if (!v.is_object()) return fail(error_code::type_mismatch);
      T old = take_entries(out);
      for (const member m : v.members()) {
        if (!read(m.value, map_entry(out, old, m.key))) return up_key(m.key);
      }
      return true;
    } else if constexpr (is_variant<T>::value) {
      return read_variant(v, out, std::make_index_sequence<std::variant_size_v<T>>());
    } else if constexpr (keel::has_fields<T>) {
      return read_fields(v, out);
    } else {
      static_assert(sizeof(T) == 0, "keel::json mapping: unsupported type");
    }
  }

 private:
  template <class R, class T>
  bool take(const R& r, T& out) {
    if (!r) return fail(error_code::type_mismatch);
    out = *r;
    return true;
  }
  // A failure at this value: the pointer is relative to it until the callers put theirs in front.
  bool fail(error_code c) {
    err.code = c;
    err.pointer.clear();
    return false;
  }
  // The failure was inside element i / member `key` of this value: that token goes in front.
  bool up_index(std::size_t i);       // mapping.cpp
  bool up_key(std::string_view key);  // escaped (mapping.cpp)

  template <class T, std::size_t... I>
  bool read_variant(const value& v, T& out, std::index_sequence<I...>) {
    if (!v.is_object() || v.size() != 1) return fail(error_code::type_mismatch);
    const member m = *v.members().begin();
    bool found = false, ok = true;
    (
        [&] {
          using A = std::variant_alternative_t<I, T>;
          static_assert(tagged<A>,
                        "a variant alternative needs `static constexpr "
                        "std::string_view json_tag`");
          if (found || m.key != std::string_view(A::json_tag)) return;
          found = true;
          ok = read(m.value, out.template emplace<I>());
        }(),
        ...);
    if (found && ok) return true;
    if (!found) fail(error_code::unknown_key);
    return up_key(m.key);
  }

  // Where each of T's fields is read: one function per field, called through a table.
  template <class T>
  using field_reader = bool (*)(mapper&, const value&, T&);
  template <class T, std::size_t... I>
  static constexpr auto make_readers(std::index_sequence<I...>) {
    return std::array<field_reader<T>, sizeof...(I)>{+[](mapper& m, const value& v, T& out) {
      return m.read(v, std::get<I>(keel::fields_of(out)));
    }...};
  }

  // Finding a key among T's JSON names (at most 32, keel/fields.h): the candidates with the key's
  // length and first byte (bit k = field k), then one compare each, so a key no field has costs
  // two loads.
  template <class T>
  struct key_table {
    static constexpr auto names = json_field_names<T>();
    static_assert(names.size() <= 64);
    static constexpr std::size_t len_slot(std::size_t n) { return n < 63 ? n : 63; }
    static constexpr auto by_len = [] {
      std::array<std::uint64_t, 64> m{};
      for (std::size_t k = 0; k < names.size(); ++k) m[len_slot(names[k].size())] |= 1ull << k;
      return m;
    }();
    static constexpr auto by_first = [] {
      std::array<std::uint64_t, 256> m{};
      for (std::size_t k = 0; k < names.size(); ++k)
        if (!names[k].empty()) m[static_cast<unsigned char>(names[k][0])] |= 1ull << k;
      return m;
    }();
    // The direct read's skip filter (key_filter): by a name's first byte, bit (length % 64) for
    // each name. An empty name under '"': the byte after an empty key's opening quote in the
    // text is its closing one (the skip tests a key as written with no test of its length).
    static constexpr auto lengths_by_first = [] {
      std::array<std::uint64_t, 256> m{};
      for (const auto n : names)
        m[n.empty() ? '"' : static_cast<unsigned char>(n[0])] |= 1ull << (n.size() & 63);
      return m;
    }();
    // The field whose name is key, or names.size().
    static std::size_t find(std::string_view key) {
      std::uint64_t m = by_len[len_slot(key.size())];
      if (!key.empty()) m &= by_first[static_cast<unsigned char>(key[0])];
      for (; m; m &= m - 1) {
        const auto k = static_cast<std::size_t>(std::countr_zero(m));
        if (names[k].size() == key.size() && is_name(k, key.data())) return k;
      }
      return names.size();
    }
    // Each name of up to 16 bytes as its first and last word of 8, 4, 2 or 1 bytes (its length's
    // size class; they overlap), as a little-endian load reads them.
    struct name_words {
      std::uint64_t head = 0, tail = 0;
    };
    static constexpr auto words = [] {
      std::array<name_words, names.size()> w{};
      for (std::size_t k = 0; k < names.size(); ++k) {
        const std::size_t n = names[k].size();
        const std::size_t size = n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
        if (n == 0 || n > 16) continue;
        for (std::size_t b = size; b-- > 0;) {
          w[k].head = (w[k].head << 8) | static_cast<unsigned char>(names[k][b]);
          w[k].tail = (w[k].tail << 8) | static_cast<unsigned char>(names[k][n - size + b]);
        }
      }
      return w;
    }();
    // key[0, n) is field k's name (n its length): two loads of the key that overlap against the
    // name's words (no call: names are short), memcmp beyond 16 bytes. same_name is always
    // inline (the direct read's test of the one field it expects next), is_name as the compiler
    // chooses (find's loop over the candidates).
    static bool is_name(std::size_t k, const char* key) { return same_name(k, key); }
    KEEL_INLINE static bool same_name(std::size_t k, const char* key) {
      const std::size_t n = names[k].size();
      if (std::endian::native != std::endian::little || n > 16)
        return std::memcmp(names[k].data(), key, n) == 0;
      const auto differ = [key, n, &w = words[k]](auto word) {
        decltype(word) head, tail;
        std::memcpy(&head, key, sizeof head);
        std::memcpy(&tail, key + n - sizeof tail, sizeof tail);
        return ((head ^ w.head) | (tail ^ w.tail)) != 0;
      };
      if (n >= 8) return !differ(std::uint64_t{});
      if (n >= 4) return !differ(std::uint32_t{});
      if (n >= 2) return !differ(std::uint16_t{});
      return n == 0 || static_cast<unsigned char>(key[0]) == words[k].head;
    }
  };

  template <class T>
  bool read_fields(const value& v, T& out) {
    if (!v.is_object()) return fail(error_code::type_mismatch);
    using table = key_table<T>;
    constexpr auto& names = table::names;
    static constexpr auto readers = make_readers<T>(std::make_index_sequence<names.size()>());
    std::array<bool, names.size()> seen{};
    for (const member m : v.members()) {
      const std::size_t k = table::find(m.key);
      if (k < names.size()) {
        seen[k] = true;
        if (!readers[k](*this, m.value, out)) return up_key(m.key);
      } else if (o_.reject_unknown_keys) {
        fail(error_code::unknown_key);
        return up_key(m.key);
      }
    }
    // Fields absent from the object: an error unless optional.
    auto fields = keel::fields_of(out);
    bool ok = true;
    std::apply(
        [&](auto&... f) {
          std::size_t i = 0;
          (
              [&](auto& field) {
                const std::size_t k = i++;
                if (!ok || seen[k]) return;
                if constexpr (is_optional<std::remove_reference_t<decltype(field)>>::value) {
                  field.reset();
                } else {
                  fail(error_code::missing_field);
                  ok = up_key(names[k]);
                }
              }(f),
              ...);
        },
        fields);
    return ok;
  }

  const read_options& o_;
  friend class direct_mapper;
};

struct parse_state;

// What the direct read's kernels read (src/json/direct_kernels.h): the buffer stage 2 reads (the
// text, or a copy with a sentinel byte appended), the first position within the parser's padding
// of the end, and where each value's DOM is written.
struct direct_view {
  const std::uint8_t* buf = nullptr;
  const std::uint32_t* safe = nullptr;
  node* nodes = nullptr;
  std::uint8_t* strings = nullptr;
  // Bit b of the 64-byte blocks of buf that hold a backslash (parse_state::backslash_blocks), or
  // nullptr when stage 1 did not mark them (an ISA's own stage 1).
  const std::uint64_t* backslash_blocks = nullptr;
  // skip_members' note between calls: the text from the last key it looked up in
  // backslash_blocks to here (the first marked block after it) has no backslash. The direct read
  // only moves forward, so every key after that one that ends before here has none.
  mutable std::size_t clean_to = 0;
};
// The keys a struct's fields may have: bit (length % 64) of lengths_by_first[first byte] for
// each field's name, of lengths_by_first['"'] for an empty name (mapper::key_table). A key none
// of whose bits is set is no field's; one whose bit is set may be.
struct key_filter {
  const std::uint64_t* lengths_by_first;
};

// A text's structural positions (stage 1 of the parser) and the DOM of one value at a position
// (stage 2 from there), in the parser's buffers: what the direct read walks (mapping_direct.cpp).
class text_cursor {
 public:
  explicit text_cursor(parser& p) noexcept : p_(p) {}
  text_cursor(const text_cursor&) = delete;
  text_cursor& operator=(const text_cursor&) = delete;

  // Stage 1 over text. False when the direct read does not apply: stage 1 found an error, the
  // text is empty, or the parser's options strip comments or stop after the first value (the DOM
  // path reads those).
  bool start(std::string_view text) noexcept;
  const std::uint32_t* first() const noexcept { return idx_; }
  // True when ip is the end of the positions (nothing after the root value).
  bool at_end(const std::uint32_t* ip) const noexcept { return ip == end_; }
  // The byte at position ip (any position up to the end and a few sentinels after it).
  std::uint8_t at(const std::uint32_t* ip) const noexcept { return view_.buf[*ip]; }
  // The text from position ip on, when another position follows it (so the token at ip ends
  // within the text, at that position at the latest, and a string at ip has its closing quote
  // there); nullptr otherwise (ip is the last position, or a sentinel after it).
  const std::uint8_t* token(const std::uint32_t* ip) const noexcept {
    return ip + 1 < end_ ? view_.buf + *ip : nullptr;
  }
  // True when at least kPad (64) bytes of text follow the token at ip (it is before the last
  // kPad bytes): whole words may be read past it.
  bool padded(const std::uint32_t* ip) const noexcept { return ip + 1 < view_.safe; }
  // The bytes between the quotes of the string whose opening quote is at ip, as in the text.
  std::string_view raw_string(const std::uint32_t* ip) const noexcept {
    return {reinterpret_cast<const char*>(view_.buf) + ip[0] + 1, ip[1] - ip[0] - 1};
  }
  // True when the string at ip (its quotes at ip[0] and ip[1], ip + 1 before the end) has no
  // backslash: stage 1 marked none of its blocks (most strings: no search), or memchr says so.
  bool plain_string(const std::uint32_t* ip) const noexcept {
    const std::size_t from = ip[0] + 1, to = ip[1];
    if (const std::uint64_t* map = view_.backslash_blocks; map != nullptr) {
      const std::size_t first = from >> 6, last = to >> 6;  // blocks (the closing quote's too)
      if (first >> 6 == last >> 6 &&
          ((map[first >> 6] >> (first & 63)) & ((std::uint64_t{2} << (last - first)) - 1)) == 0)
        return true;
    }
    return std::memchr(view_.buf + from, '\\', to - from) == nullptr;
  }
  // Parses the value at ip (at most max_depth levels deep) into out, at the start of the parser's
  // document (each call overwrites the last): the position after it, or nullptr when the text is
  // not valid JSON there.
  const std::uint32_t* value_at(const std::uint32_t* ip, std::size_t max_depth,
                                value& out) noexcept {
    opt_.max_depth = max_depth;
    out = value(view_.nodes, reinterpret_cast<const char*>(view_.strings));
    return value_(*st_, view_, ip);
  }
  // From the position of a key, parses and drops the members whose key no field has (f): the
  // position of the next member that may be a field, or of what stands where a key should (see
  // skip_members in direct_kernels.h); nullptr when the text is not valid JSON there.
  const std::uint32_t* skip_members(const std::uint32_t* ip, std::size_t max_depth,
                                    const key_filter& f) noexcept {
    opt_.max_depth = max_depth;
    return skip_(*st_, view_, ip, f);
  }
  // The string at ip (padded(ip)) unescaped into out by the kernel set, when it has a way to
  // without stage 2 and the string no \u escape: true; false otherwise (out then holds anything).
  bool unescape(const std::uint32_t* ip, std::string& out) {
    if (unescape_ == nullptr) return false;
    const std::size_t n = ip[1] - ip[0] - 1;  // what it unescapes to is no longer
    if (n > out.capacity()) {
      out.clear();
      out.reserve(n);
    }
    out.resize(n);
    const std::size_t length =
        unescape_(view_.buf + ip[0] + 1, n, reinterpret_cast<std::uint8_t*>(out.data()));
    if (length > n) return false;
    out.resize(length);
    return true;
  }
  const parse_options& options() const noexcept { return p_.options(); }

 private:
  parser& p_;
  parse_options opt_;                    // the parser's, max_depth set per call
  alignas(8) unsigned char state_[128];  // a detail::parse_state (mapping_direct.cpp)
  parse_state* st_ = nullptr;            // in state_
  const std::uint32_t* (*value_)(parse_state&, const direct_view&, const std::uint32_t*) = nullptr;
  const std::uint32_t* (*skip_)(parse_state&, const direct_view&, const std::uint32_t*,
                                const key_filter&) = nullptr;
  std::size_t (*unescape_)(const std::uint8_t*, std::size_t, std::uint8_t*) = nullptr;
  direct_view view_;
  const std::uint32_t* idx_ = nullptr;
  const std::uint32_t* end_ = nullptr;
};

// The direct read: walks the positions of a text_cursor straight into T, with the grammar of the
// containers it maps checked here and every other value (scalars, strings, skipped members, "any
// JSON") parsed by the parser's own stage 2 (text_cursor::value_at) and converted by mapper's
// readers. It only tells success from failure: on failure from_json reads through the DOM, which
// gives the error (so both paths fail on the same texts with the same error).
class direct_mapper {
 public:
  direct_mapper(text_cursor& c, const read_options& o)
      : c_(c),
        o_(o),
        dom_(o),
        max_depth_(c.options().max_depth),
        trailing_(c.options().allow_trailing_commas) {}
  const std::uint32_t* ip = nullptr;

  template <class T>
  bool read(T& out) {
    if constexpr (is_optional<T>::value) {
      if (c_.at(ip) == 'n') {
        // null here (as true / false below); any other token by stage 2.
        if (const std::uint8_t* p = c_.token(ip);
            p != nullptr && p[1] == 'u' && p[2] == 'l' && p[3] == 'l' && value_end(p[4])) {
          out.reset();
          ++ip;
          return true;
        }
        return leaf(out);
      }
      return read(out.emplace());
    } else if constexpr (is_vector<T>::value) {
      if (!open('[')) return false;
      // As mapper: read over the elements out holds, new ones added, the rest dropped.
      std::size_t n = 0;
      if (c_.at(ip) == ']') {
        ++ip;
      } else {
        for (;;) {
          if (n == out.size()) out.emplace_back();
          if (!read_element(out, n++, [&](auto& x) { return read(x); })) return false;
          const std::uint8_t c = c_.at(ip++);
          if (c == ']') break;
          if (c != ',') return false;
          if (trailing_ && c_.at(ip) == ']') {
            ++ip;
            break;
          }
        }
      }
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(n), out.end());
      return close();
    } else if constexpr (is_std_array<T>::value) {
      if (!open('[')) return false;
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (!read(out[i])) return false;
        const std::uint8_t c = c_.at(ip++);
        if (c == ']') return i + 1 == out.size() && close();
        if (c != ',' || (trailing_ && c_.at(ip) == ']')) return false;
      }
      return out.empty() && c_.at(ip++) == ']' && close();
    } else if constexpr (is_string_map<T>::value) {
      if (!open('{')) return false;
      T old = take_entries(out);
      if (c_.at(ip) == '}') {
        ++ip;
        return close();
      }
      for (;;) {
        std::string_view key;
        if (!read_key(key) || !read(map_entry(out, old, key))) return false;
        const std::uint8_t c = c_.at(ip++);
        if (c == '}') return close();
        if (c != ',') return false;
        if (trailing_ && c_.at(ip) == '}') {
          ++ip;
          return close();
        }
      }
    } else if constexpr (is_variant<T>::value) {
      return read_variant(out, std::make_index_sequence<std::variant_size_v<T>>());
    } else if constexpr (keel::has_fields<T>) {
      return read_fields(out);
    } else if constexpr (std::is_same_v<T, std::string> || std::is_integral_v<T>) {
      const std::uint32_t* const next = read_leaf(ip, out);
      if (next == nullptr) return false;
      ip = next;
      return true;
    } else {
      return leaf(out);  // other numbers, enums, "any JSON"
    }
  }

  // A string, bool or integer read at position `at`: the position after it, or nullptr when it
  // does not read. The position stays in a register (as the member ip it went to memory and back
  // round every store to a string).
  template <class T>
  const std::uint32_t* read_leaf(const std::uint32_t* at, T& out) {
    if constexpr (std::is_same_v<T, std::string>) {
      // A string without a backslash is its text (stage 1 checked its UTF-8 and control bytes).
      // Not at the sentinels after the last position (see sentinels(): their byte may be a
      // quote, with no closing position after it).
      if (const std::uint8_t* p = c_.token(at); p != nullptr && *p == '"') {
        if (c_.plain_string(at)) {
          const std::string_view raw = c_.raw_string(at);
          assign_text(out, raw.data(), raw.size());
          return at + 2;
        }
        // With escapes: unescaped straight into out where the kernel set can (no \u escape).
        if (c_.padded(at) && c_.unescape(at, out)) return at + 2;
      }
    } else if constexpr (std::is_same_v<T, bool>) {
      if (const std::uint8_t* p = c_.token(at)) {
        if (p[0] == 't' && p[1] == 'r' && p[2] == 'u' && p[3] == 'e' && value_end(p[4])) {
          out = true;
          return at + 1;
        }
        if (p[0] == 'f' && p[1] == 'a' && p[2] == 'l' && p[3] == 's' && p[4] == 'e' &&
            value_end(p[5])) {
          out = false;
          return at + 1;
        }
      }
    } else {
      static_assert(std::is_integral_v<T>);
      // A non-negative integer of up to 19 digits converted here; any other token by stage 2.
      if (const std::uint8_t* p = c_.token(at)) {
        std::uint64_t v = 0;
        std::size_t n = 0;
        if (c_.padded(at)) {
          n = digits(p, v);
        } else {
          for (; n < 20; ++n) {
            const unsigned d = static_cast<unsigned>(p[n]) - '0';
            if (d >= 10) break;
            v = v * 10 + d;
          }
        }
        if (n != 0 && n < 20 && (p[0] != '0' || n == 1) && value_end(p[n])) {
          if (v > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return nullptr;
          out = static_cast<T>(v);
          return at + 1;
        }
      }
    }
    ip = at;
    return leaf(out) ? ip : nullptr;
  }

  // Any value read at position `at` (read_leaf where it applies): the position after it, or
  // nullptr.
  template <class T>
  const std::uint32_t* read_at(const std::uint32_t* at, T& out) {
    if constexpr (std::is_same_v<T, std::string> || std::is_integral_v<T>) {
      return read_leaf(at, out);
    } else {
      ip = at;
      return read(out) ? ip : nullptr;
    }
  }

 private:
  // The decimal digits at p (24 bytes readable), eight at a time: their count (up to 24) and, for
  // up to 19 of them, their value in v.
  static std::size_t digits(const std::uint8_t* p, std::uint64_t& v) {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    static constexpr std::uint64_t kScale[9] = {1,      10,      100,      1000,     10000,
                                                100000, 1000000, 10000000, 100000000};
    std::size_t n = 0;
    for (int part = 0; part < 3; ++part) {
      std::uint64_t x;
      std::memcpy(&x, p + n, 8);
      x -= kOnes * '0';  // each digit's value in its byte; a borrow only changes bytes after a
                         // byte below '0', which is not a digit
      // The high bit of each byte that is not 0-9: above 0x7f, or 10-0x7f (which + 0x76 carries
      // into the high bit).
      const std::uint64_t other = (x | (x + kOnes * 0x76)) & (kOnes << 7);
      const auto k = static_cast<std::size_t>(std::countr_zero(other) >> 3);
      if (k != 0) {
        // The k digits as the high bytes (zeros before them), then combined pairwise:
        // 2 digits a lane of 16 bits, 4 of 32, 8 of 64 (first digit in the lowest byte).
        x <<= 8 * (8 - k);
        x = ((x * 10) + (x >> 8)) & 0x00ff00ff00ff00ffULL;
        x = ((x * 100) + (x >> 16)) & 0x0000ffff0000ffffULL;
        x = ((x * 10000) + (x >> 32)) & 0xffffffffULL;
        v = v * kScale[k] + x;
      }
      n += k;
      if (k < 8) break;
    }
    return n;
  }
  // A byte that may follow a scalar in valid JSON (whitespace, or what ends a member or element).
  static constexpr bool value_end(std::uint8_t c) {
    return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
  }
  // A value read through its DOM by mapper.
  template <class T>
  bool leaf(T& out) {
    value v;
    ip = c_.value_at(ip, max_depth_ - depth_, v);
    return ip != nullptr && dom_.read(v, out);
  }
  // A value parsed and dropped (still validated).
  bool skip() {
    value v;
    ip = c_.value_at(ip, max_depth_ - depth_, v);
    return ip != nullptr;
  }
  bool open(std::uint8_t c) {
    if (c_.at(ip) != c || depth_ >= max_depth_) return false;
    ++ip;
    ++depth_;
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }
  // The key at ip (unescaped; valid until the next value_at) and its colon.
  bool read_key(std::string_view& key) {
    if (c_.at(ip) != '"') return false;
    value v;
    ip = c_.value_at(ip, 1, v);
    if (ip == nullptr || c_.at(ip) != ':') return false;
    ++ip;
    key = v.raw_string();
    return true;
  }

  template <class T, std::size_t... I>
  bool read_variant(T& out, std::index_sequence<I...>) {
    if (!open('{')) return false;
    std::string_view key;
    if (!read_key(key)) return false;
    bool found = false, ok = true;
    (
        [&] {
          using A = std::variant_alternative_t<I, T>;
          if (found || key != std::string_view(A::json_tag)) return;
          found = true;
          ok = read(out.template emplace<I>());
        }(),
        ...);
    return found && ok && c_.at(ip++) == '}' && close();
  }

  // Names that match their text only when unescaped: a key's raw text is looked up as it is
  // only when no name has a byte that JSON text writes escaped.
  template <class T>
  static constexpr bool plain_names = [] {
    for (const auto n : mapper::key_table<T>::names) {
      for (const char c : n) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || c == '"' || c == '\\') return false;
      }
    }
    return true;
  }();

  template <class T>
  bool read_fields(T& out) {
    using table = mapper::key_table<T>;
    constexpr auto& names = table::names;
    static constexpr auto readers = make_readers<T>(std::make_index_sequence<names.size()>());
    static constexpr key_filter filter{table::lengths_by_first.data()};
    if (!open('{')) return false;
    std::array<bool, names.size()> seen{};
    // Keys mostly come in the fields' order: the field after the last one read is tried first.
    std::size_t next = 0;
    // (The key as written, in the text: its first byte is its closing quote when it is empty,
    // which the skip filter files the empty name under.)
    const auto lookup = [&next](std::string_view key) {
      if (next < names.size() && key.size() == names[next].size() &&
          table::same_name(next, key.data()))
        return next;
      if (((table::lengths_by_first[static_cast<unsigned char>(key.data()[0])] >>
            (key.size() & 63)) &
           1) == 0)
        return names.size();  // no field's first byte and length: the common unknown key
      return table::find(key);
    };
    // The position in a local (in a register), the member ip only round the calls that use it.
    const std::uint32_t* at = ip;
    if (c_.at(at) != '}') {
      for (;;) {
        if (c_.at(at) != '"') return false;
        // A key found as it is in the text has no backslash (plain_names): nothing to unescape
        // or validate.
        std::size_t k = plain_names<T> ? lookup(c_.raw_string(at)) : names.size();
        if (k == names.size() && !o_.reject_unknown_keys) {
          // The members no field has, up to the next that may be one, in one call.
          at = c_.skip_members(at, max_depth_ - depth_, filter);
          if (at == nullptr) return false;
          const std::uint8_t c = c_.at(at);
          if (c == '}') {
            // After the last member, or after a comma (a trailing comma).
            if (c_.at(at - 1) == ',' && !trailing_) return false;
            ++at;
            break;
          }
          if (c != '"') return false;
          k = plain_names<T> ? lookup(c_.raw_string(at)) : names.size();
        }
        if (k < names.size()) {
          at += 2;
          if (c_.at(at) != ':') return false;
          ++at;
        } else {
          std::string_view key;
          ip = at;
          if (!read_key(key)) return false;
          at = ip;
          k = table::find(key);
        }
        if (k < names.size()) {
          seen[k] = true;
          next = k + 1;
          at = readers[k](*this, out, at);
          if (at == nullptr) return false;
        } else {
          ip = at;
          if (o_.reject_unknown_keys || !skip()) return false;
          at = ip;
        }
        const std::uint8_t c = c_.at(at++);
        if (c == '}') break;
        if (c != ',') return false;
        if (trailing_ && c_.at(at) == '}') {
          ++at;
          break;
        }
      }
    } else {
      ++at;
    }
    ip = at;
    close();
    // Fields absent from the object: a failure unless optional.
    bool ok = true;
    std::size_t i = 0;
    std::apply(
        [&](auto&... f) {
          (
              [&](auto& field) {
                const std::size_t k = i++;
                if (seen[k]) return;
                if constexpr (is_optional<std::remove_reference_t<decltype(field)>>::value) {
                  field.reset();
                } else {
                  ok = false;
                }
              }(f),
              ...);
        },
        keel::fields_of(out));
    return ok;
  }

  // Field I of T read at a position: the position after it, or nullptr.
  template <class T>
  using field_reader = const std::uint32_t* (*)(direct_mapper&, T&, const std::uint32_t*);
  template <class T, std::size_t... I>
  static constexpr auto make_readers(std::index_sequence<I...>) {
    return std::array<field_reader<T>, sizeof...(I)>{
        +[](direct_mapper& m, T& out, const std::uint32_t* at) {
          return m.read_at(at, std::get<I>(keel::fields_of(out)));
        }...};
  }

  text_cursor& c_;
  const read_options& o_;
  mapper dom_;  // the leaves' readers
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  bool trailing_;
};

// Reads text into out by the direct path alone: true when it read it (the text is valid JSON
// and maps onto T), false otherwise (out may be partly assigned).
template <class T>
bool read_direct(parser& p, std::string_view text, T& out, const read_options& options) {
  text_cursor c(p);
  if (!c.start(text)) return false;
  direct_mapper m(c, options);
  m.ip = c.first();
  return m.read(out) && c.at_end(m.ip);
}

// The writer side: builds a mutable value (then written by json::writer).
class builder {
 public:
  template <class T>
  void write(mutable_value out, const T& v) {
    if constexpr (std::is_same_v<T, bool> || std::is_arithmetic_v<T>) {
      check(out.set(v));
    } else if constexpr (std::is_same_v<T, std::string>) {
      check(out.set(std::string_view(v)));
    } else if constexpr (named_enum<T>) {
      for (const auto& [e, name] : enum_names<T>::values) {
        if (e == v) {
          check(out.set(name));
          return;
        }
      }
      failed = error_code::not_found;  // a value without a name
    } else if constexpr (std::is_same_v<T, mutable_document>) {
      check(out.set(v.root()));
    } else if constexpr (is_optional<T>::value) {
      if (v) {
        write(out, *v);
      } else {
        check(out.set(nullptr));
      }
    } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
      check(out.set(empty_array));
      for (const auto& e : v) {
        auto slot = out.push_back(nullptr);
        if (!slot) return check(json::error{slot.code()});
        write(*slot, e);
      }
    } else if constexpr (is_string_map<T>::value) {
      check(out.set(empty_object));
      for (const auto& [k, e] : v) {
        auto slot = out.insert(k, nullptr);
        if (!slot) return check(json::error{slot.code()});
        write(*slot, e);
      }
    } else if constexpr (is_variant<T>::value) {
      check(out.set(empty_object));
      std::visit(
          [&](const auto& alt) {
            using A = std::remove_cvref_t<decltype(alt)>;
            static_assert(tagged<A>,
                          "a variant alternative needs `static constexpr "
                          "std::string_view json_tag`");
            auto slot = out.insert(std::string_view(A::json_tag), nullptr);
            if (!slot) return check(json::error{slot.code()});
            write(*slot, alt);
          },
          v);
    } else if constexpr (keel::has_fields<T>) {
      check(out.set(empty_object));
      constexpr auto names = json_field_names<T>();
      std::size_t i = 0;
      std::apply(
          [&](const auto&... f) {
            (
                [&](const auto& field) {
                  const std::string_view name = names[i++];
                  if constexpr (is_optional<std::remove_cvref_t<decltype(field)>>::value) {
                    if (!field) return;  // an empty optional leaves the member out
                  }
                  auto slot = out.insert(name, nullptr);
                  if (!slot) return check(json::error{slot.code()});
                  write(*slot, field);
                }(f),
                ...);
          },
          keel::fields_of(v));
    } else {
      static_assert(sizeof(T) == 0, "keel::json mapping: unsupported type");
    }
  }
  error_code failed = error_code::ok;

 private:
  void check(json::error e) {
    if (e && failed == error_code::ok) failed = e.code;
  }
};

// T's member keys as written: `"name":` for each field, made at compile time. A name with a byte
// some write option could escape ('"', '\\', '/', control or non-ASCII bytes) is not plain and
// goes through the escaping string writer instead.
template <class T>
struct quoted_keys {
  static constexpr auto names = json_field_names<T>();
  static constexpr bool is_plain(std::string_view n) {
    for (const char c : n) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\' || c == '/') return false;
    }
    return true;
  }
  static constexpr std::size_t total = [] {
    std::size_t t = 0;
    for (const auto n : names) t += n.size() + 3;
    return t;
  }();
  static constexpr auto text = [] {
    std::array<char, total + 1> a{};
    std::size_t p = 0;
    for (const auto n : names) {
      a[p++] = '"';
      for (const char c : n) a[p++] = c;
      a[p++] = '"';
      a[p++] = ':';
    }
    return a;
  }();
  static constexpr auto start = [] {
    std::array<std::size_t, names.size() + 1> a{};
    for (std::size_t k = 0; k < names.size(); ++k) a[k + 1] = a[k] + names[k].size() + 3;
    return a;
  }();
  static constexpr auto plain = [] {
    std::array<bool, names.size()> a{};
    for (std::size_t k = 0; k < names.size(); ++k) a[k] = is_plain(names[k]);
    return a;
  }();
  static constexpr std::string_view key(std::size_t k) {
    return {text.data() + start[k], start[k + 1] - start[k]};
  }
};

// The direct writer of minified text (to_json without `pretty`): the same output as writing the
// document `builder` makes, without building it.
class text_writer {
 public:
  explicit text_writer(const write_options& o) : out(o) {}
  text_sink out;
  error_code failed = error_code::ok;

  template <class T>
  void write(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      out.put(v ? std::string_view("true") : std::string_view("false"));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      out.integer(static_cast<std::int64_t>(v));
    } else if constexpr (std::is_integral_v<T>) {
      out.unsigned_integer(static_cast<std::uint64_t>(v));
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!out.number(static_cast<double>(v))) fail(error_code::nonfinite_number);
    } else if constexpr (std::is_same_v<T, std::string>) {
      string(v);
    } else if constexpr (named_enum<T>) {
      for (const auto& [e, name] : enum_names<T>::values) {
        if (e == v) return string(name);
      }
      fail(error_code::not_found);
    } else if constexpr (std::is_same_v<T, mutable_document>) {
      auto text = json::write(v.root());
      if (!text) return fail(text.code());
      out.put(*text);
    } else if constexpr (is_optional<T>::value) {
      if (v) {
        write(*v);
      } else {
        out.put("null");
      }
    } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
      out.put('[');
      bool first = true;
      for (const auto& e : v) {
        if (!first) out.put(',');
        first = false;
        write(e);
      }
      out.put(']');
    } else if constexpr (is_string_map<T>::value) {
      out.put('{');
      bool first = true;
      for (const auto& [k, e] : v) {
        if (!first) out.put(',');
        first = false;
        string(k);
        out.put(':');
        write(e);
      }
      out.put('}');
    } else if constexpr (is_variant<T>::value) {
      std::visit(
          [&](const auto& alt) {
            using A = std::remove_cvref_t<decltype(alt)>;
            out.put('{');
            string(std::string_view(A::json_tag));
            out.put(':');
            write(alt);
            out.put('}');
          },
          v);
    } else if constexpr (keel::has_fields<T>) {
      using keys = quoted_keys<T>;
      out.put('{');
      bool first = true;
      std::size_t i = 0;
      std::apply(
          [&](const auto&... f) {
            (
                [&](const auto& field) {
                  const std::size_t k = i++;
                  if constexpr (is_optional<std::remove_cvref_t<decltype(field)>>::value) {
                    if (!field) return;  // an empty optional leaves the member out
                  }
                  if (!first) out.put(',');
                  first = false;
                  if (keys::plain[k]) {
                    out.put(keys::key(k));
                  } else {
                    string(keys::names[k]);
                    out.put(':');
                  }
                  write(field);
                }(f),
                ...);
          },
          keel::fields_of(v));
      out.put('}');
    } else {
      static_assert(sizeof(T) == 0, "keel::json mapping: unsupported type");
    }
  }

 private:
  void string(std::string_view s) {
    if (!out.string(s)) fail(error_code::invalid_utf8);
  }
  void fail(error_code c) {
    if (failed == error_code::ok) failed = c;
  }
};

}  // namespace detail

// Reads v into out. On failure out may be partly assigned.
template <class T>
mapping_error from_json(const value& v, T& out, const read_options& options = {}) {
  detail::mapper m(options);
  m.read(v, out);
  return m.err;
}

// Parses text with a reused parser (its options apply; steady state allocates nothing) and reads
// it into out: straight from the text's structural positions, or through the DOM (see
// read_options::path and docs/json-struct.md).
template <class T>
mapping_error from_json(parser& p, std::string_view text, T& out,
                        const read_options& options = {}) {
  if (options.path != read_path::dom && detail::read_direct(p, text, out, options)) return {};
  auto doc = p.parse(text);
  if (!doc) {
    mapping_error e;
    e.code = doc.code();
    e.line = doc.error().line;
    e.column = doc.error().column;
    return e;
  }
  return from_json(*doc, out, options);
}

// Parses text (read_options::parse) and reads it into out.
template <class T>
mapping_error from_json(std::string_view text, T& out, const read_options& options = {}) {
  parser p(options.parse);
  return from_json(p, text, out, options);
}

// v as a mutable document / as JSON text.
template <class T>
result<mutable_document> to_document(const T& v) {
  mutable_document d;
  detail::builder b;
  b.write(d.root(), v);
  if (b.failed != error_code::ok) return b.failed;
  return d;
}

// Minified text is written directly; pretty text through to_document and the writer.
template <class T>
result<std::string> to_json(const T& v, const write_options& options = {}) {
  if (options.pretty) {
    auto d = to_document(v);
    if (!d) return d.error();
    return write(d->root(), options);
  }
  try {
    detail::text_writer w(options);
    w.write(v);
    if (w.failed != error_code::ok) return w.failed;
    return w.out.take();
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  }
}

}  // namespace keel::json
