// SPDX-License-Identifier: MIT
// Checked writes to standard output for every keel subcommand.
//
// A write that fails (a full disk, a closed stdout, a pipe whose reader left while SIGPIPE is
// ignored) must not pass silently: out_write() remembers the first failure and its reason, and
// finish_stdout(), called once by main after the subcommand ran, flushes and closes stdout and
// reports "keel: write error: <reason>" on stderr with exit status 2. Subcommands that write a
// lot use out_write() (or check out_failed()) to stop early; output written with printf/fwrite
// to stdout is still checked by finish_stdout().
#pragma once

#include <cstddef>
#include <string_view>

namespace keel::tool {

// Exit status for a failed write to stdout (the same as other I/O errors of the tool).
inline constexpr int write_error_status = 2;

// At start-up: if file descriptor 1 is closed, occupies it with a descriptor that cannot be
// written, so that writes fail (EBADF) instead of going to a file the tool opens later.
void guard_stdout() noexcept;

// Writes to stdout; false once any write to stdout has failed (then nothing more is written).
bool out_write(const void* data, std::size_t size) noexcept;
inline bool out_write(std::string_view s) noexcept { return out_write(s.data(), s.size()); }

// True once a write to stdout failed.
bool out_failed() noexcept;

// Flushes and closes stdout. Returns `status`, or write_error_status after printing
// "keel: write error: <reason>" on stderr when anything written to stdout was lost.
int finish_stdout(int status) noexcept;

}  // namespace keel::tool
