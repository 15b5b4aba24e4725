#pragma once

// The visgraph family's registry entries (found and listed by the build, planner/registry/README.md).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the visgraph planner.
void append_visgraph_planners(std::vector<PlannerInfo>& registry);

/// Where the registry lists the family: families in increasing order (the build reads
/// this line, planner/registry/README.md).
inline constexpr int kVisgraphRegistryOrder = 30;

}  // namespace pathscope
