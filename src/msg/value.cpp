// SPDX-License-Identifier: MIT
// keel::msg::value: construction, copy, destruction and equality of the 24-byte tagged union.
#include <cstring>
#include <new>

#include "keel/msg/map.h"
#include "keel/msg/value.h"

namespace keel::msg {

namespace {

struct ext_box {
  std::int8_t code;
  std::string data;
};
struct tagged_box {
  std::uint64_t tag;
  value inner;
};

constexpr const char* kTypeNames[kTypeCount] = {
    "null",        "bool",        "int8",          "int16",         "int32",   "int64",
    "uint8",       "uint16",      "uint32",        "uint64",        "float32", "float64",
    "string",      "bytes",       "timestamp",     "extension",     "map",     "array",
    "int32_array", "int64_array", "float32_array", "float64_array", "tagged",
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace

const char* type_name(type t) noexcept {
  const auto i = static_cast<std::size_t>(t);
  return i < static_cast<std::size_t>(kTypeCount) ? kTypeNames[i] : "?";
}

bool type_from_name(std::string_view name, type& out) noexcept {
  for (int i = 0; i < kTypeCount; ++i) {
    if (name == kTypeNames[i]) {
      out = static_cast<type>(i);
      return true;
    }
  }
  return false;
}

void value::set_text(msg::type t, const char* p, std::size_t n) {
  type_ = t;
  if (n <= kInlineBytes) {
    if (n != 0) std::memcpy(raw_, p, n);
    small_ = static_cast<std::uint8_t>(n);
  } else {
    put(static_cast<void*>(new std::string(p, n)));
    small_ = kHeap;
  }
}

value::value(std::string&& s) {
  if (s.size() <= kInlineBytes) {
    set_text(type::string, s.data(), s.size());
  } else {
    type_ = type::string;
    put(static_cast<void*>(new std::string(std::move(s))));
    small_ = kHeap;
  }
}

value::value(extension e) : type_(type::extension), small_(kHeap) {
  put(static_cast<void*>(new ext_box{e.code, std::string(e.data.begin(), e.data.end())}));
}

value::value(msg::map m) : type_(type::map), small_(kHeap) {
  put(static_cast<void*>(new msg::map(std::move(m))));
}

value::value(msg::array a) : type_(type::array), small_(kHeap) {
  put(static_cast<void*>(new msg::array(std::move(a))));
}

value value::tagged(std::uint64_t tag, value inner) {
  value v;
  v.put(static_cast<void*>(new tagged_box{tag, std::move(inner)}));
  v.type_ = type::tagged;
  v.small_ = kHeap;
  return v;
}

std::string_view value::heap_text() const noexcept {
  if (type_ == type::extension) return static_cast<const ext_box*>(ptr())->data;
  return *static_cast<const std::string*>(ptr());
}

std::int8_t value::extension_code() const noexcept {
  return static_cast<const ext_box*>(ptr())->code;
}
std::uint64_t value::tag() const noexcept { return static_cast<const tagged_box*>(ptr())->tag; }
const value& value::tagged_value() const noexcept {
  return static_cast<const tagged_box*>(ptr())->inner;
}
value& value::tagged_value() noexcept { return static_cast<tagged_box*>(ptr())->inner; }

void value::copy_from(const value& o) {
  type_ = o.type_;
  small_ = o.small_;
  if (o.is_inline()) {
    std::memcpy(raw_, o.raw_, sizeof raw_);
    return;
  }
  switch (o.type_) {
    case type::string:
    case type::bytes:
      put(static_cast<void*>(new std::string(*static_cast<const std::string*>(o.ptr()))));
      break;
    case type::extension:
      put(static_cast<void*>(new ext_box(*static_cast<const ext_box*>(o.ptr()))));
      break;
    case type::map:
      put(static_cast<void*>(new msg::map(*static_cast<const msg::map*>(o.ptr()))));
      break;
    case type::array:
      put(static_cast<void*>(new msg::array(*static_cast<const msg::array*>(o.ptr()))));
      break;
    case type::int32_array:
      put(static_cast<void*>(new std::vector<std::int32_t>(o.heap<std::vector<std::int32_t>>())));
      break;
    case type::int64_array:
      put(static_cast<void*>(new std::vector<std::int64_t>(o.heap<std::vector<std::int64_t>>())));
      break;
    case type::float32_array:
      put(static_cast<void*>(new std::vector<float>(o.heap<std::vector<float>>())));
      break;
    case type::float64_array:
      put(static_cast<void*>(new std::vector<double>(o.heap<std::vector<double>>())));
      break;
    case type::tagged:
      put(static_cast<void*>(new tagged_box(*static_cast<const tagged_box*>(o.ptr()))));
      break;
    default:
      break;
  }
}

void value::destroy_heap() noexcept {
  switch (type_) {
    case type::string:
    case type::bytes:
      delete static_cast<std::string*>(ptr());
      break;
    case type::extension:
      delete static_cast<ext_box*>(ptr());
      break;
    case type::map:
      delete static_cast<msg::map*>(ptr());
      break;
    case type::array:
      delete static_cast<msg::array*>(ptr());
      break;
    case type::int32_array:
      delete &heap<std::vector<std::int32_t>>();
      break;
    case type::int64_array:
      delete &heap<std::vector<std::int64_t>>();
      break;
    case type::float32_array:
      delete &heap<std::vector<float>>();
      break;
    case type::float64_array:
      delete &heap<std::vector<double>>();
      break;
    case type::tagged:
      delete static_cast<tagged_box*>(ptr());
      break;
    default:
      break;
  }
}

bool value::operator==(const value& o) const noexcept {
  if (type_ != o.type_) return false;
  switch (type_) {
    case type::null:
      return true;
    case type::boolean:
    case type::int8:
    case type::int16:
    case type::int32:
    case type::int64:
    case type::uint8:
    case type::uint16:
    case type::uint32:
    case type::uint64:
    case type::float64:
      return as_uint() == o.as_uint();
    case type::float32:
      return std::memcmp(raw_, o.raw_, sizeof(float)) == 0;
    case type::timestamp:
      return as_timestamp() == o.as_timestamp();
    case type::string:
    case type::bytes:
      return as_text() == o.as_text();
    case type::extension:
      return extension_code() == o.extension_code() && as_text() == o.as_text();
    case type::map:
      return heap<msg::map>() == o.heap<msg::map>();
    case type::array:
      return heap<msg::array>() == o.heap<msg::array>();
    case type::int32_array:
      return same_bits(heap<std::vector<std::int32_t>>(), o.heap<std::vector<std::int32_t>>());
    case type::int64_array:
      return same_bits(heap<std::vector<std::int64_t>>(), o.heap<std::vector<std::int64_t>>());
    case type::float32_array:
      return same_bits(heap<std::vector<float>>(), o.heap<std::vector<float>>());
    case type::float64_array:
      return same_bits(heap<std::vector<double>>(), o.heap<std::vector<double>>());
    case type::tagged:
      return tag() == o.tag() && tagged_value() == o.tagged_value();
  }
  return false;
}

}  // namespace keel::msg
