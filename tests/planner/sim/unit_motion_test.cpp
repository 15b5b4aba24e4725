#include "planner/sim/unit_motion.hpp"

#include <cmath>
#include <numbers>
#include <vector>

#include <doctest/doctest.h>

namespace pathscope::sim {

TEST_CASE("a step turns at most turn_rate x dt and changes speed within the limits") {
  Motion m;
  m.speed = 4;
  m.acceleration = 2;
  m.deceleration = 8;
  m.turn_rate = 1;
  const double dt = 0.1;
  MotionState s{{0, 0}, 0, 0};
  // Target straight behind: the unit turns by 0.1 rad per step and barely moves.
  const Steer behind{{-10, 0}, 4, 10};
  MotionState n = advance(s, behind, m, dt);
  CHECK(std::abs(angle_difference(0, n.heading)) == doctest::Approx(0.1));
  CHECK(n.speed <= 0.1 * m.speed + 1e-12);
  // Straight ahead: speeds up by acceleration x dt each step up to top speed.
  const Steer ahead{{1000, 0}, 4, 1000};
  s = MotionState{{0, 0}, 0, 0};
  for (int i = 1; i <= 30; ++i) {
    n = advance(s, ahead, m, dt);
    CHECK(n.speed == doctest::Approx(std::min(4.0, 0.2 * i)));
    CHECK(n.position.x - s.position.x == doctest::Approx(n.speed * dt));
    s = n;
  }
}

TEST_CASE("a unit brakes in time and stops exactly at its path's end") {
  Motion m;
  m.speed = 3;
  m.acceleration = 6;
  m.deceleration = 3;
  m.turn_rate = 10;
  const std::vector<Vec2> path = {{0, 0}, {20, 0}};
  MotionState s{{0, 0}, 0, 0};
  double previous_speed = 0;
  for (int i = 0; i < 400; ++i) {
    const Steer st = steer_along(path, 1, s.position, m.speed);
    const MotionState n = advance(s, st, m, 1.0 / 30);
    CHECK(n.position.x <= 20.0);
    CHECK(n.speed - previous_speed <= m.acceleration / 30 + 1e-9);
    // Braking in whole steps; only the step that lands on the end may shed a little more.
    CHECK(previous_speed - n.speed <= (n.position.x == 20.0 ? 1.5 : 1.0) * m.deceleration / 30 + 1e-9);
    previous_speed = n.speed;
    s = n;
  }
  CHECK(s.position == Vec2{20, 0});
}

TEST_CASE("steer_along measures the rest of the path, as far as asked") {
  const std::vector<Vec2> path = {{0, 0}, {3, 0}, {3, 4}, {6, 4}};
  Steer s = steer_along(path, 1, {1, 0}, 2);
  CHECK(s.target == Vec2{3, 0});
  CHECK(s.stop_distance == doctest::Approx(2 + 4 + 3));
  s = steer_along(path, 1, {1, 0}, 2, 3.0);
  CHECK(s.stop_distance > 3.0);
  CHECK(s.stop_distance <= 9.0);
}

TEST_CASE("headings turn counter-clockwise on screen (y down)") {
  CHECK(direction(0).x == doctest::Approx(1));
  CHECK(direction(std::numbers::pi / 2).y == doctest::Approx(-1));  // up on screen
  CHECK(heading_of({0, 1}) == doctest::Approx(-std::numbers::pi / 2));
}

TEST_CASE("hard contact distances of circles add up, of ellipses follow the axes") {
  Motion circle;
  circle.hard_radius = 0.7;
  Motion ellipse;
  ellipse.hard_radius = 2;
  ellipse.hard_aspect = 0.5;
  CHECK(hard_contact_distance(circle, 0.3, circle, 2.0, {0, 1}) == doctest::Approx(1.4));
  // Two ellipses along x, one beside the other: along x their major axes touch, across
  // their minor ones.
  CHECK(hard_contact_distance(ellipse, 0, ellipse, 0, {1, 0}) == doctest::Approx(4));
  CHECK(hard_contact_distance(ellipse, 0, ellipse, 0, {0, 1}) == doctest::Approx(2));
  // One along x, one across: along x the first's major and the second's minor axis.
  CHECK(hard_contact_distance(ellipse, 0, ellipse, std::numbers::pi / 2, {1, 0}) == doctest::Approx(3));
  CHECK(hard_contact_distance(ellipse, std::numbers::pi / 2, ellipse, 0, {-1, 0}) == doctest::Approx(3));
  // A circle beside an ellipse: the circle's radius plus the ellipse's semi-axis.
  CHECK(hard_contact_distance(circle, 0, ellipse, 0, {0, -1}) == doctest::Approx(1.7));
}

TEST_CASE("resolve_motion derives absent limits from the radius and speed") {
  MovementClass c;
  c.radius = 0.8;
  c.speed = 5;
  Motion m = resolve_motion(c);
  CHECK(m.acceleration == 10);
  CHECK(m.deceleration == 20);
  CHECK(m.turn_rate == doctest::Approx(2 * std::numbers::pi));
  CHECK(m.hard_radius == 0.8);
  CHECK(m.soft_radius == doctest::Approx(1.2));
  c.hard_radius = 0.5;
  c.soft_radius = 2;
  c.turn_rate = 1;
  m = resolve_motion(c);
  CHECK(m.hard_radius == 0.5);
  CHECK(m.soft_radius == 2);
  CHECK(m.turn_rate == 1);
}

}  // namespace pathscope::sim
