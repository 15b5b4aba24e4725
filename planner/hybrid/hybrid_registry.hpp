#pragma once

// The hybrid family's registry entries (listed by planner/registry/planner_list.cpp).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the hybrid planner.
void append_hybrid_planners(std::vector<PlannerInfo>& registry);

}  // namespace pathscope
