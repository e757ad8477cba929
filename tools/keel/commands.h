// SPDX-License-Identifier: MIT
// Each subcommand of the keel tool lives in its own file and adds itself to the app here.
#pragma once

#include <CLI/CLI.hpp>

namespace keel::tool {

// Exit status the subcommand sets when it runs; main returns it.
inline int exit_status = 0;

void add_bench_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_json_command(CLI::App& app);
void add_msg_command(CLI::App& app);

}  // namespace keel::tool
