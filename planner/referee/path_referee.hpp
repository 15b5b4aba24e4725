#pragma once

// The path referee: given a world, a movement class and a path (a polyline in world
// metres), recomputes the path's cost by exact integration over the world's cost model
// and checks that a unit of that class may follow it. It reads only the world's data (the
// cost grid's multipliers and movement keys per cell, the world's extent) and shares no
// code with any planner's cost or line-walking functions, so that a planner's reported
// cost can be checked by something that does not depend on it.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/core/result.hpp"
#include "planner/core/types.hpp"

namespace pathscope {

class PlanningWorld;

namespace referee {

/// What is wrong with a path at one place.
enum class ViolationKind : std::uint8_t {
  OutsideWorld,   ///< A leg leaves the world's cells.
  Blocked,        ///< A leg runs through a cell the class cannot enter (a wall, a destroyed bridge's water).
  GroupChange,    ///< A leg joins cells of different terrain groups (land, water) for a class that is not
                  ///< amphibious.
  CornerSqueeze,  ///< A leg passes through the point where two blocked cells touch at a corner.
  Clearance,      ///< A leg comes nearer a blocked cell or the world's edge than the clearance asked for.
};

/// Lowercase snake_case name of a violation kind ("blocked", "corner_squeeze", ...).
const char* to_string(ViolationKind kind);

/// One place where a path is illegal.
struct Violation {
  ViolationKind kind = ViolationKind::Blocked;
  std::size_t leg = 0;  ///< The leg points[leg] -> points[leg + 1] (0 for a one-point path).
  Vec2 where{0, 0};     ///< A world point where it happens.
  std::string message;  ///< One line: what and where (cell coordinates, distances).
};

/// What the referee checks a path against.
struct RefereeParams {
  /// Metres every leg must keep from blocked cells and from the world's edge; 0: no
  /// clearance is checked (a leg may touch a blocked cell's side).
  double clearance = 0;
  /// Cost the path with every point moved to the centre of its cell (the moves between
  /// cell centres the grid planners count) instead of the polyline itself. Legality is
  /// always checked on the polyline as given.
  bool cell_centres = false;
  /// Violations kept with their messages; all are counted.
  std::size_t max_violations = 16;
};

/// The referee's account of one path.
struct Verdict {
  double cost = 0;    ///< Metres of terrain-weighted travel: each metre times its cell's multiplier.
  double length = 0;  ///< Euclidean length of the polyline, metres.
  bool legal = true;  ///< No violation.
  std::size_t violation_count = 0;
  std::vector<Violation> violations;  ///< The first RefereeParams::max_violations, in path order.
  /// Smallest distance from the path to a blocked cell or the world's edge, metres (only
  /// when a clearance is asked for; infinity otherwise or when nothing is near).
  double min_clearance = std::numeric_limits<double>::infinity();
};

/// Referees a path of world points for `movement_class`. Cost: each leg is clipped
/// exactly against the cell lines; each piece's length times its cell's multiplier (the
/// world's cost model, roads and bridges included, as rasterised); a piece running along
/// a cell side costs the cheaper passable side. Errors: a class out of range, an empty
/// path, a point that is not finite.
Result<Verdict> referee_path(const PlanningWorld& world, std::size_t movement_class,
                             std::span<const Vec2> points, const RefereeParams& params = {});

/// Relative tolerance of cost agreement: a reported cost agrees with the referee's when
/// |reported - referee| <= kCostTolerance * max(1, referee).
inline constexpr double kCostTolerance = 1e-6;

/// Whether a planner's reported cost agrees with the referee's (kCostTolerance).
bool costs_agree(double reported, double referee);

/// The referee's parameters for a planner's answers, from its declaration
/// (PlannerInfo::referee): the cell-centre convention, and the clearance its entry
/// declares for `values` (PlannerInfo::clearance; none: 0).
RefereeParams params_for(const PlannerInfo& info, const ParamValues& values, const PlanningWorld& world,
                         std::size_t movement_class);

}  // namespace referee
}  // namespace pathscope
