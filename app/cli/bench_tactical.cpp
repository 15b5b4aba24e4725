// `pathscope bench tactical [FILE ...]`: the measured figures of the tactical planner
// (seed 001, Tables 1 and 2).
//
//   - Per scenario (by default the six maps/tactical_*.json: the seed's grids of 512,
//     2,048 and 8,192 nodes with one threat and one ally, and with four of each), its
//     first query with the five modes of the same cost model: BSTS (the seed's
//     heuristic), waypoint (BSTS or by way of an ally or round a threat), coarse
//     (cost-to-go over a coarse lattice and the circles' rims), admissible
//     bidirectional A* and exact (bidirectional Dijkstra). Per
//     mode: cells explored (expanded by either side, each once), all cells, the
//     percentage, the path's cost, cost / exact optimum, and the fastest of --repeat
//     runs; beside the seed's own explored figures.
//   - The sub-optimality of BSTS, waypoint and coarse over --placements random placements per
//     agent count (1 + 1 and 4 + 4) on the 2,048-node field (or --nodes): threats and
//     allies at random centres with radii of 15 to 45 m, start near the west edge and
//     goal near the east edge at random heights; cost / exact cost as a distribution
//     (quantiles, share within 5% and 10%), with the explored percentages of every mode.
//     Placements come from a seeded generator (--seed): the same figures every run.
//   - --dump DIR saves each placement an inexact mode (but BSTS) leaves more than 10% above
//     the optimum as a scenario with that mode's query.
//   - --param sets the cost model (c1, c2, fading, occlusion), the BSTS weight and the
//     repair's corridor for every mode.
// Times are wall-clock and vary from run to run; nothing else does.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "app/editor/default_scenario.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

using bench::Clock;
using bench::stat;

// The modes run, by their `mode` parameter; exact last (the reference).
struct ModeName {
  int mode;
  const char* name;
};
constexpr ModeName kModes[] = {{0, "bsts"}, {3, "waypoint"}, {4, "coarse"}, {1, "admissible"}, {2, "exact"}};
constexpr int kModeCount = 5;
constexpr int kExact = 4;
constexpr int kHeuristicModes = 3;  // bsts, waypoint and coarse: the inexact ones

// The seed's Tables 1 and 2: nodes explored per grid size.
struct SeedRow {
  int agents;  // threats (= allies)
  int nodes;
  int explored;
};
constexpr SeedRow kSeed[] = {{1, 512, 100}, {1, 2048, 404}, {1, 8192, 1758},
                             {4, 512, 62},  {4, 2048, 357}, {4, 8192, 1600}};

const SeedRow* seed_row(std::size_t agents, std::size_t nodes) {
  for (const SeedRow& r : kSeed) {
    if (std::size_t(r.agents) == agents && std::size_t(r.nodes) == nodes) return &r;
  }
  return nullptr;
}

// --param overrides (c1, c2, fading, occlusion), set once by run_bench_tactical.
std::vector<PlannerParam> g_overrides;

std::unique_ptr<Planner> make_planner(const PlanningWorld& world, std::size_t movement_class, int mode) {
  const PlannerInfo* info = find_planner("tactical");
  std::vector<PlannerParam> overrides = g_overrides;
  overrides.push_back({"mode", double(mode)});
  return info->create(
      QueryContext{world, movement_class, std::nullopt, resolve_params(*info, overrides).value()});
}

struct Run {
  PathResult result;
  double micros = 0;
};

Run run(Planner& planner, const PathQuery& q, int repeat) {
  Run out;
  for (int i = 0; i < repeat; ++i) {
    const Clock::time_point t0 = Clock::now();
    const PathResult& r = find_path(planner, q);
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    if (i == 0 || us < out.micros) out.micros = us;
    out.result = r;
  }
  return out;
}

