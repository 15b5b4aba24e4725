// The unit simulation's lifecycle, path requests and answers, and moves (seed 002,
// "Simple Movement Algorithm"; "Discrete vs. Continuous Simulation"). Listing 1's state
// loop and the predicted positions are a component (state_loop.hpp).

#include "planner/sim/simulation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "planner/core/geometry.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/state_loop.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

const char* to_string(MoveState state) {
  switch (state) {
    case MoveState::Idle: return "idle";
    case MoveState::WaitingForPath: return "waiting_for_path";
    case MoveState::Moving: return "moving";
    case MoveState::IncrementWaypoint: return "increment_waypoint";
    case MoveState::ReachedGoal: return "reached_goal";
    case MoveState::Failed: return "failed";
    case MoveState::InPlatoon: return "in_platoon";
  }
  return "?";
}

const char* to_string(CollisionState state) {
  switch (state) {
    case CollisionState::Unresolved: return "unresolved";
    case CollisionState::Resolving: return "resolving";
    case CollisionState::Resolved: return "resolved";
  }
  return "?";
}

const char* to_string(CooperationRule rule) {
  switch (rule) {
    case CooperationRule::None: return "none";
    case CooperationRule::BothStill: return "both_still";
    case CooperationRule::WeAreStill: return "we_are_still";
    case CooperationRule::MoveAside: return "move_aside";
    case CooperationRule::Avoid: return "avoid";
    case CooperationRule::Push: return "push";
    case CooperationRule::Repath: return "repath";
    case CooperationRule::LowerPriority: return "lower_priority";
    case CooperationRule::Pause: return "pause";
    case CooperationRule::SlowDown: return "slow_down";
    case CooperationRule::SwapSlots: return "swap_slots";
  }
  return "?";
}

bool settled(const SimUnit& u) {
  return (u.route.state == MoveState::ReachedGoal || u.route.state == MoveState::Idle) &&
         u.coop.yield == Yield::None && u.body.speed == 0;
}

bool is_moving(const SimUnit& u) {
  if (u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return) return true;
  return (u.route.state == MoveState::Moving || u.route.state == MoveState::InPlatoon) &&
         u.coop.yield != Yield::Wait;
}

// A unit's rank: its class priority and slot index, or the better rank lent to it by
// the unit it gives way to (priority inheritance: a unit pushed along passes the push
// on to the units in its own way, as the pusher would).
std::pair<int, std::uint32_t> effective_rank(const SimUnit& u, const Motion& m) {
  // Waiting for a bridge or a passage: below everyone, so the platoon on it can come off it.
  if (u.waits.bridge || u.waits.passage) return {std::numeric_limits<int>::min(), u.id.index};
  std::pair<int, std::uint32_t> r{m.priority, u.id.index};
  // Done (arrived) or with nothing to do: below every unit of its class priority still
  // under way, so that those behind can have it step aside (a column's head stops at its
  // goal); a higher class priority still wins.
  if (u.route.state == MoveState::ReachedGoal || u.route.state == MoveState::Idle || u.goal.walking_back)
    r.second |= 0x80000000u;
  if (u.coop.lent && u.coop.yield != Yield::None &&
      (u.coop.lent_priority > r.first || (u.coop.lent_priority == r.first && u.coop.lent_index < r.second))) {
    r = {u.coop.lent_priority, u.coop.lent_index};
  }
  return r;
}

bool outranks(const SimUnit& a, const Motion& ma, const SimUnit& b, const Motion& mb) {
  const auto ra = effective_rank(a, ma), rb = effective_rank(b, mb);
  if (ra.first != rb.first) return ra.first > rb.first;
  if (ra.second != rb.second) return ra.second < rb.second;
  return a.id.index < b.id.index;  // both lent the same rank
}

