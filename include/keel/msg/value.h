// SPDX-License-Identifier: MIT
// keel::msg::value: one typed value of a message (docs/msg.md). 24 bytes; booleans, numbers,
// timestamps and strings or bytes of up to 22 bytes are stored inside it (no allocation); longer
// strings, extensions, maps, arrays and typed numeric arrays live on the heap, owned by the value.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "keel/msg/error.h"

namespace keel::msg {

enum class type : std::uint8_t {
  null = 0,
  boolean,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
  string,       // UTF-8 text
  bytes,        // raw bytes
  timestamp,    // seconds since the Unix epoch + nanoseconds
  extension,    // a type code (-128..127) and bytes, as MessagePack ext
  map,          // named values in insertion order (keel::msg::map)
  array,        // values of any types (keel::msg::array)
  int32_array,  // contiguous typed numeric arrays
  int64_array,
  float32_array,
  float64_array,
  tagged,  // a tag number and one value, as CBOR tags
};
inline constexpr int kTypeCount = static_cast<int>(type::tagged) + 1;

// "int32", "string", ... (the names the typed JSON and XML forms use).
const char* type_name(type t) noexcept;
// The type named so, or false.
bool type_from_name(std::string_view name, type& out) noexcept;

using bytes_view = std::span<const std::uint8_t>;

struct timestamp {
  std::int64_t seconds = 0;
  std::uint32_t nanoseconds = 0;  // 0..999'999'999
  friend bool operator==(const timestamp&, const timestamp&) = default;
};

struct extension {
  std::int8_t code = 0;
  std::vector<std::uint8_t> data;
  friend bool operator==(const extension&, const extension&) = default;
};

struct extension_view {
  std::int8_t code = 0;
  bytes_view data;
};

class map;
class value;
using array = std::vector<value>;

namespace detail {
struct value_access;
}

// The element type of each typed numeric array.
template <class T>
concept numeric_element = std::same_as<T, std::int32_t> || std::same_as<T, std::int64_t> ||
    std::same_as<T, float> || std::same_as<T, double>;

template <numeric_element T>
constexpr type array_type_of() {
  if constexpr (std::is_same_v<T, std::int32_t>) return type::int32_array;
  if constexpr (std::is_same_v<T, std::int64_t>) return type::int64_array;
  if constexpr (std::is_same_v<T, float>) return type::float32_array;
  if constexpr (std::is_same_v<T, double>) return type::float64_array;
}

class value {
 public:
  static constexpr std::size_t kInlineBytes = 22;

  value() noexcept = default;
  value(std::nullptr_t) noexcept : value() {}  // NOLINT: implicit by design
  value(bool b) noexcept : type_(type::boolean) { put(std::uint64_t{b ? 1u : 0u}); }  // NOLINT
  template <std::integral T>
  requires(!std::same_as<T, bool>) value(T v)
  noexcept : type_(int_type<T>()) {  // NOLINT
    if constexpr (std::is_signed_v<T>)
      put(static_cast<std::int64_t>(v));
    else
      put(static_cast<std::uint64_t>(v));
  }
  value(float v) noexcept : type_(type::float32) {  // NOLINT
    put(v);
  }
  value(double v) noexcept : type_(type::float64) { put(v); }                // NOLINT
  value(std::string_view s) { set_text(type::string, s.data(), s.size()); }  // NOLINT
  value(const char* s) : value(std::string_view(s)) {}                       // NOLINT
  value(const std::string& s) : value(std::string_view(s)) {}                // NOLINT
  value(std::string&& s);                                                    // NOLINT
  value(timestamp t) noexcept : type_(type::timestamp) {
    put(t.seconds);
    std::memcpy(raw_ + 8, &t.nanoseconds, 4);
  }                     // NOLINT
  value(extension e);   // NOLINT
  value(msg::map m);    // NOLINT
  value(msg::array a);  // NOLINT
  template <numeric_element T>
  value(std::vector<T> v) : type_(array_type_of<T>()) {  // NOLINT
    put(static_cast<void*>(new std::vector<T>(std::move(v))));
    small_ = kHeap;
  }
  static value bytes(bytes_view b) {
    value v;
    v.set_text(type::bytes, reinterpret_cast<const char*>(b.data()), b.size());
    return v;
  }
  static value bytes(std::string_view b) {
    value v;
    v.set_text(type::bytes, b.data(), b.size());
    return v;
  }
  static value tagged(std::uint64_t tag, value inner);

