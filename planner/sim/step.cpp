// One step of the simulation (seed 002, "Simple Movement Algorithm"): the composition of
// its phases, in order (planner/sim/README.md, "One step"). The components (detours, bridges,
// passages, the state loop, collision detection, cooperation, reactive avoidance, the moves,
// collision prevention, arrivals) see only the views of the
// units made here, and what they return is applied here (a unit refused a bridge or a
// passage waits: Simulation::wait_clear and wait_at, simulation.cpp).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <glm/geometric.hpp>

#include "planner/sim/arrival.hpp"
#include "planner/sim/avoidance.hpp"
#include "planner/sim/bridges.hpp"
#include "planner/sim/cooperation.hpp"
#include "planner/sim/detours.hpp"
#include "planner/sim/formation_gaps.hpp"
#include "planner/sim/moves.hpp"
#include "planner/sim/passage_turns.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/prevention.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/state_loop.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

// Collision prevention's view of the units (prevention.hpp).
void view_for_prevention(std::span<const SimUnit> units, std::span<const UnitPrivate> extra,
                         std::vector<PreventionUnit>& out) {
  out.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const SimUnit& u = units[i];
    out[i] = PreventionUnit{
        u.body.position,   u.body.previous, u.body.heading, static_cast<std::uint32_t>(u.movement_class),
        extra[i].move_key, u.alive,         is_moving(u),   false};
  }
}

// Takes prevention's pushes: a unit pushed stands where it was pushed to and drops its
// prediction; each unit's diag.pushed is how far it was pushed.
void take_pushes(std::span<const PreventionUnit> pushed, std::span<SimUnit> units) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    SimUnit& u = units[i];
    u.diag.pushed = pushed[i].position - u.body.position;
    if (!pushed[i].pushed) continue;
    u.body.position = pushed[i].position;
    u.route.predicted.clear();
  }
}

// Each slot's terrain key (static checks), for the components.
void view_move_keys(std::span<const UnitPrivate> extra, std::vector<std::uint16_t>& out) {
  out.resize(extra.size());
  for (std::size_t i = 0; i < extra.size(); ++i) out[i] = extra[i].move_key;
}

// Takes reactive avoidance's moves: each unit steered moves so this step, not as predicted.
void take_steers(std::span<const AvoidanceSteer> steers, std::span<SimUnit> units,
                 std::span<UnitPrivate> extra) {
  for (const AvoidanceSteer& s : steers) {
    extra[s.unit].next = s.next;
    extra[s.unit].next_from_prediction = false;
    units[s.unit].diag.steered = s.steered;
  }
}

// Arrivals' view of the units (arrival.hpp): goals, progress, waits before walking back.
void view_for_arrivals(std::span<const SimUnit> units, std::span<const UnitPrivate> extra,
                       std::vector<ArrivalUnit>& out) {
  out.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const SimUnit& u = units[i];
    out[i] = ArrivalUnit{u.goal, u.route.best_distance, u.route.progress_time, extra[i].still_since,
                         extra[i].settle};
  }
}

// Takes arrivals' goals, progress and waits back into the units.
void take_arrivals(std::span<const ArrivalUnit> arrivals, std::span<SimUnit> units,
                   std::span<UnitPrivate> extra) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    const ArrivalUnit& a = arrivals[i];
    units[i].goal = a.goal;
    units[i].route.best_distance = a.best_distance;
    units[i].route.progress_time = a.progress_time;
    extra[i].still_since = a.still_since;
    extra[i].settle = a.settle;
  }
}

// Detours' view of the units (detours.hpp): terrain keys and last tries.
void view_for_detours(std::span<const UnitPrivate> extra, std::vector<DetourUnit>& out) {
  out.resize(extra.size());
  for (std::size_t i = 0; i < extra.size(); ++i) out[i] = DetourUnit{extra[i].move_key, extra[i].last_repath};
}

// Takes detours' decisions: a unit at a taken goal ends its path; a unit given a way round
// takes it as its path, yielding to nobody; either drops its prediction. Returns how many
// ways round were taken (new paths).
std::uint64_t take_detours(std::span<Detour> detours, std::span<const DetourUnit> track,
                           std::span<SimUnit> units, std::span<UnitPrivate> extra) {
  for (std::size_t i = 0; i < extra.size(); ++i) extra[i].last_repath = track[i].last_repath;
  std::uint64_t ways = 0;
  for (Detour& d : detours) {
    SimUnit& u = units[d.unit];
    if (d.goal_taken) {
      u.route.waypoint = u.route.path.size();
      u.route.state = MoveState::IncrementWaypoint;
      u.coop.yield = Yield::None;
      u.route.predicted.clear();
      continue;
    }
    u.route.path = std::move(d.way);
    u.route.waypoint = 0;
    u.coop.yield = Yield::None;
    u.coop.speed_factor = 1;
    u.route.predicted.clear();
    ++ways;
  }
  return ways;
}