int bench_table(const std::vector<std::string>& paths, int repeat) {
  std::printf(
      "table: per scenario, its first query in each mode (explored = cells expanded by either side, and "
      "by the repair's corridor); bsts-join: BSTS's two searches alone, their half-paths joined with no "
      "repair (the seed's)\n");
  std::printf("%-24s %6s %5s | %-10s %8s %7s %9s %7s %9s | %s\n", "scenario", "cells", "agts", "mode",
              "explored", "percent", "cost", "/exact", "us", "seed 001");
  for (const std::string& path : paths) {
    auto loaded = load_any_scenario(path);
    if (!loaded) return fail_command("bench tactical", loaded.error().to_string());
    const Scenario& s = *loaded;
    if (s.queries.empty()) return fail_command("bench tactical", path + ": no query to run");
    PlanningWorld world(s);
    const Query& q = s.queries.front();
    const std::size_t cells = world.grid(q.movement_class).cell_count();
    Run runs[kModeCount];
    for (int m = 0; m < kModeCount; ++m) {
      auto planner = make_planner(world, q.movement_class, kModes[m].mode);
      runs[m] = run(*planner, PathQuery{q.start, q.goal}, repeat);
      if (runs[m].result.status != SearchStatus::Found) {
        return fail_command("bench tactical", path + ": mode " + kModes[m].name + ": " +
                                                  to_string(runs[m].result.status) + " " +
                                                  runs[m].result.message);
      }
    }
    const double exact = runs[kExact].result.cost;
    const std::string name = std::filesystem::path(path).filename().string();
    const SeedRow* seed = seed_row(s.threats.size(), cells);
    const std::size_t agents = s.threats.size() + s.allies.size();
    for (int m = 0; m < kModeCount; ++m) {
      const PathResult& r = runs[m].result;
      if (m == 0) {
        // The seed's search alone, like for like: the cells its two searches expanded and
        // the half-paths as joined, before the repair (the next row adds it).
        char seed_text[64] = "";
        if (seed) {
          std::snprintf(seed_text, sizeof seed_text, "%d of %d, %.1f%%", seed->explored, seed->nodes,
                        100.0 * seed->explored / seed->nodes);
        }
        const double searched = stat(r, "searched"), joined = stat(r, "joined_cost");
        std::printf("%-24s %6zu %5zu | %-10s %8.0f %6.1f%% %9.3f %7.4f %9s | %s\n", name.c_str(), cells,
                    agents, "bsts-join", searched, 100.0 * searched / double(cells), joined,
                    exact > 0 ? joined / exact : 1.0, "", seed_text);
      }
      std::printf("%-24s %6zu %5zu | %-10s %8.0f %6.1f%% %9.3f %7.4f %9.1f |\n", "", cells, agents,
                  kModes[m].name, stat(r, "explored"), stat(r, "explored_percent"), r.cost,
                  exact > 0 ? r.cost / exact : 1.0, runs[m].micros);
    }
  }
  return kExitOk;
}

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const std::size_t i = std::min(sorted.size() - 1, std::size_t(q * double(sorted.size() - 1) + 0.5));
  return sorted[i];
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return v.empty() ? 0.0 : sum / double(v.size());
}

