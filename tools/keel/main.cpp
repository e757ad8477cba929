// SPDX-License-Identifier: MIT
// keel: the command-line tool that drives keel's components.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "output.h"

int main(int argc, char** argv) {
  keel::tool::guard_stdout();
  // The subcommands describe themselves (keel --help lists them): this line names none, so it
  // stays true whichever are built.
  CLI::App app{"keel: command-line tool of the keel C++ library"};
  app.set_version_flag("--version", std::string("keel ") + KEEL_VERSION_STRING);
  app.require_subcommand(1);
#ifdef KEEL_WITH_BENCH
  keel::tool::add_bench_command(app);
#endif
  keel::tool::add_info_command(app);
  keel::tool::add_json_command(app);
  keel::tool::add_msg_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A mistyped command name reaches CLI11 as a missing subcommand: say which word was wrong.
    CLI::App* at = &app;
    std::string path = "keel";
    while (!at->get_subcommands().empty()) {
      at = at->get_subcommands().front();
      path += " " + at->get_name();
    }
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr &&
        at->get_require_subcommand_min() > 0 && !at->remaining().empty()) {
      std::cerr << path << ": unknown command '" << at->remaining().front() << "' (see '" << path
                << " --help')\n";
      return keel::tool::finish_stdout(2);
    }
    std::ostringstream out;  // --help/--version text, written (and checked) like other output
    const int rc = app.exit(e, out, std::cerr);
    keel::tool::out_write(out.str());
    // CLI11 returns 0 for --help/--version; usage errors are exit status 2.
    return keel::tool::finish_stdout(rc == 0 ? 0 : 2);
  }
  // Every subcommand's output is checked here: a lost write turns into an error.
  return keel::tool::finish_stdout(keel::tool::exit_status);
}
