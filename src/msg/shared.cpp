// SPDX-License-Identifier: MIT
// keel::msg::shared_message: copy-on-write versions published to per-thread slots, each slot
// with its own lock and its own reference count.
#include <atomic>
#include <bit>
#include <cstdint>

#include "keel/msg/shared.h"

namespace keel::msg {

namespace {

// Slot numbers for reading threads: a thread takes the lowest free number at its first read and
// gives it back when it ends, so threads alive at the same time have different slots while there
// are at most kSlots of them (more share slots, round robin).
constexpr std::size_t kSlotCount = shared_message::kSlots;
static_assert(kSlotCount <= 32);
constexpr std::uint32_t kAllSlots = (std::uint32_t{1} << (kSlotCount - 1) << 1) - 1;
std::atomic<std::uint32_t> slots_in_use{0};
std::atomic<std::size_t> overflow{0};

struct slot_claim {
  std::size_t slot = 0;
  bool owned = false;
  slot_claim() {
    std::uint32_t used = slots_in_use.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint32_t free = ~used & kAllSlots;
      if (free == 0) {
        slot = overflow.fetch_add(1, std::memory_order_relaxed) % kSlotCount;
        return;
      }
      const auto bit = static_cast<std::size_t>(std::countr_zero(free));
      if (slots_in_use.compare_exchange_weak(used, used | (std::uint32_t{1} << bit),
                                             std::memory_order_relaxed)) {
        slot = bit;
        owned = true;
        return;
      }
    }
  }
  ~slot_claim() {
    if (owned) slots_in_use.fetch_and(~(std::uint32_t{1} << slot), std::memory_order_relaxed);
  }
  slot_claim(const slot_claim&) = delete;
  slot_claim& operator=(const slot_claim&) = delete;
};

}  // namespace

std::size_t shared_message::reader_slot() {
  thread_local const slot_claim mine;
  return mine.slot;
}

shared_message::shared_message(message m)
    : current_(std::make_shared<const message>(std::move(m))) {
  for (slot& s : slots_) s.p = slot_pointer(current_);
}

shared_message::slot& shared_message::my_slot() const { return slots_[reader_slot()]; }

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
