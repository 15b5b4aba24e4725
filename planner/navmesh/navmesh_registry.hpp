#pragma once

// The navmesh family's registry entries (listed by planner/registry/planner_list.cpp).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the navmesh planner.
void append_navmesh_planners(std::vector<PlannerInfo>& registry);

}  // namespace pathscope
