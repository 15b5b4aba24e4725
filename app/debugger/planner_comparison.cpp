// PlannerComparison: find_path with every registered planner on one query.

#include "app/debugger/planner_comparison.hpp"

#include <memory>
#include <utility>

#include "app/debugger/frame_budget.hpp"
#include "planner/core/planner_registry.hpp"

namespace pathscope::app {

const std::vector<ComparisonRow>& PlannerComparison::run(const PlanningWorld& world, const Query& q,
                                                         PlannerCache& planners,
                                                         std::span<const PlannerInfo> registry) {
  rows_.clear();
  if (q.movement_class >= world.class_count()) return rows_;
  for (const PlannerInfo& info : registry) {
    ComparisonRow row;
    row.name = info.name;
    row.exact = info.exact;
    ParamValues defaults;
    for (const ParamSpec& spec : info.params) defaults.push_back(spec.default_value);
    // Never replace a cached planner here: the active one is borrowed for node positions.
    std::unique_ptr<Planner> temporary;
    Planner* p = planners.get(world, info, q.movement_class, defaults, PlannerRole::Batch, false,
                              world.scenario().find_faction(q.faction));
    if (!p) {
      temporary =
          planners.make(world, info, q.movement_class, defaults, world.scenario().find_faction(q.faction));
      p = temporary.get();
    }
    const DebugClock::time_point t0 = DebugClock::now();
    const PathResult& r = find_path(*p, PathQuery{q.start, q.goal});
    row.micros = micros_since(t0);
    row.status = r.status;
    row.length = r.length;
    row.cost = r.cost;
    row.expansions = r.stats.expansions;
    row.message = r.message;
    rows_.push_back(std::move(row));
  }
  return rows_;
}

}  // namespace pathscope::app
