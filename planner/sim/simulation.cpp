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
  return u.route.state == MoveState::Moving && u.coop.yield != Yield::Wait;
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
    // A group with no order (a saved game's: its order was handed out) leaves its units theirs.
    if (g.order.kind != OrderKind::None) (void)give_order(ids, g.order);
    for (UnitId id : ids) impl_->extra[id.index].platoon = g.id % kOrderPlatoon;
  }
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

void Simulation::update_world(Scenario next) {
  next.units = scenario().units;
  next.groups = scenario().groups;
  next.sim = scenario().sim;
  const WorldChange change = world_->update(std::move(next));
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
  const double now = time();
  const double dt = scenario().sim.dt;
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

namespace {

// Across / length of a move below which a contact counts as head-on (turn right).
constexpr double kHeadOn = 0.2;
// Share of two units' hard radii within which one unit's move crossing another's counts
// as passing through it (the referee counts from 0.9).
constexpr double kCrossing = 0.95;

// The first contact of a disc of radius r moving from p by `move` with a still disc at
// q: t in [0, 1], or 2 if none (moving away, or not reaching it). Touching and moving
// closer is contact at 0.
double first_contact(Vec2 p, Vec2 move, Vec2 q, double r) {
  const Vec2 d = p - q;
  const double a = glm::dot(move, move);
  const double b = glm::dot(d, move);
  if (a <= 0 || b >= 0) return 2;
  const double c = glm::dot(d, d) - r * r;
  if (c <= 0) return 0;
  const double disc = b * b - a * c;
  if (disc <= 0) return 2;
  const double t = (-b - std::sqrt(disc)) / a;
  return t >= 0 && t < 1 ? t : 2;
}

}  // namespace

void Simulation::move_units() {
  const SimSettings& set = scenario().sim;
  const double dt = set.dt;
  // Units move one after the other, highest priority first, each against the others
  // where they stand now, so no move ends inside another unit's hard shape (but a
  // shove, below, which prevention resolves).
  //  - Continuous check (move lines): a move that would touch another unit within the
  //    step stops at the contact and slides along it for the rest (its part towards the
  //    other is dropped; meeting head-on it turns right, as traffic does). No unit hops
  //    over another between two steps (seed 002, Figure 3), and touching units flow
  //    round each other instead of locking.
  //    A unit that has moved already this step is met on its move: the two moves are
  //    taken as simultaneous straight lines (the referee's reading of a step), so two
  //    fast units crossing do not pass through each other between their two positions.
  //  - Discrete check: units are tested where their moves end only: a move is made
  //    whole, and an overlap it ends in is left to prevention (seed 002: "they move the
  //    unit from point A to point B without considering what might be between"). A
  //    fast unit may hop over another.
  double max_step = 0;
  std::vector<std::uint32_t>& order = impl_->order;
  order.clear();
  for (std::size_t i = 0; i < units_.size(); ++i) {
    if (!units_[i].alive) continue;
    order.push_back(static_cast<std::uint32_t>(i));
    max_step = std::max(max_step, glm::length(impl_->extra[i].next.position - units_[i].body.position));
  }
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return impl_->motions[units_[a].movement_class].priority >
           impl_->motions[units_[b].movement_class].priority;
  });
  const double reach = 2 * impl_->max_hard + 2 * max_step + 1e-9;
  impl_->hashed.build(units_, reach);
  constexpr std::uint32_t kNobody = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t>& shover = impl_->shover;
  shover.assign(units_.size(), kNobody);
  std::vector<std::uint8_t>& moved = impl_->moved;
  moved.assign(units_.size(), 0);
  for (std::uint32_t i : order) {
    SimUnit& u = units_[i];
    UnitPrivate& x = impl_->extra[i];
    const double ri = impl_->motions[u.movement_class].hard_radius;
    Vec2 move = x.next.position - u.body.position;
    const double length = glm::length(move);
    // A unit under way shoves settled units (arrived, or with nothing to do, standing
    // and yielding to nobody) of its class priority or lower: its move goes on into
    // them and prevention pushes them aside, as idle units are pushed in RTS games. A
    // block of arrived units, each 0.5 m from the next, otherwise walls in a late one.
    // Only one with room to give way is shoved (pushed off by the overlap it would
    // get, it stays clear of the static world and of every other unit), so prevention
    // never meets a push it cannot make.
    auto shove_room = [&](std::uint32_t j, Vec2 m) {
      if (shover[j] != kNobody && shover[j] != i) return false;  // one shove each per step
      const SimUnit& o = units_[j];
      const Motion& mo = impl_->motions[o.movement_class];
      const double r = ri + mo.hard_radius;
      const Vec2 end = u.body.position + m;
      const Vec2 d = o.body.position - end;
      const double len = glm::length(d);
      const double over = r - len;
      // Only a short move that ends pressing into it: a longer one could pass through.
      if (over <= 0 || len < 1e-9 || over > 0.25 * mo.hard_radius || glm::length(m) > 0.25 * mo.hard_radius)
        return false;
      const Vec2 to = o.body.position + d * ((over + 1e-6) / len);
      if (segment_blocked(world_->grid(o.movement_class), impl_->extra[j].move_key, o.body.position, to))
        return false;
      bool room = true;
      impl_->hashed.hash.near(to, [&](std::uint32_t k) {
        if (k == j || k == i || !room) return;
        const SimUnit& q = units_[k];
        const double rk = mo.hard_radius + impl_->motions[q.movement_class].hard_radius;
        if (glm::length(q.body.position - to) < rk + max_step)
          room = false;  // kept clear of this step's moves too
      });
      if (room) shover[j] = i;
      return room;
    };
    const bool shoves = is_moving(u) && u.route.state == MoveState::Moving && !u.route.order.points.empty();
    const int rank = impl_->motions[u.movement_class].priority;
    auto earliest = [&](Vec2 m, Vec2& normal) {
      double best = 2;
      impl_->hashed.hash.near(u.body.position, [&](std::uint32_t j) {
        if (j == i) return;
        const SimUnit& o = units_[j];
        if (shoves && settled(o) && impl_->motions[o.movement_class].priority <= rank && shove_room(j, m))
          return;
        const double r = ri + impl_->motions[o.movement_class].hard_radius;
        const double t = first_contact(u.body.position, m, o.body.position, r);
        if (t < best) {
          best = t;
          const Vec2 at = u.body.position + m * t;
          const double len = glm::length(o.body.position - at);
          normal = len > 1e-12 ? (o.body.position - at) / len : Vec2{1, 0};
        }
      });
      return best;
    };
    // The share s of a move such that s x move crosses no move made before it this
    // step: 1 when none is crossed, else found by bisection.
    // Crossing is passing well inside the other (kCrossing of the two radii) from apart;
    // units touching as they go (a column) do not cross, and a settled unit being shoved
    // is meant to be pressed into.
    auto crosses = [&](Vec2 m) {
      bool any = false;
      impl_->hashed.hash.near(u.body.position, [&](std::uint32_t j) {
        if (any || j == i || !moved[j] || shover[j] == i) return;  // a unit it shoves is pressed into
        const SimUnit& o = units_[j];
        const double r = kCrossing * (ri + impl_->motions[o.movement_class].hard_radius);
        const Vec2 p0 = u.body.position - o.body.previous;
        const Vec2 p1 = u.body.position + m - o.body.position;
        any = glm::dot(p0, p0) >= r * r && distance_sq_to_segment(Vec2{0, 0}, p0, p1) < r * r;
      });
      return any;
    };
    auto crossing_free_share = [&](std::uint32_t, Vec2 m) {
      if (!crosses(m)) return 1.0;
      double lo = 0, hi = 1;
      for (int k = 0; k < 24; ++k) {
        const double mid = 0.5 * (lo + hi);
        (crosses(m * mid) ? hi : lo) = mid;
      }
      return lo;
    };
    if (length > 0) {
      if (set.continuous) {
        for (int iter = 0; iter < 3; ++iter) {
          Vec2 n{1, 0};
          const double t = earliest(move, n);
          if (t > 1) break;
          const double into = glm::dot(move, n);
          const Vec2 right{-n.y, n.x};  // right of n on screen (y down)
          const double ml = glm::length(move);
          const double across = glm::dot(move, right);
          const double side = std::abs(across) < kHeadOn * ml ? 1.0 : (across > 0 ? 1.0 : -1.0);
          Vec2 slid = move * t + right * ((across + side * into) * (1 - t));
          const double sl = glm::length(slid);
          if (sl > ml) slid *= ml / sl;  // never faster than meant
          move = slid;
        }
        // Whatever the slides left: stop at the first contact.
        Vec2 n;
        const double t = earliest(move, n);
        if (t <= 1) move *= std::max(0.0, t - 1e-9);
        // Clear of where the others stand is not enough against those that moved this
        // step: taken as simultaneous straight lines (the referee's reading of a step),
        // a fast unit may cross another's move between their two positions. Then the
        // move is cut back to the longest part that crosses none (standing still does
        // not: each of those moves was checked against where this unit stands).
        move *= crossing_free_share(i, move);
        // A slide must not take the unit into the static world where its own move would not.
        const CostGrid& g = world_->grid(u.movement_class);
        if (move != x.next.position - u.body.position &&
            segment_blocked(g, x.move_key, u.body.position, u.body.position + move)) {
          move = Vec2{0, 0};
        }
      }
    }
    MotionState next = x.next;
    if (u.body.position + move != next.position) {
      next.position = u.body.position + move;
      next.speed = std::min(next.speed, glm::length(move) / dt);
      x.next_from_prediction = false;
    }
    // The static world (Listing 1: "if that new position causes a collision").
    const CostGrid& grid = world_->grid(u.movement_class);
    const bool blocked = set.continuous ? segment_blocked(grid, x.move_key, u.body.position, next.position)
                                        : (point_blocked(grid, x.move_key, next.position) &&
                                           !point_blocked(grid, x.move_key, u.body.position));
    if (blocked) {
      next = MotionState{u.body.position, next.heading, 0};
      x.next_from_prediction = false;
      if (u.route.state == MoveState::Moving && u.coop.yield == Yield::None) {
        u.route.state = MoveState::WaitingForPath;
        ++counters_.repaths;
      }
      if (u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return)
        u.coop.until = 0;  // give the yield up
    }
    u.body.previous = u.body.position;
    moved[i] = 1;
    u.body.position = next.position;
    u.body.heading = next.heading;
    u.body.speed = next.speed;
    if (x.next_from_prediction && !u.route.predicted.empty()) {
      const std::uint32_t w = u.route.predicted[0].waypoint;
      u.route.predicted.erase(u.route.predicted.begin());
      // Roll the list on by one step, from its last state.
      const std::size_t want = static_cast<std::size_t>(std::ceil(set.prediction_seconds / set.dt - 1e-9));
      if (!u.route.predicted.empty() && u.route.predicted.size() + 1 == want) {
        const PredictedPoint& last = u.route.predicted.back();
        MotionState s{last.position, last.heading, last.speed}, n;
        std::uint32_t lw = last.waypoint;
        const bool going =
            pursue(u, followed_path(u, x), impl_->motions[u.movement_class], grid, dt, s, lw, n);
        if ((going || n.speed > 0) && !segment_blocked(grid, x.move_key, s.position, n.position)) {
          u.route.predicted.push_back(PredictedPoint{n.position, n.heading, n.speed, last.time + dt, lw});
        }
      }
      if (u.coop.yield == Yield::None && u.route.state == MoveState::Moving) {
        u.route.waypoint = w;
        if (w >= u.route.path.size())
          u.route.state = MoveState::IncrementWaypoint;  // reached the order point
      }
    } else {
      u.route.predicted.clear();
      if (u.coop.yield == Yield::None && u.route.state == MoveState::Moving) {
        // Passed path points while off the prediction: the closest point ahead decides.
        const double accept = std::max(u.body.speed * dt, impl_->motions[u.movement_class].hard_radius);
        while (u.route.waypoint + 1 < u.route.path.size() &&
               glm::length(u.route.path[u.route.waypoint] - u.body.position) <= accept) {
          ++u.route.waypoint;
        }
      }
    }
    // Progress towards the order point, for stuck detection.
    if (!u.route.order.points.empty() && u.route.state != MoveState::ReachedGoal) {
      const double d =
          glm::length(u.route.order.points[std::min(u.route.order_point, u.route.order.points.size() - 1)] -
                      u.body.position);
      if (d < u.route.best_distance - 0.1) {
        u.route.best_distance = d;
        u.route.progress_time = time() + dt;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Figures

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
