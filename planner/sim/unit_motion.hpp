#pragma once

// How one unit moves in one fixed step (seed 002, Listing 1, "calculate the direction we
// need to head in ... modify that direction by any limitations such as turn radius ...
// calculate where we'll end up"): turn towards the target at most turn_rate x dt, slow
// down for sharp turns and before the last point, accelerate and decelerate within the
// class's limits. Pure functions: prediction and movement call the same code, so
// predicted positions are the moves the unit then makes.

#include <cmath>
#include <cstddef>
#include <span>

#include <glm/geometric.hpp>

#include "planner/core/types.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// Where a unit is and how it moves: the state one step changes.
struct MotionState {
  Vec2 position{0, 0};  ///< Metres.
  double heading = 0;   ///< Radians (atan2 of the direction, y down).
  double speed = 0;     ///< Metres per second along the heading (>= 0).
};

/// What the step aims for.
struct Steer {
  Vec2 target{0, 0};     ///< The point it heads for (metres).
  double max_speed = 0;  ///< Speed it may reach now (terrain, slow-downs), m/s.
  /// Metres left to the point where it must have stopped (the last point of its path),
  /// counted through `target`; braking starts in time to stop there.
  double stop_distance = 0;
};

/// One step of `dt` seconds: turn, speed up or slow down, move along the new heading.
MotionState advance(const MotionState& from, const Steer& steer, const Motion& motion, double dt);

/// Where a unit following `path` heads from `waypoint` on: the target, and the distance
/// to the path's end through it (for braking), summed only until it exceeds
/// `brake_horizon` metres (then any larger value means the same: no braking yet).
Steer steer_along(std::span<const Vec2> path, std::size_t waypoint, Vec2 position, double max_speed,
                  double brake_horizon = INFINITY);

/// The top speed of a unit of `motion` at `p` on `grid` (world metres): the class speed
/// over the ground's multiplier there (density cost is for planning only); half the
/// class speed off the grid or on ground of no multiplier. m/s.
double terrain_speed(const Motion& motion, const CostGrid& grid, Vec2 p);

/// The angle from a to b, wrapped to (-pi, pi].
double angle_difference(double a, double b);

/// The heading's unit vector (world y grows downwards; headings turn counter-clockwise
/// on screen, as Unit::heading).
inline Vec2 direction(double heading) { return {std::cos(heading), -std::sin(heading)}; }

/// The heading of a direction (the inverse of direction()).
inline double heading_of(Vec2 dir) { return std::atan2(-dir.y, dir.x); }

/// The distance a unit at `speed` needs to stop with `deceleration`.
inline double stopping_distance(double speed, double deceleration) {
  return speed * speed / (2 * deceleration);
}

/// The distance between two units' centres, along `dir` (a unit vector from a to b), at
/// which their hard shapes touch: closer, they overlap; farther, they are apart. Exact for
/// circles and ellipses of any aspect and heading (the radius of the shapes' Minkowski
/// sum towards `dir`), to about 1e-12 of the radii. Metres.
double hard_contact_distance(const Motion& a, double heading_a, const Motion& b, double heading_b, Vec2 dir);

}  // namespace pathscope::sim
