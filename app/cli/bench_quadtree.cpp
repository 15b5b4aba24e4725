// `pathscope bench quadtree [FILE | --movingai PATH]`: the measured figures of the
// quadtree planner (seed 000).
//
// Per map (a scenario, maps/armada.json by default, or each Moving AI map of PATH with
// --queries of its problems spread over the file), and per movement class its queries use:
//   - leaves against the uniform cells at the same resolution, and their ratio (seed 000
//     reports 2,191 leaves against 16,384 cells on Armada's first mission);
//   - links (one-way ones out of impassable leaves), regions, and the build time of the
//     tree and of the links;
//   - per query, quadtree against grid A* on the same query: expansions and time (the
//     fastest of --repeat runs), and the path length after each stage of rubber-banding
//     (cell centres, step 1, step 2) next to A*'s;
//   - the incremental update: the map scaled to --side cells (512 by default: tiles
//     sampled, geometry scaled), a circle of impassable terrain covering about 1% of it
//     added and removed at --edits places; each update of the tree and links (regions
//     included) against a full rebuild from the same grid, medians and their ratio, and
//     whether the updated structure equals the rebuilt one.
// The figures that need the quadtree's internals (build and update) come from the family
// itself (planner/quadtree/quadtree_bench.hpp); the queries go through the registry.
// Times are wall-clock and vary from run to run; nothing is checked against a target.

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "app/editor/default_scenario.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/quadtree/quadtree_bench.hpp"
#include "planner/scenario/movingai_check.hpp"
#include "planner/scenario/movingai_convert.hpp"
#include "planner/scenario/movingai_parse.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

using bench::Clock;
using bench::ms_since;
using bench::stat;

// The fastest of `repeat` runs of one query, in microseconds; `out` keeps the result.
double time_query(Planner& planner, const PathQuery& q, int repeat, PathResult& out) {
  double best = 0;
  for (int i = 0; i < repeat; ++i) {
    const Clock::time_point t0 = Clock::now();
    const PathResult& r = find_path(planner, q);
    const double us = ms_since(t0) * 1000.0;
    if (i == 0 || us < best) best = us;
    out = r;
  }
  return best;
}

// The leaves and links of one class: counts and build time (the fastest of `repeat`).
void print_structure(const PlanningWorld& world, std::size_t c, int repeat) {
  const QuadtreeBuildFigures f = measure_quadtree_build(world, c, repeat, bench::now_ns);
  const std::string& name = world.scenario().classes[c].name;
  std::printf("  class %s: leaves %zu, uniform cells %zu, cells per leaf %.2f\n", name.c_str(), f.leaves,
              f.cells, f.leaves ? double(f.cells) / double(f.leaves) : 0.0);
  std::printf(
      "  class %s: links %zu (one-way %zu), regions %u, build %.3f ms (tree %.3f ms, links %.3f ms)\n",
      name.c_str(), f.links, f.one_way_links, f.regions, f.tree_ms + f.links_ms, f.tree_ms, f.links_ms);
  // Seed 000's own construction, inserting the scenario's regions top-down: its time, and
  // whether it gives the same leaves.
  std::printf(
      "  class %s: region insertion (seed 000's top-down build) %.3f ms: %zu regions, %zu splits, %zu cells "
      "decided one by one, %zu merges; same leaves as the bottom-up build: %s\n",
      name.c_str(), f.insertion_ms, f.insertion_regions, f.insertion_splits, f.insertion_cell_decisions,
      f.insertion_merges, f.insertion_same ? "yes" : "NO");
}

