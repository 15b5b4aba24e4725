// `pathscope bench navmesh`: the navmesh's full build against its tile-level update, on a
// generated map (--size cells a side, walls, rough, swamp and water from --seed): the full
// build's time, then --edits random edits (a 3 x 3 square of cells toggled between wall
// and ground) each applied with Navmesh::update, their median and 95th-percentile times
// and the tiles each rebuilt; then whether the updated mesh equals one built fresh from
// the edited world, polygon by polygon and on a few queries. A difference is printed and
// the command exits with 1. Times are wall-clock and vary from run to run; nothing is
// checked against a target.

#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/navmesh/navmesh_bench.hpp"

namespace pathscope::app {
namespace {

struct BenchNavmeshOptions {
  int size = 512;          ///< Cells per side of the generated map.
  int edits = 20;          ///< Random edits, each applied with Navmesh::update.
  std::uint64_t seed = 1;  ///< Seed of the map, the edits and the queries.
  int queries = 8;         ///< Queries compared between the updated and the fresh mesh.
  bool json = false;
};

int run_bench_navmesh(const BenchNavmeshOptions& options) {
  NavmeshBenchParams p;
  p.size = options.size;
  p.edits = options.edits;
  p.seed = options.seed;
  p.queries = options.queries;
  const NavmeshBenchFigures f = time_navmesh_update(p, bench::now_ns);
  if (options.json) {
    nlohmann::ordered_json j;
    j["size"] = f.size;
    j["seed"] = options.seed;
    j["edits"] = options.edits;
    j["edit_cells"] = p.edit_cells;
    j["tiles"] = f.tiles;
    j["polygons"] = f.polygons;
    j["full_build_s"] = f.full_build_s;
    j["update_median_ms"] = f.update_median_ms;
    j["update_p95_ms"] = f.update_p95_ms;
    j["tiles_rebuilt_per_edit"] = f.tiles_rebuilt_mean;
    j["tiles_rebuilt_max"] = f.tiles_rebuilt_max;
    j["fresh_build_s"] = f.fresh_build_s;
    j["queries"] = f.queries;
    j["query_mismatches"] = f.query_mismatches;
    j["polygon_mismatches"] = f.polygon_mismatches;
    j["equal_to_fresh_build"] = f.equal();
    if (!f.error.empty()) j["error"] = f.error;
    if (!f.first_mismatch.empty()) j["first_mismatch"] = f.first_mismatch;
    std::printf("%s\n", j.dump().c_str());
  } else if (f.error.empty()) {
    std::printf("map: %d x %d cells (seed %llu), %d tiles, %zu polygons\n", f.size, f.size,
                static_cast<unsigned long long>(options.seed), f.tiles, f.polygons);
    std::printf("full build: %.3f s\n", f.full_build_s);
    std::printf(
        "update: %d edits of %d x %d cells toggled; median %.2f ms, p95 %.2f ms; tiles rebuilt per edit %.2f "
        "(at most %d)\n",
        options.edits, p.edit_cells, p.edit_cells, f.update_median_ms, f.update_p95_ms, f.tiles_rebuilt_mean,
        f.tiles_rebuilt_max);
    std::printf("fresh build of the edited map: %.3f s\n", f.fresh_build_s);
    std::printf("updated against fresh: %zu polygons differ, %d of %d queries answered differently: %s\n",
                f.polygon_mismatches, f.query_mismatches, f.queries, f.equal() ? "equal" : "DIFFERENT");
    if (!f.first_mismatch.empty()) std::printf("  first difference: %s\n", f.first_mismatch.c_str());
  }
  std::fflush(stdout);
  if (!f.error.empty()) return fail_command("bench navmesh", f.error);
  if (!f.equal())
    return fail_command("bench navmesh", "the updated mesh differs from a fresh build: " + f.first_mismatch);
  return kExitOk;
}

CliRunner add_bench_navmesh_options(CLI::App& command) {
  auto options = std::make_shared<BenchNavmeshOptions>();
  command.add_option("--size", options->size, "cells per side of the generated map")
      ->check(CLI::Range(16, 4096));
  command
      .add_option("--edits", options->edits,
                  "random edits (3 x 3 cells toggled), each applied with an update")
      ->check(CLI::Range(0, 100000));
  command.add_option("--seed", options->seed, "seed of the map, the edits and the queries");
  command.add_option("--queries", options->queries, "queries compared between the updated and a fresh mesh")
      ->check(CLI::Range(0, 100000));
  command.add_flag("--json", options->json, "one JSON object with every figure");
  return [options] { return run_bench_navmesh(*options); };
}

}  // namespace

const CliCommand kBenchNavmeshCommand{
    "bench navmesh",
    "navmesh: full build, then random small edits each applied by a tile-level update (median and p95 ms, "
    "tiles rebuilt), checked against a fresh build",
    add_bench_navmesh_options};

}  // namespace pathscope::app