namespace {

Result<Ok> check_order(const Order& order, const WorldInfo& world) {
  std::size_t want_min = 0, want_max = 0;
  switch (order.kind) {
    case OrderKind::None:
    case OrderKind::Stop: want_min = want_max = 0; break;
    case OrderKind::Move: want_min = want_max = 1; break;
    case OrderKind::Waypoints:
      want_min = 1;
      want_max = SIZE_MAX;
      break;
    case OrderKind::Patrol:
      want_min = 2;
      want_max = SIZE_MAX;
      break;
  }
  if (order.points.size() < want_min || order.points.size() > want_max) {
    return make_error(
        ErrorCode::Value, "order.points",
        "this order takes " +
            (want_min == want_max ? std::to_string(want_min) : "at least " + std::to_string(want_min)) +
            " point(s), got " + std::to_string(order.points.size()));
  }
  for (std::size_t i = 0; i < order.points.size(); ++i) {
    const Vec2 p = order.points[i];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || p.x < 0 || p.y < 0 || p.x > world.width ||
        p.y > world.height) {
      return make_error(ErrorCode::Value, "order.points[" + std::to_string(i) + "]",
                        "point is outside the world");
    }
  }
  return Ok{};
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Lifecycle

Result<std::unique_ptr<Simulation>> Simulation::create(Scenario scenario) {
  if (Status valid = validate_scenario(scenario); !valid.ok()) return valid.error();
  return std::make_unique<Simulation>(std::move(scenario));
}

Simulation::Simulation(Scenario scenario)
    : world_(std::make_unique<PlanningWorld>(std::move(scenario))), impl_(std::make_unique<Impl>(*world_)) {
  const Scenario& s = world_->scenario();
  for (const MovementClass& c : s.classes) impl_->motions.push_back(resolve_motion(c));
  impl_->max_hard = impl_->max_soft = impl_->max_speed = 0;
  for (const Motion& m : impl_->motions) {
    impl_->max_hard = std::max(impl_->max_hard, m.hard_radius);  // an ellipse lies inside its circle
    impl_->max_soft = std::max(impl_->max_soft, m.soft_radius);
    impl_->max_speed = std::max(impl_->max_speed, m.speed);
  }
  for (const Unit& u : s.units) add_unit(u);
  for (const UnitGroup& g : s.groups) {
    std::vector<UnitId> ids;
    for (std::uint32_t sid : g.units) {
      if (const SimUnit* u = find_scenario_unit(sid)) ids.push_back(u->id);
    }
    // A group with no order (a saved game's: its order was handed out) leaves its units
    // theirs; a platoon's order is its tactician's (make_platoons).
    if (g.order.kind != OrderKind::None && !g.platoon) (void)give_order(ids, g.order);
    for (UnitId id : ids) impl_->extra[id.index].platoon = g.id % kOrderPlatoon;
  }
  make_platoons();
}

Simulation::~Simulation() = default;

const Scenario& Simulation::scenario() const { return world_->scenario(); }

const BridgeReservations& Simulation::bridge_reservations() const { return impl_->bridges; }

std::span<const Passage> Simulation::passages(std::size_t movement_class) const {
  if (movement_class >= impl_->passage_maps.size()) return {};
  return impl_->passage_maps[movement_class].passages();
}

std::span<const std::uint8_t> Simulation::claimed_cells(std::size_t movement_class) const {
  const PassageClaims& claims = impl_->claims;
  if (movement_class >= claims.any_claimed.size() || !claims.any_claimed[movement_class]) return {};
  return claims.claimed[movement_class];
}

double Simulation::time() const { return static_cast<double>(counters_.steps) * scenario().sim.dt; }

Status Simulation::update_world(Scenario next) {
  next.units = scenario().units;
  next.groups = scenario().groups;
  next.sim = scenario().sim;
  const Result<WorldChange> updated = world_->update(std::move(next));
  if (!updated) return updated.error();
  const WorldChange& change = *updated;
  impl_->paths.world_changed(change.rebuilt);
  // A grid of another size: the density map (and the cost made from it) start afresh.
  if (change.rebuilt && density_.value.size() != world_->raster().cell_count()) {
    density_ = DensityMap{};
    impl_->density_cells.clear();
  }
  impl_->passage_maps.clear();  // found again from the new grids at the next step
  // ...and numbered afresh: no unit's last passage names one of the old map's.
  for (UnitPrivate& x : impl_->extra) x.last_passage = -1;
  impl_->claims = PassageClaims{};
  // Predictions were made on the old world; make them again.
  for (SimUnit& u : units_) u.route.predicted.clear();
  return Ok{};
}

UnitId Simulation::add_unit(const Unit& unit) {
  std::uint32_t index;
  std::uint32_t generation = 0;
  if (!impl_->free_slots.empty()) {
    index = impl_->free_slots.back();
    impl_->free_slots.pop_back();
    generation = units_[index].id.generation + 1;
  } else {
    index = static_cast<std::uint32_t>(units_.size());
    units_.emplace_back();
    impl_->extra.emplace_back();
  }
  SimUnit& u = units_[index];
  u = SimUnit{};
  u.id = UnitId{index, generation};
  u.alive = true;
  u.scenario_id = unit.id;
  u.movement_class = std::min(unit.movement_class, impl_->motions.size() - 1);
  u.faction = scenario().find_faction(unit.faction).value_or(0);
  u.body.position = u.body.previous = unit.position;
  u.body.heading = unit.heading;
  UnitPrivate& x = impl_->extra[index];
  const std::uint32_t serial = x.order_serial;
  x = UnitPrivate{};
  x.order_serial = serial + 1;
  const CostGrid& grid = world_->grid(u.movement_class);
  x.move_key = move_key_at(grid, u.body.position);
  if (x.move_key == 0) {
    // Placed in a wall: it belongs to the group of the nearest open cell around it.
    const auto cell = grid.cell_at(u.body.position);
    if (cell) {
      const glm::ivec2 c = grid.cell(*cell);
      for (int r = 1; r <= 3 && x.move_key == 0; ++r) {
        for (int dy = -r; dy <= r && x.move_key == 0; ++dy) {
          for (int dx = -r; dx <= r && x.move_key == 0; ++dx) {
            if (grid.in_bounds(c.x + dx, c.y + dy))
              x.move_key = grid.move_key(grid.index(c.x + dx, c.y + dy));
          }
        }
      }
    }
  }
  x.platoon = kFactionPlatoon + static_cast<std::uint32_t>(u.faction);
  u.route.order = unit.order;
  start_order(u);
  return u.id;
}

bool Simulation::remove_unit(UnitId id) {
  if (!unit(id)) return false;
  SimUnit& u = units_[id.index];
  impl_->paths.cancel(id);
  forget(id);
  const std::uint32_t generation = u.id.generation;
  u = SimUnit{};
  u.id = UnitId{id.index, generation};
  impl_->free_slots.push_back(id.index);
  return true;
}

const SimUnit* Simulation::unit(UnitId id) const {
  if (id.index >= units_.size()) return nullptr;
  const SimUnit& u = units_[id.index];
  return u.alive && u.id.generation == id.generation ? &u : nullptr;
}

const SimUnit* Simulation::find_scenario_unit(std::uint32_t scenario_id) const {
  for (const SimUnit& u : units_) {
    if (u.alive && u.scenario_id == scenario_id) return &u;
  }
  return nullptr;
}

std::size_t Simulation::unit_count() const {
  return static_cast<std::size_t>(
      std::count_if(units_.begin(), units_.end(), [](const SimUnit& u) { return u.alive; }));
}

Result<std::size_t> Simulation::give_order(std::span<const UnitId> ids, const Order& order) {
  Result<Ok> ok = check_order(order, scenario().world);
  if (!ok.ok()) return ok.error();
  std::vector<UnitId> live;
  live.reserve(ids.size());
  std::vector<std::uint8_t> seen(units_.size(), 0);
  for (UnitId id : ids) {
    if (!unit(id) || seen[id.index]) continue;
    seen[id.index] = 1;
    live.push_back(id);
  }
  const std::uint32_t platoon = ids.size() > 1 ? impl_->next_order_platoon++ : 0;
  const bool formation = scenario().sim.formation_goals && live.size() > 1 &&
                         (order.kind == OrderKind::Move || order.kind == OrderKind::Waypoints);
  FormationPlan plan;
  if (formation) plan = formation_for(live, order);
  for (std::size_t k = 0; k < live.size(); ++k) {
    const UnitId id = live[k];
    SimUnit& u = units_[id.index];
    impl_->extra[id.index].platoon =
        platoon != 0 ? platoon : kFactionPlatoon + static_cast<std::uint32_t>(u.faction);
    leave_platoons(id);
    u.route.order = order;
    u.goal.formation = formation;
    u.goal.formation_point = formation ? order.points.back() : Vec2{0, 0};
    if (formation) u.route.order.points.back() = plan.slots[k].position;
    ++impl_->extra[id.index].order_serial;
    forget(id);
    start_order(u);
  }
  return live.size();
}

// The formation of a group order: the units' kinds and places, the way they go (the
// last leg of a waypoints order, else from the group's centroid to the point).
FormationPlan Simulation::formation_for(std::span<const UnitId> ids, const Order& order) {
  std::vector<FormationUnit> units;
  units.reserve(ids.size());
  for (UnitId id : ids) {
    const SimUnit& u = units_[id.index];
    const Motion& m = impl_->motions[u.movement_class];
    units.push_back(
        {u.body.position, u.movement_class, impl_->extra[id.index].move_key, m.hard_radius, m.soft_radius});
  }
  const Vec2 point = order.points.back();
  Vec2 direction = travel_direction(units, point);
  if (order.points.size() >= 2) {
    const Vec2 d = point - order.points[order.points.size() - 2];
    const double len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len > 1e-9) direction = d / len;
  }
  // Who leads is who reaches the route first: the column's order is read on the way to
  // the first point.
  return plan_formation(*world_, units, point, direction, travel_direction(units, order.points.front()));
}

