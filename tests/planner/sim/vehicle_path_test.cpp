// Seed 004's bad-position check and the private path a vehicle then follows (Figure 9).

#include "planner/sim/vehicle_path.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/vehicle.hpp"
#include "tests/planner/sim/box_test_support.hpp"

namespace pathscope::sim::vehicle_path_test {

using test_support::segment_meets_box;

TEST_CASE("vehicle bad position: only beyond sqrt(3) x max speed, and only across a boundary") {
  const VehicleClass c = default_vehicle_class(VehicleKind::Tracked);  // max_speed 10
  const double limit = std::sqrt(3.0) * 10;
  CHECK(bad_position_distance(c) == limit);
  const Box2 wall{{8, -50}, {12, 50}};
  int asked = 0;
  const CrossesBoundary crosses = [&](Vec2 a, Vec2 b) {
    ++asked;
    return segment_meets_box(a, b, wall, true);
  };
  // Across the wall and just beyond the limit: a private path.
  CHECK(needs_private_path({0, 0}, {std::nextafter(limit, 100.0), 0}, c, crosses));
  CHECK(asked == 1);
  CHECK(needs_private_path({0, 0}, {40, 0}, c, crosses));
  // Across the wall but exactly at, and just under, the limit: none, and the world is not asked.
  asked = 0;
  CHECK_FALSE(needs_private_path({0, 0}, {limit, 0}, c, crosses));
  CHECK_FALSE(needs_private_path({0, 0}, {std::nextafter(limit, 0.0), 0}, c, crosses));
  CHECK_FALSE(needs_private_path({0, 0}, {17.3, 0}, c, crosses));
  CHECK(asked == 0);
  // Far, but the line does not cross: none.
  CHECK_FALSE(needs_private_path({0, 0}, {0, 40}, c, crosses));
  CHECK_FALSE(needs_private_path({0, 0}, {-40, 0}, c, crosses));
  CHECK(asked == 2);
  // The limit scales with the class's speed: a wheeled car (20 m/s) at 30 m is not checked.
  CHECK_FALSE(needs_private_path({0, 0}, {30, 0}, default_vehicle_class(VehicleKind::Wheeled), crosses));
  CHECK(needs_private_path({0, 0}, {35, 0}, default_vehicle_class(VehicleKind::Wheeled), crosses));
}

TEST_CASE("vehicle private path: points reached or passed, released at the stated length left") {
  PrivatePath none;
  CHECK_FALSE(none.active());
  PrivatePath p({{0, 0}, {10, 0}, {10, 10}}, 5);
  CHECK(p.active());
  CHECK(p.update({0, 0}, 2.5));  // at the first point: on to the second
  CHECK(p.index() == 1);
  CHECK(p.target() == Vec2{10, 0});
  CHECK(p.length_left({0, 0}) == 20);
  CHECK(p.update({6, 0}, 2.5));
  CHECK(p.index() == 1);
  CHECK(p.update({11, 1}, 0.5));  // beyond the corner along its leg: passed
  CHECK(p.index() == 2);
  CHECK(p.at_last());
  CHECK(p.update({10, 4.9}, 2.5));      // 5.1 m left
  CHECK_FALSE(p.update({10, 5}, 2.5));  // 5 m left: normal driving again
  CHECK(p.index() == 3);
  // A point not reached and not passed holds, even when the next leg turns back.
  PrivatePath u({{0, 0}, {10, 0}, {10, 3}, {0, 3}}, 1);
  u.update({0, 0}, 1);
  CHECK(u.update({8, 1.5}, 1));
  CHECK(u.index() == 1);
}

TEST_CASE("vehicle private path round a building (Figure 9): the vehicle never enters it and arrives") {
  const VehicleClass c = default_vehicle_class(VehicleKind::Tracked);
  const Box2 building{{0, 0}, {30, 30}};
  const CrossesBoundary crosses = [&](Vec2 a, Vec2 b) { return segment_meets_box(a, b, building, true); };
  // The vehicle is left of the building, its drive-to point below it, round the corner.
  VehicleState s{{-10, 20}, -std::numbers::pi / 2, 0};  // heading -pi/2: facing +y
  const Vec2 drive_to{20, 42};
  REQUIRE(needs_private_path(s.position, drive_to, c, crosses));
  PrivatePath path({s.position, {-8, 38}, {10, 40}, drive_to}, default_release_distance(c));
  bool released = false;
  double left_at_release = 0;
  std::size_t last_index = 0;
  for (int step = 0; step < 600; ++step) {
    Seek seek;
    if (path.active() && path.update(s.position, c.arrival_radius)) {
      CHECK(path.index() >= last_index);
      last_index = path.index();
      seek = seek_drive_to(s.position, path.target(), c, path.at_last());
    } else {
      if (!released) {
        released = true;
        left_at_release = glm::length(drive_to - s.position);
      }
      seek = seek_drive_to(s.position, drive_to, c);
    }
    CHECK_FALSE(building.contains(s.position));
    s = drive(s, c, plan_drive(s, c, drive_goal(seek, 0)), 0.1);
    if (seek.arrived && s.speed == 0) break;
  }
  CHECK(released);
  CHECK(left_at_release <= default_release_distance(c));
  CHECK(glm::length(drive_to - s.position) < c.arrival_radius);
}

}  // namespace pathscope::sim::vehicle_path_test
