// Bulk copies of contiguous blocks (vectors of u8 / fixint integers / floats), out of line on
// purpose: inlined into the decoder, GCC 12 expands a memcpy of a run-time multiple-of-8 size into
// an 8-bytes-per-iteration loop. A/B (same build, user CPU time, 8M decodes of a 64 B Vec<u64>):
// inline 0.86 s, out of line 0.56 s; encoding 2 KiB blocks: 0.14 s vs 0.11 s. Blocks of at most
// 64 bytes in the whole-vector fast paths are copied inline (copy_upto64, wire.h).
#include <cstring>

#include "keel/bincode/detail/wire.h"

namespace keel::bincode::detail {

void copy_block(void* dst, const void* src, std::size_t n) noexcept { std::memcpy(dst, src, n); }

}  // namespace keel::bincode::detail
