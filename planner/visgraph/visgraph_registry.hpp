#pragma once

// The visgraph family's registry entries (listed by planner/registry/planner_list.cpp).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the visgraph planner.
void append_visgraph_planners(std::vector<PlannerInfo>& registry);

}  // namespace pathscope
