// The one list of planners. To add a planner: write it behind the Planner interface and
// add one entry here; the CLI and the app pick it up from this table.

#include "planner/core/planner_registry.hpp"

#include <cmath>
#include <cstdio>

#include "planner/grid/grid_astar.hpp"
#include "planner/grid/grid_bidirectional.hpp"

namespace pathscope {
namespace {

std::vector<PlannerInfo> make_registry() {
  std::vector<PlannerInfo> r;
  r.push_back(PlannerInfo{
      "astar", "A* on the 8-connected cell grid (octile heuristic; optimal)", true, {},
      [](const PlanningWorld& w, std::size_t c, const ParamValues&) {
        return std::make_unique<GridAStar>(w, c, GridAStarParams{1.0}, "astar");
      }});
  r.push_back(PlannerInfo{
      "weighted_astar", "Weighted A*: f = g + w h; cost at most w times the optimum", false,
      {ParamSpec{"weight", "heuristic weight w (1 = A*)", 1.5, 1.0, 100.0}},
      [](const PlanningWorld& w, std::size_t c, const ParamValues& p) {
        return std::make_unique<GridAStar>(w, c, GridAStarParams{p.at(0)}, "weighted_astar");
      }});
  r.push_back(PlannerInfo{
      "dijkstra", "Dijkstra on the cell grid (no heuristic; optimal)", true, {},
      [](const PlanningWorld& w, std::size_t c, const ParamValues&) {
        return std::make_unique<GridAStar>(w, c, GridAStarParams{0.0}, "dijkstra");
      }});
  r.push_back(PlannerInfo{
      "bidirectional", "Bidirectional A* on the cell grid (optimal stopping rule)", true, {},
      [](const PlanningWorld& w, std::size_t c, const ParamValues&) {
        return std::make_unique<GridBidirectional>(w, c, "bidirectional");
      }});
  return r;
}

}  // namespace

std::span<const PlannerInfo> planner_registry() {
  static const std::vector<PlannerInfo> registry = make_registry();
  return registry;
}

const PlannerInfo* find_planner(std::string_view name) {
  for (const PlannerInfo& info : planner_registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

Result<ParamValues> resolve_params(const PlannerInfo& info, std::span<const PlannerParam> overrides,
                                   const std::string& where_prefix) {
  ParamValues values;
  for (const ParamSpec& spec : info.params) values.push_back(spec.default_value);
  for (const PlannerParam& p : overrides) {
    const std::string where = where_prefix + ".params." + p.name;
    std::size_t k = 0;
    while (k < info.params.size() && info.params[k].name != p.name) ++k;
    if (k == info.params.size()) {
      std::string known;
      for (const ParamSpec& spec : info.params) known += (known.empty() ? "" : ", ") + spec.name;
      return make_error(ErrorCode::Schema, where,
                        "planner \"" + info.name + "\" has no parameter \"" + p.name + "\" (known: " +
                            (known.empty() ? "none" : known) + ")");
    }
    const ParamSpec& spec = info.params[k];
    if (!std::isfinite(p.value) || p.value < spec.min_value || p.value > spec.max_value) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "expected a number in [%g, %g], got %g", spec.min_value, spec.max_value, p.value);
      return make_error(ErrorCode::Value, where, buf);
    }
    values[k] = p.value;
  }
  return values;
}

}  // namespace pathscope
