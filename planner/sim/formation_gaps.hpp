#pragma once

// Formations as collision entities (seed 002, "Collision Determination": "If a formation
// has space between some of its units, it is unacceptable for a non-formed unit to occupy
// that space"). A component of the step: it reads each driving platoon's area (the convex
// hull of its vehicles' centres) and the other units' moves, and writes those units'
// positions only (formation_gaps.cpp).
//
// A unit of no platoon keeps its centre at least its hard radius from every area: a move
// that would take it in stops where it meets the area's edge; a unit the area came over
// (the platoon drove onto it) is pushed straight out, at most as far as it can move in a
// step. No push or cut crosses a closed cell of its grid. Vehicles of other platoons are
// left alone: platoons pass through each other (seed 004), vehicle by vehicle. A platoon
// at rest is a group, checked unit by unit (seed 002).

#include <cstdint>
#include <span>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// The convex hull of `points`, counter-clockwise in x right, y up terms (Andrew's
/// monotone chain); collinear and repeated points dropped. One point, or two for points
/// on a line.
std::vector<Vec2> convex_hull(std::vector<Vec2> points);

/// The distance from `p` to the convex polygon `hull` (as convex_hull gives it: 1 or 2
/// points too); 0 inside. `out` is set to the direction to leave it by: away from the
/// nearest boundary point (inside: along the nearest edge's outward normal).
double distance_to_hull(std::span<const Vec2> hull, Vec2 p, Vec2& out);

/// One unit as the rule sees it.
struct GapUnit {
  Vec2 start{0, 0};                  ///< Where it stood when the step began (metres).
  Vec2 position{0, 0};               ///< In: where its move ended. Out: where the rule left it.
  double radius = 0;                 ///< Its hard radius (metres).
  double reach = 0;                  ///< Metres it may be pushed out in one step (its speed x dt).
  std::uint32_t movement_class = 0;  ///< Index into the grids.
  std::uint16_t move_key = 0;        ///< Its terrain group's move key.
  bool applies = false;              ///< Alive and in no platoon: the rule applies to it.
  bool kept = false;                 ///< Out: the rule moved it this step.
};

/// Keeps every unit the rule applies to out of the areas (see above). `areas`: one convex
/// hull per driving platoon; `grids` per movement class.
void keep_out_of_formations(std::span<const std::vector<Vec2>> areas, std::span<GapUnit> units,
                            std::span<const CostGrid* const> grids);

}  // namespace pathscope::sim