void Simulation::forget(UnitId id) {
  std::erase_if(memory_, [&](const Memory& m) { return m.a == id || m.b == id; });
}

void Simulation::start_order(SimUnit& u) {
  UnitPrivate& x = impl_->extra[u.id.index];
  impl_->paths.cancel(u.id);
  x.path_pending = false;
  u.route.order_point = 0;
  u.route.patrol_step = 1;
  u.route.path.clear();
  u.route.waypoint = 0;
  u.route.predicted.clear();
  u.goal.arrived = false;
  u.goal.taken = false;
  u.goal.walking_back = false;
  u.goal.arrived_time = -1;
  x.still_since = 0;
  x.settle = kSettleSeconds;
  u.coop.yield = Yield::None;
  u.coop.speed_factor = 1;
  u.route.progress_time = time();
  u.route.best_distance =
      u.route.order.points.empty() ? 0 : glm::length(u.route.order.points[0] - u.body.position);
  if (u.route.order.kind == OrderKind::None || u.route.order.kind == OrderKind::Stop ||
      u.route.order.points.empty()) {
    u.route.state = MoveState::Idle;
  } else {
    u.route.state = MoveState::WaitingForPath;
    request_path(u);  // answered from the next step on, within the budget
  }
}

// A unit waiting before a bridge or a passage steps clear of the way out of it, so that
// the units coming through pass (bridges.cpp, passage_turns.cpp).
void Simulation::wait_clear(SimUnit& u, Vec2 entry, Vec2 flow, double half_width) {
  const Motion& m = impl_->motions[u.movement_class];
  UnitPrivate& x = impl_->extra[u.id.index];
  u.route.predicted.clear();
  // Off the way out: the line through the entry along the flow, half the way's width
  // plus the unit's radius to the side it stands on (its right if on the line).
  const Vec2 normal{-flow.y, flow.x};
  const double lateral = glm::dot(u.body.position - entry, normal);
  const double clear = half_width + m.hard_radius + kWaitMargin;
  if (std::abs(lateral) < clear) {
    const CostGrid& grid = world_->grid(u.movement_class);
    const double first = lateral < 0 ? -1.0 : 1.0;
    for (const double side : {first, -first}) {
      const Vec2 spot = u.body.position + normal * (side * clear - lateral);
      const bool inside =
          spot.x >= 0 && spot.y >= 0 && spot.x <= scenario().world.width && spot.y <= scenario().world.height;
      if (!inside || segment_blocked(grid, x.move_key, u.body.position, spot)) continue;
      wait_at(u, spot);
      return;
    }
  }
  // Clear of the way already (or no room to step aside): brake and wait, asked again
  // next step.
  wait_here(u);
}

