#pragma once

// Semantic checks on a Scenario, shared by loading (scenario_io) and by editing.

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// The semantic checks shared by loading and by editing: sizes and limits, finite
/// numbers, coordinates inside the world, simple polygons, unique ids and names, known
/// references (terrain, class, faction, unit, planner and its parameters), the movement
/// classes' simulation limits, orders' point counts, groups (each unit in at most one)
/// and the simulation's settings. On failure `where`
/// is the JSON path of the first problem in file order (factions before the threats and
/// allies that name them), e.g. "features[3].points[2]".
Status validate_scenario(const Scenario& scenario);

}  // namespace pathscope
