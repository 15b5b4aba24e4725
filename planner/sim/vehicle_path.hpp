#pragma once

// A vehicle's own path when its drive-to point lies across an obstacle (seed 004, "Check
// for bad position", Figure 9): the check, and a small follower that drives the path until
// almost its end and then hands back to normal driving. The world comes in as a callback;
// the path comes from whichever planner the caller uses.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/sim/vehicle.hpp"

namespace pathscope::sim {

/// True when the segment from the first point to the second crosses a pathfinding boundary
/// (an obstacle's edge, a container's edge). World metres.
using CrossesBoundary = std::function<bool(Vec2, Vec2)>;

/// The distance beyond which a vehicle is checked: sqrt(3) x max_speed (as metres: the
/// seed compares a distance with a speed, i.e. with one second's drive).
double bad_position_distance(const VehicleClass& cls);

/// The seed's bad-position check: the vehicle is farther than bad_position_distance from
/// its drive-to point (strictly) and the line between them crosses a boundary. `crosses` is
/// asked only when the vehicle is that far.
bool needs_private_path(Vec2 position, Vec2 drive_to, const VehicleClass& cls,
                        const CrossesBoundary& crosses);

/// Drives a private path (seed 004: "followed until almost the end, and then normal
/// driving begins again"). A value type: the points and the index of the point driven to.
class PrivatePath {
 public:
  /// Nothing to follow (normal driving).
  PrivatePath() = default;
  /// Follows `points` (world metres, the vehicle's position first or not) until the
  /// length left along it is at most `release_distance` metres.
  PrivatePath(std::vector<Vec2> points, double release_distance);
  /// The path as points(), index() and release_distance() gave them (a saved game).
  static PrivatePath restored(std::vector<Vec2> points, std::size_t index, double release_distance);

  /// True while the path is driven.
  bool active() const { return index_ < points_.size(); }
  /// The path's points.
  std::span<const Vec2> points() const { return points_; }
  /// The index of the point driven to (points().size() once released).
  std::size_t index() const { return index_; }
  /// Metres left when it hands back to normal driving.
  double release_distance() const { return release_; }

  /// Advances past the points the vehicle at `position` has reached (within
  /// `reach_radius`) or passed (beyond the point along the leg leading to it), and releases the
  /// path when the length left (from `position` through the point driven to, to the end)
  /// is at most release_distance(). Returns active().
  bool update(Vec2 position, double reach_radius);

  /// The point to seek now (the point driven to); valid while active().
  Vec2 target() const { return points_[index_]; }
  /// True when the point driven to is the path's last (the seek may brake only there).
  bool at_last() const { return index_ + 1 == points_.size(); }
  /// The length left from `position` through the point driven to, to the end, metres.
  double length_left(Vec2 position) const;

 private:
  std::vector<Vec2> points_;
  std::size_t index_ = 0;
  double release_ = 0;
};

/// The release distance used by default: two arrival radii, so normal driving takes over
/// just before the seek would brake to its arrival anyway. Metres.
double default_release_distance(const VehicleClass& cls);

}  // namespace pathscope::sim
