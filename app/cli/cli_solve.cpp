// `pathscope solve FILE`: runs a scenario's queries headless and reports each result.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli_commands.hpp"
#include "planner/core/planner_registry.hpp"

namespace pathscope::app {
namespace {

struct PlannedRun {
  const PlannerInfo* info = nullptr;
  ParamValues values;
};

// Planner and parameters for one query: the query's own, or the command line's.
Result<PlannedRun> choose_planner(const Query& q, std::size_t index, const SolveOptions& options,
                                  const std::vector<PlannerParam>& cli_params) {
  const std::string name = options.planner.empty() ? q.planner : options.planner;
  const PlannerInfo* info = find_planner(name);
  if (!info) {
    std::string known;
    for (const PlannerInfo& p : planner_registry()) known += (known.empty() ? "" : ", ") + p.name;
    return make_error(ErrorCode::Value, options.planner.empty() ? "queries[" + std::to_string(index) + "].planner" : "--planner",
                      "unknown planner \"" + name + "\" (known: " + known + ")");
  }
  std::vector<PlannerParam> params;
  if (name == q.planner) params = q.params;
  for (const PlannerParam& p : cli_params) {
    auto it = std::find_if(params.begin(), params.end(), [&](const PlannerParam& o) { return o.name == p.name; });
    if (it != params.end()) it->value = p.value;
    else params.push_back(p);
  }
  auto values = resolve_params(*info, params, options.planner.empty() ? "queries[" + std::to_string(index) + "]" : "--param");
  if (!values) return values.error();
  return PlannedRun{info, std::move(*values)};
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

  const PlanningWorld world(std::move(*scenario));
  std::map<std::string, std::unique_ptr<Planner>> planners;  // reused across queries
  bool failed = false;
  for (std::size_t i = 0; i < count; ++i) {
    if (options.query >= 0 && std::size_t(options.query) != i) continue;
    const Query& q = world.scenario().queries[i];
    auto run = choose_planner(q, i, options, *cli_params);
    if (!run) {
      std::fprintf(stderr, "pathscope solve: %s: %s\n", options.path.c_str(), run.error().to_string().c_str());
      return kExitFailed;
    }
    std::string key = run->info->name + "/" + std::to_string(q.movement_class);
    for (double v : run->values) key += "/" + std::to_string(v);
    auto& planner = planners[key];
    if (!planner) planner = run->info->create(world, q.movement_class, run->values);

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
      j["status"] = to_string(r.status);
      j["length"] = r.length;
      j["cost"] = r.cost;
      j["expansions"] = r.stats.expansions;
      j["micros"] = std::round(micros * 10) / 10;
      j["stats"] = stats_json(r.stats);
      if (q.expected_length) j["expected_length"] = *q.expected_length;
      if (!check.empty()) j["check"] = check;
      if (!r.message.empty()) j["message"] = r.message;
      std::printf("%s\n", j.dump().c_str());
    } else {
      std::printf("query %zu%s%s%s  %-14s %-8s length %.6f  cost %.6f  expansions %llu  %.1f us", i,
                  q.name.empty() ? "" : " \"", q.name.c_str(), q.name.empty() ? "" : "\"", run->info->name.c_str(),
                  to_string(r.status), r.length, r.cost, static_cast<unsigned long long>(r.stats.expansions), micros);
      if (!check.empty()) std::printf("  [expected %.6f: %s]", *q.expected_length, check.c_str());
      std::printf("\n");
      if (!r.message.empty()) std::printf("  %s\n", r.message.c_str());
    }
  }
  return failed ? kExitFailed : kExitOk;
}

}  // namespace pathscope::app
