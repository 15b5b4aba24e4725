// `pathscope bench conformance`: the conformance suite (planner/referee/conformance.hpp)
// over every registered planner (or those of --planner) on --worlds generated worlds:
// per planner, queries, paths found, refusals, each kind of violation (illegal paths,
// costs that disagree with the path referee's, stepping that differs from one shot,
// node_at() failing its round trip, no path where one keeping the radius exists, a cost
// above the planner's declared bound, a replayed trace that differs from the live run, a
// kept answer after an edit that differs from a fresh search, a structure view handing
// out more than its budget), the answers kept and voided after edits, the worst relative
// cost error and the worst ratio of its cost to grid A*'s. Then the radius-0 uniform-cost
// bounds (planner/referee/uniform_bounds.hpp) on --uniform-worlds worlds of one cost: per
// planner its declared bound, the worst and mean ratio of its cost to grid A*'s, where the
// worst was found, and violations (refusals where grid A* finds a path, illegal paths,
// costs that disagree, costs above the bound); skipped planners with the reason.
// --write-worst writes each planner's worst uniform world and query as a scenario to
// render. Exits with 1 when any planner has a violation.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/bench_support.hpp"
#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/referee/conformance.hpp"
#include "planner/referee/uniform_bounds.hpp"
#include "planner/scenario/scenario_io.hpp"

