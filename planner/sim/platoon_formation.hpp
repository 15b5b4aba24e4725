#pragma once

// A platoon's formation and the drive-to point of each of its slots (seed 004, "4
// Formations": "Formation movement", "Column formation", "Obstacle avoidance"). A
// component: pure functions of the platoon's place on its path, its formation and the
// static world (as a segment test), nothing of the simulation.
//
// A formation is a set of offsets in the platoon's frame (x forward, y to its left),
// slot 0 the lead at (0, 0). The platoon has its own position: a slot whose vehicle is
// gone stays empty and no vehicle is promoted. Column formation is a snake: the slots
// lie on the path behind the platoon's position, `spacing` apart along it, bending with
// it; a segment along the platoon's heading at the order is added before the path, so
// the snake has somewhere to lie at the start. Other formations stand at their offsets,
// except that a slot whose position is cut off from the path is pulled towards its
// column position (see `morph_weight`). A change of formation moves each slot from its
// old position to its new one over a time, instead of jumping (the seed's "in
// retrospect").

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope::sim {

/// The formation shapes (seed 004, Figure 1, whose four shapes its text does not name:
/// those of armour platoons) and the scenario's own.
enum class FormationShape : std::uint8_t {
  Column,   ///< One behind another along the path (a snake).
  Line,     ///< Abreast, the lead in the middle.
  Wedge,    ///< A V pointing forward, the lead at its tip.
  Echelon,  ///< A diagonal back to the right of the lead.
  Custom,   ///< Offsets given by the scenario.
};

/// The shape's name in files and the window ("column", "line", "wedge", "echelon",
/// "custom").
std::string_view formation_shape_name(FormationShape shape);

/// A formation: one offset per slot in the platoon's frame (metres, x forward, y left).
struct PlatoonFormation {
  FormationShape shape = FormationShape::Wedge;  ///< Column slots follow the path, not their offsets.
  std::vector<Vec2> offsets;                     ///< Per slot; slot 0 is the lead.
};

/// The built-in formation of `slots` slots, `spacing` metres between neighbours (column:
/// along the path; line: abreast; wedge and echelon: spacing along and across both).
PlatoonFormation make_formation(FormationShape shape, std::size_t slots, double spacing);

/// A platoon frame's point in the world: `offset` (x forward, y left) from `origin`
/// facing `heading` (radians, as Unit::heading: world y down, counter-clockwise on screen).
Vec2 formation_point(Vec2 origin, double heading, Vec2 offset);

/// A polyline walked by arc length: the platoon's path after a lead-in segment along the
/// heading it had at the order. Arc length 0 is the lead-in's start; the path starts at
/// `path_start()`. Before 0 the lead-in's line goes on backwards; past the end, the end.
class PathWalk {
 public:
  /// An empty walk (every point (0, 0)).
  PathWalk() = default;
  /// `path`: the planned points, from (about) `start` to the goal (empty: the platoon has
  /// no path, the walk is the lead-in only); `lead_in` metres of segment along `heading`
  /// end at `start`. Repeated points are dropped.
  PathWalk(Vec2 start, double heading, std::span<const Vec2> path, double lead_in);
  /// The walk whose vertices are `points` (as points() gave them: no two equal in a row)
  /// and whose lead-in is `lead_in` metres (as path_start() gave it), arc lengths summed
  /// as the constructor sums them, so a saved walk is restored bit for bit.
  static PathWalk from_vertices(std::vector<Vec2> points, double lead_in);

  /// The point at arc length `s` (metres).
  Vec2 point_at(double s) const;
  /// The direction of the segment holding `s` (a unit vector; at a vertex, the next one).
  Vec2 direction_at(double s) const;
  /// Arc length where the planned path starts (the lead-in's length).
  double path_start() const { return lead_in_; }
  /// Arc length of the whole walk.
  double length() const { return cumulative_.empty() ? 0 : cumulative_.back(); }
  /// The vertices (the lead-in's start first).
  std::span<const Vec2> points() const { return points_; }

 private:
  std::size_t segment_at(double s) const;

  std::vector<Vec2> points_;        ///< Vertices, no two equal in a row.
  std::vector<double> cumulative_;  ///< Arc length at each vertex.
  double lead_in_ = 0;
};

/// True when the segment from `a` to `b` (metres) crosses a boundary the vehicles must
/// not (an obstacle, impassable ground, the world's edge), given the vehicles' clearance.
using SegmentBlocked = std::function<bool(Vec2 a, Vec2 b)>;

/// How far a slot is pulled from its formation position towards its column position:
/// 0 when the segment from the column position (on the path, which the planner made
/// safe) to the formation position crosses no boundary, else one minus the longest clear
/// fraction of that segment from the column end (bisection, `iterations` halvings), so
/// that the drive-to point is the farthest point towards its formation position still in
/// the open. Seed 004 tests the line from the lead vehicle's position; on a bent path
/// that line cuts the bend for slots behind the lead even in column, so the column
/// position is the anchor here.
double morph_weight(Vec2 column_point, Vec2 formation_point, const SegmentBlocked& blocked,
                    int iterations = 24);

/// Where a slot should be this step.
struct SlotTarget {
  Vec2 formation{0, 0};  ///< Its formation position (metres), the change of formation blended in.
  Vec2 column{
      0, 0};  ///< Its column position: on the path by its rank from the front (not before the path's start).
  Vec2 drive_to{0, 0};  ///< The point its vehicle drives to: formation pulled towards column by `morph`.
  double morph = 0;     ///< 0: at its formation position; 1: at its column position.
};

/// The inputs of a step's drive-to points.
struct DriveToInput {
  const PathWalk* walk = nullptr;          ///< The platoon's path (not null).
  double along = 0;                        ///< The platoon's arc length on it.
  Vec2 position{0, 0};                     ///< The platoon's position (metres).
  double heading = 0;                      ///< The platoon's heading (radians).
  const PlatoonFormation* from = nullptr;  ///< The formation being left (not null).
  const PlatoonFormation* to = nullptr;  ///< The formation being taken (not null; == from when none changes).
  double blend = 1;                      ///< 0: all `from`; 1: all `to`.
  double column_spacing = 8;             ///< Metres between column slots along the path.
  double ease_seconds = 2;  ///< A pulled slot goes back out to its formation position over this (s).
  double dt = 1.0 / 30;     ///< Seconds since the last drive-to points.
};

/// Each slot's drive-to point. `morph` holds each slot's weight from the last step (0
/// at an order) and is updated: it rises at once to what the world needs and falls back
/// by at most dt / ease_seconds a step. `out` gets one target per slot of `to` (slots
/// beyond the smaller formation take `to`'s position unblended).
void drive_to_points(const DriveToInput& in, const SegmentBlocked& blocked, std::span<double> morph,
                     std::vector<SlotTarget>& out);

/// Each slot's rank from the front (0 = front) by its offset: forward first, then nearer
/// the centre line, then left before right, then slot order. A column's order.
std::vector<std::size_t> column_ranks(const PlatoonFormation& formation);

}  // namespace pathscope::sim
