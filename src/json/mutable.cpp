// SPDX-License-Identifier: MIT
// Mutable documents: the arena (blocks, strings, free lists), deep copies in both directions,
// editing of objects and arrays, and RFC 6901 pointer edits.
#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "json/compare.h"
#include "json/mutable_arena.h"
#include "json/parse_state.h"
#include "json/pointer.h"
#include "keel/utf8.h"

namespace keel::json {
namespace detail {

namespace {

// True if no byte of s needs an escape under the default write options (kNoEscape).
bool needs_no_escape(std::string_view s) noexcept {
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == '"' || u == '\\') return false;
  }
  return true;
}

std::size_t floor_log2(std::size_t x) noexcept {
  return static_cast<std::size_t>(std::bit_width(x)) - 1;
}

}  // namespace

void* mutable_arena::bump(std::size_t bytes) {
  bytes = (bytes + 7) & ~std::size_t{7};
  if (bytes > left_) {
    // Large requests get a chunk of their own; the current chunk keeps its free space.
    const bool own = bytes > next_chunk_ / 4;
    const std::size_t size = own ? bytes : next_chunk_;
    // Every chunk ends in kStringSlack spare bytes: the writer reads whole blocks past a string.
    chunks_.push_back(std::make_unique_for_overwrite<char[]>(size + kStringSlack));
    total_ += size + kStringSlack;
    char* mem = chunks_.back().get();
    if (own) return mem;
    if (next_chunk_ < (std::size_t{1} << 20)) next_chunk_ *= 2;
    cur_ = mem;
    left_ = size;
  }
  void* p = cur_;
  cur_ += bytes;
  left_ -= bytes;
  return p;
}

node* mutable_arena::block(std::size_t cap) {
  // A free block of the class that guarantees cap: 2^ceil(log2 cap) <= its capacity.
  const std::size_t cls = floor_log2(cap) + (std::has_single_bit(cap) ? 0 : 1);
  if (cls < 64 && free_[cls] != nullptr) {
    node* first = free_[cls];
    free_[cls] = as_ptr<node>(first[-1].data);
    return first;
  }
  auto* mem = static_cast<node*>(bump((cap + 1) * sizeof(node)));
  mem[0].tag = cap;  // the header: capacity, and the free-list link when released
  mem[0].data = 0;
  return mem + 1;
}

void mutable_arena::free_block(node* first) noexcept {
  const std::size_t cls = floor_log2(static_cast<std::size_t>(first[-1].tag));
  first[-1].data = as_bits(free_[cls]);
  free_[cls] = first;
}

node mutable_arena::string_node(std::string_view s) {
  auto* mem = static_cast<char*>(bump(s.size() + 1));
  if (!s.empty()) std::memcpy(mem, s.data(), s.size());
  mem[s.size()] = '\0';
  return {tag_of(type::string, s.size()) | (needs_no_escape(s) ? kNoEscape : 0), as_bits(mem)};
}

node mutable_arena::make(const mutable_input& in) {
  switch (in.kind_) {
    case mutable_input::kind::scalar:
      return {in.tag_, in.data_};
    case mutable_input::kind::string:
      return string_node(in.str_);
    case mutable_input::kind::immutable:
      return copy(in.imm_);
    case mutable_input::kind::mutable_:
      return copy(*in.mut_);
  }
  return {};
}

// The copy of x (a string's bytes at text(x)), with a new, unfilled block for a container's
// children (in `block_out`, else nullptr).
template <class Text>
node mutable_arena::copy_shallow(const node& x, Text text, node*& block_out) {
  node y = x;
  block_out = nullptr;
  const type t = type_of(x);
  if (t == type::string || t == type::raw_number) {
    const std::size_t len = count(x);
    auto* mem = static_cast<char*>(bump(len + 1));
    std::memcpy(mem, text(x), len);
    mem[len] = '\0';
    y.data = as_bits(mem);
  } else if (t == type::array || t == type::object) {
    const std::size_t k = child_nodes(x);
    y.data = 0;
    if (k != 0) {
      block_out = block(k);
      y.data = as_bits(block_out);
    }
  }
  return y;
}

