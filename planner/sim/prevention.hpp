#pragma once

// Collision prevention (seed 000, "Support Systems"): units whose hard shapes overlap
// after their moves are pushed apart. A component of the step: it reads the units' shapes
// and terrain keys, the motions per class and the cost grids, and writes positions only
// (prevention.cpp).

#include <cstdint>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/sim/spatial_hash.hpp"
#include "planner/sim/unit_motion.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// One unit as collision prevention sees it: its shape where its move ended (read), its
/// position after prevention (written).
struct PreventionUnit {
  Vec2 position{0, 0};  ///< In: where its move ended. Out: where prevention left it. Metres.
  /// Where it stood when the step began: a push is refused if the step's straight line
  /// from here to where it would be left (as the referee reads a step) touches a closed
  /// cell, as well as the push's own line.
  Vec2 start{0, 0};
  double heading = 0;                ///< Radians (the axis of an elliptic hard shape).
  std::uint32_t movement_class = 0;  ///< Index into the motions and grids.
  std::uint16_t move_key = 0;        ///< Its terrain group's move key (no push into a closed cell).
  bool alive = false;                ///< Dead slots are left out.
  bool moving = false;  ///< It means to move this step (is_moving): a still unit gives way to it.
  bool pushed = false;  ///< Out: prevention moved it this step (its prediction no longer holds).
};

/// Prevention's own scratch, kept between steps (no allocation once warm).
struct PreventionScratch {
  SpatialHash hash;
  std::vector<Vec2> points;         ///< Positions hashed (index = slot).
  std::vector<std::uint8_t> alive;  ///< Alive flags hashed.
  std::vector<Vec2> moved_to;       ///< Positions after the moves, before prevention.
};

/// The overlap of two hard shapes (centres `pa`, `pb`, headings `ha`, `hb`) along the
/// line between their centres: how much farther apart, on that line, the centres must be
/// for the shapes to touch (exact for ellipses of any aspect and heading:
/// hard_contact_distance); <= 0 when apart. `n` is set to the unit direction from a to b,
/// `dist` to the distance between the centres. Metres.
double hard_overlap(Vec2 pa, double ha, const Motion& ma, Vec2 pb, double hb, const Motion& mb, Vec2& n,
                    double& dist);

/// Pushes the units' hard shapes apart until none overlaps (at most 16 passes). A still
/// unit gives way to a mover; otherwise the lower class priority moves, and equals share.
/// No push goes into a closed cell of the unit's grid, and no unit is pushed more than
/// half its hard radius from where its move ended. `motions` and `grids` are per movement
/// class. Writes each unit's `position` and `pushed` only.
void prevent_overlaps(std::span<PreventionUnit> units, std::span<const Motion> motions,
                      std::span<const CostGrid* const> grids, PreventionScratch& scratch);

}  // namespace pathscope::sim
