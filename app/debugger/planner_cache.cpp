// PlannerCache: one planner object per (planner, movement class, role), made again only
// when its parameters change.

#include "app/debugger/planner_cache.hpp"

#include <optional>
#include <utility>

namespace pathscope::app {

Planner* PlannerCache::get(const PlanningWorld& world, const PlannerInfo& info, std::size_t movement_class,
                           const ParamValues& params, PlannerRole role, bool may_replace,
                           std::optional<std::size_t> faction) {
  for (Entry& e : entries_) {
    if (e.name != info.name || e.movement_class != movement_class || e.faction != faction || e.role != role)
      continue;
    if (e.params == params) return e.planner.get();
    if (!may_replace) return nullptr;
    e.planner.reset();  // free its search memory before allocating the new one's
    e.planner = make(world, info, movement_class, params, faction);
    e.params = params;
    return e.planner.get();
  }
  entries_.push_back(Entry{info.name, movement_class, faction, params, role,
                           make(world, info, movement_class, params, faction)});
  return entries_.back().planner.get();
}

std::unique_ptr<Planner> PlannerCache::make(const PlanningWorld& world, const PlannerInfo& info,
                                            std::size_t movement_class, const ParamValues& params,
                                            std::optional<std::size_t> faction) {
  ++created_;
  return info.create(QueryContext{world, movement_class, faction, params});
}

}  // namespace pathscope::app