// A unit waiting for a bridge or a passage brakes and waits where it stands, asked again
// next step.
void Simulation::wait_here(SimUnit& u) {
  const double now = time();
  const double dt = scenario().sim.dt;
  const Motion& m = impl_->motions[u.movement_class];
  UnitPrivate& x = impl_->extra[u.id.index];
  u.route.predicted.clear();
  u.coop.yield = Yield::Wait;
  u.coop.yield_to = UnitId{std::numeric_limits<std::uint32_t>::max(), 0};
  u.coop.until = now + dt;
  const double speed = std::max(0.0, u.body.speed - m.deceleration * dt);
  x.next = MotionState{u.body.position + direction(u.body.heading) * (speed * dt), u.body.heading, speed};
  x.next_from_prediction = false;
}

// A unit waiting for a bridge or a passage walks to `spot` and waits there (a move aside
// nobody asked for), from this step on.
void Simulation::wait_at(SimUnit& u, Vec2 spot) {
  UnitPrivate& x = impl_->extra[u.id.index];
  u.route.predicted.clear();
  u.coop.yield = Yield::MoveAside;
  u.coop.yield_to = UnitId{std::numeric_limits<std::uint32_t>::max(), 0};  // nobody asked
  u.coop.aside = u.coop.home = u.coop.get_to = spot;
  u.coop.until = time() + kYieldSeconds;
  x.yield_path = {spot};
  predict(u, x, impl_->motions[u.movement_class], world_->grid(u.movement_class), scenario().sim, time());
  x.next = u.route.predicted.empty() ? MotionState{u.body.position, u.body.heading, 0}
                                     : MotionState{u.route.predicted[0].position,
                                                   u.route.predicted[0].heading, u.route.predicted[0].speed};
  x.next_from_prediction = !u.route.predicted.empty();
}