node mutable_arena::copy(const value& v) {
  const node* p = v.node_ptr();
  const node* const end = p + v.node_count();
  const char* strings = v.string_area();
  auto text = [strings](const node& x) { return strings + x.data; };
  struct frame {
    node* at;
    node* end;
  };
  std::vector<frame> open;
  // The source is in document order: a container's block is filled by the nodes that follow.
  auto emit = [&](const node& x, node& y) {
    node* b = nullptr;
    y = copy_shallow(x, text, b);
    if (b != nullptr) open.push_back({b, b + child_nodes(x)});
  };
  node out{};
  emit(*p++, out);
  while (p < end) {
    node* y = open.back().at++;
    if (open.back().at == open.back().end) open.pop_back();
    emit(*p++, *y);
  }
  return out;
}

node mutable_arena::copy(const node& src) {
  auto text = [](const node& x) { return as_ptr<const char>(x.data); };
  struct frame {
    const node* from;
    const node* end;
    node* to;
  };
  std::vector<frame> open;
  auto emit = [&](const node& x, node& y) {
    node* b = nullptr;
    y = copy_shallow(x, text, b);
    if (b != nullptr) open.push_back({children(x), children(x) + child_nodes(x), b});
  };
  node out{};
  emit(src, out);
  while (!open.empty()) {
    frame& f = open.back();
    if (f.from == f.end) {
      open.pop_back();
      continue;
    }
    const node& x = *f.from++;
    node& y = *f.to++;
    emit(x, y);  // may push (f is not used after)
  }
  return out;
}

void mutable_arena::release(const node& n) {
  if (!is_container(n) || n.data == 0) return;
  std::vector<node*> blocks{children(n)};
  std::vector<std::size_t> sizes{child_nodes(n)};
  while (!blocks.empty()) {
    node* b = blocks.back();
    const std::size_t k = sizes.back();
    blocks.pop_back();
    sizes.pop_back();
    for (std::size_t i = 0; i < k; ++i) {
      if (is_container(b[i]) && b[i].data != 0) {
        blocks.push_back(children(b[i]));
        sizes.push_back(child_nodes(b[i]));
      }
    }
    free_block(b);
  }
}

node* mutable_arena::reserve(node& n, std::size_t extra) {
  node* first = children(n);
  const std::size_t used = child_nodes(n);
  const std::size_t cap = first != nullptr ? static_cast<std::size_t>(first[-1].tag) : 0;
  if (used + extra <= cap) return first;
  const std::size_t want = std::max<std::size_t>(4, std::bit_ceil(used + extra));
  node* b = block(want);
  if (used != 0) std::memcpy(static_cast<void*>(b), first, used * sizeof(node));
  if (first != nullptr) free_block(first);
  n.data = as_bits(b);
  return b;
}

node* mutable_arena::insert_nodes(node& n, std::size_t pos, const node* nodes, std::size_t k,
                                  std::size_t members) {
  node* first = reserve(n, k);
  const std::size_t used = child_nodes(n);
  std::memmove(static_cast<void*>(first + pos + k), first + pos, (used - pos) * sizeof(node));
  std::memcpy(static_cast<void*>(first + pos), nodes, k * sizeof(node));
  n.tag += static_cast<std::uint64_t>(members) << 8;
  return first + pos;
}

void mutable_arena::erase_nodes(node& n, std::size_t pos, std::size_t k, std::size_t members) {
  node* first = children(n);
  const std::size_t used = child_nodes(n);
  std::memmove(static_cast<void*>(first + pos), first + pos + k, (used - pos - k) * sizeof(node));
  n.tag -= static_cast<std::uint64_t>(members) << 8;
}

