#pragma once

// A family that exists only in the tests: one planner, `straight`, answering with the
// straight line from start to goal when every cell the line touches is open and of one
// cost, and no path otherwise. It shows that a family is added by adding its folder: the
// build of `pathscope_with_test_family` (tests/planner/registry/families/families.cmake)
// finds this header next to the library's families, and the registry, the CLI and the
// conformance suite list and run the planner with no edit anywhere else.

#include <vector>

#include "planner/core/planner_registry.hpp"

namespace pathscope {

/// Appends the straight planner.
void append_straight_planners(std::vector<PlannerInfo>& registry);

/// Where the registry lists the family: after the library's families.
inline constexpr int kStraightRegistryOrder = 900;

}  // namespace pathscope
