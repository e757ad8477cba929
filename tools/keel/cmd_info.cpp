// SPDX-License-Identifier: MIT
// keel info: the CPU, the kernel set each component chose, and every KEEL_* option in force.
#include <cstdio>
#include <string>

#include "commands.h"
#include "common/options.h"
#include "keel/bincode.h"
#include "keel/cpu.h"
#include "keel/json.h"
#include "keel/pool.h"
#include "output.h"

namespace keel::tool {
namespace {

std::string features_line() {
  const cpu_features& f = cpu();
  const std::pair<bool, const char*> all[] = {
      {f.sse42, "sse4.2"},
      {f.pclmul, "pclmul"},
      {f.popcnt, "popcnt"},
      {f.bmi1, "bmi1"},
      {f.bmi2, "bmi2"},
      {f.avx2, "avx2"},
      {f.fma, "fma"},
      {f.avx512f, "avx512f"},
      {f.avx512bw, "avx512bw"},
      {f.avx512vl, "avx512vl"},
      {f.avx512dq, "avx512dq"},
      {f.avx512vbmi, "avx512vbmi"},
      {f.avx512vbmi2, "avx512vbmi2"},
      {f.neon, "neon"},
  };
  std::string line;
  for (const auto& [has, name] : all) {
    if (!has) continue;
    if (!line.empty()) line += ' ';
    line += name;
  }
  return line.empty() ? "(none of those keel uses)" : line;
}

std::string setting(const char* variable) {
  const char* v = detail::option_value(variable);
  return v ? std::string(variable) + "=" + v : std::string(variable) + " unset";
}

void run_info() {
  const std::string model(cpu_model());
  std::string text = "keel " KEEL_VERSION_STRING "\n";
  text += "cpu:       " + (model.empty() ? std::string("(unknown model)") : model) + "\n";
  text += "features:  " + features_line() + "\n";
  text += "kernels:   ";
  for (isa i : all_isas)
    if (isa_supported(i)) text += std::string(isa_name(i)) + " ";
  text += "(best: " + std::string(isa_name(best_isa())) + ")\n\nchosen paths:\n";
  text += "  json      " + std::string(isa_name(json::default_isa())) + "  (" +
          setting("KEEL_JSON_ISA") + ")\n";
  text += "  bincode   block copies: " + std::string(bincode::detail::copy_block_isa()) + "  (" +
          setting("KEEL_BINCODE_ISA") + ")\n";
  text += "  utf8      " + std::string(isa_name(best_isa())) + " (inputs of 64 bytes or more)\n";
  text += "  pool      " + std::to_string(pool::thread_pool::default_threads()) +
          " workers by default  (" + setting("KEEL_POOL_THREADS") + ")\n";
  text += "\noptions (docs/options.md):\n";
  for (const auto& o : detail::option_table()) {
    const char* v = detail::option_value(o.name);
    char row[512];
    std::snprintf(
        row, sizeof row, "  %-26s %-8s %s\n      %s\n", o.name, o.component,
        v ? (std::string("= ") + v).c_str() : ("default: " + std::string(o.default_value)).c_str(),
        o.meaning);
    text += row;
  }
  out_write(text);
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info", "Print the CPU, the kernel set each component chose and the KEEL_* options in force");
  cmd->callback([] { run_info(); });
}

}  // namespace keel::tool
