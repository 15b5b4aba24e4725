// Listing 1's state loop (seed 002, "Simple Movement Algorithm") and the predicted
// positions ("Predicted Positions"): a component of the step (state_loop.hpp).
//
// Listing 1 runs per unit: IncrementWaypoint takes the order's next point (or the next
// patrol point, in the patrol's direction) and asks for a path; ReachedGoal stops (and,
// pushed off the goal, walks back: arrival.cpp); WaitingForPath waits for the path
// service's answer; Moving follows the path. Path points are passed as the listing says:
// a point it was closer to before moving, or one the move jumps over, is left behind.
//
// Predicted positions are a rolling list of the states the unit will have at the next
// steps, made by pursue(), the very function that then picks the move: each step the
// unit takes predicted[0] and the list rolls on by one; anything that changes the move
// (cooperation, avoidance, prevention, a blocked move) drops the list, and it is made
// again from the unit's real state (seed 002: "recognize when you're continually
// adjusting ... and just recalculate the entire series").

#include "planner/sim/state_loop.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/arrival.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/sim/unit_motion.hpp"

namespace pathscope::sim {

namespace {

// A state loop never needs more turns than this (IncrementWaypoint, then one more).
constexpr int kLoopGuard = 4;

}  // namespace

MotionState brake(const MotionState& from, const Motion& m, double dt) {
  MotionState to = from;
  to.speed = std::max(0.0, from.speed - m.deceleration * dt);
  to.position = from.position + direction(from.heading) * (to.speed * dt);
  return to;
}

const std::vector<Vec2>& followed_path(const SimUnit& u, const UnitPrivate& x) {
  const bool aside = u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return;
  return aside ? x.yield_path : u.route.path.points();
}

bool pursue(const SimUnit& u, const std::vector<Vec2>& path, const Motion& m, const CostGrid& grid, double dt,
            const MotionState& from, std::uint32_t& w, MotionState& to) {
  double vmax = terrain_speed(m, grid, from.position);
  if (u.coop.yield == Yield::SlowDown) vmax *= u.coop.speed_factor;
  if (u.coop.yield == Yield::Wait) vmax = 0;
  for (int guard = 0; guard < kLoopGuard; ++guard) {
    if (w >= path.size()) {
      to = brake(from, m, dt);
      return false;
    }
    const double horizon = 2 * stopping_distance(std::max(vmax, from.speed), m.deceleration) + 1;
    const Steer steer = steer_along(path, w, from.position, vmax, horizon);
    to = advance(from, steer, m, dt);
    const double before = glm::length(path[w] - from.position);
    if (w + 1 == path.size()) {
      if (to.position == path[w]) ++w;  // arrives with this move
      return true;
    }
    const double reach = std::max(0.01, from.speed * dt);
    if (before <= 1e-9) {
      ++w;  // at it already
      continue;
    }
    const double after = glm::length(path[w] - to.position);
    if (after > before && before <= 2 * reach) {
      ++w;  // closer before moving: it is behind us
      continue;
    }
    // This move reaches it, or jumps over it (and maybe the next ones too): the next
    // update heads on.
    const double pass = std::max(0.01, std::min(m.hard_radius, glm::length(to.position - from.position)));
    while (w + 1 < path.size() && distance_sq_to_segment(path[w], from.position, to.position) <= pass * pass)
      ++w;
    return true;
  }
  return true;
}

void predict(SimUnit& u, const UnitPrivate& x, const Motion& m, const CostGrid& grid, const SimSettings& set,
             double now) {
  u.route.predicted.clear();
  const auto steps = static_cast<std::size_t>(std::ceil(set.prediction_seconds / set.dt - 1e-9));
  const std::uint16_t key = x.move_key;
  MotionState s{u.body.position, u.body.heading, u.body.speed};
  const bool aside = u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return;
  std::uint32_t w = aside ? 0 : static_cast<std::uint32_t>(u.route.waypoint);
  const double t = now;
  const std::vector<Vec2>& path = followed_path(u, x);
  const double max_turn = m.turn_rate * set.dt;
  for (std::size_t k = 1; k <= std::max<std::size_t>(steps, 1); ++k) {
    MotionState next;
    const std::uint32_t w0 = w;
    bool going = pursue(u, path, m, grid, set.dt, s, w, next);
    if (segment_blocked(grid, key, s.position, next.position)) {
      // The move along its heading would enter a wall; the way to its point is open:
      // turn on the spot first (a unit facing a wall turns before it moves).
      if (w0 >= path.size() || segment_blocked(grid, key, s.position, path[w0])) break;
      const Vec2 to_target = path[w0] - s.position;
      const double turn = std::clamp(angle_difference(s.heading, heading_of(to_target)), -max_turn, max_turn);
      next = MotionState{s.position, angle_difference(0.0, s.heading + turn), 0};
      w = w0;
      going = true;
    }
    u.route.predicted.push_back(
        PredictedPoint{next.position, next.heading, next.speed, t + static_cast<double>(k) * set.dt, w});
    if (!going && next.speed == 0) break;  // stands from here on
    s = next;
  }
}

void run_state_loops(std::span<SimUnit> units, std::span<UnitPrivate> extra, std::span<const Motion> motions,
                     std::span<const CostGrid* const> grids, const SimSettings& set, double now,
                     StateLoopOutcome& out) {
  out.repaths = 0;
  out.path_requests.clear();
  const double dt = set.dt;
  for (SimUnit& u : units) {
    // A vehicle driving in a platoon: its crew chooses its move (platoon_drive.hpp).
    if (!u.alive || u.route.state == MoveState::InPlatoon) continue;
    UnitPrivate& x = extra[u.id.index];
    const Motion& m = motions[u.movement_class];
    const CostGrid& grid = *grids[u.movement_class];
    x.next_from_prediction = false;
    // Resolving collisions (seed 002): is the reason to yield over?
    if (u.coop.yield != Yield::None) {
      const UnitId to = u.coop.yield_to;
      const SimUnit* o =
          to.index < units.size() && units[to.index].alive && units[to.index].id.generation == to.generation
              ? &units[to.index]
              : nullptr;
      // A move aside nobody asked for (waiting clear of a bridge or a passage) lasts
      // until the unit is there.
      const bool own_move = !o && u.coop.yield == Yield::MoveAside && u.coop.home == u.coop.aside;
      bool over = (!o && !own_move) || now >= u.coop.until;
      if (!over) {
        if (own_move) {
          over = glm::length(u.coop.aside - u.body.position) <= 1e-6;
        } else if (u.coop.yield == Yield::SlowDown && outranks(u, m, *o, motions[o->movement_class])) {
          // Case 3.1, the higher unit: on once the lower one is out of our way.
          const double r = m.hard_radius + motions[o->movement_class].hard_radius;
          over = distance_sq_to_segment(o->body.position, u.body.position, u.coop.get_to) >= r * r;
        } else if (u.coop.yield == Yield::Detour) {
          over = glm::length(u.body.position - u.coop.aside) <= std::max(0.05, u.body.speed * dt) ||
                 !is_moving(*o);
        } else if (u.coop.yield == Yield::MoveAside && u.coop.home == u.coop.aside) {
          // Cases 1 and 3.3: a move with no way back; done once there.
          over = glm::length(u.coop.aside - u.body.position) <= 1e-6;
        } else if (u.coop.yield != Yield::Return) {
          // Has the other unit passed its get-to point, seen from where we yielded?
          const Vec2 g = u.coop.get_to - u.coop.home;
          const double len = glm::length(g);
          over = len <= 1e-9 || glm::dot(o->body.position - u.coop.home, g / len) >= len;
          // A move aside is over too when the other has stopped for good (its order done,
          // short of the get-to point): nothing is left to make way for, and a unit moved
          // off its goal goes back now rather than when the yield gives up.
          if (u.coop.yield == Yield::MoveAside &&
              (o->route.state == MoveState::ReachedGoal || o->route.state == MoveState::Idle))
            over = true;
        }
      }
      if (u.coop.yield == Yield::MoveAside && over) {
        if (glm::length(u.coop.home - u.body.position) > 1e-6 && u.coop.home != u.coop.aside) {
          u.coop.yield = Yield::Return;
          x.yield_path = {u.coop.home};
          u.coop.until = now + kYieldSeconds;
          u.route.predicted.clear();
        } else {
          u.coop.yield = Yield::None;
          u.route.predicted.clear();
        }
      } else if (u.coop.yield == Yield::Return) {
        if (glm::length(u.coop.home - u.body.position) <= 1e-6 || now >= u.coop.until) {
          u.coop.yield = Yield::None;
          u.route.predicted.clear();
        }
      } else if (over) {
        u.coop.yield = Yield::None;
        u.coop.speed_factor = 1;
        u.route.predicted.clear();
      }
    }
    const MotionState here{u.body.position, u.body.heading, u.body.speed};
    // Moving aside or going back: the yield path, whatever the order's state.
    if (u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return) {
      u.route.predicted.clear();
      predict(u, x, m, grid, set, now);
      x.next = u.route.predicted.empty()
                   ? brake(here, m, dt)
                   : MotionState{u.route.predicted[0].position, u.route.predicted[0].heading,
                                 u.route.predicted[0].speed};
      x.next_from_prediction = !u.route.predicted.empty();
      continue;
    }
    bool decided = false;
    for (int guard = 0; guard < kLoopGuard && !decided; ++guard) {
      switch (u.route.state) {
        case MoveState::IncrementWaypoint: {
          const std::size_t n = u.route.order.points.size();
          if (u.route.order.kind == OrderKind::Patrol && n >= 2) {
            if (u.route.order.patrol == PatrolMode::Loop) {
              u.route.order_point = (u.route.order_point + 1) % n;
            } else {
              if ((u.route.patrol_step > 0 && u.route.order_point + 1 >= n) ||
                  (u.route.patrol_step < 0 && u.route.order_point == 0)) {
                u.route.patrol_step = -u.route.patrol_step;
              }
              u.route.order_point =
                  static_cast<std::size_t>(static_cast<long long>(u.route.order_point) + u.route.patrol_step);
            }
            u.route.state = MoveState::WaitingForPath;
          } else if (u.route.order.kind == OrderKind::Waypoints && u.route.order_point + 1 < n) {
            ++u.route.order_point;
            u.route.state = MoveState::WaitingForPath;
          } else {
            reach_goal(u, m, now, x.still_since, x.settle);  // arrived if at its goal (arrival.cpp)
          }
          u.route.path.clear();
          u.route.predicted.clear();
          u.route.best_distance = glm::length(u.route.order.points[u.route.order_point] - u.body.position);
          u.route.progress_time = now;
          break;
        }
        case MoveState::WaitingForPath:
          // Asked for by the step, in the units' order, once every loop has run.
          if (!x.path_pending) out.path_requests.push_back(u.id.index);
          x.next = brake(here, m, dt);
          decided = true;
          break;
        case MoveState::Moving: {
          if (u.coop.yield != Yield::None) u.route.predicted.clear();
          if (u.route.predicted.empty()) predict(u, x, m, grid, set, now);
          if (u.route.predicted.empty() && u.route.waypoint < u.route.path.size()) {
            // Pushed off its cell's centre, its line to the next path point may cut a
            // wall's corner: back to the centre first, before asking for a new path.
            if (const auto cell = grid.cell_at(u.body.position)) {
              const Vec2 centre = grid.center(*cell);
              // Only when the path goes on from the centre: else (pushed back through a gap
              // past its path, say) the unit asks for a new path below.
              if (centre != u.body.position && centre != u.route.path[u.route.waypoint] &&
                  !segment_blocked(grid, x.move_key, u.body.position, centre) &&
                  !segment_blocked(grid, x.move_key, centre, u.route.path[u.route.waypoint])) {
                u.route.path.insert(u.route.path.begin() + static_cast<std::ptrdiff_t>(u.route.waypoint),
                                    centre);
                predict(u, x, m, grid, set, now);
              }
            }
          }
          if (u.route.predicted.empty()) {
            // Listing 1: the move collides with the world: wait for a new path.
            u.route.state = MoveState::WaitingForPath;
            ++out.repaths;
            break;
          }
          x.next = MotionState{u.route.predicted[0].position, u.route.predicted[0].heading,
                               u.route.predicted[0].speed};
          x.next_from_prediction = true;
          decided = true;
          break;
        }
        case MoveState::ReachedGoal:
          // Pushed off its goal, standing still a while, the goal free: it walks back
          // (arrival.cpp) and is under way again.
          if (!u.goal.arrived && !u.goal.taken && now - x.still_since >= x.settle &&
              start_walk_back(u, grid, x.move_key, now))
            break;
          x.next = brake(here, m, dt);
          decided = true;
          break;
        case MoveState::Idle:
        case MoveState::Failed:
        case MoveState::InPlatoon:  // not reached: skipped above
          x.next = brake(here, m, dt);
          decided = true;
          break;
      }
    }
    if (!decided) x.next = brake(here, m, dt);
  }
}

}  // namespace pathscope::sim
