#pragma once

// The tactical family's registry entries (found and listed by the build, planner/registry/README.md).

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the tactical planner.
void append_tactical_planners(std::vector<PlannerInfo>& registry);

/// Where the registry lists the family: families in increasing order (the build reads
/// this line, planner/registry/README.md).
inline constexpr int kTacticalRegistryOrder = 40;

}  // namespace pathscope
