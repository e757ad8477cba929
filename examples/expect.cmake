# SPDX-License-Identifier: MIT
# Runs PROGRAM with ARG and checks its exit status (STATUS) and that stdout+stderr match REGEX.
execute_process(COMMAND ${PROGRAM} ${ARG} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc STREQUAL "${STATUS}" OR NOT out MATCHES "${REGEX}")
  message(FATAL_ERROR "${PROGRAM} ${ARG}: exit status ${rc} (want ${STATUS}), output:\n${out}\n"
                      "(want a match for '${REGEX}')")
endif()
