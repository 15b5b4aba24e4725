#pragma once

// The headless sub-commands of `pathscope`. Each returns the process exit code:
// 0 success, 1 a failed check or bad input (after printing why), 2 bad usage. Their
// command lines are entries of the table of commands (command_table.hpp), each defined
// in the command's own file.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "planner/core/default_planner.hpp"
#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::app {

/// Exit codes shared by every sub-command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;

/// Prints "pathscope COMMAND: MESSAGE" on stderr and returns kExitFailed.
int fail_command(const char* command, const std::string& message);

/// Options of `pathscope solve`.
struct SolveOptions {
  std::string path;                 ///< Scenario JSON, or a Moving AI .map (no queries then).
  std::string planner;              ///< "" = each query's own planner.
  std::vector<std::string> params;  ///< "name=value" overrides.
  int query = -1;                   ///< -1 = all queries.
  bool json = false;
  std::string faction;  ///< "" = each query's own; a faction's name: plan with its knowledge.
};

/// Options of `pathscope movingai`.
struct MovingAiOptions {
  std::vector<std::string> paths;  ///< .scen files or folders of them.
  std::string planner = kDefaultPlanner;
  std::vector<std::string> params;
  double max_ratio = 1.0;  ///< For inexact planners: allowed length / optimum.
  bool json = false;
  std::size_t limit = 0;  ///< > 0: at most this many problems per .scen file.
  std::size_t every = 1;  ///< Every Nth problem of a .scen file (1: all), so a sample spans every length.
};

/// Options of `pathscope convert`.
struct ConvertOptions {
  std::string in_map;
  std::string out_json;
  std::string scen;  ///< Optional .scen whose problems become queries.
  std::size_t max_queries = 16;
  std::string pick = "first";  ///< first, spread (over every length bucket) or longest.
};

/// Options of `pathscope simulate` (app/cli/cli_simulate.cpp).
struct SimulateOptions {
  std::string path;                  ///< Scenario JSON with units.
  std::uint64_t steps = 0;           ///< Steps to run (0: --seconds, or 300, or until arrived).
  double seconds = 0;                ///< Simulated seconds to run (> 0 overrides --steps).
  bool until_arrived = false;        ///< Stop once every ordered unit has arrived (at most 600 s).
  bool json = false;                 ///< One JSON object.
  bool discrete = false;             ///< Discrete checks instead of the scenario's setting.
  bool no_prevention = false;        ///< Collision prevention off.
  bool no_cooperation = false;       ///< Cooperation rules off.
  bool no_passages = false;          ///< Narrow passages open both ways at once.
  bool knots = false;                ///< Head-on knots make passages (sim/knots.hpp).
  bool no_formation_goals = false;   ///< Group orders send every unit to the ordered point.
  bool no_detours = false;           ///< Held-up units keep their paths (no way round other units).
  bool list_units = false;           ///< Before the last line, every unit with an order it has not finished.
  double density_cost = -1;          ///< SimSettings::density_cost (< 0: the scenario's).
  std::string save_state;            ///< Write a saved game here at the end ("" = none).
  std::string record;                ///< Write the run's recording here ("" = none).
  std::size_t record_cap_mb = 2048;  ///< The recording's memory cap, megabytes.
  std::string save_stuck;            ///< Folder for stuck-unit repros ("" = none).
  double repro_seconds = 10;         ///< Seconds before the flag a repro starts at (> 0).
};

/// Options of `pathscope check` (app/cli/cli_check.cpp).
struct CheckOptions {
  std::string dir;  ///< A folder of scenario JSON files (not recursive).
  int jobs = 0;     ///< Threads (0: every core).
};

/// Options of `pathscope check-recording` (app/cli/cli_recording.cpp).
struct CheckRecordingOptions {
  std::string path;                      ///< A recording (.psrec).
  std::vector<std::uint64_t> resume_at;  ///< Steps to take the run up again at ({}: every snapshot's).
  std::uint64_t run_on = 10;             ///< Steps each resumed run goes on for.
};

/// Options of `pathscope bench sim` (app/cli/cli_simulate.cpp).
struct BenchSimOptions {
  std::vector<int> circle = {100, 1000, 10000};  ///< Units of the circle cases.
  int crossing = 200;                            ///< Units per group of the crossing case (0 = none).
  int funnel = 0;                                ///< Units of the one-way funnel case (0 = none).
  int random_units = 1000;                       ///< Units of the random-goals case (0 = none).
  std::string map;  ///< Its Moving AI map ("" = Berlin_1_256 of the shared benchmarks).
  std::uint64_t seed = 1;
  double seconds = 120;  ///< Simulated seconds at most per case.
  bool json = false;
  bool discrete = false;
  bool no_prevention = false;
  bool no_cooperation = false;
  bool no_passages = false;
  bool knots = false;  ///< Head-on knots make passages (sim/knots.hpp).
  bool no_detours = false;
  std::string write_cases;  ///< Folder to write each generated case to, as a scenario JSON.
  double density_cost = 0;  ///< SimSettings::density_cost of every case.
  std::string avoidance =
      "none";  ///< SimSettings::avoidance of every case: none, potential_field, steering_arcs.
  /// RVO2's circle driver (scripts/peers/rvo2_circle.cpp), run beside each circle case.
  std::string rvo2;
  /// The crowd run beside each case on the same orders: "none", or "detour" (DetourCrowd).
  std::string crowd = "none";
};

