#pragma once

// Generated standard cases for the simulation's benchmark and tests: units on a circle
// swapping to the antipode, two groups crossing through a gap, units with random goals
// on a map. Deterministic for given arguments.

#include <cstdint>

#include "planner/scenario/scenario.hpp"

namespace pathscope::sim {

/// `units` infantry (radius 0.5 m) evenly on a circle 1.5 m apart (at least 10 m
/// across), each ordered to the antipode, in an open world with a margin.
Scenario circle_case(int units);

/// Two groups of `per_group` infantry on either side of a wall, each ordered to the
/// other side through one gap `gap` metres wide (a few units); each block keeps its
/// arrangement, so its front units go farthest.
Scenario crossing_case(int per_group, double gap = 4.0);

/// Two groups of `per_group` infantry swapping sides through a street `width` metres wide
/// and `length` long between two open squares, blocks as in crossing_case: wider than a
/// narrow passage, so the two crowds meet head-on in it (a knot, sim/knots.hpp).
Scenario street_case(int per_group, double width, double length = 20.0);

/// The crossing case with one group only: `units` infantry through the gap, nobody
/// coming the other way. Its time to arrive measures the gap's own flow (units per
/// second), apart from the turns and the crowds of a crossing.
Scenario funnel_case(int units, double gap = 4.0);

/// `units` units of the map's first class at random open cells of `map`, each ordered
/// to another random open cell of the same region; units start at least 1.2 m apart.
Scenario random_goals_case(Scenario map, int units, std::uint64_t seed);

}  // namespace pathscope::sim
