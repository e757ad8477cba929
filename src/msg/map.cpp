// SPDX-License-Identifier: MIT
// keel::msg::map: entries in insertion order, an open-addressing index over the first entry of
// each name once the map is larger than a short linear scan (built by the first lookup that
// needs it), and JSON Pointer paths.
#include "keel/msg/map.h"
#include "name_hash.h"
#include "path.h"

namespace keel::msg {

namespace {

using detail::hash_name;
constexpr std::uint64_t kHashMask = 0xffffffff00000000ull;

}  // namespace

map::map(std::initializer_list<entry> entries) {
  reserve(entries.size());
  for (const auto& e : entries) add(e.name, e.value);
}

void map::clear() noexcept {
  entries_.clear();
  index_stale();
}

void map::reserve(std::size_t n) { entries_.reserve(n); }

std::size_t map::slot_of(std::string_view name, std::uint64_t h) const noexcept {
  const std::size_t mask = index_.size() - 1;
  for (std::size_t s = h & mask;; s = (s + 1) & mask) {
    const std::uint64_t e = index_[s];
    if (e == 0) return s;
    if ((e & kHashMask) == (h & kHashMask) && entries_[(e & 0xffffffffu) - 1].name == name)
      return s;
  }
}

void map::index_insert(std::size_t i, std::uint64_t h) const noexcept {
  const std::size_t s = slot_of(entries_[i].name, h);
  if (index_[s] == 0) index_[s] = (h & kHashMask) | (i + 1);
}

// Called by the one lookup that claimed the build; false (index left stale) if out of memory.
bool map::build_index() const noexcept {
  std::size_t cap = 32;
  while (cap < entries_.size() * 2) cap *= 2;
  try {
    index_.assign(cap, 0);
  } catch (...) {
    index_.clear();
    return false;
  }
  for (std::size_t i = 0; i < entries_.size(); ++i) index_insert(i, hash_name(entries_[i].name));
  return true;
}

const value* map::scan(std::string_view name) const noexcept {
  for (const auto& e : entries_)
    if (e.name == name) return &e.value;
  return nullptr;
}

const value* map::find(std::string_view name) const noexcept {
  if (entries_.size() <= kScanMax) return scan(name);
  std::uint8_t state = index_state_.load(std::memory_order_acquire);
  if (state != kIndexValid) {
    // One lookup builds the index; lookups that find it being built scan meanwhile.
    if (state != kIndexStale ||
        !index_state_.compare_exchange_strong(state, kIndexBuilding, std::memory_order_acquire))
      return scan(name);
    if (!build_index()) {
      index_state_.store(kIndexStale, std::memory_order_release);
      return scan(name);
    }
    index_state_.store(kIndexValid, std::memory_order_release);
  }
  const std::uint64_t e = index_[slot_of(name, hash_name(name))];
  return e == 0 ? nullptr : &entries_[(e & 0xffffffffu) - 1].value;
}

value* map::find(std::string_view name) noexcept {
  return const_cast<value*>(static_cast<const map*>(this)->find(name));
}

value& map::add(std::string_view name, value v) {
  entries_.push_back(entry{std::string(name), std::move(v)});
  const std::size_t n = entries_.size();
  // Keep a built index while it stays at most half full; otherwise the next lookup rebuilds it.
  if (index_state_.load(std::memory_order_relaxed) == kIndexValid) {
    if (n * 2 <= index_.size())
      index_insert(n - 1, hash_name(name));
    else
      index_stale();
  }
  return entries_.back().value;
}

value& map::set(std::string_view name, value v) {
  if (value* old = find(name)) {
    *old = std::move(v);
    return *old;
  }
  return add(name, std::move(v));
}

std::size_t map::remove(std::string_view name) {
  const std::size_t before = entries_.size();
  std::erase_if(entries_, [&](const entry& e) { return e.name == name; });
  const std::size_t removed = before - entries_.size();
  if (removed != 0) index_stale();
  return removed;
}

const value* map::find_path(std::string_view path) const noexcept {
  if (path.empty()) return nullptr;
  const value* v = nullptr;
  const map* m = this;
  const array* a = nullptr;
  std::string name;
  std::string_view seg;
  while (!path.empty()) {
    if (!detail::next_segment(path, seg)) return nullptr;
    std::size_t idx = 0;
    if (m != nullptr) {
      if (!detail::segment_name(seg, name)) return nullptr;
      v = m->find(name);
    } else if (a != nullptr && detail::segment_index(seg, idx) && idx < a->size()) {
      v = &(*a)[idx];
    } else {
      return nullptr;
    }
    if (v == nullptr) return nullptr;
    m = v->as_map();
    a = v->as_array();
  }
  return v;
}

value* map::find_path(std::string_view path) noexcept {
  return const_cast<value*>(static_cast<const map*>(this)->find_path(path));
}

}  // namespace keel::msg
