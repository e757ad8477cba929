# SPDX-License-Identifier: MIT
# keel/bincode.h (the umbrella) and keel::bincode do not depend on the thread pool: the headers a
# file that includes only keel/bincode.h reads are listed by the compiler (-M) and none may be a
# keel/pool header; keel::bincode's link interface may not name keel::pool. Parallel batches
# (keel/bincode/batch.h) are keel::bincode_batch.
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/umbrella.cpp "#include <keel/bincode.h>\nint main() { return 0; }\n")
execute_process(COMMAND ${CXX} -std=c++20 -I${INCLUDE} -M ${WORK}/umbrella.cpp
                OUTPUT_VARIABLE deps ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "keel/bincode.h does not compile on its own:\n${err}")
endif()
if(NOT deps MATCHES "keel/bincode/codec.h")
  message(FATAL_ERROR "the dependency list does not name keel/bincode headers:\n${deps}")
endif()
if(deps MATCHES "keel/pool")
  message(FATAL_ERROR "keel/bincode.h pulls in pool headers:\n${deps}")
endif()
if(LINKS MATCHES "pool")
  message(FATAL_ERROR "keel::bincode links the pool: ${LINKS}")
endif()
