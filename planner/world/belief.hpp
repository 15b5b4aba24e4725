#pragma once

// Fog of war (seed 003, "The solution, part 2" and "part 3"): what a faction knows of the
// world's features, and the world it plans with.
//
// A faction with sight > 0 sees a circle of that radius around each of its units. Each
// observation updates its memory: features in view are remembered as they are now (whole,
// or only the parts in view), features remembered in view that are gone (destroyed or
// moved away) are forgotten; out of view the memory stays as it was, so a destroyed
// building is believed until its place is seen again. Tiles are terrain, known to every
// faction as the map is; roads and bridges likewise.

#include <cstddef>
#include <vector>

#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// Where the faction's units stand (the centres of its view circles).
std::vector<Vec2> view_centres(const Scenario& scenario, std::size_t faction);

/// True when the shape meets a circle of radius `sight` around one of `centres` (exact).
bool shape_in_view(const Shape& shape, const std::vector<Vec2>& centres, double sight);

/// The faction's memory after one look at `scenario` (its current memory is the state
/// before). A faction with sight 0 has no fog: its memory is returned unchanged.
/// With `partial`, features are remembered as the parts seen (polygons, pieces of a
/// feature sharing its id; what was remembered of it out of view is kept); circles of
/// view are polygons within 1/100 of the sight inside the true circles. Deterministic.
std::vector<Feature> observe(const Scenario& scenario, std::size_t faction);

/// Updates the memory of every faction with fog of war; true when one changed.
bool observe_all(Scenario& scenario);

/// The scenario as the faction believes it: its remembered features instead of the
/// world's (for a faction with sight > 0); everything else as it is.
Scenario believed_scenario(const Scenario& scenario, std::size_t faction);

/// The world a faction plans with: built from believed_scenario() on first use and kept
/// up to date with the truth's updates. Valid until the truth world is rebuilt.
const PlanningWorld& believed_world(const PlanningWorld& truth, std::size_t faction);

}  // namespace pathscope
