#pragma once

// The grid family's registry entries (found and listed by the build, planner/registry/README.md).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// What the grid planners' `cost` measures: each move's length times the mean multiplier
/// of the two cells it joins.
inline constexpr char kGridCostUnits[] = "metres of terrain-weighted travel";

/// Appends astar, weighted_astar, dijkstra, bidirectional, jps, jps_block and jps_plus.
void append_grid_planners(std::vector<PlannerInfo>& registry);

/// Where the registry lists the family: families in increasing order (the build reads
/// this line, planner/registry/README.md).
inline constexpr int kGridRegistryOrder = 10;

}  // namespace pathscope
