// The simulation's platoons (seed 004): made from the scenario's groups, ordered, given
// their paths, and left when a vehicle is ordered on its own. The step moves them
// (platoon_drive.cpp, composed in step.cpp).

#include <algorithm>
#include <limits>

#include <glm/geometric.hpp>

#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

/// The formation `name` of `slots` slots: a built-in shape, or the scenario's own (its
/// first `slots` offsets; slots beyond them follow in a column behind the last).
std::optional<PlatoonFormation> resolve_formation(const Scenario& s, std::string_view name, std::size_t slots,
                                                  double spacing) {
  for (const FormationShape shape :
       {FormationShape::Column, FormationShape::Line, FormationShape::Wedge, FormationShape::Echelon}) {
    if (formation_shape_name(shape) == name) return make_formation(shape, slots, spacing);
  }
  for (const FormationDef& d : s.formations) {
    if (d.name != name || d.offsets.empty()) continue;
    PlatoonFormation f{FormationShape::Custom, {}};
    for (std::size_t k = 0; k < slots; ++k) {
      if (k < d.offsets.size()) {
        f.offsets.push_back(d.offsets[k]);
      } else {
        f.offsets.push_back(f.offsets.back() - Vec2{spacing, 0});
      }
    }
    return f;
  }
  return std::nullopt;
}

}  // namespace

std::span<const PlatoonRun> Simulation::platoons() const { return impl_->platoons; }

void Simulation::make_platoons() {
  const Scenario& s = scenario();
  for (std::size_t c = 0; c < s.classes.size(); ++c)
    impl_->vehicles.push_back(vehicle_of(s.classes[c], impl_->motions[c]));
  for (const UnitGroup& g : s.groups) {
    if (!g.platoon) continue;
    PlatoonRun p;
    p.group = g.id;
    for (const std::uint32_t sid : g.units) {
      if (const SimUnit* u = find_scenario_unit(sid)) p.slots.push_back(u->id);
    }
    if (p.slots.empty()) continue;
    p.spacing = g.platoon->spacing;
    p.break_when_blocked = g.platoon->break_when_blocked;
    const std::optional<PlatoonFormation> f =
        resolve_formation(s, g.platoon->formation, p.slots.size(), p.spacing);
    p.to = p.from = f.value_or(make_formation(FormationShape::Wedge, p.slots.size(), p.spacing));
    // Its pace is its slowest vehicle's; it turns as fast as its slowest-turning one; its
    // path is planned for its widest.
    double widest = -1;
    p.params.max_speed = p.params.acceleration = p.params.turn_rate = std::numeric_limits<double>::infinity();
    p.params.slack = 0;
    for (const UnitId id : p.slots) {
      const SimUnit& u = units_[id.index];
      const Motion& m = impl_->motions[u.movement_class];
      const std::optional<VehicleClass>& v = impl_->vehicles[u.movement_class];
      p.params.max_speed = std::min(p.params.max_speed, m.speed);
      p.params.acceleration = std::min(p.params.acceleration, m.acceleration);
      p.params.turn_rate = std::min(p.params.turn_rate, v ? v->turn_rate : m.turn_rate);
      p.params.slack = std::max(p.params.slack, platoon_arrival_radius(m, v));
      if (m.hard_radius > widest) {
        widest = m.hard_radius;
        p.path_class = u.movement_class;
      }
    }
    p.params.corner_lookahead = p.spacing;
    impl_->platoons.push_back(std::move(p));
    if (g.order.kind != OrderKind::None) (void)order_platoon(g.id, g.order, g.platoon->heading);
  }
}

Result<std::size_t> Simulation::order_platoon(std::uint32_t group, const Order& order,
                                              std::optional<double> heading) {
  auto it = std::find_if(impl_->platoons.begin(), impl_->platoons.end(),
                         [&](const PlatoonRun& p) { return p.group == group; });
  if (it == impl_->platoons.end())
    return Error{ErrorCode::Value, "no platoon is group " + std::to_string(group), "group"};
  if (order.kind == OrderKind::Patrol)
    return Error{ErrorCode::Value, "a platoon takes move, waypoints, stop or none orders", "order.kind"};
  if (heading && !std::isfinite(*heading)) return Error{ErrorCode::Value, "not a finite number", "heading"};
  // give_order checks the order and takes the vehicles out of every platoon: they come
  // back to their slots (empty ones stay empty: nobody is promoted).
  const std::vector<UnitId> slots = it->slots;
  Result<std::size_t> taken = give_order(slots, order);
  if (!taken.ok()) return taken;
  PlatoonRun& p = *it;
  p.slots = slots;
  p.final_heading = heading;
  p.path.clear();
  p.legs.clear();
  p.targets.clear();
  p.crews.clear();
  const bool moves = order.kind == OrderKind::Move || order.kind == OrderKind::Waypoints;
  p.order = PlatoonOrderState::None;
  if (!moves) return taken;
  p.goal = order.points.back();
  p.legs = order.points;
  for (const UnitId id : p.slots) {
    if (!unit(id)) continue;
    SimUnit& u = units_[id.index];
    impl_->paths.cancel(id);
    impl_->extra[id.index].path_pending = false;
    u.goal.formation = false;
    u.route.order.points.back() = p.goal;
    u.route.state = MoveState::InPlatoon;
  }
  request_platoon_path(p);
  return taken;
}

