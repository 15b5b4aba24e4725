#pragma once

// Fog of war (seed 003, "The solution, part 2" and "part 3"): what a faction knows of the
// world's features, and the world it plans with.
//
// A faction with sight > 0 sees a circle of that radius around each of its units. Each
// observation updates its memory: features in view are remembered as they are now (whole,
// or only the parts in view), features remembered in view that are gone (destroyed or
// moved away) are forgotten; out of view the memory stays as it was, so a destroyed
// building is believed until its place is seen again. Tiles, roads and containers are
// terrain, known to every faction as the map is.
//
// Bridges (seed 004, "Bridges": "if a faction in the game doesn't know the bridge is gone,
// the pathfinding algorithm for that faction needs to act like it was still there, and
// only react accordingly when it was discovered that it was gone"): a faction remembers
// each bridge as it last saw it, intact or destroyed. A unit sees a bridge when any point
// of its deck's centre line (a to b) lies within its sight. The first look records every
// bridge as the map shows it; afterwards a bridge's state (or its removal) enters the
// memory only when a unit sees it. The believed world has the remembered bridges.

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

/// True when a point of the bridge's centre line (a to b) lies within `sight` of one of `centres`.
bool bridge_in_view(const Bridge& bridge, const std::vector<Vec2>& centres, double sight);

/// The faction's bridge memory after one look (see the rule above), in increasing id
/// order. A faction with sight 0 gets its memory back unchanged.
std::vector<Bridge> observe_bridges(const Scenario& scenario, std::size_t faction);

/// Updates the memory of every faction with fog of war (features and bridges); true
/// when one changed.
bool observe_all(Scenario& scenario);

/// The scenario as the faction believes it (for a faction with sight > 0): the world's
/// containers and its remembered features instead of the world's features; its
/// remembered bridges instead of the world's (those it has no memory of as they are),
/// in increasing id order; everything else as it is.
Scenario believed_scenario(const Scenario& scenario, std::size_t faction);

/// The world a faction plans with: built from believed_scenario() on first use and kept
/// up to date with the truth's updates. Valid until the truth world is rebuilt.
const PlanningWorld& believed_world(const PlanningWorld& truth, std::size_t faction);

}  // namespace pathscope
