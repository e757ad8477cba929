# SPDX-License-Identifier: MIT
# Cross-compiles keel for AArch64 Linux with Debian's cross toolchain (g++-aarch64-linux-gnu)
# and runs the built programs (ctest, gtest discovery) under qemu-user (qemu-aarch64).
#
# The cross compiler searches /usr/include after its own headers, so the header-only
# dependencies of keel::json (fast_float, dragonbox, nlohmann-json) come from the host's
# packages; the tests build GoogleTest from Debian's sources (/usr/src/googletest).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(KEEL_AARCH64_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L ${KEEL_AARCH64_SYSROOT})
# Programs (find_program) are the host's; libraries only from the target's sysroot; packages
# (CMake configs of header-only dependencies) from the host.
set(CMAKE_FIND_ROOT_PATH ${KEEL_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# Debian installs some of those configs (dragonbox's) under the host's multiarch directory.
list(APPEND CMAKE_PREFIX_PATH /usr/lib/x86_64-linux-gnu/cmake)