int bench_placements(const Scenario& base, int placements, std::uint64_t seed, const std::string& dump_dir) {
  std::printf("placements: %d per agent count on %g x %g m, %d x %d cells, seed %llu\n", placements,
              base.world.width, base.world.height, base.grid_size().x, base.grid_size().y,
              (unsigned long long)seed);
  for (const int agents : {1, 4}) {
    std::mt19937_64 rng(seed + std::uint64_t(agents));
    std::uniform_real_distribution<double> ux(0, base.world.width), uy(0, base.world.height), ur(15, 45);
    std::uniform_real_distribution<double> west(5, 40), east(base.world.width - 40, base.world.width - 5);
    std::vector<double> ratios[kHeuristicModes], explored[kModeCount];
    // BSTS's search alone (no repair, as the seed): joined cost / exact, explored percent,
    // and how often it expanded fewer cells than the admissible and exact searches.
    std::vector<double> join_ratio, join_explored;
    int fewer_than_admissible = 0, fewer_than_exact = 0;
    int no_path = 0;
    double micros[kModeCount] = {};
    for (int p = 0; p < placements; ++p) {
      Scenario s = base;
      s.threats.clear();
      s.allies.clear();
      s.queries.clear();
      for (int i = 0; i < agents; ++i) {
        s.threats.push_back(Influence{std::uint32_t(i + 1), {ux(rng), uy(rng)}, ur(rng), 1, ""});
        s.allies.push_back(Influence{std::uint32_t(i + 1), {ux(rng), uy(rng)}, ur(rng), 1, ""});
      }
      const PathQuery q{{west(rng), uy(rng)}, {east(rng), uy(rng)}};
      PlanningWorld world(s);
      double cost[kModeCount] = {};
      double percent[kModeCount] = {};
      double searched[kModeCount] = {};
      double joined = 0;
      bool found = true;
      for (int m = 0; m < kModeCount && found; ++m) {
        auto planner = make_planner(world, 0, kModes[m].mode);
        const Run r = run(*planner, q, 1);
        micros[m] += r.micros;
        found = r.result.status == SearchStatus::Found;
        if (!found) break;
        cost[m] = r.result.cost;
        percent[m] = stat(r.result, "explored_percent");
        searched[m] = stat(r.result, "searched");
        if (m == 0) joined = stat(r.result, "joined_cost");
      }
      if (!found) {
        ++no_path;
        continue;
      }
      for (int m = 0; m < kModeCount; ++m) explored[m].push_back(percent[m]);
      const double cells = double(world.grid(0).cell_count());
      join_ratio.push_back(cost[kExact] > 0 ? joined / cost[kExact] : 1.0);
      join_explored.push_back(100.0 * searched[0] / cells);
      fewer_than_admissible += searched[0] < searched[3] ? 1 : 0;
      fewer_than_exact += searched[0] < searched[kExact] ? 1 : 0;
      for (int m = 0; m < kHeuristicModes; ++m)
        ratios[m].push_back(cost[kExact] > 0 ? cost[m] / cost[kExact] : 1.0);
      if (!dump_dir.empty()) {
        for (int m = 1; m < kHeuristicModes; ++m) {  // BSTS misses too often to be worth saving
          if (!(ratios[m].back() > 1.1)) continue;
          char name[96];
          std::snprintf(name, sizeof name, "%dv%d_%d_%s_%.3f.json", agents, agents, p, kModes[m].name,
                        ratios[m].back());
          Query query;
          query.name = "placement " + std::to_string(p);
          query.start = q.start;
          query.goal = q.goal;
          query.planner = "tactical";
          query.params = {{"mode", double(kModes[m].mode)}};
          s.queries.push_back(query);
          const Status saved = save_scenario(s, std::filesystem::path(dump_dir) / name);
          if (!saved) return fail_command("bench tactical", saved.error().to_string());
          s.queries.clear();
        }
      }
    }
    std::printf("  %d threat(s) + %d ally(ies): %zu placements found (%d without a path)\n", agents, agents,
                ratios[0].size(), no_path);
    for (int m = 0; m < kHeuristicModes; ++m) {
      std::vector<double>& r = ratios[m];
      std::sort(r.begin(), r.end());
      const auto share = [&](double limit) {
        return r.empty() ? 0.0
                         : 100.0 * double(std::upper_bound(r.begin(), r.end(), limit) - r.begin()) /
                               double(r.size());
      };
      std::vector<double> e = explored[m];
      std::sort(e.begin(), e.end());
      std::printf("    %s cost / exact: min %.4f, median %.4f, p90 %.4f, p99 %.4f, max %.4f, mean %.4f\n",
                  kModes[m].name, quantile(r, 0), quantile(r, 0.5), quantile(r, 0.9), quantile(r, 0.99),
                  quantile(r, 1), mean(r));
      std::printf(
          "      optimal (<= 1.000001) %.1f%%, within 5%% %.1f%%, within 10%% %.1f%%; explored mean %.1f%% "
          "(median %.1f%%, p90 %.1f%%)\n",
          share(1.000001), share(1.05), share(1.10), mean(e), quantile(e, 0.5), quantile(e, 0.9));
    }
    std::sort(join_ratio.begin(), join_ratio.end());
    std::printf(
        "    bsts-join (the seed's search, no repair): cost / exact median %.4f, p90 %.4f, max %.4f; "
        "explored "
        "mean %.1f%%; fewer cells than admissible in %d of %zu, than exact in %d of %zu\n",
        quantile(join_ratio, 0.5), quantile(join_ratio, 0.9), quantile(join_ratio, 1), mean(join_explored),
        fewer_than_admissible, join_ratio.size(), fewer_than_exact, join_ratio.size());
    const double n = std::max<double>(1.0, double(placements));
    std::printf("    explored mean: admissible %.1f%%, exact %.1f%%\n", mean(explored[3]), mean(explored[4]));
    std::printf("    mean time per query:");
    for (int m = 0; m < kModeCount; ++m)
      std::printf("%s %s %.1f us", m ? "," : "", kModes[m].name, micros[m] / n);
    std::printf("\n");
  }
  return kExitOk;
}

}  // namespace