// Builds an immutable document from mutable nodes (a friend of document).
struct dom_builder {
  static error_code build(const node& root, document& doc) {
    std::vector<node> out;
    std::string strings;
    struct frame {
      const node* from;
      const node* end;
      std::size_t at;  // the container's index in out
    };
    std::vector<frame> open;
    auto emit = [&](const node& x) {
      const std::size_t at = out.size();
      out.push_back(x);
      const type t = type_of(x);
      if (t == type::string || t == type::raw_number) {
        out[at].data = strings.size();
        strings.append(as_ptr<const char>(x.data), count(x));
        strings.push_back('\0');
      } else if (t == type::array || t == type::object) {
        out[at].data = 1;
        if (x.data != 0) open.push_back({children(x), children(x) + child_nodes(x), at});
      }
    };
    emit(root);
    while (!open.empty()) {
      frame& f = open.back();
      if (f.from == f.end) {
        out[f.at].data = out.size() - f.at;  // the subtree size
        open.pop_back();
        continue;
      }
      const node& x = *f.from++;
      emit(x);
    }
    doc.nodes_ = std::make_unique_for_overwrite<node[]>(out.size());
    std::memcpy(static_cast<void*>(doc.nodes_.get()), out.data(), out.size() * sizeof(node));
    doc.node_capacity_ = doc.node_count_ = out.size();
    doc.strings_ = std::make_unique<char[]>(strings.size() + kStringSlack);
    std::memcpy(doc.strings_.get(), strings.data(), strings.size());
    doc.string_capacity_ = strings.size() + kStringSlack;
    doc.string_bytes_ = strings.size();
    doc.in_place_ = nullptr;
    return error_code::ok;
  }
};

}  // namespace detail

namespace {

using detail::mutable_arena;
using detail::node;

// Runs f (which may throw std::bad_alloc) and turns the failure into out_of_memory.
template <class F>
auto guarded(F&& f) noexcept -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  }
}

}  // namespace

// ---- reading ----

result<mutable_value> mutable_value::at(std::size_t i) const noexcept {
  if (!is_array()) return error_code::type_mismatch;
  if (i >= size()) return error_code::not_found;
  return mutable_value(detail::children(*n_) + i, a_);
}

result<mutable_value> mutable_value::find(std::string_view key) const noexcept {
  if (!is_object()) return error_code::type_mismatch;
  for (const mutable_member m : members())
    if (m.key == key) return m.value;
  return error_code::not_found;
}

namespace {

// Index of the first member with this key, or SIZE_MAX.
std::size_t member_index(const node& obj, std::string_view key) noexcept {
  const node* c = detail::children(obj);
  const std::size_t k = detail::count(obj);
  for (std::size_t i = 0; i < k; ++i) {
    const node& key_node = c[2 * i];
    if (std::string_view(detail::as_ptr<const char>(key_node.data), detail::count(key_node)) == key)
      return i;
  }
  return static_cast<std::size_t>(-1);
}

}  // namespace

result<mutable_value> mutable_value::at_pointer(std::string_view pointer) const noexcept {
  return detail::resolve_pointer(*this, pointer);
}

bool mutable_value::equals(const mutable_value& other) const noexcept {
  if (n_ == nullptr || other.n_ == nullptr) return n_ == other.n_;
  return detail::equal<false>(*this, other);
}

bool mutable_value::equals(const value& other) const noexcept {
  if (n_ == nullptr || !other.valid()) return n_ == nullptr && !other.valid();
  return detail::equal<false>(*this, other);
}

// ---- editing ----

// The string checks of mutable_input (declared in the arena's header through make()).
namespace detail {
node mutable_arena::make_checked(const mutable_input& in, error_code& e) {
  e = error_code::ok;
  if (in.kind_ == mutable_input::kind::string && !keel::utf8_valid(in.str_)) {
    e = error_code::invalid_utf8;
    return {};
  }
  return make(in);
}
}  // namespace detail

error mutable_value::set(const mutable_input& in) noexcept {
  if (n_ == nullptr) return {error_code::not_found};
  return {guarded([&] {
    error_code e;
    const node fresh = a_->make_checked(in, e);
    if (e != error_code::ok) return e;
    a_->release(*n_);
    *n_ = fresh;
    return error_code::ok;
  })};
}

