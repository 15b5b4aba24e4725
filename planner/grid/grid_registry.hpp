#pragma once

// The grid family's registry entries (listed by planner/registry/planner_list.cpp).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// What the grid planners' `cost` measures: each move's length times the mean multiplier
/// of the two cells it joins.
inline constexpr char kGridCostUnits[] = "metres of terrain-weighted travel";

/// Appends astar, weighted_astar, dijkstra, bidirectional, jps, jps_block and jps_plus.
void append_grid_planners(std::vector<PlannerInfo>& registry);

}  // namespace pathscope
