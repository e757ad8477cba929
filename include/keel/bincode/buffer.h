// SPDX-License-Identifier: MIT
// keel::bincode::buffer: a std::vector<uint8_t> whose growth does not zero-fill (its allocator
// default-initialises), for encoding into reused buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::bincode {

template <class T, class Base = std::allocator<T>>
class default_init_allocator : public Base {
 public:
  using Base::Base;
  template <class U>
  struct rebind {
    using other =
        default_init_allocator<U, typename std::allocator_traits<Base>::template rebind_alloc<U>>;
  };
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;  // default-initialisation: no zero fill for bytes
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    std::allocator_traits<Base>::construct(static_cast<Base&>(*this), p,
                                           std::forward<Args>(args)...);
  }
};

using buffer = std::vector<std::uint8_t, default_init_allocator<std::uint8_t>>;

}  // namespace keel::bincode
