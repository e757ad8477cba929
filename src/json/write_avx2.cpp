// The writer kernel instantiated for the avx2 instruction set (flags: src/json/CMakeLists.txt).
#include "json/write_kernels.h"

namespace keel::json::detail {

error_code write_avx2(std::unique_ptr<char[]>& buf, std::size_t& cap, std::size_t& size,
                      const value& root, std::vector<const node*>& stack, const write_options& o) {
  return write_document<wisa_avx2>(buf, cap, size, root, stack, o);
}

}  // namespace keel::json::detail
