// The platoon's movement along its path: seed 004, "Formation movement" (the platoon's
// own position and heading, turning into each new segment and to the final heading,
// Figure 6; speed set by the slowest vehicle, slowing as a straggler drifts, waiting
// beyond 2 x maxspeed) and "6 Conclusions" (slowing when passing obstacles). See
// platoon.hpp.

#include "planner/sim/platoon.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "planner/sim/unit_motion.hpp"

namespace pathscope::sim {

namespace {

/// `heading` turned towards `wanted` by at most `max_turn` radians.
double turn_towards(double heading, double wanted, double max_turn) {
  const double d = angle_difference(heading, wanted);
  return angle_difference(0.0, heading + std::clamp(d, -max_turn, max_turn));
}

/// Metres short of a bridge's hold within which the platoon counts as stopped there.
constexpr double kHoldReached = 0.05;

/// Metres a straggler must come nearer for a wait to count as progressing.
constexpr double kWaitProgress = 0.5;

/// The speed's target from the stragglers (see platoon.hpp); negative: wait.
double speed_from_stragglers(const PlatoonParams& p, double straggler) {
  const double limit = p.wait_factor * p.max_speed;
  if (straggler > limit) return -1;
  if (straggler <= p.slack || limit <= p.slack) return p.max_speed;
  return p.max_speed * (1 - (straggler - p.slack) / (limit - p.slack));
}

}  // namespace

std::string_view platoon_phase_name(PlatoonPhase phase) {
  switch (phase) {
    case PlatoonPhase::Idle: return "idle";
    case PlatoonPhase::Moving: return "moving";
    case PlatoonPhase::Waiting: return "waiting";
    case PlatoonPhase::FinalTurn: return "final turn";
    case PlatoonPhase::Arrived: return "arrived";
    case PlatoonPhase::BridgeWait: return "waiting for a bridge";
  }
  return "idle";
}

PlatoonMotion start_platoon(const PathWalk& walk, double heading, double final_heading,
                            bool formation_changes) {
  PlatoonMotion m;
  m.along = walk.path_start();
  m.position = walk.point_at(m.along);
  m.heading = heading;
  m.phase = PlatoonPhase::Moving;
  m.final_heading = final_heading;
  m.formation_blend = formation_changes ? 0 : 1;
  return m;
}

void advance_platoon(PlatoonMotion& m, const PathWalk& walk, const PlatoonParams& p,
                     const PlatoonFeedback& feedback, double dt) {
  if (p.formation_change_seconds > 0) {
    m.formation_blend = std::min(1.0, m.formation_blend + dt / p.formation_change_seconds);
  } else {
    m.formation_blend = 1;
  }
  const double max_turn = p.turn_rate * dt;
  if (m.phase == PlatoonPhase::Idle || m.phase == PlatoonPhase::Arrived) {
    m.speed = 0;
    return;
  }
  if (m.phase == PlatoonPhase::FinalTurn) {
    m.speed = 0;
    m.heading = turn_towards(m.heading, m.final_heading, max_turn);
    if (std::abs(angle_difference(m.heading, m.final_heading)) <= p.final_heading_tolerance) {
      m.phase = PlatoonPhase::Arrived;
    }
    return;
  }

  // A bridge another platoon holds: it waits (at once, as for stragglers) until let on.
  const bool held = std::isfinite(feedback.hold_at);
  if (m.phase == PlatoonPhase::BridgeWait) {
    if (held && feedback.hold_at - m.along <= kHoldReached) {
      m.speed = 0;
      return;
    }
    m.phase = PlatoonPhase::Moving;
  }

  // Speed: the stragglers, the obstacles, the end of the path, a bridge's hold.
  const double wanted = speed_from_stragglers(p, feedback.straggler);
  const bool gathered = feedback.straggler <= p.resume_factor * p.max_speed;
  if (gathered) m.pressing_on = false;
  if (m.phase == PlatoonPhase::Waiting) {
    if (gathered) {
      m.phase = PlatoonPhase::Moving;
    } else if (feedback.straggler < m.wait_best - kWaitProgress) {
      m.wait_best = feedback.straggler;
      m.wait_stalled = 0;
    } else if ((m.wait_stalled += dt) >= p.wait_patience) {
      // Nobody comes nearer: the drive-to points only move if the platoon does.
      m.phase = PlatoonPhase::Moving;
      m.pressing_on = true;
    }
  } else if (m.phase == PlatoonPhase::Moving && wanted < 0 && !m.pressing_on) {
    m.phase = PlatoonPhase::Waiting;
    m.wait_best = feedback.straggler;
    m.wait_stalled = 0;
  }
  double target = 0;
  if (m.phase == PlatoonPhase::Moving) {
    const double base =
        m.pressing_on ? std::max(wanted, p.press_on_factor * p.max_speed) : std::max(wanted, 0.0);
    target = base * (feedback.morphing ? p.obstacle_slowdown : 1.0);
    const double left = std::max(walk.length() - m.along, 0.0);
    target = std::min(target, std::sqrt(2 * p.acceleration * left));
    if (held)
      target = std::min(target, std::sqrt(2 * p.acceleration * std::max(feedback.hold_at - m.along, 0.0)));
  }
  if (m.phase == PlatoonPhase::Waiting) {
    m.speed = 0;  // The platoon is a point on its path, not a vehicle: it stops at once.
  } else {
    m.speed = std::clamp(target, m.speed - p.acceleration * dt, m.speed + p.acceleration * dt);
  }

  m.along = std::min(m.along + m.speed * dt, walk.length());
  if (held && m.phase == PlatoonPhase::Moving && m.along >= feedback.hold_at - kHoldReached) {
    m.along = std::max(std::min(m.along, feedback.hold_at), m.along - m.speed * dt);
    m.speed = 0;
    m.phase = PlatoonPhase::BridgeWait;
  }
  m.position = walk.point_at(m.along);
  const double ahead = std::min(m.along + p.corner_lookahead, walk.length());
  m.heading = turn_towards(m.heading, heading_of(walk.direction_at(ahead)), max_turn);

  // The end: braking leaves a sliver the speed never quite covers; within a millimetre
  // the platoon is there.
  if (walk.length() - m.along <= 1e-3) {
    m.along = walk.length();
    m.position = walk.point_at(m.along);
    m.speed = 0;
    m.phase = PlatoonPhase::FinalTurn;
  }
}

double straggler_distance(std::span<const Vec2> vehicles, std::span<const std::uint8_t> present,
                          std::span<const SlotTarget> targets) {
  double farthest = 0;
  const std::size_t n = std::min({vehicles.size(), present.size(), targets.size()});
  for (std::size_t k = 0; k < n; ++k) {
    if (present[k] != 0) farthest = std::max(farthest, glm::distance(vehicles[k], targets[k].drive_to));
  }
  return farthest;
}

}  // namespace pathscope::sim
