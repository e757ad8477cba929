# SPDX-License-Identifier: MIT
# keel_bincode_oracle_binary(<target> BIN <name> SOURCES <file in tests/bincode/oracle/src>...
#                            COMMENT <text> [OUTPUT_VARIABLE <var>])
# Builds one binary of the bincode oracle crate tests/bincode/oracle/ (the real bincode 1.3.3 and
# 2.0.1 crates) with `cargo build --release --locked` into <build>/cargo, as custom target <target>
# (part of ALL); <var> receives the binary's path. Used by the oracle tests and by the benchmark.
function(keel_bincode_oracle_binary target)
  cmake_parse_arguments(arg "" "BIN;COMMENT;OUTPUT_VARIABLE" "SOURCES" ${ARGN})
  find_program(KEEL_CARGO cargo HINTS $ENV{HOME}/.cargo/bin REQUIRED)
  set(crate ${PROJECT_SOURCE_DIR}/tests/bincode/oracle)
  set(cargo_target_dir ${CMAKE_BINARY_DIR}/cargo)
  set(binary ${cargo_target_dir}/release/${arg_BIN})
  list(TRANSFORM arg_SOURCES PREPEND ${crate}/src/)
  add_custom_command(
    OUTPUT ${binary}
    COMMAND ${CMAKE_COMMAND} -E env CARGO_TARGET_DIR=${cargo_target_dir}
            ${KEEL_CARGO} build --release --locked --quiet --manifest-path ${crate}/Cargo.toml --bin ${arg_BIN}
    DEPENDS ${crate}/Cargo.toml ${crate}/Cargo.lock ${arg_SOURCES}
    COMMENT "cargo: ${arg_COMMENT}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${binary})
  if(arg_OUTPUT_VARIABLE)
    set(${arg_OUTPUT_VARIABLE} ${binary} PARENT_SCOPE)
  endif()
endfunction()
