// Arrival: a unit whose order is done is "arrived" only while it stands at its goal, and
// one pushed off its goal walks back (seed 002, Listing 1's ReachedGoal state, kept true).
//
// A unit's goal is its order's last point (for a formation order, its own slot). Reaching
// it (Listing 1: out of waypoints) sets ReachedGoal and, within arrival_tolerance of the
// goal (half the hard radius, at most 0.5 m), `arrived`. Standing there, it can still be
// moved: collision prevention pushes it, a unit under way shoves it, cooperation has it
// move aside (and the move back may give up). At the end of every step each unit whose
// order is done is measured against its goal:
//  - within the tolerance: arrived (again);
//  - farther: not arrived. If another unit's hard shape covers the goal and that unit
//    holds it, the goal is taken (SimUnit::Goal::taken) and the unit waits beside it; it
//    walks in once the goal is free. A unit holds a goal it covers when it stands there by
//    right (arrived at its own goal next to it, idle, waiting its turn) or is passing. A
//    unit standing off its own goal does not (it leaves when it walks back, and two units
//    pushed onto each other's goals would otherwise wait for ever), nor does one under
//    way that has made no progress for kHeldUpSeconds: the unit waiting for the goal most
//    likely stands in its way, and they untie only when that one walks in (they swap
//    places). A unit sent to a taken spot stops beside it the same way (detours.cpp).
// A unit off its goal, with the goal free and no unit under way near it or its goal, that
// has stood still (not moved, pushed or yielding) for kSettleSeconds walks back: the straight line to its
// goal becomes its path (a path is asked for when a wall is in the way) and it goes through the state loop as
// any unit under way, so cooperation, moves and prevention treat it as such, and it
// arrives again at the path's end. Standing still first keeps it from walking into a
// unit still shoving past, and from fighting pushes that have not ended. Walking back,
// it ranks as an arrived unit (SimUnit::Goal::walking_back): units under way have it step
// aside, as they would had it stayed. A walk back that ends off the goal doubles the
// next wait (up to kMaxSettleSeconds): in a busy street it lets the traffic pass.
//
// Only positions at step ends and fixed thresholds decide: deterministic.
//
// A component: it sees the units and the motions, and writes only goals, progress and
// waits (ArrivalUnit); it keeps its own spatial hash.

#include "planner/sim/arrival.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "planner/sim/static_check.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

namespace {

// A Move or Waypoints order with points: it has a goal to arrive at.
bool has_goal(const SimUnit& u) {
  return (u.route.order.kind == OrderKind::Move || u.route.order.kind == OrderKind::Waypoints) &&
         !u.route.order.points.empty();
}

// Seconds without progress after which a unit under way is held up, not passing.
constexpr double kHeldUpSeconds = 2;

// Whether `o` (its goal and progress: `a`), covering another unit's goal, holds it (see
// the top of this file).
bool holds_goal(const SimUnit& o, const ArrivalUnit& a, double now) {
  if (o.route.state == MoveState::ReachedGoal && !a.goal.arrived && has_goal(o)) return false;
  if (o.route.state == MoveState::Moving && now - a.progress_time >= kHeldUpSeconds) return false;
  return true;
}

}  // namespace

double arrival_tolerance(const Motion& motion) {
  return std::min(kMaxArrivalTolerance, 0.5 * motion.hard_radius);
}

void reach_goal(SimUnit& u, const Motion& motion, double now, double& still_since, double& settle) {
  u.route.state = MoveState::ReachedGoal;
  if (!has_goal(u)) return;
  const double tolerance = arrival_tolerance(motion);
  if (glm::length(u.route.order.points.back() - u.body.position) <= tolerance) {
    u.goal.arrived = true;
    u.goal.taken = false;
    still_since = 0;
    settle = kSettleSeconds;
    if (u.goal.arrived_time < 0) u.goal.arrived_time = now;
  } else {
    // Stopped beside its goal (taken: detours.cpp). The end of the step says whether
    // another unit still covers it. A walk back that ended here waits twice as long
    // before the next.
    u.goal.arrived = false;
    still_since = now;
    if (u.goal.walking_back) settle = std::min(2 * settle, kMaxSettleSeconds);
  }
  u.goal.walking_back = false;
}