result<mutable_value> mutable_value::insert(std::string_view key,
                                            const mutable_input& in) noexcept {
  if (n_ == nullptr || !is_object()) return error_code::type_mismatch;
  return guarded([&]() -> result<mutable_value> {
    error_code e;
    node kv[2];
    kv[1] = a_->make_checked(in, e);
    if (e != error_code::ok) return e;
    if (!keel::utf8_valid(key)) return error_code::invalid_utf8;
    kv[0] = a_->string_node(key);
    node* at = a_->insert_nodes(*n_, detail::child_nodes(*n_), kv, 2, 1);
    return mutable_value(at + 1, a_);
  });
}

result<mutable_value> mutable_value::assign(std::string_view key,
                                            const mutable_input& in) noexcept {
  if (n_ == nullptr || !is_object()) return error_code::type_mismatch;
  const std::size_t i = member_index(*n_, key);
  if (i == static_cast<std::size_t>(-1)) return insert(key, in);
  mutable_value v(detail::children(*n_) + 2 * i + 1, a_);
  if (error e = v.set(in)) return e;
  return v;
}

error mutable_value::erase(std::string_view key) noexcept {
  if (n_ == nullptr || !is_object()) return {error_code::type_mismatch};
  const std::size_t i = member_index(*n_, key);
  if (i == static_cast<std::size_t>(-1)) return {error_code::not_found};
  return erase(i);
}

result<mutable_value> mutable_value::push_back(const mutable_input& in) noexcept {
  if (n_ == nullptr || !is_array()) return error_code::type_mismatch;
  return insert(size(), in);
}

result<mutable_value> mutable_value::insert(std::size_t i, const mutable_input& in) noexcept {
  if (n_ == nullptr || !is_array()) return error_code::type_mismatch;
  if (i > size()) return error_code::not_found;
  return guarded([&]() -> result<mutable_value> {
    error_code e;
    const node fresh = a_->make_checked(in, e);
    if (e != error_code::ok) return e;
    return mutable_value(a_->insert_nodes(*n_, i, &fresh, 1, 1), a_);
  });
}

error mutable_value::erase(std::size_t i) noexcept {
  if (n_ == nullptr || !is_container()) return {error_code::type_mismatch};
  if (i >= size()) return {error_code::not_found};
  return {guarded([&] {
    const std::size_t width = is_object() ? 2 : 1;
    node* c = detail::children(*n_) + i * width;
    a_->release(c[width - 1]);
    a_->erase_nodes(*n_, i * width, width, 1);
    return error_code::ok;
  })};
}

error mutable_value::clear() noexcept {
  if (n_ == nullptr || !is_container()) return {error_code::type_mismatch};
  return {guarded([&] {
    const std::size_t k = detail::child_nodes(*n_);
    node* c = detail::children(*n_);
    for (std::size_t i = 0; i < k; ++i) a_->release(c[i]);
    a_->erase_nodes(*n_, 0, k, detail::count(*n_));
    return error_code::ok;
  })};
}

// ---- pointer edits ----

