// SPDX-License-Identifier: MIT
// The numeric kernels (numeric_kernels.h) for the avx512 path: 64-byte vectors.
#include "numeric_kernels.h"

namespace keel::msg::detail {

const numeric_kernels kNumericAvx512 = numeric_impl<64>::table();

}  // namespace keel::msg::detail
