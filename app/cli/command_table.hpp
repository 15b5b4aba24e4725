#pragma once

// The command line of `pathscope` as one table of commands. Each entry is defined next
// to its command's implementation: its positionals and options, with their help, checks
// and validation, and what runs it. command_table.cpp lists the entries in the order of
// `pathscope --help`; main() builds the CLI11 app from the list and runs the entry named
// on the command line.

#include <functional>
#include <span>
#include <string_view>

namespace CLI {
class App;
}  // namespace CLI

namespace pathscope::app {

/// Runs a command whose options are parsed; returns the process exit code (0 success, 1 a
/// failed check or bad input, 2 bad usage).
using CliRunner = std::function<int()>;

/// One entry of the table: a command of `pathscope`, or a group of commands.
struct CliCommand {
  /// The words after `pathscope`: "solve", or "bench grid" for `grid` in the group
  /// `bench`; "" is `pathscope` itself, run when no sub-command is named.
  std::string_view path;
  /// One line: the command's entry under Subcommands in its group's --help, and the first
  /// line of its own --help.
  std::string_view summary;
  /// Adds the command's positionals and options to `command` (its CLI11 app) and returns
  /// what runs it with their values once parsed. Null for a group, which then needs one of
  /// its commands: the entries whose path starts with the group's path and a space.
  CliRunner (*add_options)(CLI::App& command) = nullptr;
};

/// Every entry, in the order of `pathscope --help`: `pathscope` itself first, each group
/// before its commands.
std::span<const CliCommand> cli_commands();

// The entries, each defined in the file of its command.
extern const CliCommand kWindowCommand;            ///< `pathscope [FILE]` (cli_open.cpp).
extern const CliCommand kOpenCommand;              ///< `pathscope open` (cli_open.cpp).
extern const CliCommand kSolveCommand;             ///< `pathscope solve` (cli_solve.cpp).
extern const CliCommand kVerifyCommand;            ///< `pathscope verify` (cli_verify.cpp).
extern const CliCommand kMovingAiCommand;          ///< `pathscope movingai` (cli_movingai.cpp).
extern const CliCommand kSimulateCommand;          ///< `pathscope simulate` (cli_simulate.cpp).
extern const CliCommand kCheckCommand;             ///< `pathscope check` (cli_check.cpp).
extern const CliCommand kCheckRecordingCommand;    ///< `pathscope check-recording` (cli_recording.cpp).
extern const CliCommand kConvertCommand;           ///< `pathscope convert` (cli_convert.cpp).
extern const CliCommand kRenderCommand;            ///< `pathscope render` (render_command.cpp).
extern const CliCommand kEditBenchCommand;         ///< `pathscope edit-bench` (edit_bench.cpp).
extern const CliCommand kBenchWorldCommand;        ///< `pathscope bench world` (bench_world.cpp).
extern const CliCommand kBenchQuadtreeCommand;     ///< `pathscope bench quadtree` (bench_quadtree.cpp).
extern const CliCommand kBenchVisgraphCommand;     ///< `pathscope bench visgraph` (bench_visgraph.cpp).
extern const CliCommand kBenchGridCommand;         ///< `pathscope bench grid` (bench_grid.cpp).
extern const CliCommand kBenchSimCommand;          ///< `pathscope bench sim` (cli_simulate.cpp).
extern const CliCommand kBenchFormationsCommand;   ///< `pathscope bench formations` (bench_formations.cpp).
extern const CliCommand kBenchTacticalCommand;     ///< `pathscope bench tactical` (bench_tactical.cpp).
extern const CliCommand kBenchPlannersCommand;     ///< `pathscope bench planners` (bench_planners.cpp).
extern const CliCommand kBenchNavmeshCommand;      ///< `pathscope bench navmesh` (bench_navmesh.cpp).
extern const CliCommand kBenchConformanceCommand;  ///< `pathscope bench conformance` (bench_conformance.cpp).

}  // namespace pathscope::app
