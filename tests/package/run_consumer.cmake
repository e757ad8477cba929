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
# pkg-config files are installed for every component, resolve, and build the same consumer from a
# copy of the installed tree in another directory (they are relocatable: paths from ${pcfiledir}).
file(COPY ${WORK}/prefix/ DESTINATION ${WORK}/moved)
file(REMOVE_RECURSE ${WORK}/prefix)
set(pc_env PKG_CONFIG_PATH=${WORK}/moved/lib/pkgconfig)
set(modules)
set(sources ${SOURCE}/main.cpp)
set(defines)
foreach(c IN LISTS components)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pc_env}
                          pkg-config --exists --print-errors keel-${c} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config cannot resolve keel-${c}")
  endif()
  file(READ ${WORK}/moved/lib/pkgconfig/keel-${c}.pc pc)
  if(NOT pc MATCHES "\nLicense: MIT\n")
    message(FATAL_ERROR "keel-${c}.pc does not name the license")
  endif()
  list(APPEND modules keel-${c})
  list(APPEND sources ${SOURCE}/use_${c}.cpp)
  string(TOUPPER ${c} C)
  list(APPEND defines -DKEEL_CONSUMER_${C}=1)
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${pc_env} pkg-config --cflags --libs --static ${modules}
                OUTPUT_VARIABLE pc_flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs ${modules} failed")
endif()
string(FIND "${pc_flags}" "${WORK}/moved/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "pkg-config flags do not point into the moved install: ${pc_flags}")
endif()
separate_arguments(pc_list UNIX_COMMAND "${pc_flags}")
separate_arguments(flag_list UNIX_COMMAND "${flags}")
execute_process(COMMAND ${CXX} ${flag_list} ${defines} ${sources} ${pc_list} -o ${WORK}/consumer_pc
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer with pkg-config flags failed:\n${pc_flags}\n${err}")
endif()
execute_process(COMMAND ${WORK}/consumer_pc RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message(STATUS "pkg-config build: ${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer built with pkg-config failed")
endif()
# The package carries its license.
if(NOT EXISTS ${WORK}/moved/share/doc/keel/LICENSE)
  message(FATAL_ERROR "LICENSE not installed")
endif()
# keel_alloc_driver is a helper of `keel bench`, never a command on PATH.
if(EXISTS ${WORK}/moved/bin/keel_alloc_driver)
  message(FATAL_ERROR "keel_alloc_driver installed in bin/")
endif()
# The installed keel bench finds its allocator helpers relative to itself (libexec/keel, lib), and
# the corpus only by --corpus or KEEL_CORPUS.
set(driver ${WORK}/moved/libexec/keel/keel_alloc_driver)
if(EXISTS ${driver} AND EXISTS ${WORK}/moved/bin/keel)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=KEEL_CORPUS
                          ${WORK}/moved/bin/keel bench alloc --quick --filter "^realloc-growth/single$"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "realloc-growth/single +[a-z]+ ")
    message(FATAL_ERROR "the installed keel bench alloc failed (${rc}):\n${out}\n${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=KEEL_CORPUS
                          ${WORK}/moved/bin/keel bench json --quick --filter "^parse/scalar/twitter.json$"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "no corpus given")
    message(FATAL_ERROR "the installed keel bench json without a corpus must fail, got ${rc}:\n${err}")
  endif()
endif()