  value(const value& o) { copy_from(o); }
  value(value&& o) noexcept : type_(o.type_), small_(o.small_) {
    std::memcpy(raw_, o.raw_, sizeof raw_);
    o.type_ = type::null;
    o.small_ = 0;
  }
  value& operator=(const value& o) {
    if (this != &o) {
      value tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  value& operator=(value&& o) noexcept {
    if (this != &o) {
      release();
      std::memcpy(raw_, o.raw_, sizeof raw_);
      type_ = o.type_;
      small_ = o.small_;
      o.type_ = type::null;
      o.small_ = 0;
    }
    return *this;
  }
  ~value() { release(); }

  msg::type type() const noexcept { return type_; }
  bool is_null() const noexcept { return type_ == type::null; }
  bool is_integer() const noexcept { return type_ >= type::int8 && type_ <= type::uint64; }
  bool is_signed() const noexcept { return type_ >= type::int8 && type_ <= type::int64; }
  bool is_unsigned() const noexcept { return type_ >= type::uint8 && type_ <= type::uint64; }
  bool is_numeric_array() const noexcept {
    return type_ >= type::int32_array && type_ <= type::float64_array;
  }
  // True if nothing of this value lives on the heap.
  bool is_inline() const noexcept { return small_ != kHeap; }

  // T: bool; any integer type (from any integer value that fits T, else out_of_range); float
  // (from float32); double (from float32 or float64); std::string_view / std::string (string);
  // bytes_view (bytes); timestamp; extension_view; std::span<const E> (typed array of E).
  // Anything else is type_mismatch.
  template <class T>
  result<T> get() const noexcept;

  // Raw access, no checks beyond the type: valid only for the type named.
  bool as_bool() const noexcept { return raw<std::uint64_t>() != 0; }
  std::int64_t as_int() const noexcept { return raw<std::int64_t>(); }     // signed integer types
  std::uint64_t as_uint() const noexcept { return raw<std::uint64_t>(); }  // unsigned integer types
  float as_float() const noexcept { return raw<float>(); }
  double as_double() const noexcept { return raw<double>(); }
  timestamp as_timestamp() const noexcept {
    timestamp t;
    t.seconds = raw<std::int64_t>();
    std::memcpy(&t.nanoseconds, raw_ + 8, 4);
    return t;
  }
  // The bytes of a string, bytes or extension value.
  std::string_view as_text() const noexcept {
    return small_ != kHeap ? std::string_view(raw_, small_) : heap_text();
  }
  bytes_view as_bytes() const noexcept {
    auto t = as_text();
    return {reinterpret_cast<const std::uint8_t*>(t.data()), t.size()};
  }
  std::int8_t extension_code() const noexcept;
  std::uint64_t tag() const noexcept;          // tagged
  const value& tagged_value() const noexcept;  // tagged
  value& tagged_value() noexcept;              // tagged

  // Nested containers: the object, or nullptr for another type.
  const msg::map* as_map() const noexcept {
    return type_ == type::map ? static_cast<const msg::map*>(ptr()) : nullptr;
  }
  msg::map* as_map() noexcept {
    return type_ == type::map ? static_cast<msg::map*>(ptr()) : nullptr;
  }
  const msg::array* as_array() const noexcept {
    return type_ == type::array ? static_cast<const msg::array*>(ptr()) : nullptr;
  }
  msg::array* as_array() noexcept {
    return type_ == type::array ? static_cast<msg::array*>(ptr()) : nullptr;
  }
  template <numeric_element T>
  const std::vector<T>* as_numeric() const noexcept {
    return type_ == array_type_of<T>() ? static_cast<const std::vector<T>*>(ptr()) : nullptr;
  }
  template <numeric_element T>
  std::vector<T>* as_numeric() noexcept {
    return type_ == array_type_of<T>() ? static_cast<std::vector<T>*>(ptr()) : nullptr;
  }

  // Same type and same contents; floats compare by bit pattern (NaN equals the same NaN, 0.0 and
  // -0.0 differ), maps in order.
  bool operator==(const value& o) const noexcept;

 private:
  friend struct detail::value_access;
  static constexpr std::uint8_t kHeap = 0xff;
  template <class T>
  static constexpr msg::type int_type() {
    if constexpr (std::is_signed_v<T>) {
      if constexpr (sizeof(T) == 1) return type::int8;
      if constexpr (sizeof(T) == 2) return type::int16;
      if constexpr (sizeof(T) == 4) return type::int32;
      if constexpr (sizeof(T) == 8) return type::int64;
    } else {
      if constexpr (sizeof(T) == 1) return type::uint8;
      if constexpr (sizeof(T) == 2) return type::uint16;
      if constexpr (sizeof(T) == 4) return type::uint32;
      if constexpr (sizeof(T) == 8) return type::uint64;
    }
  }
  void set_text(msg::type t, const char* p, std::size_t n);
  std::string_view heap_text() const noexcept;
  void copy_from(const value& o);
  void release() noexcept {
    if (!is_inline()) destroy_heap();
  }
  void destroy_heap() noexcept;

  // The payload: a number, the timestamp (seconds then nanoseconds), inline text, or the pointer
  // to the heap object; read and written through memcpy.
  template <class T>
  T raw() const noexcept {
    T v;
    std::memcpy(&v, raw_, sizeof v);
    return v;
  }
  template <class T>
  void put(T v) noexcept {
    std::memcpy(raw_, &v, sizeof v);
  }
  void* ptr() const noexcept { return raw<void*>(); }
  // The heap object of a value known to have one of type T.
  template <class T>
  T& heap() const noexcept {
    return *static_cast<T*>(ptr());
  }

  alignas(8) char raw_[kInlineBytes] = {};
  msg::type type_ = type::null;
  std::uint8_t small_ = 0;  // inline string/bytes length (0 for the other inline types), or kHeap
                            // for every value with a heap object
};
static_assert(sizeof(value) == 24);

template <class T>
result<T> value::get() const noexcept {
  if constexpr (std::is_same_v<T, bool>) {
    if (type_ != type::boolean) return error_code::type_mismatch;
    return as_bool();
  } else if constexpr (std::is_integral_v<T>) {
    if (is_signed()) {
      if (!std::in_range<T>(as_int())) return error_code::out_of_range;
      return static_cast<T>(as_int());
    }
    if (is_unsigned()) {
      if (!std::in_range<T>(as_uint())) return error_code::out_of_range;
      return static_cast<T>(as_uint());
    }
    return error_code::type_mismatch;
  } else if constexpr (std::is_same_v<T, float>) {
    if (type_ != type::float32) return error_code::type_mismatch;
    return as_float();
  } else if constexpr (std::is_same_v<T, double>) {
    if (type_ == type::float32) return static_cast<double>(as_float());
    if (type_ != type::float64) return error_code::type_mismatch;
    return as_double();
  } else if constexpr (std::is_same_v<T, std::string_view> || std::is_same_v<T, std::string>) {
    if (type_ != type::string) return error_code::type_mismatch;
    return T(as_text());
  } else if constexpr (std::is_same_v<T, bytes_view>) {
    if (type_ != type::bytes) return error_code::type_mismatch;
    return as_bytes();
  } else if constexpr (std::is_same_v<T, timestamp>) {
    if (type_ != type::timestamp) return error_code::type_mismatch;
    return as_timestamp();
  } else if constexpr (std::is_same_v<T, extension_view>) {
    if (type_ != type::extension) return error_code::type_mismatch;
    return extension_view{extension_code(), as_bytes()};
  } else if constexpr (std::is_same_v<T, std::span<const std::int32_t>> ||
                       std::is_same_v<T, std::span<const std::int64_t>> ||
                       std::is_same_v<T, std::span<const float>> ||
                       std::is_same_v<T, std::span<const double>>) {
    using E = std::remove_const_t<typename T::element_type>;
    const auto* v = as_numeric<E>();
    if (v == nullptr) return error_code::type_mismatch;
    return T(v->data(), v->size());
  } else {
    static_assert(sizeof(T) == 0, "keel::msg::value::get<T>: unsupported T");
  }
}

}  // namespace keel::msg
