// SPDX-License-Identifier: MIT
// The numeric kernels (numeric_kernels.h) for the avx2 path: 32-byte vectors.
#include "numeric_kernels.h"

namespace keel::msg::detail {

const numeric_kernels kNumericAvx2 = numeric_impl<32>::table();

}  // namespace keel::msg::detail