// Quadtree against A* on every query of the scenario.
int print_queries(const PlanningWorld& world, const ParamValues& qt_params, int repeat) {
  const Scenario& s = world.scenario();
  const PlannerInfo* qt_info = find_planner("quadtree");
  const PlannerInfo* astar_info = find_planner("astar");
  if (!qt_info || !astar_info)
    return fail_command("bench quadtree", "the planners quadtree and astar must be registered");
  const auto defaults = [](const PlannerInfo& info) {
    ParamValues v;
    for (const ParamSpec& p : info.params) v.push_back(p.default_value);
    return v;
  };
  std::uint64_t qt_exp = 0, astar_exp = 0;
  double qt_us = 0, astar_us = 0;
  std::size_t found = 0;
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    const Query& query = s.queries[i];
    const std::unique_ptr<Planner> qt =
        qt_info->create(QueryContext{world, query.movement_class, std::nullopt, qt_params});
    const std::unique_ptr<Planner> astar =
        astar_info->create(QueryContext{world, query.movement_class, std::nullopt, defaults(*astar_info)});
    const PathQuery q{query.start, query.goal};
    PathResult a, b;
    const double us_q = time_query(*qt, q, repeat, a);
    const double us_a = time_query(*astar, q, repeat, b);
    std::printf("  query %zu (%s): quadtree %s, %llu expansions, %.1f us; astar %s, %llu expansions, %.1f us",
                i, s.classes[query.movement_class].name.c_str(), to_string(a.status),
                static_cast<unsigned long long>(a.stats.expansions), us_q, to_string(b.status),
                static_cast<unsigned long long>(b.stats.expansions), us_a);
    if (a.status == SearchStatus::Found && b.status == SearchStatus::Found) {
      ++found;
      qt_exp += a.stats.expansions;
      astar_exp += b.stats.expansions;
      qt_us += us_q;
      astar_us += us_a;
      std::printf(
          "; search cost %.2f, length centres %.2f, step 1 %.2f, final %.2f, astar %.2f (final / astar "
          "%.4f)\n",
          stat(a, "search_cost"), stat(a, "length_centres"), stat(a, "length_step1"), a.length, b.length,
          b.length > 0 ? a.length / b.length : 1.0);
    } else {
      std::printf("\n");
    }
  }
  if (found > 0) {
    std::printf(
        "  %zu queries found by both: quadtree %llu expansions, %.1f us; astar %llu expansions, %.1f us; "
        "%.1fx fewer expansions, %.1fx less time\n",
        found, static_cast<unsigned long long>(qt_exp), qt_us, static_cast<unsigned long long>(astar_exp),
        astar_us, qt_exp ? double(astar_exp) / double(qt_exp) : 0.0, qt_us > 0 ? astar_us / qt_us : 0.0);
  }
  return kExitOk;
}

// `s` scaled so that its longer side has `side` cells: tiles sampled (nearest), the
// geometry of features, roads and bridges scaled; no items or queries.
Scenario scaled(const Scenario& s, int side) {
  Scenario out = s;
  out.threats.clear();
  out.allies.clear();
  out.units.clear();
  out.groups.clear();  // they name the units
  out.queries.clear();
  const glm::ivec2 g = s.grid_size();
  double kx = double(side) / std::max(g.x, g.y), ky = kx;
  if (s.tiles) {
    TileGrid t;
    t.width = std::max(1, int(std::lround(s.tiles->width * kx)));
    t.height = std::max(1, int(std::lround(s.tiles->height * ky)));
    kx = double(t.width) / s.tiles->width;
    ky = double(t.height) / s.tiles->height;
    t.terrain.resize(std::size_t(t.width) * std::size_t(t.height));
    for (int y = 0; y < t.height; ++y) {
      const int sy = std::min(s.tiles->height - 1, int(y / ky));
      for (int x = 0; x < t.width; ++x) {
        const int sx = std::min(s.tiles->width - 1, int(x / kx));
        t.terrain[std::size_t(y) * std::size_t(t.width) + std::size_t(x)] =
            s.tiles->terrain[std::size_t(sy) * std::size_t(s.tiles->width) + std::size_t(sx)];
      }
    }
    out.tiles = std::move(t);
    out.world.width = out.tiles->width * s.world.cell_size;
    out.world.height = out.tiles->height * s.world.cell_size;
  } else {
    out.world.width = s.world.width * kx;
    out.world.height = s.world.height * ky;
  }
  const auto scale = [&](Vec2 p) { return Vec2{p.x * kx, p.y * ky}; };
  const double k = std::min(kx, ky);
  for (Feature& f : out.features) {
    for (Vec2& p : f.shape.points) p = scale(p);
    f.shape.min = scale(f.shape.min);
    f.shape.max = scale(f.shape.max);
    f.shape.center = scale(f.shape.center);
    f.shape.radius *= k;
  }
  for (Road& r : out.roads) {
    for (Vec2& p : r.points) p = scale(p);
    r.width *= k;
  }
  for (Bridge& b : out.bridges) {
    b.a = scale(b.a);
    b.b = scale(b.b);
    b.width *= k;
  }
  return out;
}

