# SPDX-License-Identifier: MIT
# keel_compat_binary(<target> BIN <name> SOURCES <file in compat/src>... COMMENT <text>
#                    [OUTPUT_VARIABLE <var>])
# Builds one binary of the compat/ crate (the real bincode 1.3.3 and 2.0.1 crates) with
# `cargo build --release --locked` into <build>/cargo, as custom target <target> (part of ALL);
# <var> receives the binary's path. Used by the oracle tests and by the benchmark.
function(keel_compat_binary target)
  cmake_parse_arguments(arg "" "BIN;COMMENT;OUTPUT_VARIABLE" "SOURCES" ${ARGN})
  find_program(KEEL_CARGO cargo HINTS $ENV{HOME}/.cargo/bin REQUIRED)
  set(compat ${PROJECT_SOURCE_DIR}/compat)
  set(cargo_target_dir ${CMAKE_BINARY_DIR}/cargo)
  set(binary ${cargo_target_dir}/release/${arg_BIN})
  list(TRANSFORM arg_SOURCES PREPEND ${compat}/src/)
  add_custom_command(
    OUTPUT ${binary}
    COMMAND ${CMAKE_COMMAND} -E env CARGO_TARGET_DIR=${cargo_target_dir}
            ${KEEL_CARGO} build --release --locked --quiet --manifest-path ${compat}/Cargo.toml --bin ${arg_BIN}
    DEPENDS ${compat}/Cargo.toml ${compat}/Cargo.lock ${arg_SOURCES}
    COMMENT "cargo: ${arg_COMMENT}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${binary})
  if(arg_OUTPUT_VARIABLE)
    set(${arg_OUTPUT_VARIABLE} ${binary} PARENT_SCOPE)
  endif()
endfunction()
