#pragma once

// The tactical family's registry entries (listed by planner/registry/planner_list.cpp).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the tactical planner.
void append_tactical_planners(std::vector<PlannerInfo>& registry);

}  // namespace pathscope
