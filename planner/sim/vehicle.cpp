// Vehicle-level driving (seed 004, "Formation-Based Pathfinding With Real-World Vehicles":
// "2 Framework" for the classes, "5 Vehicle-Level Pathfinding" for the seek, the four
// heading cases and each class's answer).
//
// The crew seeks its drive-to point (the seed's modified Reynolds seek), classifies the
// desired velocity, desired heading and current heading into the seed's four cases, and
// answers with a command: a signed target speed and a heading to turn to. drive() then
// applies the class's limits for one step: acceleration and deceleration, turn rate, a
// wheeled vehicle's minimum turning radius (its yaw rate is at most its speed over that
// radius: none when stopped). Each step moves along an exact arc, so the curvature of the
// path driven is the yaw over the distance, which bounds it exactly.
//
// Where the seed is silent (README "Vehicles"): which case a configuration the seed's
// definitions leave open belongs to (two comparisons with the current heading decide);
// when a case-3 goal is "long distance" (reverse_distance); that speeds are capped so
// the turn to the goal fits; that a wheeled vehicle whose goal lies inside a turning
// circle backs up as in case 2; and that a backing leg keeps the side it chose at its
// start until the goal is ahead and reachable.

#include "planner/sim/vehicle.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>

#include <glm/geometric.hpp>

namespace pathscope::sim {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kHalfPi = std::numbers::pi / 2;

double wrap(double x) {
  // remainder keeps the result in [-pi, pi]; -pi maps to pi so the range is (-pi, pi].
  double r = std::remainder(x, 2 * kPi);
  if (r <= -kPi) r += 2 * kPi;
  return r;
}

// "The same direction": within 90 degrees either side.
bool same_direction(double difference) { return std::abs(difference) < kHalfPi; }

// The largest speed at which a vehicle turning at `turn_rate` still reaches a goal
// `distance` away and `bearing` off its heading: the arc tangent to the heading through the
// goal has radius distance / (2 |sin bearing|), and its yaw rate is speed over that.
double turn_cap(double distance, double bearing, double turn_rate) {
  const double s = std::abs(std::sin(bearing));
  if (s < 1e-12) return INFINITY;
  return turn_rate * distance / (2 * s);
}

// A wheeled vehicle reaches a goal along an arc only when that arc is no tighter than its
// minimum turning radius: the goal lies outside both turning circles.
bool reachable(double distance, double bearing, double min_turn_radius) {
  return 2 * min_turn_radius * std::abs(std::sin(bearing)) <= distance;
}

Status bad(const char* field, const std::string& why) {
  return make_error(ErrorCode::Value, std::string("VehicleClass.") + field, why);
}

}  // namespace

const char* to_string(VehicleKind kind) {
  switch (kind) {
    case VehicleKind::Tracked: return "tracked";
    case VehicleKind::Wheeled: return "wheeled";
    case VehicleKind::Rotary: return "rotary";
  }
  return "?";
}

VehicleClass default_vehicle_class(VehicleKind kind) {
  VehicleClass c;
  c.kind = kind;
  switch (kind) {
    case VehicleKind::Tracked:  // a battle tank: 36 km/h, pivots at about 35 degrees a second
      c.max_speed = 10;
      c.max_reverse_speed = 4;
      c.acceleration = 2;
      c.deceleration = 5;
      c.turn_rate = 0.6;
      c.min_turn_radius = 0;
      c.length = 7;
      c.width = 3.5;
      break;
    case VehicleKind::Wheeled:  // a scout car: 72 km/h, turns on an 8 m radius at least
      c.max_speed = 20;
      c.max_reverse_speed = 5;
      c.acceleration = 3;
      c.deceleration = 6;
      c.turn_rate = 1.0;
      c.min_turn_radius = 8;
      c.length = 5;
      c.width = 2.5;
      break;
    case VehicleKind::Rotary:  // a helicopter: 144 km/h; the footprint is the fuselage
      c.max_speed = 40;
      c.max_reverse_speed = 8;
      c.acceleration = 5;
      c.deceleration = 8;
      c.turn_rate = 1.0;
      c.min_turn_radius = 0;
      c.length = 15;
      c.width = 4;
      break;
  }
  c.arrival_radius = 2.5;
  c.reverse_distance = 20;
  return c;
}

