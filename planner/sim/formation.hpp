#pragma once

// Formation goals for group orders (seed 002, "Group" and "Formation"; ours: the goal
// slots). A move order given to several units at once sends each to its own slot of a
// compact formation round the ordered point, instead of all of them to that one point;
// the unit nearest the destination along the way (a column's head) takes a slot of the
// farthest row, so it walks on past the slots of those behind it.
//
// Slots lie on a square lattice in the frame of the group's travel: rows face the way
// the group goes, `spacing` metres apart. Lattice points are taken nearest to the ordered
// point first (then front rows first, then by column); one that is closed to a unit
// of the group is skipped, so slots that would fall in walls or water move to the nearest
// free lattice points, searched outward. Every slot is checked for every kind of unit in
// the group (movement class and terrain group): every cell its hard shape would touch is
// open to it, and the slot lies in the connected region of the ordered point (or, when
// that point is closed, in the region holding most of those units).

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope {
class PlanningWorld;
}

namespace pathscope::sim {

/// A unit to place in a formation.
struct FormationUnit {
  Vec2 position{0, 0};             ///< Metres.
  std::size_t movement_class = 0;  ///< Index into the scenario's classes.
  std::uint16_t move_key = 0;      ///< Its terrain group's move key (CostGrid::move_key).
  double hard_radius = 0.5;        ///< Metres (its class's hard radius).
  double soft_radius = 0.75;       ///< Metres.
};

/// One slot of a formation: where, and its place on the lattice.
struct FormationSlot {
  Vec2 position{0, 0};  ///< Metres.
  int row = 0;          ///< Lattice rows along the travel direction (> 0: ahead of the ordered point).
  int column = 0;       ///< Lattice columns across it (> 0: along (-direction.y, direction.x)).
};

/// The goal slots of a group order.
struct FormationPlan {
  Vec2 point{0, 0};      ///< The ordered point.
  Vec2 direction{1, 0};  ///< Unit vector: the way the group travels.
  double spacing = 0;    ///< Metres between neighbouring lattice points.
  /// Per unit, in the order the units were given: its slot, or one with row kNoSlot
  /// (position: the ordered point) when no free slot was found.
  std::vector<FormationSlot> slots;
};

/// `FormationSlot::row` of a unit that got no slot.
inline constexpr int kNoSlot = -0x7fffffff;
/// Metres added to two hard radii between slots, at least (the spacing is the larger of
/// that and two soft radii).
inline constexpr double kSlotMargin = 0.25;

/// Metres beyond four times a formation's side that free slots are searched for.
inline constexpr double kSlotReach = 32;

/// The spacing of a formation of `units`: max(2 x largest soft radius, 2 x largest hard
/// radius + kSlotMargin), metres.
double formation_spacing(std::span<const FormationUnit> units);

/// The way a group at `units` travels to `point`: from the units' centroid to it, or
/// +x when they stand on it (unit vector).
Vec2 travel_direction(std::span<const FormationUnit> units, Vec2 point);

/// Free lattice points for `count` units round `point` (see the top of this file), in
/// the order they were found (nearest first); fewer when the region has no more room
/// within 4 x (ceil(sqrt(count)) + 1) lattice steps plus kSlotReach metres. Deterministic: integer lattice
/// keys, a fixed order, no clock.
std::vector<FormationSlot> formation_slots(const PlanningWorld& world, std::span<const FormationUnit> units,
                                           Vec2 point, Vec2 direction, double spacing, std::size_t count);

/// Slots for `units` ordered to `point`, going `direction`, and which unit takes which.
/// Assignment by sorting: units by their projection on the direction, farthest along
/// first (the column's head), then by their place across the way, then input order;
/// slots row by row from the front. Each row of k slots takes the next k units, which
/// are sorted across the way (then farthest along first) and take the row's slots by
/// column, so units that walk side by side keep their sides and nobody crosses another's
/// line to reach a row. Units left without a slot are the last in that order.
/// `column` is the way the units' order in the column is read (for a route of
/// waypoints, the way to its first point: who gets there first leads); by default
/// `direction`.
FormationPlan plan_formation(const PlanningWorld& world, std::span<const FormationUnit> units, Vec2 point,
                             Vec2 direction, std::optional<Vec2> column = std::nullopt);

}  // namespace pathscope::sim
