// SPDX-License-Identifier: MIT
// Powers of ten that fit a uint64_t, shared by the number reader and the number writer.
#pragma once

#include <cstdint>

namespace keel::json::detail {

inline constexpr std::uint64_t kPow10U64[20] = {1ULL,
                                                10ULL,
                                                100ULL,
                                                1000ULL,
                                                10000ULL,
                                                100000ULL,
                                                1000000ULL,
                                                10000000ULL,
                                                100000000ULL,
                                                1000000000ULL,
                                                10000000000ULL,
                                                100000000000ULL,
                                                1000000000000ULL,
                                                10000000000000ULL,
                                                100000000000000ULL,
                                                1000000000000000ULL,
                                                10000000000000000ULL,
                                                100000000000000000ULL,
                                                1000000000000000000ULL,
                                                10000000000000000000ULL};

}  // namespace keel::json::detail
