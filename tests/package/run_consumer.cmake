# SPDX-License-Identifier: MIT
# Installs the build tree into a scratch prefix, then configures, builds and runs a separate
# project that finds it with find_package(keel CONFIG COMPONENTS ...) and links every component.
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
file(GLOB targets RELATIVE ${WORK}/prefix/lib/cmake/keel ${WORK}/prefix/lib/cmake/keel/keel-*-targets.cmake)
set(components)
foreach(t IN LISTS targets)
  string(REGEX REPLACE "^keel-(.*)-targets.cmake$" "\\1" c "${t}")
  list(APPEND components ${c})
endforeach()
message(STATUS "installed components: ${components}")
list(JOIN components ";" components_arg)
# The consumer is built like the tree it links: same compiler, same sanitizers.
set(flags "")
if(SANITIZE)
  set(flags "-fsanitize=${SANITIZE}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${WORK}/build -G Ninja
                        -DCMAKE_PREFIX_PATH=${WORK}/prefix "-DKEEL_WANTED=${components_arg}"
                        -DCMAKE_CXX_COMPILER=${CXX} "-DCMAKE_CXX_FLAGS=${flags}"
                        "-DCMAKE_EXE_LINKER_FLAGS=${flags}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed")
endif()
execute_process(COMMAND ${WORK}/build/consumer RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer failed")
endif()
# pkg-config files are installed for every component and resolve.
foreach(c IN LISTS components)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${WORK}/prefix/lib/pkgconfig
                          pkg-config --exists --print-errors keel-${c} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config cannot resolve keel-${c}")
  endif()
endforeach()