void Simulation::request_path(SimUnit& u) {
  UnitPrivate& x = impl_->extra[u.id.index];
  if (u.route.order.points.empty()) {  // nothing to go to
    u.route.state = MoveState::Idle;
    return;
  }
  impl_->paths.request(
      PathRequest{u.id, u.movement_class, u.body.position, u.route.order.points[u.route.order_point]});
  x.path_pending = true;
  ++counters_.path_requests;
}

void Simulation::answer_paths() {
  for (PathAnswer& a : impl_->paths.answer(scenario().sim.path_budget)) {
    if (!unit(a.unit)) continue;
    SimUnit& u = units_[a.unit.index];
    impl_->extra[a.unit.index].path_pending = false;
    if (u.route.state == MoveState::InPlatoon) {
      (void)answer_platoon(a);
      continue;
    }
    if (u.route.state != MoveState::WaitingForPath) continue;
    if (a.status == SearchStatus::Found && !a.points.empty()) {
      u.route.path = std::move(a.points);
      // The path starts where the unit stood when it asked; it heads for the next point.
      u.route.waypoint = u.route.path.size() > 1 ? 1 : 0;
      // Off its cell's centre (pushed, slid), the line to the path's next cell may cut
      // a wall's corner: go by the centre of its cell first.
      const CostGrid& grid = world_->grid(u.movement_class);
      const std::uint16_t key = impl_->extra[u.id.index].move_key;
      if (u.route.waypoint == 1 && segment_blocked(grid, key, u.body.position, u.route.path[1])) {
        if (const auto cell = grid.cell_at(u.body.position)) {
          const Vec2 centre = grid.center(*cell);
          if (!segment_blocked(grid, key, u.body.position, centre))
            u.route.path.insert(u.route.path.begin() + 1, centre);
        }
      }
      run_out_of_passages(u);
      u.route.state = MoveState::Moving;
      u.route.predicted.clear();
    } else {
      u.route.state = MoveState::Failed;
      u.route.path.clear();
    }
  }
}

std::size_t Simulation::arrived_count() const {
  return static_cast<std::size_t>(std::count_if(units_.begin(), units_.end(),
                                                [](const SimUnit& u) { return u.alive && u.goal.arrived; }));
}

std::size_t Simulation::goal_taken_count() const {
  return static_cast<std::size_t>(
      std::count_if(units_.begin(), units_.end(), [](const SimUnit& u) { return u.alive && u.goal.taken; }));
}

std::size_t Simulation::ordered_count() const {
  return static_cast<std::size_t>(std::count_if(units_.begin(), units_.end(), [](const SimUnit& u) {
    return u.alive && (u.route.order.kind == OrderKind::Move || u.route.order.kind == OrderKind::Waypoints);
  }));
}

std::uint64_t Simulation::state_hash() const { return sim::state_hash(counters_.steps, units_); }

}  // namespace pathscope::sim
