// `pathscope verify FILE`: runs the path referee (planner/referee/) on every query of a
// scenario, for the query's planner or each planner named, and compares: reported cost,
// the referee's cost, legality, and the ratio of the referee's cost to grid A*'s optimum
// on the same cells.

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "app/cli/cli_commands.hpp"
#include "app/cli/command_table.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {
namespace {

struct VerifyOptions {
  std::string path;                   ///< Scenario JSON, or a Moving AI .map.
  std::vector<std::string> planners;  ///< Empty: each query's own planner.
  std::vector<std::string> params;    ///< "name=value" overrides, for the planners named.
  bool json = false;
};

// One planner made for a class and parameters, reused across queries.
struct Made {
  std::unique_ptr<Planner> planner;
};

std::string number(double v) {
  if (!std::isfinite(v)) return v > 0 ? "inf" : "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

int run_verify(const VerifyOptions& options) {
  auto scenario = load_any_scenario(options.path);
  if (!scenario) {
    std::fprintf(stderr, "pathscope verify: %s\n", scenario.error().to_string().c_str());
    return kExitFailed;
  }
  auto cli_params = parse_param_overrides(options.params);
  if (!cli_params) {
    std::fprintf(stderr, "pathscope verify: %s\n", cli_params.error().to_string().c_str());
    return kExitUsage;
  }
  if (scenario->queries.empty()) {
    std::fprintf(stderr, "pathscope verify: %s: the scenario has no queries\n", options.path.c_str());
    return kExitFailed;
  }
  const PlanningWorld world(std::move(*scenario));
  const std::vector<Query>& queries = world.scenario().queries;
  std::map<std::string, std::unique_ptr<Planner>> planners;  // by name, class and parameters
  const auto planner_for = [&](const PlannerChoice& c, std::size_t cls) -> Planner& {
    std::string key = c.info->name + "/" + std::to_string(cls);
    for (double v : c.params) key += "/" + std::to_string(v);
    auto& p = planners[key];
    if (!p) p = c.info->create(QueryContext{world, cls, std::nullopt, c.params});
    return *p;
  };
  const PlannerInfo* astar = find_planner("astar");

  int checked = 0, disagree = 0, illegal = 0;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const Query& q = queries[i];
    std::vector<std::string> names = options.planners;
    if (names.empty()) names.push_back(q.planner);
    // Grid A*'s optimum on the same cells, once per query.
    double optimum = NAN;
    if (astar) {
      auto params = resolve_params(*astar, {});
      if (params) {
        const PathResult& r = find_path(planner_for(PlannerChoice{astar, *params}, q.movement_class),
                                        PathQuery{q.start, q.goal});
        if (r.status == SearchStatus::Found) optimum = r.cost;
      }
    }
    for (const std::string& name : names) {
      PlannerChoiceRequest request;
      request.query_planner = q.planner;
      request.query_params = q.params;
      request.query_where = "queries[" + std::to_string(i) + "]";
      request.override_planner = options.planners.empty() ? std::string_view() : std::string_view(name);
      request.override_params = *cli_params;
      auto choice = choose_planner(request);
      if (!choice) {
        std::fprintf(stderr, "pathscope verify: %s: %s\n", options.path.c_str(),
                     choice.error().to_string().c_str());
        return options.planners.empty() ? kExitFailed : kExitUsage;
      }
      const PlannerInfo& info = *choice->info;
      const PathResult r = find_path(planner_for(*choice, q.movement_class), PathQuery{q.start, q.goal});
      nlohmann::ordered_json j;
      j["query"] = i;
      j["name"] = q.name;
      j["planner"] = info.name;
      j["status"] = to_string(r.status);
      std::string verdict_text;
      if (r.status == SearchStatus::Found) {
        const referee::RefereeParams rp = referee::params_for(info, choice->params, world, q.movement_class);
        auto v = referee::referee_path(world, q.movement_class, r.points, rp);
        if (!v) {
          std::fprintf(stderr, "pathscope verify: %s: queries[%zu]: %s\n", options.path.c_str(), i,
                       v.error().to_string().c_str());
          return kExitFailed;
        }
        ++checked;
        const bool compared = info.referee.cost == CostModel::Terrain;
        const bool agrees = !compared || referee::costs_agree(r.cost, v->cost);
        disagree += agrees ? 0 : 1;
        illegal += v->legal ? 0 : 1;
        const double ratio = std::isfinite(optimum) && optimum > 0 ? v->cost / optimum : NAN;
        j["reported_cost"] = r.cost;
        j["referee_cost"] =
            std::isfinite(v->cost) ? nlohmann::ordered_json(v->cost) : nlohmann::ordered_json();
        j["length"] = r.length;
        j["legal"] = v->legal;
        j["cost_compared"] = compared;
        if (!compared) j["cost_model"] = info.referee.note;
        j["agrees"] = agrees;
        j["clearance"] = rp.clearance;
        if (std::isfinite(optimum)) j["astar_cost"] = optimum;
        if (std::isfinite(ratio)) j["ratio"] = ratio;
        nlohmann::ordered_json vs = nlohmann::ordered_json::array();
        for (const referee::Violation& x : v->violations)
          vs.push_back({{"kind", referee::to_string(x.kind)}, {"leg", x.leg}, {"message", x.message}});
        j["violations"] = vs;
        j["violation_count"] = v->violation_count;
        verdict_text = "reported " + number(r.cost) + "  referee " + number(v->cost) + "  " +
                       (v->legal ? "legal" : "ILLEGAL") + "  ratio " +
                       (std::isfinite(ratio) ? number(ratio).substr(0, 6) : std::string("-")) + "  ";
        if (!compared)
          verdict_text += "cost not compared (" + info.referee.note + ")";
        else
          verdict_text += agrees ? "ok" : "COST DISAGREES";
        for (const referee::Violation& x : v->violations) verdict_text += "\n    " + x.message;
        if (v->violation_count > v->violations.size())
          verdict_text += "\n    ... " + std::to_string(v->violation_count - v->violations.size()) + " more";
      } else if (!r.message.empty()) {
        j["message"] = r.message;
        verdict_text = r.message;
      }
      if (options.json) {
        std::printf("%s\n", j.dump().c_str());
      } else {
        std::printf("query %zu%s%s%s  %-14s %-8s %s\n", i, q.name.empty() ? "" : " \"", q.name.c_str(),
                    q.name.empty() ? "" : "\"", info.name.c_str(), to_string(r.status), verdict_text.c_str());
      }
    }
  }
  if (!options.json) {
    std::printf("%d paths refereed: %d costs disagree (tolerance %g relative), %d illegal\n", checked,
                disagree, referee::kCostTolerance, illegal);
  }
  return disagree + illegal > 0 ? kExitFailed : kExitOk;
}

CliRunner add_verify_options(CLI::App& command) {
  auto options = std::make_shared<VerifyOptions>();
  command.add_option("file", options->path, "scenario JSON or Moving AI .map")->required();
  command.add_option(
      "--planner", options->planners,
      "referee this planner's answers (repeatable; default: each query's own)\n" + planner_help());
  command.add_option("--param", options->params, "planner parameter override, name=value (repeatable)");
  command.add_flag("--json", options->json, "one JSON object per line, query and planner");
  command.footer(
      "Plans every query on the world as it is (no fog of war) and recomputes each path's cost by exact\n"
      "integration over the world's cells (planner/referee/README.md). Exit status 1 when a reported cost\n"
      "disagrees with the referee's by more than the tolerance, or a path is illegal.");
  return [options] { return run_verify(*options); };
}

}  // namespace

const CliCommand kVerifyCommand{"verify", "check every query's path with the path referee: cost and legality",
                                add_verify_options};

}  // namespace pathscope::app