// Incremental update against a full rebuild, on `s` scaled to `side` cells.
int print_update(const Scenario& source, const BenchQuadtreeOptions& options) {
  const Scenario s = scaled(source, options.side);
  if (Status ok = validate_scenario(s); !ok)
    return fail_command("bench quadtree", "the scenario scaled to " + std::to_string(options.side) +
                                              " cells: " + ok.error().to_string());
  const QuadtreeUpdateFigures f = time_quadtree_update(s, options.edits, bench::now_ns);
  if (!f.timed) {
    std::printf("  update: skipped (no terrain is impassable for class %s)\n", s.classes[0].name.c_str());
    return kExitOk;
  }
  std::printf(
      "  update: %d x %d cells, %zu leaves, a circle of %s covering %.2f%% of the map added and removed at "
      "%d places "
      "(%.0f cells re-read per update)\n",
      f.width, f.height, f.leaves, f.wall_terrain.c_str(), f.covered_pct, options.edits, f.cells_per_update);
  std::printf(
      "  update: incremental %.3f ms (tree %.3f ms, links %.3f ms, of which regions %.3f ms); "
      "full rebuild %.3f ms; rebuild / incremental %.1fx; world update %.3f ms (medians of %d)\n",
      f.incremental_ms, f.tree_ms, f.links_ms, f.regions_ms, f.rebuild_ms,
      f.incremental_ms > 0 ? f.rebuild_ms / f.incremental_ms : 0.0, f.world_ms, f.updates);
  std::printf("  update: equal to a full rebuild: %s\n", f.equal ? "yes" : "NO");
  return f.equal ? kExitOk : kExitFailed;
}

int bench_scenario(const std::string& label, const Scenario& s, const ParamValues& qt_params,
                   const BenchQuadtreeOptions& options) {
  if (Status ok = validate_scenario(s); !ok)
    return fail_command("bench quadtree", label + ": " + ok.error().to_string());
  const PlanningWorld world(s);
  const glm::ivec2 g = s.grid_size();
  std::printf("map %s: %d x %d cells, %zu queries\n", label.c_str(), g.x, g.y, s.queries.size());
  std::vector<std::size_t> classes;
  for (const Query& q : s.queries) classes.push_back(q.movement_class);
  if (classes.empty()) classes.push_back(0);
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  for (const std::size_t c : classes) print_structure(world, c, options.repeat);
  if (const int rc = print_queries(world, qt_params, options.repeat); rc != kExitOk) return rc;
  if (options.edits > 0) return print_update(s, options);
  return kExitOk;
}

