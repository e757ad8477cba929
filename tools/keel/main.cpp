// SPDX-License-Identifier: MIT
// keel: the command-line tool that drives keel's components.
#include <cstdio>

#include "commands.h"

int main(int argc, char** argv) {
  // The subcommands describe themselves (keel --help lists them): this line names none, so it
  // stays true whichever are built.
  CLI::App app{"keel: command-line tool of the keel C++ library"};
  app.set_version_flag("--version", std::string("keel ") + KEEL_VERSION_STRING);
  app.require_subcommand(1);
#ifdef KEEL_WITH_BENCH
  keel::tool::add_bench_command(app);
#endif
  keel::tool::add_json_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    // CLI11 returns 0 for --help/--version; usage errors are exit status 2.
    return rc == 0 ? 0 : 2;
  }
  return keel::tool::exit_status;
}