Status validate(const VehicleClass& c) {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (c.kind != VehicleKind::Tracked && c.kind != VehicleKind::Wheeled && c.kind != VehicleKind::Rotary) {
    return bad("kind", "not tracked, wheeled or rotary");
  }
  if (!positive(c.max_speed)) return bad("max_speed", "must be finite and > 0");
  if (!positive(c.max_reverse_speed)) return bad("max_reverse_speed", "must be finite and > 0");
  if (!positive(c.acceleration)) return bad("acceleration", "must be finite and > 0");
  if (!positive(c.deceleration)) return bad("deceleration", "must be finite and > 0");
  if (!positive(c.turn_rate)) return bad("turn_rate", "must be finite and > 0");
  if (c.kind == VehicleKind::Wheeled) {
    if (!positive(c.min_turn_radius))
      return bad("min_turn_radius", "a wheeled class needs one, finite and > 0");
  } else if (!(std::isfinite(c.min_turn_radius) && c.min_turn_radius == 0)) {
    return bad("min_turn_radius", "only a wheeled class has one (0 here)");
  }
  if (!positive(c.arrival_radius)) return bad("arrival_radius", "must be finite and > 0");
  if (!(std::isfinite(c.reverse_distance) && c.reverse_distance >= 0)) {
    return bad("reverse_distance", "must be finite and >= 0");
  }
  if (!positive(c.length)) return bad("length", "must be finite and > 0");
  if (!positive(c.width)) return bad("width", "must be finite and > 0");
  return Ok{};
}

double bounding_radius(const VehicleClass& c) {
  return 0.5 * std::sqrt(c.length * c.length + c.width * c.width);
}

FootprintCapsule footprint_capsule(const VehicleClass& c) {
  if (c.width >= c.length) return {bounding_radius(c), 0};
  // Discs of radius w / sqrt(2) centred on the long axis, from (l - w) / 2 behind the
  // centre to as far ahead, reach every corner: (w/2, w/2) from the last centre.
  return {c.width / std::numbers::sqrt2, 0.5 * (c.length - c.width)};
}

Vec2 heading_vector(double heading) { return {std::cos(heading), -std::sin(heading)}; }

double heading_of_vector(Vec2 dir) {
  if (dir.x == 0 && dir.y == 0) return 0;
  return std::atan2(-dir.y, dir.x);
}

double heading_difference(double a, double b) { return wrap(b - a); }

Vec2 velocity_of(const VehicleState& s) { return heading_vector(s.heading) * s.speed; }

Seek seek_drive_to(Vec2 position, Vec2 drive_to, const VehicleClass& cls, bool brake) {
  Seek s;
  const Vec2 d = drive_to - position;
  s.distance = glm::length(d);
  if (s.distance < cls.arrival_radius) {
    s.arrived = true;
    return s;
  }
  double speed = cls.max_speed;
  if (brake && s.distance < cls.max_speed) {
    s.braking = true;
    speed = 0.5 * s.distance;
  }
  s.velocity = d * (speed / s.distance);
  return s;
}