int bench_movingai(const ParamValues& qt_params, const BenchQuadtreeOptions& options) {
  auto files = collect_scen_files({std::filesystem::path(options.movingai_path)});
  if (!files) return fail_command("bench quadtree", files.error().to_string());
  if (files->empty()) return fail_command("bench quadtree", "no .scen files in " + options.movingai_path);
  int rc = kExitOk;
  for (const auto& scen_path : *files) {
    auto set = load_movingai_set(scen_path);
    if (!set) return fail_command("bench quadtree", set.error().to_string());
    if (set->problems.empty()) continue;
    const std::vector<MovingAiProblem>* problems = &set->problems;
    const std::filesystem::path& map_path = set->map_path;
    const MovingAiMap* map = &set->map;
    // Problems spread over the file (its buckets grow longer towards the end).
    std::vector<MovingAiProblem> picked;
    const std::size_t n = std::min<std::size_t>(std::size_t(std::max(options.queries, 0)), problems->size());
    for (std::size_t i = 0; i < n; ++i)
      picked.push_back((*problems)[(i * problems->size() + problems->size() / 2) / n]);
    const int r =
        bench_scenario(map_path.filename().string(), movingai_to_scenario(*map, picked), qt_params, options);
    if (r != kExitOk) rc = r;
  }
  return rc;
}

}  // namespace

int run_bench_quadtree(const BenchQuadtreeOptions& options) {
  // Freed memory stays with the process (glibc), so that no timing below pays for fresh
  // pages of memory that an earlier step gave back: both the update and the rebuild are
  // timed on warm memory, as in an editor that keeps running.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  if (options.repeat < 1) {
    std::fprintf(stderr, "pathscope bench quadtree: --repeat %d: expected at least 1\n", options.repeat);
    return kExitUsage;
  }
  const PlannerInfo* qt_info = find_planner("quadtree");
  if (!qt_info) return fail_command("bench quadtree", "the planner quadtree must be registered");
  auto overrides = parse_param_overrides(options.params);
  auto qt_params =
      overrides ? resolve_params(*qt_info, *overrides, "--param") : Result<ParamValues>(overrides.error());
  if (!qt_params) {
    std::fprintf(stderr, "pathscope bench quadtree: %s\n", qt_params.error().to_string().c_str());
    return kExitUsage;
  }
  if (!options.movingai_path.empty()) {
    if (!options.scenario_path.empty()) {
      std::fprintf(stderr, "pathscope bench quadtree: give a scenario FILE or --movingai PATH, not both\n");
      return kExitUsage;
    }
    return bench_movingai(*qt_params, options);
  }
  std::string path = options.scenario_path;
  if (path.empty()) {
    const auto found = find_default_scenario();
    if (!found) return fail_command("bench quadtree", "maps/armada.json not found; name a scenario file");
    path = (found->parent_path() / "armada.json").string();
  }
  auto loaded = load_any_scenario(path);
  if (!loaded) return fail_command("bench quadtree", loaded.error().to_string());
  return bench_scenario(std::filesystem::path(path).filename().string(), *loaded, *qt_params, options);
}

namespace {

CliRunner add_bench_quadtree_options(CLI::App& command) {
  auto options = std::make_shared<BenchQuadtreeOptions>();
  command.add_option("file", options->scenario_path, "scenario JSON or .map (default: maps/armada.json)");
  command.add_option("--movingai", options->movingai_path,
                     "instead: a Moving AI .scen file or a folder of them");
  command.add_option("--queries", options->queries, "Moving AI problems per map, spread over the file")
      ->check(CLI::Range(0, 100000));
  command.add_option("--repeat", options->repeat, "runs per timing (the fastest counts)")
      ->check(CLI::Range(1, 1000));
  command.add_option("--side", options->side, "cells per side of the map the update is timed on")
      ->check(CLI::Range(8, 8192));
  command.add_option("--edits", options->edits, "places of the 1% circle for the update timing (0 = none)")
      ->check(CLI::Range(0, 10000));
  command.add_option("--param", options->params, "the quadtree planner's parameter, name=value (repeatable)");
  return [options] { return run_bench_quadtree(*options); };
}

}  // namespace

const CliCommand kBenchQuadtreeCommand{"bench quadtree",
                                       "quadtree leaves, links, queries against A*, update against rebuild",
                                       add_bench_quadtree_options};

}  // namespace pathscope::app