// The bridge rule's view of the units (bridges.hpp): platoons and last bridges.
void view_for_bridges(std::span<const UnitPrivate> extra, std::vector<BridgeUnit>& out) {
  out.resize(extra.size());
  for (std::size_t i = 0; i < extra.size(); ++i)
    out[i] = BridgeUnit{extra[i].platoon, extra[i].last_bridge, extra[i].bridge_time, false};
}

// The bridge rule's view of the platoons driving (bridges.hpp): where each is on its path,
// how far its formation reaches ahead, how far ahead it asks, where its vehicles are.
// `vehicles` keeps the positions the views point into.
void view_platoons_for_bridges(std::span<const PlatoonRun> platoons, std::span<const SimUnit> units,
                               std::span<const UnitPrivate> extra, std::span<const Motion> motions,
                               std::vector<BridgePlatoon>& out, std::vector<std::vector<Vec2>>& vehicles) {
  out.assign(platoons.size(), BridgePlatoon{});
  vehicles.resize(platoons.size());
  for (std::size_t i = 0; i < platoons.size(); ++i) {
    const PlatoonRun& p = platoons[i];
    vehicles[i].clear();
    if (p.order != PlatoonOrderState::Driving) continue;
    double widest = 0;
    std::uint32_t id = 0;
    for (const UnitId slot : p.slots) {
      if (slot.index >= units.size()) continue;
      const SimUnit& u = units[slot.index];
      if (!u.alive || u.id != slot || u.route.state != MoveState::InPlatoon) continue;
      if (vehicles[i].empty()) id = extra[slot.index].platoon;
      vehicles[i].push_back(u.body.position);
      widest = std::max(widest, motions[u.movement_class].hard_radius);
    }
    if (vehicles[i].empty()) continue;
    double ahead = 0;  // the formation's front slot ahead of its position (a column's lead is at it)
    if (p.to.shape != FormationShape::Column) {
      for (const Vec2 o : p.to.offsets) ahead = std::max(ahead, o.x);
      for (const Vec2 o : p.from.offsets) ahead = std::max(ahead, o.x);
    }
    BridgePlatoon& b = out[i];
    b.platoon = id;
    b.walk = &p.walk;
    b.along = p.motion.along;
    b.front = ahead + widest + kWaitMargin + kBridgeHoldGap;
    b.reach = p.params.max_speed * p.params.max_speed / (2 * p.params.acceleration) + 2 * p.spacing;
    b.vehicles = vehicles[i];
  }
}

// The formation-gap rule's view (formation_gaps.hpp): each driving platoon's area, and
// every unit with whether the rule applies to it (alive, in no platoon).
void view_for_formation_gaps(std::span<const PlatoonRun> platoons, std::span<const SimUnit> units,
                             std::span<const UnitPrivate> extra, std::span<const Motion> motions, double dt,
                             std::vector<std::vector<Vec2>>& areas, std::vector<GapUnit>& out) {
  areas.clear();
  out.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const SimUnit& u = units[i];
    const Motion& m = motions[u.movement_class];
    out[i] = GapUnit{u.body.previous,
                     u.body.position,
                     m.hard_radius,
                     m.speed * dt,
                     static_cast<std::uint32_t>(u.movement_class),
                     extra[i].move_key,
                     u.alive,
                     false};
  }
  std::vector<Vec2> centres;
  for (const PlatoonRun& p : platoons) {
    centres.clear();
    for (const UnitId slot : p.slots) {
      if (slot.index >= units.size()) continue;
      out[slot.index].applies = false;  // platoons pass through each other
      const SimUnit& u = units[slot.index];
      if (u.alive && u.id == slot && u.route.state == MoveState::InPlatoon)
        centres.push_back(u.body.position);
    }
    if (p.order == PlatoonOrderState::Driving && centres.size() >= 2) areas.push_back(convex_hull(centres));
  }
}

// Takes the formation-gap rule's positions: a unit kept out stands there, its prediction
// dropped.
void take_gaps(std::span<const GapUnit> gaps, std::span<SimUnit> units) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (!gaps[i].kept) continue;
    units[i].body.position = gaps[i].position;
    units[i].route.predicted.clear();
  }
}

// Takes the bridge rule's last bridges and waits back into the units.
void take_bridges(std::span<const BridgeUnit> track, std::span<SimUnit> units, std::span<UnitPrivate> extra) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    extra[i].last_bridge = track[i].last_bridge;
    extra[i].bridge_time = track[i].bridge_time;
    units[i].waits.bridge = track[i].waiting;
  }
}