namespace {

enum class edit : std::uint8_t { set, add, replace, remove };

// Applies one pointer edit below root. The new node is built before anything changes.
result<mutable_value> pointer_edit(mutable_value root, std::string_view pointer, edit op,
                                   const mutable_input* in) {
  mutable_arena& a = *root.arena();
  if (pointer.empty()) {
    if (op == edit::remove) return error_code::invalid_pointer;  // the value itself
    if (error e = root.set(*in)) return e;
    return root;
  }
  if (pointer[0] != '/') return error_code::invalid_pointer;
  detail::pointer_tokens toks(pointer);
  node* parent = root.node_ptr();
  std::string last;
  // Walks to the parent of the target.
  for (;;) {
    if (!toks.next()) return error_code::invalid_pointer;
    if (toks.last()) {
      last = toks.token();
      break;
    }
    const std::string& key = toks.token();
    mutable_value cur(parent, &a);
    result<mutable_value> next = error_code::not_found;
    if (cur.is_object()) {
      next = cur.find(key);
    } else if (cur.is_array()) {
      std::size_t i = 0;
      if (!detail::array_index(key, i)) {
        if (key != "-") return error_code::invalid_pointer;
        return error_code::not_found;
      }
      next = cur.at(i);
    }
    if (!next) return next;
    parent = next->node_ptr();
  }
  mutable_value p(parent, &a);
  if (p.is_object()) {
    const std::size_t i = member_index(*parent, last);
    if (i == static_cast<std::size_t>(-1)) {
      if (op == edit::replace || op == edit::remove) return error_code::not_found;
      return p.insert(last, *in);
    }
    if (op == edit::remove) {
      if (error err = p.erase(i)) return err;
      return p;
    }
    mutable_value target = p.child(i);
    if (error err = target.set(*in)) return err;
    return target;
  }
  if (p.is_array()) {
    std::size_t i = 0;
    if (last == "-") {
      i = p.size();
    } else if (!detail::array_index(last, i)) {
      return error_code::invalid_pointer;
    }
    const std::size_t n = p.size();
    switch (op) {
      case edit::add:
        return i <= n ? p.insert(i, *in) : result<mutable_value>(error_code::not_found);
      case edit::set:
        if (i == n) return p.push_back(*in);
        [[fallthrough]];
      case edit::replace:
        if (i >= n) return error_code::not_found;
        if (error err = p.child(i).set(*in)) return err;
        return p.child(i);
      case edit::remove:
        if (i >= n) return error_code::not_found;
        if (error err = p.erase(i)) return err;
        return p;
    }
  }
  return error_code::not_found;  // the parent is not a container
}

}  // namespace

result<mutable_value> mutable_value::set_at_pointer(std::string_view pointer,
                                                    const mutable_input& in) noexcept {
  return guarded([&] { return pointer_edit(*this, pointer, edit::set, &in); });
}
result<mutable_value> mutable_value::add_at_pointer(std::string_view pointer,
                                                    const mutable_input& in) noexcept {
  return guarded([&] { return pointer_edit(*this, pointer, edit::add, &in); });
}
result<mutable_value> mutable_value::replace_at_pointer(std::string_view pointer,
                                                        const mutable_input& in) noexcept {
  return guarded([&] { return pointer_edit(*this, pointer, edit::replace, &in); });
}
error mutable_value::remove_at_pointer(std::string_view pointer) noexcept {
  auto r = guarded([&] { return pointer_edit(*this, pointer, edit::remove, nullptr); });
  return r ? error{} : r.error();
}

// ---- the document ----

mutable_document::mutable_document() : arena_(std::make_unique<mutable_arena>()) {}

mutable_document::mutable_document(const value& v) : mutable_document() {
  if (v.valid()) arena_->root = arena_->copy(v);
}

mutable_document::mutable_document(const mutable_value& v) : mutable_document() {
  if (v.valid()) arena_->root = arena_->copy(*v.node_ptr());
}

mutable_document::mutable_document(const mutable_document& other)
    : mutable_document(other.root()) {}

mutable_document& mutable_document::operator=(const mutable_document& other) {
  if (this != &other) *this = mutable_document(other);
  return *this;
}

mutable_document::mutable_document(mutable_document&&) noexcept = default;
mutable_document& mutable_document::operator=(mutable_document&&) noexcept = default;
mutable_document::~mutable_document() = default;

mutable_value mutable_document::root() const noexcept {
  if (!arena_) return {};
  return {&arena_->root, arena_.get()};
}

result<document> mutable_document::to_document() const noexcept {
  if (!arena_) return error_code::not_found;
  try {
    document doc;
    detail::dom_builder::build(arena_->root, doc);
    return doc;
  } catch (const std::bad_alloc&) {
    return error_code::out_of_memory;
  }
}

std::size_t mutable_document::memory_bytes() const noexcept {
  return arena_ ? arena_->bytes() + sizeof(mutable_arena) : 0;
}

}  // namespace keel::json
