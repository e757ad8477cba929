// SPDX-License-Identifier: MIT
// keel::msg::shared_message: copy-on-write versions published to per-thread-group slots, each
// slot with its own reference count.
#include <atomic>

#include "keel/msg/shared.h"

namespace keel::msg {

namespace {

// A small per-thread number: consecutive threads get consecutive slots.
std::size_t thread_slot() {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t mine = next.fetch_add(1, std::memory_order_relaxed);
  return mine;
}

}  // namespace

shared_message::shared_message(message m)
    : current_(std::make_shared<const message>(std::move(m))) {
  for (slot& s : slots_) s.p = slot_pointer(current_);
}

shared_message::slot& shared_message::my_slot() const { return slots_[thread_slot() % kSlots]; }

std::shared_ptr<const message> shared_message::snapshot() const {
  slot& s = my_slot();
  std::lock_guard<std::mutex> lock(s.m);
  return s.p;
}

// Every slot gets its own reference count: a control block of its own whose deleter holds a
// reference to `next`. A snapshot copies its slot's pointer, so readers on different slots
// touch different counters (one shared count would put every reader on one cache line).
std::shared_ptr<const message> shared_message::slot_pointer(
    const std::shared_ptr<const message>& next) {
  return {next.get(), [keep = next](const message*) {}};
}

void shared_message::publish(const std::shared_ptr<const message>& next) {
  current_ = next;
  ++version_;
  for (slot& s : slots_) {
    std::shared_ptr<const message> mine = slot_pointer(next);
    {
      std::lock_guard<std::mutex> lock(s.m);
      s.p.swap(mine);
    }
    // The old pointer is released outside the slot's lock (a last reference frees a message).
  }
}

void shared_message::update(const std::function<void(message&)>& fn) {
  std::lock_guard<std::mutex> lock(write_);
  auto next = std::make_shared<message>(*current_);
  fn(*next);
  publish(next);
}

void shared_message::set(std::string_view name, value v) {
  update([&](message& m) { m.set(name, std::move(v)); });
}

void shared_message::add(std::string_view name, value v) {
  update([&](message& m) { m.add(name, std::move(v)); });
}

std::size_t shared_message::remove(std::string_view name) {
  std::size_t n = 0;
  update([&](message& m) { n = m.remove(name); });
  return n;
}

std::uint64_t shared_message::version() const {
  std::lock_guard<std::mutex> lock(write_);
  return version_;
}

}  // namespace keel::msg
