# SPDX-License-Identifier: MIT
# The keel CLI reports a failed write to stdout ("keel: write error: <reason>" on stderr, exit
# status 2) instead of exiting as if the output had been written: into /dev/full, into a closed
# stdout, into a pipe whose reader left while SIGPIPE is ignored; for each subcommand that writes.
# cmake -DKEEL=<keel> -DWORK=<dir> [-DWITH_BENCH=ON] -P write_error_test.cmake
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/ok.json "{ \"a\" : [1, 2.5, \"x\"] }\n")
# Larger than any pipe's buffer, so that a write into a pipe without a reader cannot succeed.
string(REPEAT "\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\", " 40000 items)
file(WRITE ${WORK}/big.json "[${items} 0]\n")

# Runs `keel ARGN` with `redirect` applied to its stdout by sh (whose stdout is a pipe to `true`,
# with SIGPIPE ignored); checks exit status 2 and "keel: write error: <reason>" on stderr.
function(expect_write_error what redirect reason)
  list(JOIN ARGN " " args)
  execute_process(COMMAND sh -c "trap '' PIPE; { '${KEEL}' ${args} ${redirect}; echo $? >'${WORK}/rc'; } | true"
                  ERROR_VARIABLE err RESULT_VARIABLE sh_rc)
  file(READ ${WORK}/rc rc)
  string(STRIP "${rc}" rc)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "keel ${args} ${what}: exit ${rc}, expected 2\nstderr: ${err}")
  endif()
  if(NOT err MATCHES "^keel: write error: ${reason}\n$")
    message(FATAL_ERROR "keel ${args} ${what}: stderr '${err}'")
  endif()
endfunction()

# What each case expects on stderr after "keel: write error: ".
set(full "No space left on device")
set(closed "Bad file descriptor")
set(pipe "Broken pipe")

foreach(cmd IN ITEMS "--help" "--version" "json --help" "json minify ${WORK}/ok.json"
                     "json pretty ${WORK}/ok.json")
  separate_arguments(argv UNIX_COMMAND "${cmd}")
  expect_write_error("> /dev/full" ">/dev/full" "${full}" ${argv})
  expect_write_error("with stdout closed" ">&-" "${closed}" ${argv})
endforeach()
if(WITH_BENCH)
  expect_write_error("> /dev/full" ">/dev/full" "${full}" bench --list)
endif()

# Into a pipe whose reader exited (stdout is the pipe to `true`).
expect_write_error("| true" "" "${pipe}" json minify ${WORK}/big.json)
expect_write_error("| true" "" "${pipe}" json pretty ${WORK}/big.json)

# Output that fits is unchanged and the status is 0.
execute_process(COMMAND ${KEEL} json minify ${WORK}/ok.json RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "{\"a\":[1,2.5,\"x\"]}\n" OR NOT err STREQUAL "")
  message(FATAL_ERROR "minify: exit ${rc}, stdout '${out}', stderr '${err}'")
endif()
message(STATUS "keel write errors: ok")
