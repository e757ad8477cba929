// SPDX-License-Identifier: MIT
// The numeric kernels (numeric_kernels.h) for the scalar path: 16-byte SSE2 vectors (part of every
// x86-64 CPU).
#include "numeric_kernels.h"

namespace keel::msg::detail {

const numeric_kernels kNumericScalar = numeric_impl<16>::table();

}  // namespace keel::msg::detail