namespace pathscope::app {
namespace {

struct BenchConformanceOptions {
  std::uint64_t first = 1000;  ///< Seed of the first world.
  int worlds = 30;
  int queries = 6;  ///< Queries per world.
  std::vector<std::string> planners;
  bool json = false;
  int uniform_worlds = 30;  ///< Uniform-cost worlds for the radius-0 bounds (0: none).
  std::string write_worst;  ///< Folder for each planner's worst uniform world ("": none).
};

// The worst uniform world of `row` with its query (the planner and its radius-0
// parameters) as a scenario, written to `folder`.
Status write_worst_world(const referee::PlannerUniformBound& row, const std::string& folder) {
  const referee::UniformWorst& w = *row.worst;
  Scenario s = referee::uniform_world(w.seed);
  const PlannerInfo* info = find_planner(row.planner);
  Query q;
  q.name = row.planner + " worst";
  q.start = w.query.start;
  q.goal = w.query.goal;
  q.planner = row.planner;
  q.params = info->referee.radius_zero;
  s.queries.push_back(q);
  Query a = q;
  a.name = "grid A*";
  a.planner = "astar";
  a.params = {};
  s.queries.push_back(a);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  return save_scenario(s, std::filesystem::path(folder) / ("uniform_worst_" + row.planner + ".json"));
}

int run_bench_conformance(const BenchConformanceOptions& options) {
  std::vector<PlannerInfo> chosen;
  for (const PlannerInfo& p : planner_registry()) {
    bool wanted = options.planners.empty();
    for (const std::string& name : options.planners) wanted = wanted || name == p.name;
    if (wanted) chosen.push_back(p);
  }
  for (const std::string& name : options.planners) {
    if (find_planner(name) == nullptr)
      return fail_command("bench conformance", require_planner(name, "--planner").error().to_string());
  }
  // Grid A* answers beside the chosen planners for the bounds; it is reported only if chosen.
  const bool astar_chosen = find_planner("astar", chosen) != nullptr;
  if (!astar_chosen) chosen.push_back(*find_planner("astar"));
  const referee::ConformanceOptions o{options.first, options.worlds, options.queries, 2};
  std::vector<referee::PlannerConformance> report = referee::run_conformance(chosen, o);
  if (!astar_chosen) report.pop_back();
  std::vector<referee::PlannerUniformBound> uniform;
  if (options.uniform_worlds > 0) {
    uniform =
        referee::run_uniform_bounds(chosen, {options.first, options.uniform_worlds, options.queries, 6});
    if (!astar_chosen) uniform.pop_back();
  }
  if (!options.write_worst.empty()) {
    for (const referee::PlannerUniformBound& u : uniform) {
      if (!u.worst) continue;
      if (const Status s = write_worst_world(u, options.write_worst); !s.ok())
        return fail_command("bench conformance", s.error().to_string());
    }
  }

  int violations = 0;
  for (const referee::PlannerConformance& p : report) violations += p.violations();
  for (const referee::PlannerUniformBound& u : uniform) violations += u.violations();
  if (options.json) {
    nlohmann::ordered_json j;
    j["first_world"] = options.first;
    j["worlds"] = options.worlds;
    j["queries_per_world"] = options.queries;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const referee::PlannerConformance& p : report) {
      rows.push_back({{"planner", p.planner},
                      {"queries", p.queries},
                      {"found", p.found},
                      {"refused", p.refused},
                      {"illegal", p.illegal},
                      {"cost_disagree", p.cost_disagree},
                      {"cost_skipped", p.cost_skipped},
                      {"stepping_differs", p.stepping_differs},
                      {"node_at_fails", p.node_at_fails},
                      {"no_path_solvable", p.no_path_solvable},
                      {"bound", p.bound},
                      {"bound_checked", p.bound_checked},
                      {"over_bound", p.over_bound},
                      {"worst_ratio", p.worst_ratio},
                      {"replays", p.replays},
                      {"replay_differs", p.replay_differs},
                      {"kept", p.kept},
                      {"invalidated", p.invalidated},
                      {"stale_kept", p.stale_kept},
                      {"budgets_checked", p.budgets_checked},
                      {"over_budget", p.over_budget},
                      {"worst_cost_error", p.worst_cost_error},
                      {"violations", p.violations()},
                      {"examples", p.examples}});
    }
    j["planners"] = std::move(rows);
    nlohmann::ordered_json uniform_rows = nlohmann::ordered_json::array();
    for (const referee::PlannerUniformBound& u : uniform) {
      nlohmann::ordered_json row = {{"planner", u.planner},
                                    {"skipped", u.skipped},
                                    {"bound", u.bound},
                                    {"queries", u.queries},
                                    {"found", u.found},
                                    {"refused", u.refused},
                                    {"refused_solvable", u.refused_solvable},
                                    {"illegal", u.illegal},
                                    {"cost_disagree", u.cost_disagree},
                                    {"bound_checked", u.bound_checked},
                                    {"over_bound", u.over_bound},
                                    {"over_1_05", u.over_105},
                                    {"worst_ratio", u.worst_ratio},
                                    {"mean_ratio", u.bound_checked > 0 ? u.sum_ratio / u.bound_checked : 0.0},
                                    {"violations", u.violations()},
                                    {"examples", u.examples}};
      if (u.worst)
        row["worst"] = {{"world", u.worst->seed},
                        {"start", {u.worst->query.start.x, u.worst->query.start.y}},
                        {"goal", {u.worst->query.goal.x, u.worst->query.goal.y}},
                        {"cost", u.worst->cost},
                        {"astar", u.worst->reference}};
      uniform_rows.push_back(std::move(row));
    }
    j["uniform_worlds"] = options.uniform_worlds;
    j["uniform"] = std::move(uniform_rows);
    j["violations"] = violations;
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf(
        "conformance: worlds %llu-%llu, %d queries each\n", static_cast<unsigned long long>(options.first),
        static_cast<unsigned long long>(options.first + std::uint64_t(options.worlds) - 1), options.queries);
    std::printf("%-16s %7s %6s %7s %7s %6s %6s %7s %7s %8s %9s %9s %10s %6s %5s %6s %5s %6s\n", "planner",
                "queries", "found", "refused", "illegal", "cost", "steps", "node_at", "no path", "bound",
                "worst", "over", "cost error", "replay", "kept", "voided", "stale", "budget");
    for (const referee::PlannerConformance& p : report) {
      const std::string bound = p.bound > 0 ? std::to_string(p.bound).substr(0, 5) : "none";
      std::printf("%-16s %7d %6d %7d %7d %6d %6d %7d %7d %8s %9.4f %9d %10.1e %6d %5d %6d %5d %6d\n",
                  p.planner.c_str(), p.queries, p.found, p.refused, p.illegal, p.cost_disagree,
                  p.stepping_differs, p.node_at_fails, p.no_path_solvable, bound.c_str(), p.worst_ratio,
                  p.over_bound, p.worst_cost_error, p.replay_differs, p.kept, p.invalidated, p.stale_kept,
                  p.over_budget);
      for (const std::string& e : p.examples) std::printf("    %s\n", e.c_str());
    }
    std::printf(
        "columns: cost = costs that disagree with the path referee's; steps = stepped searches that differ "
        "from one shot; no path = refusals where a path keeping the radius exists; worst = largest cost / "
        "the reference's (grid A*'s, or the cheapest cell-centre moves keeping the planner's clearance); "
        "over = costs above bound x the reference's; replay = searches whose replayed trace differs from the "
        "live run (forward, backward, forward again); kept / voided = answers their dependency kept / voided "
        "after a random edit; stale = kept answers that differ from a fresh search or are illegal in the "
        "edited world; budget = structure views handing out more items than their budget\n");
    if (!uniform.empty()) {
      std::printf(
          "\nuniform cost, radius 0: worlds %llu-%llu (scatter, random, rooms, maze, walls), %d queries "
          "each\n",
          static_cast<unsigned long long>(options.first),
          static_cast<unsigned long long>(options.first + std::uint64_t(options.uniform_worlds) - 1),
          options.queries);
      std::printf("%-16s %7s %6s %7s %7s %7s %6s %6s %8s %7s %9s %5s %6s  %s\n", "planner", "queries",
                  "found", "refused", "no path", "illegal", "cost", "bound", "checked", "mean", "worst",
                  "over", ">1.05", "worst at");
      for (const referee::PlannerUniformBound& u : uniform) {
        if (!u.skipped.empty()) {
          std::printf("%-16s skipped: %s\n", u.planner.c_str(), u.skipped.c_str());
          continue;
        }
        char at[120] = "";
        if (u.worst)
          std::snprintf(at, sizeof at, "world %llu (%s) (%.1f, %.1f) -> (%.1f, %.1f)",
                        static_cast<unsigned long long>(u.worst->seed),
                        referee::to_string(referee::uniform_world_kind(u.worst->seed)),
                        u.worst->query.start.x, u.worst->query.start.y, u.worst->query.goal.x,
                        u.worst->query.goal.y);
        std::printf("%-16s %7d %6d %7d %7d %7d %6d %6.3f %8d %7.4f %9.4f %5d %6d  %s\n", u.planner.c_str(),
                    u.queries, u.found, u.refused, u.refused_solvable, u.illegal, u.cost_disagree, u.bound,
                    u.bound_checked, u.bound_checked > 0 ? u.sum_ratio / u.bound_checked : 0.0, u.worst_ratio,
                    u.over_bound, u.over_105, at);
        for (const std::string& e : u.examples) std::printf("    %s\n", e.c_str());
      }
      std::printf(
          "columns: no path = refusals where grid A* finds a path; cost = costs that disagree with the path "
          "referee's; bound = its declared radius-0 uniform bound; mean, worst = its cost / grid A*'s "
          "optimum "
          "on the same cells; over = costs above bound x grid A*'s; >1.05 = costs above 1.05 x grid A*'s\n");
    }
    std::printf("%d violations\n", violations);
  }
  std::fflush(stdout);
  return violations == 0 ? kExitOk : kExitFailed;
}

CliRunner add_bench_conformance_options(CLI::App& command) {
  auto options = std::make_shared<BenchConformanceOptions>();
  command.add_option("--first", options->first, "seed of the first generated world");
  command.add_option("--worlds", options->worlds, "generated worlds")->check(CLI::Range(1, 100000));
  command.add_option("--queries", options->queries, "random queries per world")->check(CLI::Range(1, 1000));
  command.add_option("--planner", options->planners, "planners to check (repeatable, or a,b; default: all)")
      ->delimiter(',');
  command
      .add_option("--uniform-worlds", options->uniform_worlds,
                  "uniform-cost worlds (from --first) for the radius-0 bounds; 0: none")
      ->check(CLI::Range(0, 100000));
  command.add_option("--write-worst", options->write_worst,
                     "folder to write each planner's worst uniform world and query to, as a scenario");
  command.add_flag("--json", options->json, "one JSON object with every figure");
  return [options] { return run_bench_conformance(*options); };
}

}  // namespace

const CliCommand kBenchConformanceCommand{
    "bench conformance",
    "every registered planner on generated worlds, checked by the path referee: legality, cost, stepping, "
    "node_at, solvable refusals, each planner's declared bound against grid A*, trace replay against the "
    "live run, kept answers after random edits, structure view budgets, and on uniform-cost worlds each "
    "planner's radius-0 bound against grid A*",
    add_bench_conformance_options};

}  // namespace pathscope::app
