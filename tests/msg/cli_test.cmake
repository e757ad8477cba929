# SPDX-License-Identifier: MIT
# The keel msg CLI (and its alias keel container) on files: convert through every form and back,
# the exact modes of MessagePack and CBOR,
# detection, show, exit statuses and the error format.
# cmake -DKEEL=<keel> -DWORK=<dir> -P cli_test.cmake
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/in.json "{\"name\": \"sensor\", \"n\": 3, \"x\": 1.5, \"tags\": [\"a\", null], \"m\": {\"k\": true}}\n")
file(WRITE ${WORK}/bad.json "{\n  \"a\": [1,\n  x]}\n")
file(WRITE ${WORK}/typed.json "{\"keel.msg\": 1, \"header\": {\"type\": \"t\"}, \"body\": [[\"v\", \"int8\", 300]]}")

function(expect_run expected_rc)
  execute_process(COMMAND ${KEEL} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "keel ${ARGN}: exit ${rc}, expected ${expected_rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

expect_run(0 msg convert ${WORK}/in.json --to json)
set(want "${out}")
foreach(form IN ITEMS binary json-typed xml msgpack cbor)
  expect_run(0 msg convert ${WORK}/in.json --to ${form} -o ${WORK}/out.${form})
  # Back to JSON with the form detected, and with it named.
  expect_run(0 msg convert ${WORK}/out.${form} --to json)
  if(NOT out STREQUAL want)
    message(FATAL_ERROR "${form}: '${out}' differs from '${want}'")
  endif()
  expect_run(0 container convert ${WORK}/out.${form} --from ${form} --to json)
  if(NOT out STREQUAL want)
    message(FATAL_ERROR "${form} (--from): '${out}'")
  endif()
endforeach()

# The exact modes keep every type: a typed JSON message through msgpack-exact and cbor-exact comes
# back as the same typed JSON.
file(WRITE ${WORK}/widths.json "{\"keel.msg\": 1, \"body\": [[\"u\", \"uint16\", 7], [\"v\", \"float32_array\", [1.5]]]}")
expect_run(0 msg convert ${WORK}/widths.json --to json-typed)
set(want_typed "${out}")
foreach(form IN ITEMS msgpack-exact cbor-exact)
  expect_run(0 msg convert ${WORK}/widths.json --to ${form} -o ${WORK}/out.${form})
  expect_run(0 msg convert ${WORK}/out.${form} --from ${form} --to json-typed)
  if(NOT out STREQUAL want_typed)
    message(FATAL_ERROR "${form}: '${out}' differs from '${want_typed}'")
  endif()
endforeach()

expect_run(0 msg show ${WORK}/out.binary)
foreach(line "  \"name\": string \"sensor\"" "  \"n\": int64 3" "  \"m\": map (1)" "    \"k\": bool true"
             "    [1]: null")
  string(FIND "${out}" "${line}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "show: no line '${line}' in:\n${out}")
  endif()
endforeach()

expect_run(1 msg convert ${WORK}/bad.json --to binary)
if(NOT err STREQUAL "${WORK}/bad.json: 3:3: syntax error (offset 15)\n")
  message(FATAL_ERROR "unexpected error text: '${err}'")
endif()
expect_run(1 msg show ${WORK}/typed.json)
if(NOT err MATCHES "typed.json: 1:65: value not allowed here \\(offset 64\\)")
  message(FATAL_ERROR "unexpected error text: '${err}'")
endif()
expect_run(1 msg convert ${WORK}/out.binary --from cbor --to json)
expect_run(2 msg convert ${WORK}/in.json --to yaml)
expect_run(2 msg convert ${WORK}/missing.json --to json)
expect_run(2 msg convert ${WORK}/in.json)
expect_run(2 msg convert ${WORK}/in.json --to json -o ${WORK}/no/such/dir/out.json)
