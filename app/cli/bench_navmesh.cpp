// `pathscope bench navmesh`: the navmesh's full build against its tile-level update, on a
// generated map (--size cells a side, walls, rough, swamp and water from --seed): the full
// build's time, then --edits random edits (a 3 x 3 square of cells toggled between wall
// and ground) each applied with Navmesh::update, their median and 95th-percentile times
// and the tiles each rebuilt; then whether the updated mesh equals one built fresh from
// the edited world, polygon by polygon and on a few queries. A difference is printed and
// the command exits with 1. Then the buildings row: on a generated town map, --buildings
// buildings (box obstacles) built and destroyed one by one, each edit applied by
// Navmesh::update and by Detour's tile cache over the same ground (NavmeshTileCache),
// side by side (median and p95 microseconds, tiles rebuilt, the ratio), with queries
// round each building answered by both meshes (found by both, by one, path lengths within
// a tolerance); differences there are reported, not failed. Times are wall-clock and vary
// from run to run; nothing is checked against a target.

#include <cstdio>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/navmesh/navmesh_bench.hpp"
#include "planner/navmesh/navmesh_buildings_bench.hpp"

namespace pathscope::app {
namespace {

struct BenchNavmeshOptions {
  int size = 512;          ///< Cells per side of the generated map.
  int edits = 20;          ///< Random edits, each applied with Navmesh::update.
  std::uint64_t seed = 1;  ///< Seed of the map, the edits and the queries.
  int queries = 8;         ///< Queries compared between the updated and the fresh mesh.
  int buildings = 20;      ///< Buildings built and destroyed against the tile cache (0: no row).
  bool json = false;
};

int run_bench_navmesh(const BenchNavmeshOptions& options) {
  NavmeshBenchParams p;
  p.size = options.size;
  p.edits = options.edits;
  p.seed = options.seed;
  p.queries = options.queries;
  const NavmeshBenchFigures f = time_navmesh_update(p, bench::now_ns);
  NavmeshBuildingsParams bp;
  bp.size = options.size;
  bp.seed = options.seed;
  bp.buildings = options.buildings;
  NavmeshBuildingsFigures b;
  if (f.error.empty() && options.buildings > 0) b = time_navmesh_buildings(bp, bench::now_ns);
  const auto side_json = [](const NavmeshEditFigures& e) {
    nlohmann::ordered_json j;
    j["build_s"] = e.build_s;
    j["median_us"] = e.median_us;
    j["p95_us"] = e.p95_us;
    j["tiles_rebuilt_per_edit"] = e.tiles_mean;
    j["tiles_rebuilt_max"] = e.tiles_max;
    j["polygons_before"] = e.polygons_before;
    j["polygons_after"] = e.polygons_after;
    j["restored"] = e.polygons_after == e.polygons_before;
    return j;
  };
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
    if (options.buildings > 0 && f.error.empty()) {
      nlohmann::ordered_json jb;
      jb["buildings"] = options.buildings;
      jb["edits"] = b.edits;
      jb["tiles"] = b.tiles;
      jb["navmesh"] = side_json(b.ours);
      jb["tile_cache"] = side_json(b.cache);
      jb["ratio_median"] = b.ratio_median;
      jb["ratio_p95"] = b.ratio_p95;
      jb["queries"] = b.queries;
      jb["found_both"] = b.found_both;
      jb["found_neither"] = b.found_neither;
      jb["found_one_only"] = b.found_disagree;
      jb["length_tolerance"] = b.length_tolerance;
      jb["lengths_outside_tolerance"] = b.length_outside;
      jb["max_length_difference"] = b.max_length_diff;
      jb["mean_length_ratio"] = b.mean_length_ratio;
      if (!b.error.empty()) jb["error"] = b.error;
      if (!b.first_disagreement.empty()) jb["first_disagreement"] = b.first_disagreement;
      j["buildings"] = jb;
    }
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
    if (options.buildings > 0 && b.error.empty()) {
      std::printf(
          "buildings: town map %d x %d cells (seed %llu), %d tiles; %d buildings built and destroyed (%d "
          "edits)\n",
          b.size, b.size, static_cast<unsigned long long>(options.seed), b.tiles, options.buildings, b.edits);
      std::printf("  %-22s %10s %10s %8s %12s %14s %10s\n", "", "median us", "p95 us", "tiles", "(at most)",
                  "polygons", "build s");
      const auto row = [](const char* name, const NavmeshEditFigures& e) {
        std::printf("  %-22s %10.0f %10.0f %8.2f %12d %7zu/%-6zu %10.3f\n", name, e.median_us, e.p95_us,
                    e.tiles_mean, e.tiles_max, e.polygons_before, e.polygons_after, e.build_s);
      };
      row("navmesh update", b.ours);
      row("Detour tile cache", b.cache);
      std::printf("  ratio navmesh / tile cache: median %.2f, p95 %.2f\n", b.ratio_median, b.ratio_p95);
      std::printf(
          "  %d queries round the buildings: found by both %d, by neither %d, by one only %d; lengths within "
          "%.0f%%: "
          "%d of %d (largest difference %.1f%%, mean ratio navmesh / tile cache %.4f)\n",
          b.queries, b.found_both, b.found_neither, b.found_disagree, 100 * b.length_tolerance,
          b.found_both - b.length_outside, b.found_both, 100 * b.max_length_diff, b.mean_length_ratio);
      if (!b.first_disagreement.empty())
        std::printf("  first difference: %s\n", b.first_disagreement.c_str());
    }
  }
  std::fflush(stdout);
  if (!f.error.empty()) return fail_command("bench navmesh", f.error);
  if (!b.error.empty()) return fail_command("bench navmesh", "buildings: " + b.error);
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
  command
      .add_option(
          "--buildings", options->buildings,
          "buildings built and destroyed on a town map, in the navmesh and in Detour's tile cache (0: none)")
      ->check(CLI::Range(0, 10000));
  command.add_flag("--json", options->json, "one JSON object with every figure");
  return [options] { return run_bench_navmesh(*options); };
}

}  // namespace

const CliCommand kBenchNavmeshCommand{
    "bench navmesh",
    "navmesh: full build, then random small edits each applied by a tile-level update (median and p95 ms, "
    "tiles rebuilt), checked against a fresh build; buildings against Detour's tile cache",
    add_bench_navmesh_options};

}  // namespace pathscope::app
