// SPDX-License-Identifier: MIT
// keel::msg::shared_message: a message shared between threads, for read-mostly use.
//
// Guarantees:
// - Every read sees one whole version of the message (snapshot isolation): a reader never sees a
//   half-applied update, and a snapshot() stays valid and unchanged for as long as it is held.
// - Updates are linearizable: they are applied one at a time, in one order; once update() (or
//   set/add/remove) has returned, every read that starts afterwards, on any thread, sees it, and a
//   thread's reads never go back to an older version.
// - Readers do not serialise on one lock: each thread reads through one of kSlots cache-line
//   sized slots, each with its own lock and its own reference count of the current version, and
//   a reader holds its slot's lock only to copy a pointer. A thread takes a free slot at its
//   first read and frees it when it ends, so up to kSlots threads alive at once each read
//   through a slot of their own and share no lock and no written cache line (more threads share
//   slots, round robin).
// - An update copies the message, applies the change to the copy and publishes it to every slot
//   (O(size) per update): batch several changes in one update().
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string_view>

#include "keel/msg/message.h"

namespace keel::msg {

class shared_message {
 public:
  static constexpr std::size_t kSlots = 16;

  shared_message() : shared_message(message{}) {}
  explicit shared_message(message m);
  shared_message(const shared_message&) = delete;
  shared_message& operator=(const shared_message&) = delete;

  // The current version; read it without any lock for as long as it is held.
  std::shared_ptr<const message> snapshot() const;
  // Reads of the current version.
  template <class T>
  result<T> get(std::string_view name) const {
    return snapshot()->get<T>(name);
  }
  bool contains(std::string_view name) const { return snapshot()->contains(name); }
  std::size_t size() const { return snapshot()->size(); }

  // Applies fn to a copy of the current version and publishes the copy. Updates run one at a
  // time; fn must not call back into this object.
  void update(const std::function<void(message&)>& fn);
  void set(std::string_view name, value v);
  void add(std::string_view name, value v);
  std::size_t remove(std::string_view name);
  // The number of updates published so far.
  std::uint64_t version() const;

  // The slot the calling thread reads through (0 .. kSlots-1), the same for every
  // shared_message.
  static std::size_t reader_slot();

 private:
  struct alignas(64) slot {
    mutable std::mutex m;
    std::shared_ptr<const message> p;
  };
  slot& my_slot() const;
  static std::shared_ptr<const message> slot_pointer(const std::shared_ptr<const message>& next);
  void publish(const std::shared_ptr<const message>& next);

  mutable slot slots_[kSlots];
  mutable std::mutex write_;
  std::shared_ptr<const message> current_;  // under write_
  std::uint64_t version_ = 0;               // under write_
};

}  // namespace keel::msg