// The passage rule's view of the units (passage_turns.hpp): terrain keys, last passages,
// and whether each steps clear of a bridge or a passage on its own to wait (a move aside
// nobody asked for, whose asker is gone): still waiting, below everyone.
void view_for_passages(std::span<const SimUnit> units, std::span<const UnitPrivate> extra,
                       std::vector<PassageUnit>& out) {
  out.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    const SimUnit& u = units[i];
    const UnitId to = u.coop.yield_to;
    const bool asker =
        to.index < units.size() && units[to.index].alive && units[to.index].id.generation == to.generation;
    out[i] =
        PassageUnit{extra[i].move_key, extra[i].last_passage, extra[i].passage_flow, extra[i].passage_time,
                    u.coop.yield == Yield::MoveAside && u.coop.home == u.coop.aside && !asker};
  }
}

// Takes the passage rule's last passages and waits back into the units.
void take_passages(std::span<const PassageUnit> track, std::span<SimUnit> units,
                   std::span<UnitPrivate> extra) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    extra[i].last_passage = track[i].last_passage;
    extra[i].passage_flow = track[i].passage_flow;
    extra[i].passage_time = track[i].passage_time;
    units[i].waits.passage = track[i].waiting;
  }
}

}  // namespace

std::span<const CostGrid* const> Simulation::class_grids() {
  impl_->grids.resize(impl_->motions.size());
  for (std::size_t c = 0; c < impl_->grids.size(); ++c) impl_->grids[c] = &world_->grid(c);
  return impl_->grids;
}

