// The one list of `pathscope`'s commands, in the order of `pathscope --help`. A command
// is defined in its own file (command_table.hpp); a group is only its name and summary.

#include "app/cli/command_table.hpp"

namespace pathscope::app {

std::span<const CliCommand> cli_commands() {
  static const CliCommand kCommands[] = {
      kWindowCommand,        kOpenCommand,
      kSolveCommand,         kVerifyCommand,
      kMovingAiCommand,      kSimulateCommand,
      kCheckCommand,         kCheckRecordingCommand,
      kConvertCommand,       kRenderCommand,
      kEditBenchCommand,     {"bench", "benchmarks that print the figures of docs/benchmarks"},
      kBenchWorldCommand,    kBenchQuadtreeCommand,
      kBenchVisgraphCommand, kBenchGridCommand,
      kBenchSimCommand,      kBenchFormationsCommand,
      kBenchTacticalCommand, kBenchPlannersCommand,
      kBenchNavmeshCommand,  kBenchConformanceCommand,
  };
  return kCommands;
}

}  // namespace pathscope::app