HeadingCase classify_heading(Vec2 desired_velocity, double desired_heading, double current_heading,
                             HeadingCase previous) {
  if (desired_velocity.x == 0 && desired_velocity.y == 0) return HeadingCase::Still;
  // Within 90 degrees, the boundary moved towards what `was` answered (if anything).
  const auto same = [](double difference, std::optional<bool> was) {
    const double limit = !was ? kHalfPi : *was ? kHalfPi + kHeadingHysteresis : kHalfPi - kHeadingHysteresis;
    return std::abs(difference) < limit;
  };
  std::optional<bool> was_ahead, was_keeping;
  if (previous != HeadingCase::Still) {
    was_ahead = previous == HeadingCase::Ahead || previous == HeadingCase::AheadTurnAtEnd;
    was_keeping = previous == HeadingCase::Ahead || previous == HeadingCase::BehindSameHeading;
  }
  const bool goal_ahead =
      same(heading_difference(current_heading, heading_of_vector(desired_velocity)), was_ahead);
  // With the goal behind, the answer holds until the goal is ahead (seed 004: case 2 turns
  // "until case 1", case 3 backs up until facing the goal, then case 4): the two answers
  // turn opposite ways, so re-deciding between them would undo each other's turn.
  if (!goal_ahead &&
      (previous == HeadingCase::BehindTurnAround || previous == HeadingCase::BehindSameHeading))
    return previous;
  const bool keep_heading = same(heading_difference(current_heading, desired_heading), was_keeping);
  if (goal_ahead) return keep_heading ? HeadingCase::Ahead : HeadingCase::AheadTurnAtEnd;
  return keep_heading ? HeadingCase::BehindSameHeading : HeadingCase::BehindTurnAround;
}

DriveGoal drive_goal(const Seek& seek, double desired_heading) {
  return {seek.velocity, desired_heading, seek.distance, seek.arrived};
}

DriveCommand plan_drive(const VehicleState& s, const VehicleClass& cls, const DriveGoal& goal) {
  DriveCommand c;
  c.heading = s.heading;
  c.heading_case = classify_heading(goal.velocity, goal.heading, s.heading, goal.previous);
  if (c.heading_case == HeadingCase::Still) {
    // Arrived: tracked and rotary stop and turn to the desired heading; wheeled cannot.
    // Held by avoidance: stop as it stands.
    if (goal.arrived && cls.kind != VehicleKind::Wheeled) {
      c.heading = wrap(goal.heading);
      c.turn_in_place = true;
    }
    return c;
  }
  const double wanted = glm::length(goal.velocity);
  const double to_goal = heading_of_vector(goal.velocity);
  const double bearing = heading_difference(s.heading, to_goal);
  const double rear_bearing = heading_difference(wrap(s.heading + kPi), to_goal);
  const bool wheeled = cls.kind == VehicleKind::Wheeled;

  const auto forward = [&] {
    c.speed = std::min({wanted, cls.max_speed, turn_cap(goal.distance, bearing, cls.turn_rate)});
    c.heading = to_goal;
  };
  const auto reverse = [&] {
    c.speed =
        -std::min({wanted, cls.max_reverse_speed, turn_cap(goal.distance, rear_bearing, cls.turn_rate)});
    c.heading = wrap(to_goal + kPi);
    c.reversing = true;
  };
  // Back up turning towards the goal on `side` (three-point turn, first leg). Once the goal
  // is ahead the shorter way is the same side, and forcing it could only overshoot.
  const auto back_up = [&](std::int8_t side) {
    c.speed = -std::min(wanted, cls.max_reverse_speed);
    c.heading = to_goal;
    c.turn_side = same_direction(bearing) ? 0 : side;
    c.backing_turn = true;
    c.backing_side = side;
    c.reversing = true;
  };
  const auto side_of = [](double b) -> std::int8_t { return b >= 0 ? 1 : -1; };

  if (wheeled) {
    const bool fwd_ok = same_direction(bearing) && reachable(goal.distance, bearing, cls.min_turn_radius);
    if (s.backing_turn) {
      if (fwd_ok) {
        forward();
      } else {
        back_up(s.turn_side != 0 ? s.turn_side : side_of(bearing));
      }
      return c;
    }
    switch (c.heading_case) {
      case HeadingCase::Ahead:
      case HeadingCase::AheadTurnAtEnd:
        if (fwd_ok) {
          forward();
        } else {
          back_up(side_of(bearing));
        }
        break;
      case HeadingCase::BehindSameHeading:
        if (goal.distance <= cls.reverse_distance &&
            reachable(goal.distance, rear_bearing, cls.min_turn_radius)) {
          reverse();
        } else {
          back_up(side_of(bearing));
        }
        break;
      case HeadingCase::BehindTurnAround: back_up(side_of(bearing)); break;
      case HeadingCase::Still: break;
    }
    return c;
  }
  switch (c.heading_case) {
    case HeadingCase::Ahead:
    case HeadingCase::AheadTurnAtEnd: forward(); break;
    case HeadingCase::BehindTurnAround:
      c.speed = 0;
      c.heading = to_goal;
      c.turn_in_place = true;
      break;
    case HeadingCase::BehindSameHeading:
      if (goal.distance <= cls.reverse_distance) {
        reverse();
      } else {
        // Long way: back up while turning round to face the goal; case 4 then takes over.
        c.speed = -std::min(wanted, cls.max_reverse_speed);
        c.heading = to_goal;
        c.reversing = true;
      }
      break;
    case HeadingCase::Still: break;
  }
  return c;
}