void Simulation::step() {
  const SimSettings& set = scenario().sim;
  const std::uint64_t t0 = clock_ ? clock_() : 0;
  answer_paths();
  const std::uint64_t t1 = clock_ ? clock_() : 0;
  for (SimUnit& u : units_) {
    u.diag.steered = 0;
    u.diag.pushed = Vec2{0, 0};
  }
  if (set.detours) {
    view_for_detours(impl_->extra, impl_->detour_units);
    find_detours(units_, impl_->detour_units, impl_->motions, class_grids(), time(), impl_->detour,
                 impl_->detours);
    counters_.repaths += take_detours(impl_->detours, impl_->detour_units, units_, impl_->extra);
  }
  run_state_loops(units_, impl_->extra, impl_->motions, class_grids(), set, time(), impl_->state_loop);
  counters_.repaths += impl_->state_loop.repaths;
  for (const std::uint32_t slot : impl_->state_loop.path_requests) request_path(units_[slot]);
  impl_->bridge_claims.clear();
  if (!impl_->platoons.empty()) {
    // Bridges first: a platoon another holds a bridge against stops before it.
    for (PlatoonRun& p : impl_->platoons) p.bridge_hold = std::numeric_limits<double>::infinity();
    if (!scenario().bridges.empty()) {
      view_platoons_for_bridges(impl_->platoons, units_, impl_->extra, impl_->motions, impl_->bridge_platoons,
                                impl_->bridge_vehicles);
      for (const Bridge& b : scenario().bridges)
        keep_bridge_for_platoons(b, impl_->bridges, impl_->bridge_platoons, impl_->bridge_claims);
      for (std::size_t i = 0; i < impl_->platoons.size(); ++i)
        impl_->platoons[i].bridge_hold = impl_->bridge_platoons[i].hold_at;
    }
    drive_platoons(impl_->platoons, units_, impl_->extra, impl_->motions, impl_->vehicles, class_grids(), set,
                   time(), impl_->platooned);
    for (const auto& [platoon, slot] : impl_->platooned.vehicle_paths)
      request_vehicle_path(impl_->platoons[platoon], slot);
    // A platoon done: a vehicle within its arrival radius of its slot holds where it
    // stopped (seed 004: arrived, no more steering); any other unit goes to its slot as a
    // unit of its own. Either then holds its goal as every unit does (arrival.cpp).
    for (const std::size_t i : impl_->platooned.finished) {
      const PlatoonRun& p = impl_->platoons[i];
      for (std::size_t k = 0; k < p.slots.size() && k < p.targets.size(); ++k) {
        if (!unit(p.slots[k]) || units_[p.slots[k].index].route.state != MoveState::InPlatoon) continue;
        SimUnit& u = units_[p.slots[k].index];
        const Motion& m = impl_->motions[u.movement_class];
        const std::optional<VehicleClass>& v = impl_->vehicles[u.movement_class];
        const Vec2 slot = p.targets[k].drive_to;
        // Held where it stopped only if a push that it walks back from (arrival_tolerance)
        // still leaves it within the arrival radius of its slot.
        const bool there =
            v && glm::distance(u.body.position, slot) <= platoon_arrival_radius(m, v) - arrival_tolerance(m);
        u.route.order = Order{OrderKind::Move, {there ? u.body.position : slot}, PatrolMode::Loop};
        start_order(u);
        if (there) {
          impl_->paths.cancel(u.id);
          impl_->extra[u.id.index].path_pending = false;
          reach_goal(u, m, time(), impl_->extra[u.id.index].still_since, impl_->extra[u.id.index].settle);
        }
      }
    }
  }
  for (SimUnit& u : units_) u.waits.bridge = false;
  if (!scenario().bridges.empty()) {
    view_for_bridges(impl_->extra, impl_->bridge_units);
    // Bridge by bridge: the units refused wait before the next bridge is asked about,
    // so it sees them waiting.
    for (const Bridge& b : scenario().bridges) {
      keep_bridge(b, units_, time(), impl_->bridges, impl_->bridge_units, impl_->bridge_claims,
                  impl_->bridge_waits);
      for (const BridgeWait& w : impl_->bridge_waits)
        wait_clear(units_[w.unit], w.entry, w.flow, w.half_width);
    }
    take_bridges(impl_->bridge_units, units_, impl_->extra);
  }
  view_for_passages(units_, impl_->extra, impl_->passage_units);
  if (set.passages) {
    make_passage_maps();
    if (set.knots) {
      view_move_keys(impl_->extra, impl_->move_keys);
      find_knots(units_, impl_->move_keys, impl_->passage_maps, impl_->motions, class_grids(), KnotRules{},
                 time(), impl_->knots);
      keep_knots(impl_->passage_maps, impl_->knots, KnotRules{}, time());
    }
    keep_passages(units_, impl_->passage_maps, impl_->motions, class_grids(), time(), impl_->passage_units,
                  impl_->claims, impl_->passage_tallies, impl_->passage_waits);
    for (const PassageWait& w : impl_->passage_waits) {
      if (w.at_spot)
        wait_at(units_[w.unit], w.spot);
      else if (w.in_place)
        wait_here(units_[w.unit]);
      else
        wait_clear(units_[w.unit], w.entry, w.flow, w.half_width);
    }
  }
  take_passages(impl_->passage_units, units_, impl_->extra);
  detect_collisions(units_, impl_->motions, class_grids(),
                    DetectionLimits{.max_soft = impl_->max_soft, .max_speed = impl_->max_speed}, set, time(),
                    memory_, impl_->hashed, impl_->detection, collisions_);
  counters_.collisions_found += collisions_.size();
  count_density();
  cooperate(units_, impl_->extra, impl_->motions, class_grids(),
            Vec2{scenario().world.width, scenario().world.height}, set, time(), collisions_, memory_,
            impl_->cooperation, impl_->cooperated);
  counters_.repaths += impl_->cooperated.repaths;
  // Slot swaps: each of the two starts its order again, to its new slot (and arrives
  // again only there).
  for (const std::uint32_t slot : impl_->cooperated.restart) start_order(units_[slot]);
  if (set.avoidance != AvoidanceMode::None) {
    view_move_keys(impl_->extra, impl_->move_keys);
    avoid(set.avoidance, units_, impl_->move_keys, impl_->hashed.hash, impl_->motions, class_grids(), set.dt,
          impl_->steers);
    take_steers(impl_->steers, units_, impl_->extra);
  }
  move_units(units_, impl_->extra, impl_->motions, class_grids(), impl_->max_hard, set, time(), impl_->hashed,
             impl_->moves, counters_.repaths);
  if (!impl_->platoons.empty()) {
    view_for_formation_gaps(impl_->platoons, units_, impl_->extra, impl_->motions, set.dt, impl_->gap_areas,
                            impl_->gap_units);
    if (!impl_->gap_areas.empty()) {
      keep_out_of_formations(impl_->gap_areas, impl_->gap_units, class_grids());
      take_gaps(impl_->gap_units, units_);
    }
  }
  if (set.prevention) {
    view_for_prevention(units_, impl_->extra, impl_->prevention_units);
    prevent_overlaps(impl_->prevention_units, impl_->motions, class_grids(), impl_->prevention);
    take_pushes(impl_->prevention_units, units_);
  }
  ++counters_.steps;
  view_for_arrivals(units_, impl_->extra, impl_->arrivals);
  keep_arrivals(units_, impl_->motions, time(), impl_->arrivals, impl_->arrival);
  take_arrivals(impl_->arrivals, units_, impl_->extra);
  refresh_density_cost();
  if (clock_) {
    const std::uint64_t t2 = clock_();
    planning_ns_ += t1 - t0;
    movement_ns_ += t2 - t1;
  }
}

}  // namespace pathscope::sim