/// Options of `pathscope bench world` (app/cli/bench_world.cpp).
struct BenchWorldOptions {
  std::string scenario_path;  ///< Whose items to use ("" = maps/default.json).
  int size = 4096;            ///< World side, cells.
  int classes = 1;            ///< Movement classes queried and built (the first K).
};

/// Options of `pathscope bench quadtree` (app/cli/bench_quadtree.cpp).
struct BenchQuadtreeOptions {
  std::string scenario_path;        ///< Scenario JSON or .map ("" = maps/armada.json).
  std::string movingai_path;        ///< Instead: a .scen file or a folder of them.
  int queries = 16;                 ///< Moving AI problems per map, spread over the file.
  int repeat = 3;                   ///< Runs per timing; the fastest counts.
  int side = 512;                   ///< Cells per side of the map the update is timed on.
  int edits = 8;                    ///< Places of the 1% circle (each added, then removed); 0 = no update.
  std::vector<std::string> params;  ///< The quadtree planner's parameters, name=value.
};

/// Options of `pathscope bench visgraph` (app/cli/bench_visgraph.cpp).
struct BenchVisgraphOptions {
  std::string movingai_path;  ///< A .scen file or a folder of them ("" = random rectangles).
  std::vector<int> corners = {1000, 10000, 50000};  ///< Random rectangle maps: about this many corners each.
  int queries = 100;       ///< Random queries per map, or Moving AI problems spread over the file.
  std::uint64_t seed = 1;  ///< Seed of the random maps and queries.
  int edits = 5;           ///< Random rectangle maps: buildings placed and destroyed (update timing).
  std::vector<std::string>
      road_paths;  ///< Scenarios: roads off, road pass and exact roads compared ({} = not run).
};

/// Options of `pathscope bench tactical` (app/cli/bench_tactical.cpp).
struct BenchTacticalOptions {
  std::vector<std::string> scenario_paths;  ///< Scenarios for the table ({} = maps/tactical_*.json).
  int repeat = 3;                           ///< Runs per timing; the fastest counts.
  int placements = 1000;                    ///< Random placements per agent count (0 = none).
  int nodes = 2048;                         ///< Cells of the placements' field: 512, 2048 or 8192.
  std::uint64_t seed = 1;                   ///< Seed of the placements.
  std::vector<std::string> params;          ///< "name=value" overrides of the cost model (not mode).
  std::string
      dump_dir;  ///< Non-empty: placements an inexact mode leaves over 10% above the optimum are saved here.
};

/// Options of `pathscope bench grid` (app/cli/bench_grid.cpp).
struct BenchGridOptions {
  std::vector<std::string> paths;                         ///< .scen files or folders of them.
  std::vector<std::string> planners = {kDefaultPlanner};  ///< Grid planners to time.
  std::string warthog;              ///< Path of warthog-core's `warthog` binary ("" = none).
  std::string warthog_jps;          ///< Path of warthog-jps's `warthog-jps` binary ("" = none).
  std::size_t limit = 0;            ///< > 0: at most this many problems per .scen file.
  int repeat = 3;                   ///< Runs per problem; the fastest counts.
  double max_ratio = 1.0;           ///< For inexact planners: allowed length / optimum.
  std::vector<std::string> params;  ///< name=value, for the planners that declare the name.
};

int run_solve(const SolveOptions& options);
int run_simulate(const SimulateOptions& options);
int run_check(const CheckOptions& options);
int run_check_recording(const CheckRecordingOptions& options);
int run_bench_sim(const BenchSimOptions& options);
int run_bench_grid(const BenchGridOptions& options);
int run_bench_world(const BenchWorldOptions& options);
int run_bench_quadtree(const BenchQuadtreeOptions& options);
int run_bench_visgraph(const BenchVisgraphOptions& options);
int run_bench_tactical(const BenchTacticalOptions& options);
int run_movingai(const MovingAiOptions& options);
int run_convert(const ConvertOptions& options);

/// Loads a scenario from JSON, or converts a Moving AI .map by its extension.
Result<Scenario> load_any_scenario(const std::string& path);

/// Parses "name=value" strings into planner parameters (sorted by name).
Result<std::vector<PlannerParam>> parse_param_overrides(const std::vector<std::string>& items);

/// A picture's size in pixels from "WxH" (a --size option), each side in 1..16384;
/// nullopt for anything else.
std::optional<std::array<int, 2>> parse_pixel_size(const std::string& text);

/// The help of a --planner option: every registered planner with its summary, and each
/// of its parameters with default, range and description.
std::string planner_help();

}  // namespace pathscope::app
