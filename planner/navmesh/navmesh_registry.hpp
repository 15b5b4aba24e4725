#pragma once

// The navmesh family's registry entries (found and listed by the build, planner/registry/README.md).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the navmesh planner.
void append_navmesh_planners(std::vector<PlannerInfo>& registry);

/// Where the registry lists the family: families in increasing order (the build reads
/// this line, planner/registry/README.md).
inline constexpr int kNavmeshRegistryOrder = 60;

}  // namespace pathscope
