// A vehicle's private path (seed 004, "Check for bad position"): when a vehicle is more
// than sqrt(3) x maxSpeed from its drive-to point and the line to it crosses a pathfinding
// boundary, it gets a path of its own to that point, which it follows "until almost the
// end" (the seed's authors first followed only a few nodes and found rare cases where that
// failed). Here "almost the end" is a stated length left along the path
// (default_release_distance: two arrival radii).

#include "planner/sim/vehicle_path.hpp"

#include <cmath>
#include <utility>

#include <glm/geometric.hpp>

namespace pathscope::sim {

double bad_position_distance(const VehicleClass& cls) { return std::sqrt(3.0) * cls.max_speed; }

bool needs_private_path(Vec2 position, Vec2 drive_to, const VehicleClass& cls,
                        const CrossesBoundary& crosses) {
  if (!(glm::length(drive_to - position) > bad_position_distance(cls))) return false;
  return crosses(position, drive_to);
}

double default_release_distance(const VehicleClass& cls) { return 2 * cls.arrival_radius; }

PrivatePath::PrivatePath(std::vector<Vec2> points, double release_distance)
    : points_(std::move(points)), release_(release_distance) {}

PrivatePath PrivatePath::restored(std::vector<Vec2> points, std::size_t index, double release_distance) {
  PrivatePath p(std::move(points), release_distance);
  p.index_ = index;
  return p;
}

double PrivatePath::length_left(Vec2 position) const {
  if (!active()) return 0;
  double left = glm::length(points_[index_] - position);
  for (std::size_t i = index_ + 1; i < points_.size(); ++i) left += glm::length(points_[i] - points_[i - 1]);
  return left;
}

bool PrivatePath::update(Vec2 position, double reach_radius) {
  while (active() && !at_last()) {
    const Vec2 p = points_[index_];
    const bool reached = glm::length(position - p) <= reach_radius;
    // Passed: beyond the point along the leg that leads to it (a wheeled vehicle may not
    // come within reach of a corner).
    const bool passed = index_ > 0 && glm::dot(position - p, p - points_[index_ - 1]) > 0;
    if (!reached && !passed) break;
    ++index_;
  }
  if (active() && length_left(position) <= release_) index_ = points_.size();
  return active();
}

}  // namespace pathscope::sim
