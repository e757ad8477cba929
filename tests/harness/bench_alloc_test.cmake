# SPDX-License-Identifier: MIT
# The allocator suite measures keel itself: building the keel target (as scripts/run does) brings
# libkeel_malloc.so and keel_alloc_driver, and `keel bench alloc --quick` then measures every keel
# row (keel, keel-hardened) and exits 0. A few cases keep it short; they cover the hardened row
# and the floor.
foreach(f ${DRIVER} ${MALLOC_SO})
  file(REMOVE ${f})
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target keel
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the keel target failed:\n${out}")
endif()
foreach(f ${DRIVER} ${MALLOC_SO})
  if(NOT EXISTS ${f})
    message(FATAL_ERROR "building the keel target did not build ${f}")
  endif()
endforeach()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${KEEL} bench alloc --quick --filter "^(random-mixed|realloc-growth/single)$"
                        --json ${OUT}/alloc.json --html ${OUT}/alloc.html
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "keel bench alloc exited ${rc}:\n${out}\n${err}")
endif()
file(READ ${OUT}/alloc.json json)
string(JSON n LENGTH "${json}")
set(keel_rows 0)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON impl GET "${json}" ${i} impl)
  string(JSON case GET "${json}" ${i} case)
  string(JSON median GET "${json}" ${i} median_ns)
  string(JSON err ERROR_VARIABLE no_error GET "${json}" ${i} error)
  if(impl MATCHES "^keel")
    math(EXPR keel_rows "${keel_rows} + 1")
    if(NOT no_error OR median LESS_EQUAL 0)
      message(FATAL_ERROR "${case} [${impl}] not measured: ${err}")
    endif()
  endif()
endforeach()
# keel on both cases and keel-hardened on random-mixed.
if(NOT keel_rows EQUAL 3)
  message(FATAL_ERROR "expected 3 keel rows, got ${keel_rows}:\n${json}")
endif()
