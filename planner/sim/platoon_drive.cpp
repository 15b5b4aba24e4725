// Platoons in the simulation: seed 004, "Formation movement" (the tactician moves the
// platoon and sends each crew its drive-to point) and "Drive-to position" (the crew's
// seek: arrived within the arrival radius, half speed when nearer than its top speed,
// else its top speed). See platoon_drive.hpp.

#include "planner/sim/platoon_drive.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/state_loop.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/sim/vehicle_avoidance.hpp"

namespace pathscope::sim {

namespace {

/// The unit in `slot` if it is alive, the same unit, and driving in the platoon.
const SimUnit* vehicle_in(std::span<const SimUnit> units, UnitId slot) {
  if (slot.index >= units.size()) return nullptr;
  const SimUnit& u = units[slot.index];
  if (!u.alive || u.id.generation != slot.generation) return nullptr;
  return &u;
}

/// The crew's move towards `target` (seed 004's seek on the unit's own motion): within
/// the arrival radius it keeps with the platoon (its speed, or a stop when the platoon
/// stands); nearer than its top speed it goes at half the distance per second; farther,
/// at its top speed (the ground's limit too).
MotionState seek(const SimUnit& u, const Motion& m, const CostGrid& grid, Vec2 target, double radius,
                 double platoon_speed, double dt) {
  const MotionState here{u.body.position, u.body.heading, u.body.speed};
  const double d = glm::distance(u.body.position, target);
  double speed = 0;
  if (d <= radius) {
    if (platoon_speed <= 0) return brake(here, m, dt);
    speed = platoon_speed;
  } else {
    speed = d < m.speed ? 0.5 * d : m.speed;
  }
  speed = std::min(speed, terrain_speed(m, grid, u.body.position));
  // No braking for the end of a path: the drive-to point moves on with the platoon.
  return advance(here, Steer{target, speed, INFINITY}, m, dt);
}

/// A vehicle driving in a platoon, as the other crews see it.
struct CrewBody {
  UnitId id;
  AvoidanceBody body;
  std::size_t platoon = 0;  ///< Index of its platoon.
};

/// A vehicle crew's step (seed 004, section 5): the seek to its drive-to point, avoidance
/// of the other vehicles, the heading case and its class's answer, one step of its
/// dynamics. The body keeps the speed's size; `crew` keeps its sign and the three-point
/// memory.
MotionState crew_move(const SimUnit& u, const VehicleClass& vc, Vec2 target, double platoon_heading,
                      bool platoon_done, bool column, std::size_t platoon, std::span<const CrewBody> bodies,
                      CrewState& crew, double dt) {
  const VehicleState state{u.body.position, u.body.heading, crew.direction * u.body.speed, crew.backing_turn,
                           crew.turn_side};
  // On its private path, it seeks the path's next point (braking only at its last).
  bool brake_here = true;
  if (crew.private_path.active() && crew.private_path.update(u.body.position, vc.arrival_radius)) {
    brake_here = crew.private_path.at_last();
    target = crew.private_path.target();
  }
  const Seek sk = seek_drive_to(u.body.position, target, vc, brake_here);
  std::vector<AvoidanceBody> others;
  std::vector<UnitId> other_ids;
  std::vector<std::uint8_t> own;  // per other: of its own platoon
  const double reach = VehicleAvoidanceParams{}.neighbour_radius;
  for (const CrewBody& b : bodies) {
    if (b.id == u.id || glm::distance(b.body.position, u.body.position) > reach) continue;
    others.push_back(b.body);
    other_ids.push_back(b.id);
    own.push_back(b.platoon == platoon ? 1 : 0);
  }
  VehicleAvoidanceParams params;
  params.stop_near_point = platoon_done;
  // A column's vehicle brakes behind its own platoon's vehicle ahead rather than swerve
  // out of the snake; another platoon's vehicles it steers round (platoons pass through
  // each other, seed 004).
  if (column) params.lateral_share = 0;
  VehicleAvoidance avoided = avoid_vehicles(avoidance_body(state, vc), sk.velocity, target, others, params);
  if (column && avoided.threat && own[*avoided.threat] == 0) {
    params.lateral_share = VehicleAvoidanceParams{}.lateral_share;
    avoided = avoid_vehicles(avoidance_body(state, vc), sk.velocity, target, others, params);
  }
  DriveGoal goal = drive_goal(sk, platoon_heading);
  goal.velocity = avoided.steering;
  goal.previous = crew.heading_case;
  const DriveCommand command = plan_drive(state, vc, goal);
  const VehicleState next = drive(state, vc, command, dt);
  if (next.backing_turn && !crew.backing_turn) ++crew.three_point_turns;
  crew.direction = next.speed < 0 ? -1 : 1;
  crew.backing_turn = next.backing_turn;
  crew.turn_side = next.turn_side;
  crew.heading_case = command.heading_case;
  crew.steering = avoided.steering;
  crew.avoided = avoided.threat ? other_ids[*avoided.threat] : UnitId{0xffffffffu, 0};
  crew.stopped = avoided.stop;
  return MotionState{next.position, next.heading, std::abs(next.speed)};
}

}  // namespace

double platoon_arrival_radius(const Motion& motion, const std::optional<VehicleClass>& vehicle) {
  if (vehicle) return vehicle->arrival_radius;
  return std::max(0.5, motion.hard_radius);
}

std::optional<VehicleClass> vehicle_of(const MovementClass& c, const Motion& m) {
  VehicleKind kind = VehicleKind::Tracked;
  switch (c.vehicle) {
    case VehicleModel::Infantry: return std::nullopt;
    case VehicleModel::Tracked: kind = VehicleKind::Tracked; break;
    case VehicleModel::Wheeled: kind = VehicleKind::Wheeled; break;
    case VehicleModel::Rotary: kind = VehicleKind::Rotary; break;
  }
  VehicleClass v = default_vehicle_class(kind);
  v.max_speed = m.speed;
  v.max_reverse_speed = c.reverse_speed.value_or(0.5 * m.speed);
  v.acceleration = m.acceleration;
  v.deceleration = m.deceleration;
  if (c.turn_rate) v.turn_rate = *c.turn_rate;
  v.min_turn_radius = kind == VehicleKind::Wheeled ? c.min_turn_radius.value_or(2 * c.radius) : 0;
  v.length = 2 * m.hard_radius;
  v.width = 2 * m.hard_radius * m.hard_aspect;
  return v;
}

bool platoon_pose(const PlatoonRun& p, std::span<const SimUnit> units, Vec2& position, double& heading) {
  for (std::size_t k = 0; k < p.slots.size(); ++k) {
    const SimUnit* u = vehicle_in(units, p.slots[k]);
    if (u == nullptr) continue;
    heading = u->body.heading;
    const Vec2 offset = k < p.to.offsets.size() ? p.to.offsets[k] : Vec2{0, 0};
    // Where the platoon stands if this vehicle stands at its slot.
    position = u->body.position - (formation_point({0, 0}, heading, offset));
    return true;
  }
  return false;
}

void start_platoon_path(PlatoonRun& p, std::span<const SimUnit> units, std::vector<Vec2> path) {
  Vec2 position{0, 0};
  double heading = 0;
  if (!platoon_pose(p, units, position, heading)) {
    p.order = PlatoonOrderState::None;
    return;
  }
  p.path = std::move(path);
  const double lead_in = p.spacing * static_cast<double>(std::max<std::size_t>(p.slots.size(), 1));
  p.walk = PathWalk(position, heading, p.path, lead_in);
  double final_heading = heading;
  if (p.final_heading) {
    final_heading = *p.final_heading;
  } else if (p.walk.points().size() >= 2) {
    final_heading = heading_of(p.walk.direction_at(p.walk.length()));
  }
  p.motion = start_platoon(p.walk, heading, final_heading, p.from.offsets != p.to.offsets);
  p.morph.assign(p.to.offsets.size(), 0);
  p.targets.clear();
  p.arrived_time = -1;
  p.order = PlatoonOrderState::Driving;
}

void drive_platoons(std::span<PlatoonRun> platoons, std::span<SimUnit> units, std::span<UnitPrivate> extra,
                    std::span<const Motion> motions, std::span<const std::optional<VehicleClass>> vehicles,
                    std::span<const CostGrid* const> grids, const SimSettings& set, double now,
                    PlatoonOutcome& out) {
  out.finished.clear();
  out.vehicle_paths.clear();
  const double dt = set.dt;
  // Every vehicle driving in a platoon, for the crews' avoidance.
  std::vector<CrewBody> bodies;
  for (std::size_t i = 0; i < platoons.size(); ++i) {
    const PlatoonRun& p = platoons[i];
    if (p.order != PlatoonOrderState::Driving) continue;
    for (std::size_t k = 0; k < p.slots.size(); ++k) {
      const SimUnit* u = vehicle_in(units, p.slots[k]);
      if (u == nullptr || u->route.state != MoveState::InPlatoon || !vehicles[u->movement_class]) continue;
      const std::int8_t dir = k < p.crews.size() ? p.crews[k].direction : 1;
      const VehicleState s{u->body.position, u->body.heading, dir * u->body.speed, false, 0};
      bodies.push_back(CrewBody{u->id, avoidance_body(s, *vehicles[u->movement_class]), i});
    }
  }
  std::vector<Vec2> positions;
  std::vector<std::uint8_t> present;
  for (std::size_t i = 0; i < platoons.size(); ++i) {
    PlatoonRun& p = platoons[i];
    const std::size_t n = p.slots.size();
    positions.assign(n, Vec2{0, 0});
    present.assign(n, 0);
    std::size_t count = 0;
    double widest = 0;
    std::uint16_t key = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const SimUnit* u = vehicle_in(units, p.slots[k]);
      if (u == nullptr || u->route.state != MoveState::InPlatoon) continue;
      positions[k] = u->body.position;
      present[k] = 1;
      ++count;
      const double r = motions[u->movement_class].hard_radius;
      if (r > widest || key == 0) key = extra[u->id.index].move_key;
      widest = std::max(widest, r);
    }
    if (count == 0) {
      p.order = PlatoonOrderState::None;
      continue;
    }
    if (p.order != PlatoonOrderState::Driving) {
      // Waiting for its path, or none found: its vehicles stand.
      for (std::size_t k = 0; k < n; ++k) {
        if (!present[k]) continue;
        SimUnit& u = units[p.slots[k].index];
        UnitPrivate& x = extra[u.id.index];
        x.next =
            brake(MotionState{u.body.position, u.body.heading, u.body.speed}, motions[u.movement_class], dt);
        x.next_from_prediction = false;
        u.route.predicted.clear();
      }
      continue;
    }

    // The tactician: the platoon moves on, told how its vehicles keep up.
    const CostGrid& grid = *grids[p.path_class];
    const SegmentBlocked blocked = [&](Vec2 a, Vec2 b) {
      // The vehicles' width: the centre line and both sides a widest radius off it, each
      // carried on a radius past the end, so that a point kept has a body's room round it.
      const Vec2 d = b - a;
      const double len = glm::length(d);
      if (len <= 1e-12) return segment_blocked(grid, key, a, b);
      const Vec2 along = d * (widest / len);
      const Vec2 side{-along.y, along.x};
      const Vec2 end = b + along;
      return segment_blocked(grid, key, a, end) || segment_blocked(grid, key, a + side, end + side) ||
             segment_blocked(grid, key, a - side, end - side);
    };
    PlatoonFeedback feedback;
    if (p.targets.size() == n) {
      feedback.straggler = straggler_distance(positions, present, p.targets);
      feedback.morphing = std::any_of(p.morph.begin(), p.morph.end(), [](double w) { return w > 0; });
    }
    feedback.hold_at = p.bridge_hold;
    advance_platoon(p.motion, p.walk, p.params, feedback, dt);
    DriveToInput in;
    in.walk = &p.walk;
    in.along = p.motion.along;
    in.position = p.motion.position;
    in.heading = p.motion.heading;
    in.from = &p.from;
    in.to = &p.to;
    in.blend = p.motion.formation_blend;
    in.column_spacing = p.spacing;
    in.dt = dt;
    p.morph.resize(p.to.offsets.size(), 0);
    drive_to_points(in, blocked, p.morph, p.targets);

    // The crews: each vehicle drives to its point.
    p.crews.resize(n);
    bool all_there = true;
    for (std::size_t k = 0; k < n && k < p.targets.size(); ++k) {
      if (!present[k]) continue;
      SimUnit& u = units[p.slots[k].index];
      UnitPrivate& x = extra[u.id.index];
      const Motion& m = motions[u.movement_class];
      const std::optional<VehicleClass>& vehicle = vehicles[u.movement_class];
      const double radius = platoon_arrival_radius(m, vehicle);
      const Vec2 target = p.targets[k].drive_to;
      all_there = all_there && glm::distance(u.body.position, target) <= radius;
      CrewState& crew = p.crews[k];
      if (vehicle) {
        // The bad-position check, now and then: beyond sqrt(3) x its top speed from its
        // point, across a boundary, it asks for a path of its own (the step asks).
        if (!crew.private_path.active() && !crew.private_path_pending &&
            now - crew.last_check >= kBadPositionCheckSeconds) {
          crew.last_check = now;
          const CostGrid& own = *grids[u.movement_class];
          const std::uint16_t own_key = x.move_key;
          const CrossesBoundary crosses = [&](Vec2 a, Vec2 b) { return segment_blocked(own, own_key, a, b); };
          if (needs_private_path(u.body.position, target, *vehicle, crosses)) {
            crew.private_path_pending = true;
            out.vehicle_paths.emplace_back(i, k);
          }
        }
        const bool done =
            p.motion.phase == PlatoonPhase::FinalTurn || p.motion.phase == PlatoonPhase::Arrived;
        x.next = crew_move(u, *vehicle, target, p.motion.heading, done, p.to.shape == FormationShape::Column,
                           i, bodies, crew, dt);
      } else {
        x.next = seek(u, m, *grids[u.movement_class], target, radius, p.motion.speed, dt);
      }
      x.next_from_prediction = false;
      u.route.predicted.clear();
      u.coop.yield = Yield::None;
    }
    if (p.motion.phase == PlatoonPhase::Arrived) {
      if (p.arrived_time < 0) p.arrived_time = now;
      if (all_there || now - p.arrived_time >= kPlatoonSettleSeconds) {
        p.order = PlatoonOrderState::None;
        out.finished.push_back(i);
      }
    }
  }
}

}  // namespace pathscope::sim
