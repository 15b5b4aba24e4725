#pragma once

// What a finished visibility-graph search depends on: the obstacles along its path.

#include <vector>

#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// The ResultDependency of the visgraph planner (seed 003: "you only have to recompute
/// paths when we have had to update links"). An obstacle added cannot make any path
/// shorter, so a path stays optimal while the obstacles added miss it; removed or moved
/// obstacles may open a shorter way, so they void it, as does a passable feature added
/// (it may open an obstacle it is painted over) and any bridge laid, destroyed or
/// changed, or a road (the road pass reads them). Changes that move no obstacle and no
/// road (threats, allies, units) keep it.
class VisGraphDependency final : public ResultDependency {
 public:
  /// `path`: the result's polyline (world); `pad`: metres an obstacle's box grows by
  /// (radius + max_error + a cell); `line`: also the straight start-goal segment, whose
  /// crossings the shortcut mode reads. `world` (which must outlive the dependency) is
  /// read for the terrain of added features, blocking `movement_class` or not.
  VisGraphDependency(std::vector<Vec2> path, double pad, bool line, const PlanningWorld& world,
                     std::size_t movement_class);

  bool still_valid(const WorldChange& change) const override;

 private:
  std::vector<Vec2> path_;
  double pad_;
  bool line_;
  const PlanningWorld& world_;
  std::size_t class_;
};

}  // namespace pathscope
