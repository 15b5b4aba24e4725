// `pathscope bench world`: how much a big world costs to build, query and hold.
//
// The scenario is a file's items (maps/default.json by default) on a square world of
// --size cells per side, with no tile grid: the same features, roads, bridges and short
// queries, the rest of the map open ground. The queries use the first --classes movement
// classes (query i takes class min(i, K - 1)), and the world builds each of those classes'
// cost grid and regions. Printed: the build time (raster, cost grids, regions), the solve
// time of the queries (planners created and run), and the process's peak resident memory
// per cell (getrusage ru_maxrss: everything the process ever held at once, the scenario
// and the executable included). Times are wall-clock and vary from run to run; nothing
// here is checked against a bound.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "app/editor/default_scenario.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

using bench::Clock;
using bench::ms_since;

// Peak resident set of this process so far, bytes (Linux reports kilobytes).
double peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) * 1024.0;
}

}  // namespace

int run_bench_world(const BenchWorldOptions& options) {
  std::string path = options.scenario_path;
  if (path.empty()) {
    const auto found = find_default_scenario();
    if (!found) return fail_command("bench world", "maps/default.json not found; name a scenario file");
    path = found->string();
  }
  auto loaded = load_any_scenario(path);
  if (!loaded) return fail_command("bench world", loaded.error().to_string());
  Scenario s = std::move(*loaded);
  if (s.queries.empty()) return fail_command("bench world", path + ": the scenario has no queries");
  if (options.classes < 1 || std::size_t(options.classes) > s.classes.size()) {
    std::fprintf(stderr, "pathscope bench world: --classes %d: %s has %zu movement classes (1..%zu)\n",
                 options.classes, path.c_str(), s.classes.size(), s.classes.size());
    return kExitUsage;
  }
  const auto classes = std::size_t(options.classes);
  s.tiles.reset();
  s.world.width = s.world.height = options.size * s.world.cell_size;
  for (std::size_t i = 0; i < s.queries.size(); ++i) s.queries[i].movement_class = std::min(i, classes - 1);
  if (Status ok = validate_scenario(s); !ok) {
    std::fprintf(stderr, "pathscope bench world: --size %d: %s\n", options.size,
                 ok.error().to_string().c_str());
    return kExitUsage;
  }
  const glm::ivec2 grid = s.grid_size();
  const double cells = double(grid.x) * double(grid.y);
  const double rss_before = peak_rss_bytes();

  // Build: the raster, then each class's cost grid and regions.
  const Clock::time_point t0 = Clock::now();
  const PlanningWorld world(s);
  const double raster_ms = ms_since(t0);
  for (std::size_t c = 0; c < classes; ++c) {
    (void)world.grid(c);
    (void)world.regions(c);
  }
  const double build_ms = ms_since(t0);

  // Solve: one planner per query, made and run.
  std::printf("world %d x %d cells (%s, no tiles), %zu queries, %zu movement class%s\n", grid.x, grid.y,
              path.c_str(), s.queries.size(), classes, classes == 1 ? "" : "es");
  const Clock::time_point t1 = Clock::now();
  for (std::size_t i = 0; i < world.scenario().queries.size(); ++i) {
    const Query& q = world.scenario().queries[i];
    PlannerChoiceRequest request;
    request.query_planner = q.planner;
    request.query_params = q.params;
    request.query_where = "queries[" + std::to_string(i) + "]";
    auto choice = choose_planner(request);
    if (!choice) return fail_command("bench world", path + ": " + choice.error().to_string());
    const Clock::time_point tq = Clock::now();
    const std::unique_ptr<Planner> planner =
        choice->info->create(QueryContext{world, q.movement_class, std::nullopt, choice->params});
    const PathResult& r = find_path(*planner, PathQuery{q.start, q.goal});
    std::printf("  query %zu  %-14s class %-10s %-8s expansions %-8llu %.1f ms\n", i,
                choice->info->name.c_str(), world.scenario().classes[q.movement_class].name.c_str(),
                to_string(r.status), static_cast<unsigned long long>(r.stats.expansions), ms_since(tq));
  }
  const double solve_ms = ms_since(t1);
  const double peak = peak_rss_bytes();

  std::printf("build %.0f ms (raster %.0f ms)\n", build_ms, raster_ms);
  std::printf("solve %.1f ms\n", solve_ms);
  std::printf("peak memory %.1f MB = %.2f bytes per cell (%.1f MB before the world was built)\n", peak / 1e6,
              peak / cells, rss_before / 1e6);
  return kExitOk;
}

namespace {

CliRunner add_bench_world_options(CLI::App& command) {
  auto options = std::make_shared<BenchWorldOptions>();
  command.add_option("file", options->scenario_path,
                     "scenario whose items to use (default: maps/default.json)");
  command.add_option("--size", options->size, "world side in cells")->check(CLI::Range(1, 8192));
  command.add_option("--classes", options->classes, "movement classes queried (the first K)");
  return [options] { return run_bench_world(*options); };
}

}  // namespace

const CliCommand kBenchWorldCommand{
    "bench world", "build and query a big world: time and peak memory per cell", add_bench_world_options};

}  // namespace pathscope::app
