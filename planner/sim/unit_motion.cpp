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

#include "planner/world/cost_grid.hpp"

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

namespace {

// The support point of a hard shape (centred at the origin) in direction u (a unit vector):
// the point of the shape farthest along u. For an ellipse of semi-axes a (along h) and b
// (across, along p = h turned a quarter), M = [a h, b p] maps the unit disc onto it, and
// the support point is M M^T u / |M^T u|.
Vec2 support(const Motion& motion, Vec2 h, Vec2 u) {
  if (motion.hard_aspect >= 1) return u * motion.hard_radius;
  const double a = motion.hard_radius;
  const double b = motion.hard_radius * motion.hard_aspect;
  const Vec2 p{-h.y, h.x};
  const double c = u.x * h.x + u.y * h.y;
  const double s = u.x * p.x + u.y * p.y;
  const double norm = std::sqrt(a * a * c * c + b * b * s * s);
  return (h * (a * a * c) + p * (b * b * s)) / norm;
}

}  // namespace

double hard_contact_distance(const Motion& a, double heading_a, const Motion& b, double heading_b, Vec2 dir) {
  if (a.hard_aspect >= 1 && b.hard_aspect >= 1) return a.hard_radius + b.hard_radius;
  // B touches A when B's centre is on the boundary of the Minkowski sum A + (-B) = A + B
  // (ellipses are symmetric). The boundary point of that sum whose outward normal is u is
  // support_A(u) + support_B(u); we want the one on the ray along dir. Its normal is
  // within a quarter turn of dir (the sum is convex and holds the origin), and as u turns
  // counter-clockwise the boundary point does too, so the cross product of dir with it
  // grows monotonically over that range: bisection on u's angle finds it.
  const Vec2 ha = direction(heading_a);
  const Vec2 hb = direction(heading_b);
  const double base = std::atan2(dir.y, dir.x);
  auto boundary = [&](double angle) {
    const Vec2 u{std::cos(angle), std::sin(angle)};
    return support(a, ha, u) + support(b, hb, u);
  };
  double lo = base - 0.5 * std::numbers::pi;
  double hi = base + 0.5 * std::numbers::pi;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    const Vec2 q = boundary(mid);
    const double cross = dir.x * q.y - dir.y * q.x;
    if (cross < 0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  const Vec2 q = boundary(0.5 * (lo + hi));
  return q.x * dir.x + q.y * dir.y;
}

double terrain_speed(const Motion& motion, const CostGrid& grid, Vec2 p) {
  const auto cell = grid.cell_at(p);
  if (!cell) return motion.speed * 0.5;
  // The ground's own multiplier: density cost (density_cost.cpp) is for planning only.
  const double mult = grid.ground_multiplier(*cell);
  return mult > 0 ? motion.speed / mult : motion.speed * 0.5;
}

}  // namespace pathscope::sim