VehicleState drive(const VehicleState& s, const VehicleClass& cls, const DriveCommand& command, double dt,
                   DriveTrace* trace) {
  VehicleState n = s;
  n.backing_turn = command.backing_turn;
  n.turn_side = command.backing_turn ? command.backing_side : std::int8_t{0};

  // Speed: away from a stop at `acceleration`, towards one at `deceleration`; a change of
  // direction stops first (the rest of that step is not used).
  const double target = std::clamp(command.speed, -cls.max_reverse_speed, cls.max_speed);
  const double v0 = s.speed;
  double v1 = v0;
  const bool speeding_up = (v0 >= 0 && target >= v0) || (v0 <= 0 && target <= v0);
  if (speeding_up) {
    const double step = cls.acceleration * dt;
    v1 = v0 + std::clamp(target - v0, -step, step);
  } else {
    const double step = cls.deceleration * dt;
    const double stop_at = (v0 > 0) == (target > 0) && target != 0 ? target : 0.0;
    v1 = v0 > 0 ? std::max(stop_at, v0 - step) : std::min(stop_at, v0 + step);
  }
  // Rounding leaves residues (0.6 - 0.6 need not be 0): under a nanometre a second is a stop.
  if (std::abs(v1) < 1e-9) v1 = 0;
  const double mean = 0.5 * (v0 + v1);
  const double ds = mean * dt;

  // Yaw: tracked and rotary at turn_rate, moving or not; wheeled no faster than the
  // minimum turning radius allows at the step's mean speed.
  double max_yaw = cls.turn_rate;
  if (cls.kind == VehicleKind::Wheeled) max_yaw = std::min(max_yaw, std::abs(mean) / cls.min_turn_radius);
  double wanted = heading_difference(s.heading, command.heading);
  if (command.turn_side > 0 && wanted < 0) wanted += 2 * kPi;
  if (command.turn_side < 0 && wanted > 0) wanted -= 2 * kPi;
  const double max_turn = max_yaw * dt;
  const double turn = std::clamp(wanted, -max_turn, max_turn);

  // Along the exact arc: the chord is ds x sin(turn/2) / (turn/2), along the mean heading.
  const double chord = turn == 0 ? ds : ds * std::sin(0.5 * turn) / (0.5 * turn);
  n.position = s.position + heading_vector(s.heading + 0.5 * turn) * chord;
  // A turn that reaches the commanded heading lands on it exactly (not an ulp beside).
  n.heading = turn == wanted ? wrap(command.heading) : wrap(s.heading + turn);
  n.speed = v1;
  if (trace) {
    trace->target_speed = target;
    trace->yaw_rate = turn / dt;
    trace->max_yaw_rate = max_yaw;
    trace->distance = ds;
    trace->curvature = ds == 0 ? 0 : turn / ds;
  }
  return n;
}

}  // namespace pathscope::sim
