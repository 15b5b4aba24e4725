// One step of unit motion (seed 002, Listing 1; "Movement Issues": acceleration,
// deceleration, and slowing down for sharp turns instead of modelling a turn radius).
//
// The heading turns towards the target by at most turn_rate x dt. The speed aims at the
// smallest of: the class's top speed scaled by the terrain and any slow-down; the speed
// from which it can still stop at the path's end; and, when the target lies off the
// heading, the speed at which the turn it still has to make fits into the distance
// left to the target. The speed then changes by at most acceleration x dt up, or
// deceleration x dt down. Everything is plain double arithmetic in a fixed order.

#include "planner/sim/unit_motion.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pathscope::sim {

Motion resolve_motion(const MovementClass& c) {
  Motion m;
  m.speed = c.speed;
  m.acceleration = c.acceleration.value_or(2 * c.speed);
  m.deceleration = c.deceleration.value_or(4 * c.speed);
  m.turn_rate = c.turn_rate.value_or(2 * std::numbers::pi);
  m.hard_radius = c.hard_radius.value_or(c.radius);
  m.soft_radius = c.soft_radius.value_or(1.5 * m.hard_radius);
  m.hard_aspect = c.hard_aspect;
  m.priority = c.priority;
  return m;
}

namespace {

// x wrapped to (-pi, pi]; exact for the sums of two wrapped angles the motion makes,
// and cheaper than std::remainder.
double wrap_angle(double x) {
  constexpr double kPi = std::numbers::pi, kTwoPi = 2 * std::numbers::pi;
  if (x > kPi || x <= -kPi) {
    x = std::remainder(x, kTwoPi);
    if (x <= -kPi) x += kTwoPi;
  }
  return x;
}

}  // namespace

double angle_difference(double a, double b) { return wrap_angle(b - a); }

Steer steer_along(std::span<const Vec2> path, std::size_t waypoint, Vec2 position, double max_speed,
                  double brake_horizon) {
  Steer s;
  s.max_speed = max_speed;
  if (path.empty()) {
    s.target = position;
    return s;
  }
  const std::size_t w = std::min(waypoint, path.size() - 1);
  s.target = path[w];
  // Braking needs the distance left only while it is short: sum until it exceeds the
  // distance needed to stop from top speed (paths can be thousands of points long).
  double rest = glm::length(path[w] - position);
  for (std::size_t i = w + 1; i < path.size() && rest <= brake_horizon; ++i)
    rest += glm::length(path[i] - path[i - 1]);
  s.stop_distance = rest;
  return s;
}

MotionState advance(const MotionState& from, const Steer& steer, const Motion& motion, double dt) {
  MotionState to = from;
  const Vec2 to_target = steer.target - from.position;
  const double distance = glm::length(to_target);
  double turn_left = 0;
  if (distance > 1e-9) {
    const double wanted = heading_of(to_target);
    const double diff = angle_difference(from.heading, wanted);
    const double max_turn = motion.turn_rate * dt;
    const double turn = std::clamp(diff, -max_turn, max_turn);
    to.heading = wrap_angle(from.heading + turn);
    turn_left = std::abs(diff - turn);
  }
  // The speed it aims at.
  double aim = steer.max_speed;
  // Stop at the path's end, in whole steps: from speed k a dt the unit covers
  // a dt^2 k (k + 1) / 2 before it stands (v^2 = 2 a d, counted step by step), so it
  // reaches the end at a speed it can shed in one step.
  const double a_dt = motion.deceleration * dt;
  const double k = (std::sqrt(1 + 8 * std::max(0.0, steer.stop_distance) / (a_dt * dt)) - 1) / 2;
  aim = std::min(aim, a_dt * k);
  if (turn_left > 1e-9) {
    // The turn still to make takes turn_left / turn_rate seconds; cover at most the
    // distance to the target meanwhile, so the unit does not orbit its target.
    const double turn_time = turn_left / motion.turn_rate;
    aim = std::min(aim, distance / turn_time);
    // Facing away: turn on the spot, almost.
    if (turn_left > std::numbers::pi / 2) aim = std::min(aim, 0.1 * motion.speed);
  }
  aim = std::max(aim, 0.0);
  if (aim > from.speed) {
    to.speed = std::min(aim, from.speed + motion.acceleration * dt);
  } else {
    to.speed = std::max(aim, from.speed - motion.deceleration * dt);
  }
  double step = to.speed * dt;
  // Never run past the path's end.
  if (steer.stop_distance <= distance + 1e-9 && step >= distance) {
    to.position = steer.target;
    to.speed = std::min(to.speed, distance / dt);
    return to;
  }
  to.position = from.position + direction(to.heading) * step;
  return to;
}

double hard_extent(const Motion& motion, double heading, Vec2 dir) {
  if (motion.hard_aspect >= 1) return motion.hard_radius;
  // Polar radius of an ellipse with semi-axes a (along the heading) and b (across).
  const double a = motion.hard_radius;
  const double b = motion.hard_radius * motion.hard_aspect;
  const Vec2 h = direction(heading);
  const double c = h.x * dir.x + h.y * dir.y;  // cos of the angle to the heading
  const double s = h.x * dir.y - h.y * dir.x;  // sin (its sign does not matter)
  return a * b / std::sqrt(b * b * c * c + a * a * s * s);
}

}  // namespace pathscope::sim
