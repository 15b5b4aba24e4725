// pathscope: the window (no sub-command, `pathscope FILE` or `pathscope open FILE`) and
// the headless sub-commands. Exit codes: 0 success, 1 a failed check or bad input, 2 bad
// usage. PATHSCOPE_VERSION comes from project() in CMakeLists.txt.

#include <cmath>
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/edit_bench.hpp"
#include "app/cli/render_command.hpp"
#include "app/platform/viewer.hpp"
#include "planner/core/planner_registry.hpp"

namespace {

std::string planner_help() {
  std::string help = "planner name:";
  for (const pathscope::PlannerInfo& p : pathscope::planner_registry()) {
    help += "\n  " + p.name + ": " + p.summary;
    for (const pathscope::ParamSpec& s : p.params) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "\n      %s = %g in [%g, %g]: %s", s.name.c_str(), s.default_value,
                    s.min_value, s.max_value, s.description.c_str());
      help += buf;
    }
  }
  return help;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pathscope::app;
  CLI::App app{"Pathscope: plan, watch and debug unit paths for real-time strategy games", "pathscope"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("pathscope ") + PATHSCOPE_VERSION,
                       "print \"pathscope VERSION\" and exit");

  // `pathscope FILE` is `pathscope open FILE`. CLI11 tries sub-command names before
  // positionals, so `solve`, `render`, ... still name their sub-commands.
  ViewerOptions viewer;
  CLI::Option* file =
      app.add_option("file", viewer.scenario_path, "scenario JSON or Moving AI .map to open in the window");
  app.add_option("--quit-after-frames", viewer.quit_after_frames, "close by itself after N frames (tests)");
  auto* open = app.add_subcommand("open", "open a scenario in the window (the default)");
  open->add_option("file", viewer.scenario_path, "scenario JSON or Moving AI .map");
  open->add_option("--quit-after-frames", viewer.quit_after_frames, "close by itself after N frames (tests)");

  SolveOptions solve;
  auto* solve_cmd = app.add_subcommand("solve", "run a scenario's path queries headless");
  solve_cmd->add_option("file", solve.path, "scenario JSON or Moving AI .map")->required();
  solve_cmd->add_option("--planner", solve.planner, planner_help());
  solve_cmd->add_option("--param", solve.params, "planner parameter override, name=value (repeatable)");
  solve_cmd->add_option("--faction", solve.faction,
                        "plan every query with this faction's knowledge (fog of war)");
  solve_cmd->add_option("--query", solve.query, "run only query N (0-based)");
  solve_cmd->add_flag("--json", solve.json, "one JSON object per line and query");

  MovingAiOptions bench;
  auto* bench_cmd = app.add_subcommand("movingai", "check and time a planner on Moving AI .scen problems");
  bench_cmd->add_option("paths", bench.paths, ".scen files or folders")->required();
  bench_cmd->add_option("--planner", bench.planner, planner_help());
  bench_cmd->add_option("--param", bench.params, "planner parameter override, name=value (repeatable)");
  bench_cmd->add_option("--max-ratio", bench.max_ratio, "inexact planners: allowed length / optimal length");
  bench_cmd->add_option("--limit", bench.limit, "at most N problems per .scen file");
  bench_cmd->add_flag("--json", bench.json, "one JSON object per problem, then a summary object");

  SimulateOptions simulate;
  auto* sim_cmd =
      app.add_subcommand("simulate", "run a scenario's units headless and report the run's figures");
  sim_cmd->add_option("file", simulate.path, "scenario JSON with units")->required();
  sim_cmd->add_option("--steps", simulate.steps, "fixed steps to run");
  sim_cmd->add_option("--seconds", simulate.seconds, "simulated seconds to run (overrides --steps)");
  sim_cmd->add_flag("--until-arrived", simulate.until_arrived,
                    "stop once every ordered unit has arrived (at most 600 s)");
  sim_cmd->add_flag("--json", simulate.json, "one JSON object");
  sim_cmd->add_flag("--discrete", simulate.discrete,
                    "discrete checks (end points only) instead of move lines");
  sim_cmd->add_flag("--no-prevention", simulate.no_prevention, "collision prevention off");
  sim_cmd->add_flag("--no-cooperation", simulate.no_cooperation, "cooperation rules off");
  sim_cmd->add_flag("--no-passages", simulate.no_passages, "narrow passages open both ways at once");
  sim_cmd->add_flag("--no-formation-goals", simulate.no_formation_goals,
                    "group orders send every unit to the ordered point (no formation slots)");
  sim_cmd->add_flag("--units", simulate.list_units,
                    "before the last line, every unit with an order it has not finished: where, doing what, "
                    "for whom, how far from its point, "
                    "since when without progress (with --json, `units_left`)");
  sim_cmd->add_flag("--no-detours", simulate.no_detours,
                    "held-up units keep their paths (no way round the units in their way)");
  sim_cmd
      ->add_option("--density-cost", simulate.density_cost,
                   "collision density as extra path cost, this weight (0 = off; default: the scenario's)")
      ->check(CLI::Range(0.0, 100.0));
  sim_cmd->add_option("--save-state", simulate.save_state,
                      "write a saved game (the scenario and the simulation's state) here at the end");
  sim_cmd->add_option(
      "--record", simulate.record,
      "write the run's recording here (every step's units, each unit's decisions, stuck flags); "
      "`pathscope open` scrubs it");
  sim_cmd
      ->add_option("--record-cap", simulate.record_cap_mb, "the recording's memory cap in MB (default 2048)")
      ->check(CLI::Range(1, 1 << 20));
  auto* save_stuck = sim_cmd->add_option(
      "--save-stuck", simulate.save_stuck,
      "write a repro of each unit flagged stuck into this folder (made if missing): "
      "DIR/<file>_unit<ID>_<T>s.json, the saved game from --repro-seconds before its first flag, expecting "
      "it to arrive; the run then lasts its full length (not cut short once the expectations are decided). "
      "Stuck units alone do not change the exit code (0, or 1 if an expectation fails or a repro cannot be "
      "written)");
  sim_cmd
      ->add_option(
          "--repro-seconds", simulate.repro_seconds,
          "with --save-stuck: simulated seconds (> 0) before the flag each repro starts at (default 10; "
          "at least one step; clamped at the run's start)")
      ->needs(save_stuck);

  CheckOptions check;
  auto* check_cmd = app.add_subcommand(
      "check",
      "run every scenario in a folder: searches with expected_length, simulations with expect blocks");
  check_cmd->add_option("dir", check.dir, "folder of scenario JSON files")->required();
  check_cmd->add_option("--jobs", check.jobs, "threads (default: every core)")->check(CLI::Range(1, 1024));

  ConvertOptions convert;
  auto* convert_cmd = app.add_subcommand("convert", "convert a Moving AI .map into a scenario JSON");
  convert_cmd->add_option("in", convert.in_map, "Moving AI .map")->required();
  convert_cmd->add_option("out", convert.out_json, "scenario JSON to write")->required();
  convert_cmd->add_option("--scen", convert.scen, "add problems of this .scen file as queries");
  convert_cmd->add_option("--max-queries", convert.max_queries, "at most N queries from --scen");
  convert_cmd->add_option("--pick", convert.pick, "which problems: first (shortest), spread or longest");

  RenderOptions render;
  std::string size = "1280x800";
  std::string layers;
  auto* render_cmd = app.add_subcommand("render", "draw a scenario and its search to a PNG, with no display");
  render_cmd->add_option("file", render.scenario_path, "scenario JSON or Moving AI .map")->required();
  render_cmd->add_option("--out", render.out_path, "PNG file to write")->required();
  render_cmd->add_option("--size", size, "image size WxH in pixels");
  render_cmd->add_option("--planner", render.planner, planner_help());
  render_cmd->add_option("--query", render.query, "query index (0-based)");
  render_cmd->add_option("--step", render.step, "show the search after K expansions");
  render_cmd->add_option("--layers", layers, "comma-separated layers, or all");
  render_cmd->add_option("--param", render.params, "planner parameter override, name=value (repeatable)");
  render_cmd->add_option("--frames", render.frames, "draw N frames and print the mean ms per frame");
  render_cmd->add_option(
      "--motion", render.motion_seconds,
      "first move the features that have a velocity for this many seconds (steps of 1/30 s)");
  render_cmd->add_option("--sim-steps", render.sim_steps,
                         "run the unit simulation N fixed steps and draw it (layers sim_*, units)");
  std::string pick;
  render_cmd->add_option("--pick", pick,
                         "X,Y: highlight the links of the planner's node at this world point");

  EditBenchOptions edit_bench;
  std::string bench_size = "1280x800";
  auto* edit_cmd =
      app.add_subcommand("edit-bench", "time the editor's work per edit (re-plan, repaint, frame), headless");
  edit_cmd->add_option("file", edit_bench.scenario_path,
                       "scenario JSON or Moving AI .map (default: maps/default.json)");
  edit_cmd->add_option("--edits", edit_bench.edits, "number of edits (brush stroke, wall, undo, ...)");
  edit_cmd->add_option("--seed", edit_bench.seed, "where the edits go");
  edit_cmd->add_option("--brush", edit_bench.brush, "brush half-size in cells");
  edit_cmd->add_option("--size", bench_size, "frame size WxH in pixels");
  edit_cmd->add_flag("--all-layers", edit_bench.all_layers, "draw every layer (heat map and regions too)");

  BenchWorldOptions bench_world;
  auto* bench_group = app.add_subcommand("bench", "benchmarks that print the figures of docs/benchmarks");
  bench_group->require_subcommand(1);
  auto* bench_world_cmd =
      bench_group->add_subcommand("world", "build and query a big world: time and peak memory per cell");
  bench_world_cmd->add_option("file", bench_world.scenario_path,
                              "scenario whose items to use (default: maps/default.json)");
  bench_world_cmd->add_option("--size", bench_world.size, "world side in cells")->check(CLI::Range(1, 8192));
  bench_world_cmd->add_option("--classes", bench_world.classes, "movement classes queried (the first K)");
  BenchQuadtreeOptions bench_qt;
  auto* bench_qt_cmd = bench_group->add_subcommand(
      "quadtree", "quadtree leaves, links, queries against A*, update against rebuild");
  bench_qt_cmd->add_option("file", bench_qt.scenario_path,
                           "scenario JSON or .map (default: maps/armada.json)");
  bench_qt_cmd->add_option("--movingai", bench_qt.movingai_path,
                           "instead: a Moving AI .scen file or a folder of them");
  bench_qt_cmd->add_option("--queries", bench_qt.queries, "Moving AI problems per map, spread over the file")
      ->check(CLI::Range(0, 100000));
  bench_qt_cmd->add_option("--repeat", bench_qt.repeat, "runs per timing (the fastest counts)")
      ->check(CLI::Range(1, 1000));
  bench_qt_cmd->add_option("--side", bench_qt.side, "cells per side of the map the update is timed on")
      ->check(CLI::Range(8, 8192));
  bench_qt_cmd
      ->add_option("--edits", bench_qt.edits, "places of the 1% circle for the update timing (0 = none)")
      ->check(CLI::Range(0, 10000));
  bench_qt_cmd->add_option("--param", bench_qt.params,
                           "the quadtree planner's parameter, name=value (repeatable)");
  BenchVisgraphOptions bench_vg;
  auto* bench_vg_cmd = bench_group->add_subcommand(
      "visgraph", "visibility graph: build time by corners, query time, lengths against the octile optimum");
  bench_vg_cmd->add_option("--movingai", bench_vg.movingai_path,
                           "instead of random rectangles: a Moving AI .scen file or a folder of them");
  bench_vg_cmd
      ->add_option("--corners", bench_vg.corners, "random rectangle maps of about N corners (repeatable)")
      ->check(CLI::Range(4, 1000000));
  bench_vg_cmd->add_option("--queries", bench_vg.queries, "queries per map")->check(CLI::Range(0, 100000));
  bench_vg_cmd->add_option("--seed", bench_vg.seed, "seed of the random maps and queries");
  bench_vg_cmd
      ->add_option("--edits", bench_vg.edits,
                   "buildings placed and destroyed per random map, update against rebuild")
      ->check(CLI::Range(0, 10000));
  bench_vg_cmd->add_option(
      "--roads", bench_vg.road_paths,
      "instead: on this scenario, random queries with roads off, the road pass and exact roads (repeatable)");
  BenchGridOptions bench_grid;
  auto* bench_grid_cmd = bench_group->add_subcommand(
      "grid", "grid planners on Moving AI problems, side by side with warthog-core's A*");
  bench_grid_cmd->add_option("paths", bench_grid.paths, ".scen files or folders")->required();
  bench_grid_cmd->add_option("--planner", bench_grid.planners, "grid planners to time (repeatable, or a,b)")
      ->delimiter(',');
  bench_grid_cmd->add_option("--warthog", bench_grid.warthog,
                             "warthog-core's `warthog` binary, run on the same problems");
  bench_grid_cmd->add_option("--limit", bench_grid.limit, "at most N problems per .scen file");
  bench_grid_cmd->add_option("--repeat", bench_grid.repeat, "runs per problem (the fastest counts)")
      ->check(CLI::Range(1, 1000));
  bench_grid_cmd->add_option("--max-ratio", bench_grid.max_ratio,
                             "inexact planners: allowed length / optimal length");
  bench_grid_cmd->add_option("--param", bench_grid.params,
                             "planner parameter, name=value, for the planners that have it (repeatable)");
  BenchSimOptions bench_sim;
  auto* bench_sim_cmd = bench_group->add_subcommand("sim",
                                                    "the unit simulation on generated cases: circle swaps, a "
                                                    "crossing through a gap, random goals on a map");
  bench_sim_cmd->add_option("--circle", bench_sim.circle, "units of a circle case (repeatable, or a,b)")
      ->delimiter(',');
  bench_sim_cmd
      ->add_option("--crossing", bench_sim.crossing, "units per group of the crossing case (0 = none)")
      ->check(CLI::Range(0, 100000));
  bench_sim_cmd
      ->add_option(
          "--funnel", bench_sim.funnel,
          "units of the funnel case: the crossing's gap one way only, its flow alone (0 = none, the default)")
      ->check(CLI::Range(0, 100000));
  bench_sim_cmd->add_option("--random", bench_sim.random_units, "units of the random-goals case (0 = none)")
      ->check(CLI::Range(0, 1000000));
  bench_sim_cmd->add_option("--map", bench_sim.map, "Moving AI map of the random-goals case");
  bench_sim_cmd->add_option("--seed", bench_sim.seed, "seed of the random goals");
  bench_sim_cmd->add_option("--seconds", bench_sim.seconds, "simulated seconds at most per case")
      ->check(CLI::Range(0.0, 100000.0));
  bench_sim_cmd->add_flag("--json", bench_sim.json, "one JSON object per case");
  bench_sim_cmd->add_flag("--discrete", bench_sim.discrete, "discrete checks instead of move lines");
  bench_sim_cmd->add_flag("--no-prevention", bench_sim.no_prevention, "collision prevention off");
  bench_sim_cmd->add_flag("--no-cooperation", bench_sim.no_cooperation, "cooperation rules off");
  bench_sim_cmd->add_flag("--no-passages", bench_sim.no_passages, "narrow passages open both ways at once");
  bench_sim_cmd->add_option("--write-cases", bench_sim.write_cases,
                            "also write each generated case, with the options above, as DIR/<case>.json "
                            "(open it in the window, or run it with `simulate`)");
  bench_sim_cmd->add_flag("--no-detours", bench_sim.no_detours,
                          "held-up units keep their paths (no way round the units in their way)");
  bench_sim_cmd
      ->add_option("--density-cost", bench_sim.density_cost,
                   "collision density as extra path cost, this weight (0 = off)")
      ->check(CLI::Range(0.0, 100.0));
  BenchTacticalOptions bench_tac;
  auto* bench_tac_cmd = bench_group->add_subcommand(
      "tactical",
      "tactical planner: seed 001's tables in three modes, BSTS sub-optimality over random placements");
  bench_tac_cmd->add_option("files", bench_tac.scenario_paths,
                            "scenarios for the table (default: maps/tactical_*.json)");
  bench_tac_cmd->add_option("--repeat", bench_tac.repeat, "runs per timing (the fastest counts)")
      ->check(CLI::Range(1, 1000));
  bench_tac_cmd
      ->add_option("--placements", bench_tac.placements, "random placements per agent count (0 = none)")
      ->check(CLI::Range(0, 1000000));
  bench_tac_cmd->add_option("--nodes", bench_tac.nodes, "cells of the placements' field")
      ->check(CLI::IsMember({512, 2048, 8192}));
  bench_tac_cmd->add_option("--seed", bench_tac.seed, "seed of the placements");
  bench_tac_cmd->add_option(
      "--dump", bench_tac.dump_dir,
      "folder: save the placements an inexact mode leaves over 10% above the optimum as scenarios");
  bench_tac_cmd->add_option(
      "--param", bench_tac.params,
      "planner parameter for every mode, name=value (c1, c2, fading, occlusion, weight, corridor)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (file->count() > 0 && !app.get_subcommands().empty()) {
    std::fprintf(stderr, "pathscope: %s before `%s`: name a file to open alone or after `open`\n",
                 file->as<std::string>().c_str(), app.get_subcommands().front()->get_name().c_str());
    return kExitUsage;
  }

  if (*solve_cmd) return run_solve(solve);
  if (*sim_cmd) return run_simulate(simulate);
  if (*check_cmd) return run_check(check);
  if (*bench_sim_cmd) return run_bench_sim(bench_sim);
  if (*bench_cmd) return run_movingai(bench);
  if (*convert_cmd) return run_convert(convert);
  if (*bench_world_cmd) return run_bench_world(bench_world);
  if (*bench_qt_cmd) return run_bench_quadtree(bench_qt);
  if (*bench_vg_cmd) return run_bench_visgraph(bench_vg);
  if (*bench_tac_cmd) return run_bench_tactical(bench_tac);
  if (*bench_grid_cmd) return run_bench_grid(bench_grid);
  if (*edit_cmd) {
    char extra = 0;
    if (std::sscanf(bench_size.c_str(), "%dx%d%c", &edit_bench.width, &edit_bench.height, &extra) != 2 ||
        edit_bench.width <= 0 || edit_bench.height <= 0 || edit_bench.width > 16384 ||
        edit_bench.height > 16384) {
      std::fprintf(stderr, "pathscope edit-bench: --size %s: expected WxH with 1..16384 pixels per side\n",
                   bench_size.c_str());
      return kExitUsage;
    }
    return run_edit_bench(edit_bench);
  }
  if (*render_cmd) {
    int w = 0, h = 0;
    char extra = 0;
    if (std::sscanf(size.c_str(), "%dx%d%c", &w, &h, &extra) != 2 || w <= 0 || h <= 0 || w > 16384 ||
        h > 16384) {
      std::fprintf(stderr, "pathscope render: --size %s: expected WxH with 1..16384 pixels per side\n",
                   size.c_str());
      return kExitUsage;
    }
    render.width = w;
    render.height = h;
    for (std::size_t pos = 0; !layers.empty() && pos <= layers.size();) {
      const std::size_t comma = std::min(layers.find(',', pos), layers.size());
      if (comma > pos) render.layers.push_back(layers.substr(pos, comma - pos));
      pos = comma + 1;
    }
    if (!pick.empty()) {
      double x = 0, y = 0;
      if (std::sscanf(pick.c_str(), "%lf,%lf%c", &x, &y, &extra) != 2 || !std::isfinite(x) ||
          !std::isfinite(y)) {
        std::fprintf(stderr, "pathscope render: --pick %s: expected X,Y in metres\n", pick.c_str());
        return kExitUsage;
      }
      render.pick = pathscope::Vec2{x, y};
    }
    return run_render_command(render);
  }
  return run_viewer(viewer);
}