Status Simulation::change_formation(std::uint32_t group, std::string_view formation) {
  auto it = std::find_if(impl_->platoons.begin(), impl_->platoons.end(),
                         [&](const PlatoonRun& p) { return p.group == group; });
  if (it == impl_->platoons.end())
    return Error{ErrorCode::Value, "no platoon is group " + std::to_string(group), "group"};
  const std::optional<PlatoonFormation> f =
      resolve_formation(scenario(), formation, it->slots.size(), it->spacing);
  if (!f)
    return Error{ErrorCode::Value, "no formation is named \"" + std::string(formation) + "\"", "formation"};
  // From where the slots stand now (a change under way is taken as done).
  it->from = it->to;
  it->to = *f;
  it->motion.formation_blend = 0;
  return Ok{};
}

void Simulation::request_platoon_path(PlatoonRun& p) {
  Vec2 position{0, 0};
  double heading = 0;
  if (!platoon_pose(p, units_, position, heading)) {
    p.order = PlatoonOrderState::None;
    return;
  }
  for (const UnitId id : p.slots) {
    if (!unit(id)) continue;
    p.requester = id;
    break;
  }
  if (p.legs.empty()) p.legs = {p.goal};
  // The next leg, from the end of the legs found so far.
  const Vec2 from = p.path.empty() ? position : p.path.back();
  impl_->paths.request(PathRequest{p.requester, p.path_class, from, p.legs.front()});
  impl_->extra[p.requester.index].path_pending = true;
  ++counters_.path_requests;
  p.order = PlatoonOrderState::WaitingForPath;
}

bool Simulation::answer_platoon(PathAnswer& a) {
  for (PlatoonRun& p : impl_->platoons) {
    if (p.order != PlatoonOrderState::WaitingForPath || !(p.requester == a.unit)) continue;
    if (a.status == SearchStatus::Found && !a.points.empty()) {
      // The leg joins the path so far (its first point is where the last one ended).
      const bool joins = !p.path.empty() && p.path.back() == a.points.front();
      p.path.insert(p.path.end(), a.points.begin() + (joins ? 1 : 0), a.points.end());
      if (!p.legs.empty()) p.legs.erase(p.legs.begin());
      if (!p.legs.empty()) {
        impl_->extra[p.requester.index].path_pending = false;
        request_platoon_path(p);
      } else {
        std::vector<Vec2> path = std::move(p.path);
        start_platoon_path(p, units_, std::move(path));
      }
    } else if (p.break_when_blocked) {
      break_platoon(p);
    } else {
      // The order fails whole: the legs found before this one are not drawn as a path.
      p.legs.clear();
      p.path.clear();
      p.order = PlatoonOrderState::Failed;
      for (const UnitId id : p.slots) {
        if (unit(id) && units_[id.index].route.state == MoveState::InPlatoon)
          units_[id.index].route.state = MoveState::Failed;
      }
    }
    return true;
  }
  // A crew's private path (seed 004's bad-position check).
  for (PlatoonRun& p : impl_->platoons) {
    for (std::size_t k = 0; k < p.slots.size() && k < p.crews.size(); ++k) {
      CrewState& crew = p.crews[k];
      if (!(p.slots[k] == a.unit) || !crew.private_path_pending) continue;
      crew.private_path_pending = false;
      const std::optional<VehicleClass>& v = impl_->vehicles[units_[a.unit.index].movement_class];
      if (a.status == SearchStatus::Found && !a.points.empty() && v) {
        crew.private_path = PrivatePath(std::move(a.points), default_release_distance(*v));
        ++crew.private_paths;
      }
      return true;
    }
  }
  return false;
}

void Simulation::break_platoon(PlatoonRun& p) {
  Vec2 pose{0, 0};
  double heading = 0;
  (void)platoon_pose(p, units_, pose, heading);
  const Vec2 way = p.goal - pose;
  const double facing = p.final_heading.value_or(glm::length(way) > 0 ? heading_of(way) : heading);
  p.legs.clear();
  p.path.clear();
  p.order = PlatoonOrderState::None;
  // Each vehicle to its slot of the formation standing at the goal, as a unit of its own.
  for (std::size_t k = 0; k < p.slots.size() && k < p.to.offsets.size(); ++k) {
    if (!unit(p.slots[k]) || units_[p.slots[k].index].route.state != MoveState::InPlatoon) continue;
    SimUnit& u = units_[p.slots[k].index];
    u.route.order =
        Order{OrderKind::Move, {formation_point(p.goal, facing, p.to.offsets[k])}, PatrolMode::Loop};
    start_order(u);
  }
}

void Simulation::request_vehicle_path(PlatoonRun& p, std::size_t slot) {
  const SimUnit& u = units_[p.slots[slot].index];
  impl_->paths.request(PathRequest{u.id, u.movement_class, u.body.position, p.targets[slot].drive_to});
  impl_->extra[u.id.index].path_pending = true;
  ++counters_.path_requests;
}

void Simulation::leave_platoons(UnitId id) {
  for (PlatoonRun& p : impl_->platoons) {
    bool left = false;
    for (UnitId& slot : p.slots) {
      if (slot != id) continue;
      slot = UnitId{std::numeric_limits<std::uint32_t>::max(), 0};
      left = true;
    }
    // Its request carried the platoon's path: another vehicle asks.
    if (left && p.order == PlatoonOrderState::WaitingForPath && p.requester == id) {
      impl_->paths.cancel(id);
      request_platoon_path(p);
    }
  }
}

}  // namespace pathscope::sim