int run_bench_tactical(const BenchTacticalOptions& options) {
  std::vector<std::string> paths = options.scenario_paths;
  auto overrides = parse_param_overrides(options.params);
  if (!overrides) return fail_command("bench tactical", overrides.error().to_string());
  const PlannerInfo* info = find_planner("tactical");
  for (const PlannerParam& p : *overrides) {
    if (p.name == "mode") return fail_command("bench tactical", "--param mode: the bench runs every mode");
  }
  if (auto checked = resolve_params(*info, *overrides, "--param"); !checked)
    return fail_command("bench tactical", checked.error().to_string());
  g_overrides = *overrides;
  std::filesystem::path maps;
  if (const auto found = find_default_scenario()) maps = found->parent_path();
  if (paths.empty()) {
    if (maps.empty())
      return fail_command("bench tactical", "maps/default.json not found; name the scenario files");
    for (const char* table : {"1v1", "4v4"}) {
      for (const int nodes : {512, 2048, 8192}) {
        paths.push_back(
            (maps / ("tactical_" + std::string(table) + "_" + std::to_string(nodes) + ".json")).string());
      }
    }
  }
  if (const int rc = bench_table(paths, options.repeat); rc != kExitOk) return rc;
  if (options.placements <= 0) return kExitOk;
  const std::string field = options.nodes == 512 ? "512" : options.nodes == 8192 ? "8192" : "2048";
  if (maps.empty()) return fail_command("bench tactical", "maps/ not found for the placements' field");
  auto base = load_any_scenario((maps / ("tactical_1v1_" + field + ".json")).string());
  if (!base) return fail_command("bench tactical", base.error().to_string());
  if (!options.dump_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.dump_dir, ec);
    if (ec) return fail_command("bench tactical", options.dump_dir + ": " + ec.message());
  }
  return bench_placements(*base, options.placements, options.seed, options.dump_dir);
}

namespace {

CliRunner add_bench_tactical_options(CLI::App& command) {
  auto options = std::make_shared<BenchTacticalOptions>();
  command.add_option("files", options->scenario_paths,
                     "scenarios for the table (default: maps/tactical_*.json)");
  command.add_option("--repeat", options->repeat, "runs per timing (the fastest counts)")
      ->check(CLI::Range(1, 1000));
  command.add_option("--placements", options->placements, "random placements per agent count (0 = none)")
      ->check(CLI::Range(0, 1000000));
  command.add_option("--nodes", options->nodes, "cells of the placements' field")
      ->check(CLI::IsMember({512, 2048, 8192}));
  command.add_option("--seed", options->seed, "seed of the placements");
  command.add_option(
      "--dump", options->dump_dir,
      "folder: save the placements an inexact mode leaves over 10% above the optimum as scenarios");
  command.add_option(
      "--param", options->params,
      "planner parameter for every mode, name=value (c1, c2, fading, occlusion, weight, corridor)");
  return [options] { return run_bench_tactical(*options); };
}

}  // namespace

const CliCommand kBenchTacticalCommand{
    "bench tactical",
    "tactical planner: seed 001's tables in three modes, BSTS sub-optimality over random placements",
    add_bench_tactical_options};

}  // namespace pathscope::app