bool start_walk_back(SimUnit& u, const CostGrid& grid, std::uint16_t move_key, double now) {
  if (!has_goal(u) || u.coop.yield != Yield::None || u.waits.bridge || u.waits.passage) return false;
  const Vec2 goal = u.route.order.points.back();
  u.route.order_point = u.route.order.points.size() - 1;
  u.route.predicted.clear();
  if (segment_blocked(grid, move_key, u.body.position, goal)) {
    // A wall between (pushed round a corner): a path, as for any order point.
    u.route.path.clear();
    u.route.waypoint = 0;
    u.route.state = MoveState::WaitingForPath;
  } else {
    u.route.path = {u.body.position, goal};
    u.route.waypoint = 1;
    u.route.state = MoveState::Moving;
  }
  // Progress (stuck detection, held-up detours) is measured from here.
  u.route.best_distance = glm::length(goal - u.body.position);
  u.route.progress_time = now;
  u.goal.walking_back = true;
  return true;
}

void keep_arrivals(std::span<const SimUnit> units, std::span<const Motion> motions, double now,
                   std::span<ArrivalUnit> arrivals, ArrivalScratch& scratch) {
  std::vector<std::uint32_t>& off = scratch.off;
  off.clear();
  for (const SimUnit& u : units) {
    if (!u.alive) continue;
    ArrivalUnit& a = arrivals[u.id.index];
    if (u.route.state != MoveState::ReachedGoal || !has_goal(u)) {
      a.goal.taken = false;
      if (u.route.state != MoveState::Moving && u.route.state != MoveState::WaitingForPath)
        a.goal.walking_back = false;
      continue;
    }
    const double d = glm::length(u.route.order.points.back() - u.body.position);
    if (d <= arrival_tolerance(motions[u.movement_class])) {
      if (a.goal.arrived_time < 0) a.goal.arrived_time = now;
      a.goal.arrived = true;
      a.goal.taken = false;
      a.still_since = 0;
      a.settle = kSettleSeconds;
      continue;
    }
    if (a.goal.arrived) {
      // Pushed off its goal: no longer there. Progress towards it counts from now.
      a.goal.arrived = false;
      a.still_since = now;
      a.best_distance = d;
      a.progress_time = now;
    } else if (u.body.position != u.body.previous || u.coop.yield != Yield::None || u.body.speed > 0) {
      a.still_since = now;  // still being moved
    }
    off.push_back(u.id.index);
  }
  if (off.empty()) return;
  // Whose goal another unit's hard shape covers: standing there it would overlap it.
  double max_hard = 0;
  for (const Motion& m : motions) max_hard = std::max(max_hard, m.hard_radius);
  scratch.points.resize(units.size());
  scratch.alive.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    scratch.points[i] = units[i].body.position;
    scratch.alive[i] = units[i].alive;
  }
  scratch.hash.build(scratch.points, 2 * max_hard + 1e-9, scratch.alive);
  for (const std::uint32_t i : off) {
    const SimUnit& u = units[i];
    const double ri = motions[u.movement_class].hard_radius;
    const Vec2 goal = u.route.order.points.back();
    bool taken = false;
    scratch.hash.near(goal, [&](std::uint32_t j) {
      const SimUnit& o = units[j];
      if (j == i || taken || !holds_goal(o, arrivals[j], now)) return;
      const double r = ri + motions[o.movement_class].hard_radius;
      taken = glm::length(o.body.position - goal) < r;
    });
    arrivals[i].goal.taken = taken;
    if (taken) continue;
    // Traffic by it or by its goal: units under way (not walking back themselves) in the
    // hash cells round either (at least 2, at most 6 of the largest hard radius away). It
    // waits for them to pass before it walks back: walking back into a street where units
    // pass meets them head-on, and the knots it ties jam whole streets.
    bool traffic = false;
    const auto under_way = [&](std::uint32_t j) {
      const SimUnit& o = units[j];
      if (j == i || traffic) return;
      traffic = o.route.state == MoveState::Moving && !arrivals[j].goal.walking_back;
    };
    scratch.hash.near(u.body.position, under_way);
    scratch.hash.near(goal, under_way);
    if (traffic) arrivals[i].still_since = now;
  }
}

}  // namespace pathscope::sim
