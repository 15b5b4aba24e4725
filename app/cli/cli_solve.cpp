// `pathscope solve FILE`: runs a scenario's queries headless and reports each result.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/world/belief.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

// Planner and parameters for one query: the query's own, or the command line's.
Result<PlannerChoice> choose_for_query(const Query& q, std::size_t index, const SolveOptions& options,
                                       const std::vector<PlannerParam>& cli_params) {
  PlannerChoiceRequest request;
  request.query_planner = q.planner;
  request.query_params = q.params;
  request.query_where = "queries[" + std::to_string(index) + "]";
  request.override_planner = options.planner;
  request.override_params = cli_params;
  return choose_planner(request);
}

nlohmann::ordered_json stats_json(const SearchStats& s) {
  nlohmann::ordered_json j;
  j["pushes"] = s.pushes;
  j["relaxations"] = s.relaxations;
  j["steps"] = s.steps;
  for (const auto& [k, v] : s.extra) j[k] = v;
  return j;
}

}  // namespace

int run_solve(const SolveOptions& options) {
  auto scenario = load_any_scenario(options.path);
  if (!scenario) {
    std::fprintf(stderr, "pathscope solve: %s\n", scenario.error().to_string().c_str());
    return kExitFailed;
  }
  auto cli_params = parse_param_overrides(options.params);
  if (!cli_params) {
    std::fprintf(stderr, "pathscope solve: %s\n", cli_params.error().to_string().c_str());
    return kExitUsage;
  }
  const std::size_t count = scenario->queries.size();
  if (options.query >= 0 && std::size_t(options.query) >= count) {
    std::fprintf(stderr, "pathscope solve: %s: --query %d: the scenario has %zu queries (0..%zu)\n",
                 options.path.c_str(), options.query, count, count == 0 ? 0 : count - 1);
    return kExitFailed;
  }
  if (count == 0) {
    std::fprintf(stderr, "pathscope solve: %s: the scenario has no queries\n", options.path.c_str());
    return kExitFailed;
  }

  if (!options.faction.empty() && !scenario->find_faction(options.faction)) {
    std::fprintf(stderr, "pathscope solve: --faction: no faction \"%s\" in %s\n", options.faction.c_str(),
                 options.path.c_str());
    return kExitUsage;
  }
  // Factions with fog of war look once with their units as they stand.
  observe_all(*scenario);
  const PlanningWorld world(std::move(*scenario));
  std::map<std::string, std::unique_ptr<Planner>> planners;  // reused across queries
  bool failed = false;
  for (std::size_t i = 0; i < count; ++i) {
    if (options.query >= 0 && std::size_t(options.query) != i) continue;
    const Query& q = world.scenario().queries[i];
    auto run = choose_for_query(q, i, options, *cli_params);
    if (!run) {
      std::fprintf(stderr, "pathscope solve: %s: %s\n", options.path.c_str(),
                   run.error().to_string().c_str());
      return kExitFailed;
    }
    const std::optional<std::size_t> faction =
        world.scenario().find_faction(options.faction.empty() ? q.faction : options.faction);
    std::string key = run->info->name + "/" + std::to_string(q.movement_class);
    for (double v : run->params) key += "/" + std::to_string(v);
    if (faction) key += "/faction " + std::to_string(*faction);
    auto& planner = planners[key];
    if (!planner) planner = run->info->create(QueryContext{world, q.movement_class, faction, run->params});

    const auto t0 = std::chrono::steady_clock::now();
    const PathResult& r = find_path(*planner, PathQuery{q.start, q.goal});
    const auto t1 = std::chrono::steady_clock::now();
    const double micros = std::chrono::duration<double, std::micro>(t1 - t0).count();

    // A known optimal length is a check for exact planners (tolerance: printed precision).
    std::string check;
    if (q.expected_length && run->info->exact) {
      const double tol = std::max(5e-3, 5e-6 * *q.expected_length);
      const bool ok = r.status == SearchStatus::Found && std::abs(r.length - *q.expected_length) <= tol;
      check = ok ? "ok" : "mismatch";
      failed |= !ok;
    }
    if (options.json) {
      nlohmann::ordered_json j;
      j["query"] = i;
      j["name"] = q.name;
      j["planner"] = run->info->name;
      if (faction) j["faction"] = world.scenario().factions[*faction].name;
      j["status"] = to_string(r.status);
      j["length"] = r.length;
      j["cost"] = r.cost;
      j["expansions"] = r.stats.expansions;
      j["micros"] = std::round(micros * 10) / 10;
      j["stats"] = stats_json(r.stats);
      // The path itself, so that anyone can check its cost (pathscope verify does).
      nlohmann::ordered_json points = nlohmann::ordered_json::array();
      for (const Vec2& p : r.points) points.push_back({p.x, p.y});
      j["points"] = points;
      if (q.expected_length) j["expected_length"] = *q.expected_length;
      if (!check.empty()) j["check"] = check;
      if (!r.message.empty()) j["message"] = r.message;
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf("query %zu%s%s%s  %-14s %-8s length %.6f  cost %.6f  expansions %llu  %.1f us", i,
                  q.name.empty() ? "" : " \"", q.name.c_str(), q.name.empty() ? "" : "\"",
                  run->info->name.c_str(), to_string(r.status), r.length, r.cost,
                  static_cast<unsigned long long>(r.stats.expansions), micros);
      if (!check.empty()) std::printf("  [expected %.6f: %s]", *q.expected_length, check.c_str());
      std::printf("\n");
      if (!r.message.empty()) std::printf("  %s\n", r.message.c_str());
    }
  }
  return failed ? kExitFailed : kExitOk;
}

namespace {

CliRunner add_solve_options(CLI::App& command) {
  auto options = std::make_shared<SolveOptions>();
  command.add_option("file", options->path, "scenario JSON or Moving AI .map")->required();
  command.add_option("--planner", options->planner, planner_help());
  command.add_option("--param", options->params, "planner parameter override, name=value (repeatable)");
  command.add_option("--faction", options->faction,
                     "plan every query with this faction's knowledge (fog of war)");
  command.add_option("--query", options->query, "run only query N (0-based)");
  command.add_flag("--json", options->json, "one JSON object per line and query");
  return [options] { return run_solve(*options); };
}

}  // namespace

const CliCommand kSolveCommand{"solve", "run a scenario's path queries headless", add_solve_options};

}  // namespace pathscope::app
