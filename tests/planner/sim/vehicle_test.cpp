// Seed 004's vehicle layer: classes, the drive-to seek, the four heading cases and each
// class's answer, the dynamics step. Closed loops drive a vehicle to a fixed drive-to
// point; the trajectory is checked by code that reads only positions and headings.

#include "planner/sim/vehicle.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

namespace pathscope::sim::vehicle_test {

constexpr double kPi = std::numbers::pi;
constexpr double kDt = 0.1;

double degrees(double radians) { return radians * 180 / kPi; }

// The wrapped angle from a to b, the test's own (no library helper).
double angle_between(double a, double b) {
  double d = std::fmod(b - a, 2 * kPi);
  if (d > kPi) d -= 2 * kPi;
  if (d <= -kPi) d += 2 * kPi;
  return d;
}

struct Sample {
  VehicleState state;
  DriveCommand command;
  bool arrived = false;
  double distance = 0;
};

// Drives a vehicle of `cls` from `start` towards the fixed `goal` with desired heading
// `heading` for at most `steps` steps; stops early once it has arrived, stands still and
// faces what its command asks. Returns every state (first the start) with the command
// that produced the next one.
std::vector<Sample> run_to(const VehicleClass& cls, VehicleState start, Vec2 goal, double heading,
                           int steps) {
  std::vector<Sample> out;
  VehicleState s = start;
  for (int i = 0; i < steps; ++i) {
    const Seek seek = seek_drive_to(s.position, goal, cls);
    const DriveCommand cmd = plan_drive(s, cls, drive_goal(seek, heading));
    out.push_back({s, cmd, seek.arrived, seek.distance});
    if (seek.arrived && s.speed == 0 && s.heading == cmd.heading) return out;
    s = drive(s, cls, cmd, kDt);
  }
  const Seek seek = seek_drive_to(s.position, goal, cls);
  out.push_back({s, plan_drive(s, cls, drive_goal(seek, heading)), seek.arrived, seek.distance});
  return out;
}

const Sample& last(const std::vector<Sample>& run) { return run.back(); }

// The promises of drive() checked from the trajectory alone: speed changes within the
// class's limits; standing still, a wheeled vehicle does not turn; each step is an arc
// whose radius (chord over 2 sin of half the turn) is at least the minimum turning
// radius, and the chord runs along the mean heading (forward or back).
void check_trajectory(const VehicleClass& cls, const std::vector<VehicleState>& states) {
  for (std::size_t i = 1; i < states.size(); ++i) {
    const VehicleState& a = states[i - 1];
    const VehicleState& b = states[i];
    const double dv = std::abs(b.speed - a.speed);
    CHECK(dv <= std::max(cls.acceleration, cls.deceleration) * kDt + 1e-12);
    CHECK(b.speed <= cls.max_speed + 1e-12);
    CHECK(b.speed >= -cls.max_reverse_speed - 1e-12);
    CHECK(a.speed * b.speed >= 0);  // a change of direction passes through a stop
    const double turn = angle_between(a.heading, b.heading);
    CHECK(std::abs(turn) <= cls.turn_rate * kDt + 1e-12);
    const Vec2 chord = b.position - a.position;
    const double length = glm::length(chord);
    if (length == 0) {
      if (cls.kind == VehicleKind::Wheeled) CHECK(turn == 0);
      continue;
    }
    const double mean = a.heading + 0.5 * turn;
    const Vec2 along{std::cos(mean), -std::sin(mean)};
    // Positions round to about 1e-13 m here: the checks allow 1e-11 m.
    CHECK(std::abs(glm::dot(chord, along)) >= length - 1e-11);
    if (cls.kind == VehicleKind::Wheeled) {
      // An arc of radius r and turn a has the chord 2 r sin(a / 2): r >= R.
      CHECK(length + 1e-11 >= 2 * cls.min_turn_radius * std::sin(0.5 * std::abs(turn)));
    }
  }
}

std::vector<VehicleState> states_of(const std::vector<Sample>& run) {
  std::vector<VehicleState> out;
  for (const Sample& s : run) out.push_back(s.state);
  return out;
}

TEST_CASE("vehicle classes: the defaults are valid and validate names the bad field") {
  for (VehicleKind k : {VehicleKind::Tracked, VehicleKind::Wheeled, VehicleKind::Rotary}) {
    const VehicleClass c = default_vehicle_class(k);
    CHECK(c.kind == k);
    CHECK(validate(c).ok());
    CHECK(c.arrival_radius == 2.5);
    CHECK((c.min_turn_radius > 0) == (k == VehicleKind::Wheeled));
  }
  const auto where = [](VehicleClass c) {
    const Status s = validate(c);
    return s.ok() ? std::string("ok") : s.error().where;
  };
  VehicleClass c = default_vehicle_class(VehicleKind::Wheeled);
  c.turn_rate = 0;
  CHECK(where(c) == "VehicleClass.turn_rate");
  c = default_vehicle_class(VehicleKind::Wheeled);
  c.max_speed = NAN;
  CHECK(where(c) == "VehicleClass.max_speed");
  c = default_vehicle_class(VehicleKind::Wheeled);
  c.min_turn_radius = 0;
  CHECK(where(c) == "VehicleClass.min_turn_radius");
  c = default_vehicle_class(VehicleKind::Tracked);
  c.min_turn_radius = 3;
  CHECK(where(c) == "VehicleClass.min_turn_radius");
  c = default_vehicle_class(VehicleKind::Rotary);
  c.width = -1;
  CHECK(where(c) == "VehicleClass.width");
  c = default_vehicle_class(VehicleKind::Rotary);
  c.max_reverse_speed = INFINITY;
  CHECK(where(c) == "VehicleClass.max_reverse_speed");
  c = default_vehicle_class(VehicleKind::Tracked);
  c.kind = static_cast<VehicleKind>(7);
  CHECK(where(c) == "VehicleClass.kind");
}

TEST_CASE("vehicle footprint: the capsule and the sphere hold the whole rectangle") {
  for (const auto& [length, width] : {std::pair{7.0, 3.5}, {5.0, 2.5}, {15.0, 4.0}, {3.0, 3.0}, {2.0, 4.0}}) {
    VehicleClass c;
    c.length = length;
    c.width = width;
    const FootprintCapsule cap = footprint_capsule(c);
    const double sphere = bounding_radius(c);
    CHECK(sphere == doctest::Approx(0.5 * std::hypot(length, width)));
    double worst = 0;  // the largest distance from a footprint point to the capsule's segment
    for (int i = 0; i <= 60; ++i) {
      for (int j = 0; j <= 60; ++j) {
        const double x = (i / 60.0 - 0.5) * length;
        const double y = (j / 60.0 - 0.5) * width;
        const double along = std::clamp(x, -cap.half_length, cap.half_length);
        worst = std::max(worst, std::hypot(x - along, y));
        CHECK(std::hypot(x, y) <= sphere + 1e-12);
      }
    }
    CHECK(worst <= cap.radius + 1e-12);
    CHECK(worst >= cap.radius - 1e-9);  // tight: the corners touch it
  }
}

TEST_CASE("vehicle drive-to seek: arrived under 2.5 m, half the distance under max speed, clamped beyond") {
  const VehicleClass c = default_vehicle_class(VehicleKind::Tracked);  // max_speed 10
  Seek s = seek_drive_to({1, 1}, {1 + 2.4, 1}, c);
  CHECK(s.arrived);
  CHECK(s.velocity == Vec2{0, 0});
  s = seek_drive_to({0, 0}, {0, 2.5}, c);  // exactly the radius: not arrived
  CHECK_FALSE(s.arrived);
  CHECK(s.braking);
  CHECK(s.velocity.y == doctest::Approx(1.25));
  s = seek_drive_to({0, 0}, {3, 4}, c);  // 5 m: speed 2.5 along (0.6, 0.8)
  CHECK(s.braking);
  CHECK(s.distance == 5);
  CHECK(s.velocity.x == doctest::Approx(1.5));
  CHECK(s.velocity.y == doctest::Approx(2.0));
  s = seek_drive_to({0, 0}, {10, 0}, c);  // exactly max speed: clamped, not braking
  CHECK_FALSE(s.braking);
  CHECK(s.velocity == Vec2{10, 0});
  s = seek_drive_to({0, 0}, {-30, 40}, c);  // 50 m: clamped to 10
  CHECK(s.velocity.x == doctest::Approx(-6));
  CHECK(s.velocity.y == doctest::Approx(8));
  s = seek_drive_to({0, 0}, {5, 0}, c, false);  // a private path's corner: no braking
  CHECK(s.velocity == Vec2{10, 0});
}

TEST_CASE("vehicle heading cases: each comparison keeps last step's answer within the hysteresis") {
  const auto at = [](double degrees) {
    return Vec2{std::cos(degrees * kPi / 180), -std::sin(degrees * kPi / 180)};
  };
  const double h = kHeadingHysteresis * 180 / kPi;  // degrees
  // The desired heading on the 90-degree boundary, as a turning vehicle finds it: without
  // a previous case it flips with every hundredth of a radian; with one it stays.
  const Vec2 behind = at(-120);  // goal behind (more than 90 degrees off)
  CHECK(classify_heading(behind, (90 - 1) * kPi / 180, 0) == HeadingCase::BehindSameHeading);
  CHECK(classify_heading(behind, (90 + 1) * kPi / 180, 0) == HeadingCase::BehindTurnAround);
  CHECK(classify_heading(behind, (90 + 1) * kPi / 180, 0, HeadingCase::BehindSameHeading) ==
        HeadingCase::BehindSameHeading);
  CHECK(classify_heading(behind, (90 - 1) * kPi / 180, 0, HeadingCase::BehindTurnAround) ==
        HeadingCase::BehindTurnAround);
  // While the goal stays behind, case 2 or 3 holds whatever the desired heading does
  // (their turns go opposite ways); from Ahead, past the hysteresis, the answer changes.
  CHECK(classify_heading(behind, (90 + h + 1) * kPi / 180, 0, HeadingCase::BehindSameHeading) ==
        HeadingCase::BehindSameHeading);
  CHECK(classify_heading(behind, (90 - h - 1) * kPi / 180, 0, HeadingCase::BehindTurnAround) ==
        HeadingCase::BehindTurnAround);
  CHECK(classify_heading(behind, (90 + h + 1) * kPi / 180, 0, HeadingCase::Ahead) ==
        HeadingCase::BehindTurnAround);
  CHECK(classify_heading(behind, (90 - h - 1) * kPi / 180, 0, HeadingCase::AheadTurnAtEnd) ==
        HeadingCase::BehindSameHeading);
  // Once the goal is ahead, case 2 gives way (to 1 or 4).
  CHECK(classify_heading(at(10), 0, 0, HeadingCase::BehindTurnAround) == HeadingCase::Ahead);
  CHECK(classify_heading(at(10), kPi, 0, HeadingCase::BehindSameHeading) == HeadingCase::AheadTurnAtEnd);
  // The goal's comparison likewise, independently of the heading's.
  CHECK(classify_heading(at(92), 0, 0) == HeadingCase::BehindSameHeading);
  CHECK(classify_heading(at(92), 0, 0, HeadingCase::Ahead) == HeadingCase::Ahead);
  CHECK(classify_heading(at(88), 0, 0, HeadingCase::BehindSameHeading) == HeadingCase::BehindSameHeading);
  CHECK(classify_heading(at(90 + h + 1), 0, 0, HeadingCase::Ahead) == HeadingCase::BehindSameHeading);
  CHECK(classify_heading(at(88), kPi, 0, HeadingCase::BehindTurnAround) == HeadingCase::BehindTurnAround);
  CHECK(classify_heading(at(88), kPi, 0, HeadingCase::AheadTurnAtEnd) == HeadingCase::AheadTurnAtEnd);
  // Still never carries over.
  CHECK(classify_heading({0, 0}, 0, 0, HeadingCase::Ahead) == HeadingCase::Still);
}

TEST_CASE(
    "vehicle heading cases: a tracked vehicle whose heading wavers on the boundary turns round, not back and "
    "forth") {
  // Goal behind-right, the platoon's heading 90 degrees off the vehicle's: the case that
  // alternated reversing and turning in place every step, so the vehicle never moved off.
  const VehicleClass c = default_vehicle_class(VehicleKind::Tracked);
  VehicleState s;
  s.heading = kPi / 2 + 0.001;
  HeadingCase previous = HeadingCase::Still;
  double start = s.heading;
  for (int k = 0; k < 60; ++k) {
    const Seek sk = seek_drive_to(s.position, Vec2{8, 12}, c);
    DriveGoal goal = drive_goal(sk, 0);
    goal.previous = previous;
    const DriveCommand cmd = plan_drive(s, c, goal);
    previous = cmd.heading_case;
    s = drive(s, c, cmd, 1.0 / 30);
  }
  // Two seconds later it has turned well round towards the goal (heading about -0.98).
  CHECK(heading_difference(start, s.heading) < -0.5);
}

TEST_CASE("vehicle heading cases: goal ahead or behind, desired heading like the current one or not") {
  const double right = -kPi / 2;  // heading of +y (downwards on screen)
  CHECK(classify_heading({10, 0}, 0.2, 0) == HeadingCase::Ahead);
  CHECK(classify_heading({-10, 0}, kPi, 0) == HeadingCase::BehindTurnAround);
  CHECK(classify_heading({-10, 1}, 0.1, 0) == HeadingCase::BehindSameHeading);
  CHECK(classify_heading({10, 0}, kPi, 0) == HeadingCase::AheadTurnAtEnd);
  CHECK(classify_heading({0, 0}, kPi, 0) == HeadingCase::Still);
  // "The same direction" is within 90 degrees either side.
  const Vec2 at89{std::cos(89 * kPi / 180), -std::sin(89 * kPi / 180)};
  const Vec2 at91{std::cos(91 * kPi / 180), -std::sin(91 * kPi / 180)};
  CHECK(classify_heading(at89, 0, 0) == HeadingCase::Ahead);
  CHECK(classify_heading(at91, 0, 0) == HeadingCase::BehindSameHeading);
  CHECK(classify_heading({10, 0}, 89 * kPi / 180, 0) == HeadingCase::Ahead);
  CHECK(classify_heading({10, 0}, 91 * kPi / 180, 0) == HeadingCase::AheadTurnAtEnd);
  // Across the wrap at pi.
  CHECK(classify_heading({-10, 0}, -kPi + 0.1, kPi - 0.1) == HeadingCase::Ahead);
  // A configuration the seed's definitions leave open (all three 120 degrees apart):
  // goal behind, desired heading unlike the current one: case 2.
  const double a120 = 2 * kPi / 3;
  CHECK(classify_heading({std::cos(a120), -std::sin(a120)}, -a120, 0) == HeadingCase::BehindTurnAround);
  CHECK(classify_heading({0, 5}, right, right) == HeadingCase::Ahead);
}

TEST_CASE("vehicle heading cases: each class's answer, one step") {
  const VehicleClass tracked = default_vehicle_class(VehicleKind::Tracked);
  const VehicleClass wheeled = default_vehicle_class(VehicleKind::Wheeled);
  const VehicleClass rotary = default_vehicle_class(VehicleKind::Rotary);
  const VehicleState s{{0, 0}, 0, 0};
  const auto goal = [](const VehicleClass& c, Vec2 to, double heading) {
    return drive_goal(seek_drive_to({0, 0}, to, c), heading);
  };
  for (const VehicleClass* c : {&tracked, &wheeled, &rotary}) {
    CAPTURE(to_string(c->kind));
    // Case 1: forward towards the goal, the speed the seek asks (straight ahead: no cap).
    DriveCommand cmd = plan_drive(s, *c, goal(*c, {100, 0}, 0));
    CHECK(cmd.heading_case == HeadingCase::Ahead);
    CHECK(cmd.speed == c->max_speed);
    CHECK(cmd.heading == 0);
    CHECK_FALSE(cmd.reversing);
    // Case 4: the same on the way.
    cmd = plan_drive(s, *c, goal(*c, {100, 0}, kPi));
    CHECK(cmd.heading_case == HeadingCase::AheadTurnAtEnd);
    CHECK(cmd.speed == c->max_speed);
    // Case 3, near (15 m <= 20 m): straight back, the rear towards the goal.
    cmd = plan_drive(s, *c, goal(*c, {-15, 0}, 0));
    CHECK(cmd.heading_case == HeadingCase::BehindSameHeading);
    CHECK(cmd.reversing);
    CHECK(cmd.speed == -std::min(7.5, c->max_reverse_speed));  // braking: half of 15 m
    CHECK(std::abs(angle_between(cmd.heading, 0)) < 1e-12);
    // Arrived: tracked and rotary turn to the desired heading, wheeled cannot.
    cmd = plan_drive(s, *c, goal(*c, {1, 0}, 1.0));
    CHECK(cmd.heading_case == HeadingCase::Still);
    CHECK(cmd.speed == 0);
    CHECK(cmd.heading == (c->kind == VehicleKind::Wheeled ? 0.0 : 1.0));
  }
  // Case 2: tracked and rotary turn in place towards the goal.
  for (const VehicleClass* c : {&tracked, &rotary}) {
    const DriveCommand cmd = plan_drive(s, *c, goal(*c, {-30, 10}, 2.8));
    CHECK(cmd.heading_case == HeadingCase::BehindTurnAround);
    CHECK(cmd.turn_in_place);
    CHECK(cmd.speed == 0);
    CHECK(cmd.heading == doctest::Approx(std::atan2(-10.0, -30.0)));
    // Case 3 far (60 m): back up while turning round to face the goal.
    const DriveCommand far = plan_drive(s, *c, goal(*c, {-60, 10}, 0));
    CHECK(far.heading_case == HeadingCase::BehindSameHeading);
    CHECK(far.speed == -c->max_reverse_speed);
    CHECK(far.heading == doctest::Approx(std::atan2(-10.0, -60.0)));
  }
  // Case 2, wheeled: back up; goal behind and below (heading difference negative): the
  // heading falls; behind and above: it grows.
  DriveCommand cmd = plan_drive(s, wheeled, goal(wheeled, {-30, 10}, kPi));
  CHECK(cmd.heading_case == HeadingCase::BehindTurnAround);
  CHECK(cmd.backing_turn);
  CHECK(cmd.speed == -wheeled.max_reverse_speed);
  CHECK(cmd.turn_side == -1);
  cmd = plan_drive(s, wheeled, goal(wheeled, {-30, -10}, kPi));
  CHECK(cmd.turn_side == 1);
  CHECK(cmd.backing_side == 1);
  // Case 3 far, wheeled: the same backing leg.
  cmd = plan_drive(s, wheeled, goal(wheeled, {-60, -10}, 0));
  CHECK(cmd.heading_case == HeadingCase::BehindSameHeading);
  CHECK(cmd.backing_turn);
  CHECK(cmd.turn_side == 1);
  // Wheeled, goal ahead but inside the left turning circle (8 m): 6 m away at 60
  // degrees needs an arc of radius 6 / (2 sin 60) = 3.46 m: back up instead.
  const double a = 60 * kPi / 180;
  cmd = plan_drive(s, wheeled, goal(wheeled, {6 * std::cos(a), -6 * std::sin(a)}, 0));
  CHECK(cmd.heading_case == HeadingCase::Ahead);
  CHECK(cmd.backing_turn);
  // ... while tracked drives there at a speed whose turn fits: 0.6 x 3.46 = 2.08 m/s.
  cmd = plan_drive(s, tracked, goal(tracked, {6 * std::cos(a), -6 * std::sin(a)}, 0));
  CHECK(cmd.speed == doctest::Approx(0.6 * 6 / (2 * std::sin(a))));
}

TEST_CASE("wheeled three-point turn: backs up turning, then forward, arrives facing back") {
  const VehicleClass c = default_vehicle_class(VehicleKind::Wheeled);
  for (const double y : {0.0, 3.0, -3.0}) {
    CAPTURE(y);
    // Facing +x, ordered to a point 30 m behind, to face -x there.
    const Vec2 goal{-30, y};
    const auto run = run_to(c, {{0, 0}, 0, 0}, goal, kPi, 600);
    const auto states = states_of(run);
    check_trajectory(c, states);
    // Phases: a backing leg (speed < 0, heading turning one way), then forward only.
    std::size_t first_forward = 0;
    while (first_forward < states.size() && states[first_forward].speed <= 0) ++first_forward;
    REQUIRE(first_forward < states.size());
    REQUIRE(first_forward > 5);
    CHECK(run[0].command.heading_case == HeadingCase::BehindTurnAround);
    CHECK(run[0].command.backing_turn);
    // The side: heading grows when the difference to the goal's direction is positive
    // (y = 0: exactly behind counts as positive; y > 0 is below: negative).
    const double expected_side = y > 0 ? -1 : 1;
    double turned = 0;
    for (std::size_t i = 1; i < first_forward; ++i) {
      const double t = angle_between(states[i - 1].heading, states[i].heading);
      CHECK(t * expected_side >= 0);
      turned += t;
    }
    CHECK(std::abs(turned) > 60 * kPi / 180);
    for (std::size_t i = first_forward; i < states.size(); ++i) CHECK(states[i].speed >= 0);
    // Arrives within the arrival radius, stopped, facing back within 10 degrees.
    CHECK(last(run).arrived);
    CHECK(glm::length(last(run).state.position - goal) < c.arrival_radius);
    CHECK(last(run).state.speed == 0);
    CHECK(std::abs(degrees(angle_between(last(run).state.heading, kPi))) < 10);
  }
}

TEST_CASE("vehicle case 2: tracked and rotary turn in place, then drive, then face the heading") {
  for (VehicleKind k : {VehicleKind::Tracked, VehicleKind::Rotary}) {
    CAPTURE(to_string(k));
    const VehicleClass c = default_vehicle_class(k);
    const Vec2 goal{-40, 6};
    // Facing the goal's direction at the end (the seed's case 2: goal behind, end facing
    // away from now). A desired heading that comes within 90 degrees of the current one
    // before the goal does would make it case 3 on the way.
    const double heading = std::atan2(-6.0, -40.0);
    const auto run = run_to(c, {{0, 0}, 0, 0}, goal, heading, 800);
    const auto states = states_of(run);
    check_trajectory(c, states);
    // Turns on the spot, at turn_rate, while the goal is behind (case 2).
    std::size_t i = 0;
    while (run[i].command.heading_case == HeadingCase::BehindTurnAround) {
      CHECK(run[i].command.turn_in_place);
      CHECK(states[i + 1].position == Vec2{0, 0});
      CHECK(std::abs(angle_between(states[i].heading, states[i + 1].heading)) ==
            doctest::Approx(std::min(c.turn_rate * kDt,
                                     std::abs(angle_between(states[i].heading, run[i].command.heading)))));
      ++i;
    }
    CHECK(i > 5);  // about 90 degrees at turn_rate
    // Case 1 then: the goal within 90 degrees.
    CHECK(run[i].command.heading_case == HeadingCase::Ahead);
    CHECK(std::abs(angle_between(states[i].heading, std::atan2(-6.0, -40.0))) < kPi / 2);
    // Arrives, stops and faces the desired heading exactly.
    CHECK(last(run).arrived);
    CHECK(glm::length(last(run).state.position - goal) < c.arrival_radius);
    CHECK(last(run).state.speed == 0);
    CHECK(last(run).state.heading == doctest::Approx(heading));
  }
}

TEST_CASE("vehicle case 4: tracked and rotary turn round at the goal, wheeled arrive facing the wrong way") {
  for (VehicleKind k : {VehicleKind::Tracked, VehicleKind::Wheeled, VehicleKind::Rotary}) {
    CAPTURE(to_string(k));
    const VehicleClass c = default_vehicle_class(k);
    const Vec2 goal{60, 8};
    const auto run = run_to(c, {{0, 0}, 0, 0}, goal, kPi, 800);
    check_trajectory(c, states_of(run));
    CHECK(run[0].command.heading_case == HeadingCase::AheadTurnAtEnd);
    for (const Sample& s : run) CHECK(s.state.speed >= 0);  // never reverses
    CHECK(last(run).arrived);
    CHECK(glm::length(last(run).state.position - goal) < c.arrival_radius);
    const double off = std::abs(angle_between(last(run).state.heading, kPi));
    if (k == VehicleKind::Wheeled) {
      CHECK(off > kPi / 2);  // the seed's accepted compromise
    } else {
      CHECK(off < 1e-9);
    }
  }
}

TEST_CASE(
    "vehicle case 3: near goals behind are reached in reverse, far ones by turning round (then case 4)") {
  for (VehicleKind k : {VehicleKind::Tracked, VehicleKind::Wheeled, VehicleKind::Rotary}) {
    CAPTURE(to_string(k));
    const VehicleClass c = default_vehicle_class(k);
    // Near: 15 m behind, a little to the side; reverse all the way, keep the heading.
    const Vec2 near{-15, 2};
    auto run = run_to(c, {{0, 0}, 0, 0}, near, 0, 800);
    check_trajectory(c, states_of(run));
    for (const Sample& s : run) CHECK(s.state.speed <= 0);
    CHECK(last(run).arrived);
    CHECK(glm::length(last(run).state.position - near) < c.arrival_radius);
    CHECK(std::abs(degrees(angle_between(last(run).state.heading, 0))) < 15);
    // Far: 60 m behind: first backs up while turning to face the goal, then drives forward.
    const Vec2 far{-60, 5};
    run = run_to(c, {{0, 0}, 0, 0}, far, 0, 1200);
    check_trajectory(c, states_of(run));
    CHECK(run[0].command.heading_case == HeadingCase::BehindSameHeading);
    CHECK(run[0].command.speed < 0);
    bool saw_case4 = false;
    for (const Sample& s : run)
      saw_case4 = saw_case4 || s.command.heading_case == HeadingCase::AheadTurnAtEnd;
    CHECK(saw_case4);
    CHECK(last(run).arrived);
    CHECK(glm::length(last(run).state.position - far) < c.arrival_radius);
    const double off = std::abs(angle_between(last(run).state.heading, 0));
    if (k == VehicleKind::Wheeled) {
      CHECK(off > kPi / 2);  // case 4's compromise
    } else {
      CHECK(off < 1e-9);
    }
  }
}

TEST_CASE(
    "wheeled vehicle: never turns at zero speed, never tighter than its minimum radius (random commands)") {
  const VehicleClass c = default_vehicle_class(VehicleKind::Wheeled);
  std::mt19937_64 rng(4004);
  std::uniform_real_distribution<double> speed(-8, 25);
  std::uniform_real_distribution<double> heading(-kPi, kPi);
  std::uniform_int_distribution<int> side(-1, 1);
  std::uniform_int_distribution<int> hold(1, 30);
  std::vector<VehicleState> states{VehicleState{}};
  int stopped_steps = 0;
  int turning_steps = 0;
  while (states.size() < 20000) {
    DriveCommand cmd;
    // Often a stop, to test turning when stopped.
    cmd.speed = side(rng) == 0 ? 0.0 : speed(rng);
    cmd.heading = heading(rng);
    cmd.turn_side = static_cast<std::int8_t>(side(rng));
    for (int n = hold(rng); n > 0; --n) {
      const VehicleState next = drive(states.back(), c, cmd, kDt);
      if (states.back().speed == 0 && next.speed == 0) {
        ++stopped_steps;
        CHECK(next.heading == states.back().heading);
      }
      if (next.heading != states.back().heading) ++turning_steps;
      states.push_back(next);
    }
  }
  CHECK(stopped_steps > 100);
  CHECK(turning_steps > 1000);
  check_trajectory(c, states);
}

TEST_CASE("vehicles: tracked and rotary turn in place at turn_rate, wheeled does not") {
  for (VehicleKind k : {VehicleKind::Tracked, VehicleKind::Wheeled, VehicleKind::Rotary}) {
    const VehicleClass c = default_vehicle_class(k);
    DriveCommand cmd;
    cmd.speed = 0;
    cmd.heading = 2.0;
    DriveTrace trace;
    const VehicleState n = drive({{5, 5}, 0, 0}, c, cmd, kDt, &trace);
    CHECK(n.position == Vec2{5, 5});
    if (k == VehicleKind::Wheeled) {
      CHECK(n.heading == 0);
      CHECK(trace.max_yaw_rate == 0);
    } else {
      CHECK(n.heading == doctest::Approx(c.turn_rate * kDt));
      CHECK(trace.yaw_rate == doctest::Approx(c.turn_rate));
    }
  }
  // Hand-worked wheeled step: from 10 m/s, target 10, heading wanted far left: yaw rate
  // min(1.0, 10 / 8) = 1.0 rad/s, so 0.1 rad; 1 m along an arc of 10 m radius.
  const VehicleClass w = default_vehicle_class(VehicleKind::Wheeled);
  DriveCommand cmd;
  cmd.speed = 10;
  cmd.heading = 1.5;
  DriveTrace trace;
  const VehicleState n = drive({{0, 0}, 0, 10}, w, cmd, kDt, &trace);
  CHECK(n.heading == doctest::Approx(0.1));
  CHECK(trace.curvature == doctest::Approx(0.1));
  CHECK(n.position.x == doctest::Approx(10 * std::sin(0.1)));
  CHECK(n.position.y == doctest::Approx(-10 * (1 - std::cos(0.1))));
  // At 4 m/s the radius limits: 4 / 8 = 0.5 rad/s.
  const VehicleState slow = drive({{0, 0}, 0, 4}, w, DriveCommand{HeadingCase::Ahead, 4, 1.5}, kDt, &trace);
  CHECK(slow.heading == doctest::Approx(0.05));
  CHECK(trace.max_yaw_rate == doctest::Approx(0.5));
}

TEST_CASE("vehicle driving is deterministic: the same inputs give the same bits") {
  const auto run_bits = [] {
    std::vector<std::uint64_t> bits;
    for (VehicleKind k : {VehicleKind::Tracked, VehicleKind::Wheeled, VehicleKind::Rotary}) {
      const VehicleClass c = default_vehicle_class(k);
      for (const Vec2 goal : {Vec2{-30, 3}, Vec2{50, -7}, Vec2{-70, 20}}) {
        for (const Sample& s : run_to(c, {{1, 2}, 0.3, 0}, goal, 2.0, 600)) {
          bits.push_back(std::bit_cast<std::uint64_t>(s.state.position.x));
          bits.push_back(std::bit_cast<std::uint64_t>(s.state.position.y));
          bits.push_back(std::bit_cast<std::uint64_t>(s.state.heading));
          bits.push_back(std::bit_cast<std::uint64_t>(s.state.speed));
        }
      }
    }
    return bits;
  };
  const auto a = run_bits();
  const auto b = run_bits();
  CHECK(a.size() > 1000);
  CHECK(a == b);
}

}  // namespace pathscope::sim::vehicle_test
