#pragma once

// The quadtree family's registry entries (listed by planner/registry/planner_list.cpp).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the quadtree planner.
void append_quadtree_planners(std::vector<PlannerInfo>& registry);

}  // namespace pathscope
