// SPDX-License-Identifier: MIT
#include "output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace keel::tool {

namespace {
bool failed = false;
int failed_errno = 0;  // the first failure's reason (0: unknown)

void note_failure(int err) noexcept {
  if (!failed) {
    failed = true;
    failed_errno = err;
  }
}
}  // namespace

void guard_stdout() noexcept {
  if (::fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF) {
    // Read-only /dev/null on fd 1: any write to it fails with EBADF, as on a closed descriptor.
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && fd != STDOUT_FILENO) {
      ::close(fd);  // fd 1 was taken meanwhile: nothing better to do
    }
  }
}

bool out_write(const void* data, std::size_t size) noexcept {
  if (failed) {
    return false;
  }
  errno = 0;
  if (std::fwrite(data, 1, size, stdout) != size) {
    note_failure(errno);
    return false;
  }
  return true;
}

bool out_failed() noexcept { return failed || std::ferror(stdout) != 0; }

int finish_stdout(int status) noexcept {
  errno = 0;
  if (std::fflush(stdout) != 0) {
    note_failure(errno);
  }
  if (std::ferror(stdout) != 0) {
    note_failure(errno);  // an unchecked printf/fwrite failed earlier and the buffer is empty now
  }
  errno = 0;
  if (std::fclose(stdout) != 0) {
    note_failure(errno);
  }
  if (!failed) {
    return status;
  }
  if (failed_errno != 0) {
    std::fprintf(stderr, "keel: write error: %s\n", std::strerror(failed_errno));
  } else {
    std::fprintf(stderr, "keel: write error\n");
  }
  return write_error_status;
}

}  // namespace keel::tool
