#pragma once

// A platoon moving along its path (seed 004, "Formation movement"): the tactician's part.
// A component: a pure step of the platoon's own state from its path, its settings and
// how far its vehicles are from their drive-to points; nothing of the simulation.
//
// The platoon is not a vehicle: it is a position and a heading on its path. Its heading
// follows the path's segment just ahead (it starts turning `corner_lookahead` metres
// before a corner), and at the path's end it makes a last turn to the ordered heading
// (Figure 6). Its speed: at most its slowest vehicle's (`max_speed`); less and less as
// the farthest vehicle drifts from its drive-to point beyond `slack`; none ("waiting")
// once that vehicle is beyond `wait_factor` x max_speed metres (seed: 2 x maxspeed),
// until it is back within `resume_factor` x max_speed, or until `wait_patience` seconds
// pass with the straggler coming no nearer (held by other vehicles or a wall: its point
// only moves when the platoon does), when it presses on slowly; a little less while any slot is
// pulled in by obstacles (the seed's post-ship lesson); and never more than lets it stop
// at the path's end.

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include "planner/core/types.hpp"
#include "planner/sim/platoon_formation.hpp"

namespace pathscope::sim {

/// Settings of a platoon's movement.
struct PlatoonParams {
  double max_speed = 5;                   ///< m/s: its slowest vehicle's top speed.
  double acceleration = 2;                ///< m/s^2 the platoon's speed changes by, both ways.
  double turn_rate = 0.8;                 ///< rad/s its heading turns at, at most.
  double corner_lookahead = 6;            ///< Metres before a corner its heading starts to turn.
  double slack = 2.5;                     ///< Metres a vehicle may be from its point without slowing it.
  double wait_factor = 2;                 ///< Waits beyond wait_factor x max_speed metres (seed 004: 2).
  double resume_factor = 1;               ///< Goes on within resume_factor x max_speed metres.
  double obstacle_slowdown = 0.75;        ///< Speed factor while a slot is pulled in by obstacles.
  double wait_patience = 4;               ///< Seconds a wait lasts with no straggler closing in.
  double press_on_factor = 0.25;          ///< Speed factor (of max_speed) after a wait stalled.
  double formation_change_seconds = 3;    ///< A change of formation takes this long (s).
  double final_heading_tolerance = 0.01;  ///< Radians: the last turn is done within this.
};

/// What the platoon is doing.
enum class PlatoonPhase : std::uint8_t {
  Idle,        ///< No order.
  Moving,      ///< Along its path.
  Waiting,     ///< Stopped for a straggler.
  FinalTurn,   ///< At the path's end, turning to the ordered heading.
  Arrived,     ///< At the end, facing the ordered heading.
  BridgeWait,  ///< Stopped before a bridge another platoon holds (seed 004, "Bridges").
};

/// The phase's name ("idle", "moving", "waiting", "final turn", "arrived", "waiting for a
/// bridge").
std::string_view platoon_phase_name(PlatoonPhase phase);

/// A platoon's own state: where it is on its path and how it moves.
struct PlatoonMotion {
  Vec2 position{0, 0};                      ///< Metres: on the path at `along`.
  double heading = 0;                       ///< Radians (as Unit::heading).
  double speed = 0;                         ///< m/s along the path.
  double along = 0;                         ///< Arc length on its PathWalk (metres).
  PlatoonPhase phase = PlatoonPhase::Idle;  ///< What it is doing.
  double final_heading = 0;                 ///< Radians: the heading ordered at the end.
  double formation_blend = 1;               ///< 0..1 of the way from the old formation to the new.
  double wait_best = 0;                     ///< Metres: the nearest its straggler came during this wait.
  double wait_stalled = 0;  ///< Seconds of this wait since the straggler last came 0.5 m nearer.
  /// A wait stalled (a straggler held by others or a wall, whose drive-to point only
  /// moves if the platoon does): it presses on at press_on_factor x max_speed and does not
  /// wait again until every straggler is within the resume distance.
  bool pressing_on = false;
};

/// How the vehicles stand this step, for the platoon's speed.
struct PlatoonFeedback {
  double straggler = 0;   ///< Metres: the farthest vehicle present from its drive-to point.
  bool morphing = false;  ///< Some slot is pulled in by obstacles.
  /// Arc length on its path it must not pass: the stop before a bridge another platoon
  /// holds (infinite: none). It brakes to stop there, then waits (PlatoonPhase::BridgeWait)
  /// until the hold is lifted.
  double hold_at = std::numeric_limits<double>::infinity();
};

/// The platoon at the start of an order along `walk`: at the path's start, still facing
/// `heading`, moving, the formation change (if any) starting.
PlatoonMotion start_platoon(const PathWalk& walk, double heading, double final_heading,
                            bool formation_changes);

/// One step of `dt` seconds (see above).
void advance_platoon(PlatoonMotion& m, const PathWalk& walk, const PlatoonParams& params,
                     const PlatoonFeedback& feedback, double dt);

/// The farthest distance between a vehicle present and its slot's drive-to point
/// (metres; 0 with none present). `present[k]` 0: slot k's vehicle is gone.
double straggler_distance(std::span<const Vec2> vehicles, std::span<const std::uint8_t> present,
                          std::span<const SlotTarget> targets);

}  // namespace pathscope::sim
