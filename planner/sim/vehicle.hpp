#pragma once

// Vehicles that drive like vehicles (seed 004, "2 Framework" and "5 Vehicle-Level
// Pathfinding"): tracked, wheeled and rotary classes; the crew's drive-to seek; the four
// cases of goal direction, desired heading and current heading, with each class's answer
// (the wheeled three-point turn included); and one step of the vehicle's dynamics (turn
// rate, acceleration, a wheeled vehicle's minimum turning radius, reversing). Pure
// functions of values: no world, no clock. Infantry keeps the unit model (unit_motion).
//
// Headings are radians as Unit::heading: atan2 of the direction with world y downwards,
// so a heading grows counter-clockwise on screen. Metres, seconds.

#include <cstdint>

#include "planner/core/result.hpp"
#include "planner/core/types.hpp"

namespace pathscope::sim {

/// The seed's three vehicle classes.
enum class VehicleKind : std::uint8_t {
  Tracked,  ///< Tanks: slow, turn in place (one tread forward, one back).
  Wheeled,  ///< Fast, a minimum turning radius, cannot turn when stopped.
  Rotary,   ///< Helicopters: fast, turn in place.
};

/// "tracked", "wheeled" or "rotary".
const char* to_string(VehicleKind kind);

/// A vehicle class's driving limits and size. Metres, seconds, radians.
struct VehicleClass {
  VehicleKind kind = VehicleKind::Tracked;
  double max_speed = 10;         ///< Forward top speed, m/s (> 0).
  double max_reverse_speed = 4;  ///< Reverse top speed, m/s (> 0).
  double acceleration = 2;       ///< Speed gained per second away from a stop, m/s^2 (> 0).
  double deceleration = 5;       ///< Speed shed per second towards a stop, m/s^2 (> 0).
  double turn_rate = 0.6;        ///< Largest yaw rate, rad/s (> 0).
  double min_turn_radius = 0;    ///< Wheeled: smallest radius of its path, m (> 0); others 0.
  double arrival_radius = 2.5;   ///< Within this of its drive-to point it has arrived, m (> 0).
  double reverse_distance = 20;  ///< Case 3: goals behind within this are reached in reverse, m (>= 0).
  double length = 7;             ///< Footprint along the heading, m (> 0).
  double width = 3.5;            ///< Footprint across the heading, m (> 0).
  friend bool operator==(const VehicleClass&, const VehicleClass&) = default;
};

/// The defaults of a kind: a battle tank, a scout car, a helicopter (vehicle.cpp lists them).
VehicleClass default_vehicle_class(VehicleKind kind);

/// Checks a class: every field finite and in its range above; the error's `where` names
/// the bad field ("VehicleClass.turn_rate").
Status validate(const VehicleClass& cls);

/// The radius of the disc round the whole footprint (half its diagonal), m: the sphere of
/// the avoidance's cull.
double bounding_radius(const VehicleClass& cls);

/// The capsule round the footprint: a disc of radius width / sqrt(2) swept along the
/// heading over (length - width) (or half the diagonal and no sweep when width >= length).
/// It holds the whole rectangle. Metres.
struct FootprintCapsule {
  double radius = 0;       ///< Disc radius.
  double half_length = 0;  ///< Half the swept segment, along the heading, centred on the vehicle.
};

/// The footprint capsule of a class (the avoidance's swept sphere).
FootprintCapsule footprint_capsule(const VehicleClass& cls);

/// The unit vector of a heading (y downwards: heading 0 is +x, pi/2 is -y).
Vec2 heading_vector(double heading);

/// The heading of a direction (the inverse of heading_vector; 0 for the zero vector).
double heading_of_vector(Vec2 dir);

/// The angle from a to b wrapped to (-pi, pi]: positive when b lies counter-clockwise.
double heading_difference(double a, double b);

/// Where a vehicle is and how it moves, and the memory of a three-point turn.
struct VehicleState {
  Vec2 position{0, 0};        ///< Centre, metres.
  double heading = 0;         ///< Radians, (-pi, pi].
  double speed = 0;           ///< Signed, m/s along the heading: negative while reversing.
  bool backing_turn = false;  ///< Wheeled: in the backing leg of a three-point turn.
  std::int8_t turn_side = 0;  ///< That leg's turn, chosen at its start: +1 heading grows, -1 falls.
  friend bool operator==(const VehicleState&, const VehicleState&) = default;
};

/// The velocity of a state (speed along the heading), m/s.
Vec2 velocity_of(const VehicleState& state);

/// The crew's drive-to seek (seed 004, "Drive-to position").
struct Seek {
  Vec2 velocity{0, 0};   ///< The steering velocity, m/s (zero when arrived).
  double distance = 0;   ///< Metres to the drive-to point.
  bool arrived = false;  ///< Closer than the arrival radius: no steering, no velocity.
  bool braking = false;  ///< Closer than max_speed (metres, one second's drive): speed halved.
};

/// The seed's seek: the vector to `drive_to` is the base velocity and its length the base
/// speed; under the arrival radius the vehicle has arrived (zero velocity); under
/// max_speed (as metres) it brakes: the speed is half the distance; otherwise it is
/// clamped to max_speed. `brake` false leaves out the braking (a private path's points
/// before its last).
Seek seek_drive_to(Vec2 position, Vec2 drive_to, const VehicleClass& cls, bool brake = true);

/// The seed's four cases of desired velocity, desired heading and current heading, and
/// Still (no velocity: arrived, or stopped by avoidance). "The same direction" is within
/// 90 degrees either side (the seed's "within 180 degrees of each other"). Each case is
/// decided by two comparisons with the current heading: goal ahead or behind, desired
/// heading like the current one or not; this agrees with the seed's definitions
/// wherever they apply and decides the configurations they leave open.
enum class HeadingCase : std::uint8_t {
  Still = 0,              ///< No desired velocity.
  Ahead = 1,              ///< Goal ahead, end facing about as now.
  BehindTurnAround = 2,   ///< Goal behind, end facing it (away from now).
  BehindSameHeading = 3,  ///< Goal behind, end facing about as now.
  AheadTurnAtEnd = 4,     ///< Goal ahead, end facing back.
};

/// Radians by which each of classify_heading's two comparisons keeps the answer it gave
/// last step: a heading that wavers on the 90-degree boundary does not flip the case
/// every step (reversing one step, turning round the next, and so never getting out).
inline constexpr double kHeadingHysteresis = 0.17;

/// The case of a desired velocity (non-zero), desired heading and current heading.
/// `previous`, the case answered last step (Still: none), moves each comparison's
/// boundary by kHeadingHysteresis in favour of the answer it gave then; and case 2 or 3
/// holds while the goal stays behind (case 2 turns until the goal is ahead, case 3 backs
/// up until it faces it: their turns go opposite ways).
HeadingCase classify_heading(Vec2 desired_velocity, double desired_heading, double current_heading,
                             HeadingCase previous = HeadingCase::Still);

/// What the crew wants this step: the steering velocity (the seek's, after avoidance), the
/// platoon's heading, and how far the drive-to point is.
struct DriveGoal {
  Vec2 velocity{0, 0};   ///< Desired velocity, m/s; zero: stop (arrived or held).
  double heading = 0;    ///< Desired heading at the drive-to point, radians.
  double distance = 0;   ///< Metres to the drive-to point.
  bool arrived = false;  ///< Within the arrival radius (tracked and rotary then turn to `heading`).
  HeadingCase previous = HeadingCase::Still;  ///< The case answered last step (classify_heading).
};

/// The goal of a seek and a desired heading.
DriveGoal drive_goal(const Seek& seek, double desired_heading);

/// What the vehicle is told to do for one step.
struct DriveCommand {
  HeadingCase heading_case = HeadingCase::Still;  ///< The case it answers.
  double speed = 0;                               ///< Target signed speed, m/s.
  double heading = 0;                             ///< Heading to turn towards, radians.
  std::int8_t turn_side = 0;     ///< 0: the shorter way; +1 / -1: heading grows / falls (a backing leg).
  bool backing_turn = false;     ///< The three-point memory the next state keeps: in a backing leg,
  std::int8_t backing_side = 0;  ///< and the side that leg chose at its start.
  bool reversing = false;        ///< The answer drives backwards (case 3 or a backing leg).
  bool turn_in_place = false;    ///< The answer turns on the spot (tracked, rotary).
  friend bool operator==(const DriveCommand&, const DriveCommand&) = default;
};

/// Each class's answer to its heading case (seed 004, "Desired heading and velocity"):
///  1: forward, turning towards the goal; at the goal tracked and rotary turn to the
///     desired heading, wheeled just stop.
///  2: tracked, rotary turn in place until case 1; wheeled back up turning (to the right
///     when the heading difference is positive: the heading grows) until the goal is
///     ahead and reachable forward, then drive forward (the three-point turn).
///  3: within reverse_distance, drive backwards to the goal; farther, tracked and rotary
///     back up while turning to face it, wheeled back up as in case 2; facing it, case 4.
///  4: forward; tracked and rotary turn round at the goal, wheeled end facing the wrong
///     way (the seed's accepted compromise).
/// Speeds ahead or in reverse are capped so that the turn to the goal fits (turn_rate x
/// the radius of the arc to it); a wheeled vehicle with the goal inside a turning circle
/// (the arc would be tighter than min_turn_radius) backs up as in case 2.
DriveCommand plan_drive(const VehicleState& state, const VehicleClass& cls, const DriveGoal& goal);

/// What one step of drive() did, for the window and the decision log.
struct DriveTrace {
  double target_speed = 0;  ///< The command's speed clamped to the class, m/s.
  double yaw_rate = 0;      ///< Applied, rad/s.
  double max_yaw_rate = 0;  ///< Allowed this step, rad/s (wheeled: |mean speed| / min_turn_radius at most).
  double distance = 0;      ///< Signed distance driven along the arc, m.
  double curvature = 0;     ///< Heading change per metre driven, 1/m (0 when it did not move).
};

/// One step of `dt` seconds: the speed moves towards the command's (accelerating away
/// from a stop, decelerating towards it, stopping before changing direction); the heading
/// turns towards the command's by at most the yaw rate allowed (tracked and rotary:
/// turn_rate, also standing; wheeled: at most |mean speed| / min_turn_radius, so none when
/// stopped); the vehicle moves along the exact arc of that speed and turn. Keeps the
/// command's three-point memory. `trace` may be null.
VehicleState drive(const VehicleState& state, const VehicleClass& cls, const DriveCommand& command, double dt,
                   DriveTrace* trace = nullptr);

}  // namespace pathscope::sim
