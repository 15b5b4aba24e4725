// Recordings' decision log: what each unit decided and why, read from the simulation
// step by step (log_changes), its bytes in the file, and its descriptions.

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "planner/sim/recording.hpp"
#include "planner/sim/recording_codec.hpp"

namespace pathscope::sim {

using namespace recording_detail;

namespace {

double path_length(std::span<const Vec2> path) {
  double len = 0;
  for (std::size_t i = 1; i < path.size(); ++i) len += glm::length(path[i] - path[i - 1]);
  return len;
}

// The vehicle a platoon's decisions are logged for: the one whose request carries its
// path while it is in the platoon, else its first vehicle present; nullptr when none is.
const SimUnit* platoon_teller(const Simulation& simulation, const PlatoonRun& p) {
  if (std::find(p.slots.begin(), p.slots.end(), p.requester) != p.slots.end()) {
    if (const SimUnit* u = simulation.unit(p.requester)) return u;
  }
  for (const UnitId id : p.slots) {
    if (const SimUnit* u = simulation.unit(id)) return u;
  }
  return nullptr;
}

}  // namespace

namespace recording_detail {

// The decisions' bytes in the file: a fixed order of fields per entry.
void write_decisions(std::span<const Decision> decisions, std::string& out) {
  Writer w(out);
  for (const Decision& d : decisions) {
    w.varint(d.step);
    w.varint(d.unit.index);
    w.varint(d.unit.generation);
    w.varint(d.who);
    w.byte(static_cast<std::uint8_t>(d.kind));
    w.byte(d.from);
    w.byte(d.to);
    w.byte(d.flags);
    w.byte(d.has_other ? 1 : 0);
    w.varint(d.other.index);
    w.varint(d.other.generation);
    w.varint(d.whom);
    w.varint(d.count);
    w.raw(d.point.x);
    w.raw(d.point.y);
    w.raw(d.value);
  }
}

// Reads the decisions' bytes; kDecisionsRead, or the byte offset of the damaged entry.
std::size_t read_decisions(std::string_view bytes, std::vector<Decision>& out) {
  Reader r(bytes.data(), bytes.size());
  while (r.ok() && !r.done()) {
    const std::size_t entry = r.offset();
    Decision d;
    d.step = r.varint();
    d.unit.index = r.u32();
    d.unit.generation = r.u32();
    d.who = r.u32();
    const std::uint8_t kind = r.byte();
    if (kind > static_cast<std::uint8_t>(DecisionKind::VehiclePathFailed)) return entry;
    d.kind = static_cast<DecisionKind>(kind);
    d.from = r.byte();
    d.to = r.byte();
    d.flags = r.byte();
    d.has_other = r.byte() != 0;
    d.other.index = r.u32();
    d.other.generation = r.u32();
    d.whom = r.u32();
    d.count = r.u32();
    d.point.x = r.raw();
    d.point.y = r.raw();
    d.value = r.raw();
    if (!r.ok()) return entry;
    out.push_back(d);
  }
  return kDecisionsRead;
}

}  // namespace recording_detail

const char* to_string(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::Appeared: return "appeared";
    case DecisionKind::Removed: return "removed";
    case DecisionKind::State: return "state";
    case DecisionKind::PathRequested: return "path_requested";
    case DecisionKind::PathFound: return "path_found";
    case DecisionKind::PathFailed: return "path_failed";
    case DecisionKind::PathChanged: return "path_changed";
    case DecisionKind::Collision: return "collision";
    case DecisionKind::Yield: return "yield";
    case DecisionKind::BridgeWait: return "bridge_wait";
    case DecisionKind::PassageWait: return "passage_wait";
    case DecisionKind::Avoided: return "avoided";
    case DecisionKind::Pushed: return "pushed";
    case DecisionKind::Arrived: return "arrived";
    case DecisionKind::Stuck: return "stuck";
    case DecisionKind::Unstuck: return "unstuck";
    case DecisionKind::PlatoonPathRequested: return "platoon_path_requested";
    case DecisionKind::PlatoonPathFound: return "platoon_path_found";
    case DecisionKind::PlatoonPathFailed: return "platoon_path_failed";
    case DecisionKind::PlatoonWait: return "platoon_wait";
    case DecisionKind::PlatoonArrived: return "platoon_arrived";
    case DecisionKind::PlatoonDone: return "platoon_done";
    case DecisionKind::VehiclePathRequested: return "vehicle_path_requested";
    case DecisionKind::VehiclePathFound: return "vehicle_path_found";
    case DecisionKind::VehiclePathFailed: return "vehicle_path_failed";
  }
  return "?";
}

std::string describe(const Decision& d) {
  const auto state = [](std::uint8_t s) { return to_string(static_cast<MoveState>(s)); };
  switch (d.kind) {
    case DecisionKind::Appeared:
      return fmt("appeared at (%.2f, %.2f), %s", d.point.x, d.point.y, state(d.to));
    case DecisionKind::Removed: return "removed";
    case DecisionKind::State: return fmt("%s -> %s", state(d.from), state(d.to));
    case DecisionKind::PathRequested:
      return d.from == static_cast<std::uint8_t>(MoveState::Moving) ||
                     d.from == static_cast<std::uint8_t>(MoveState::IncrementWaypoint)
                 ? fmt("asks for a new path (re-path) to (%.2f, %.2f)", d.point.x, d.point.y)
                 : fmt("asks for a path to (%.2f, %.2f)", d.point.x, d.point.y);
    case DecisionKind::PathFound:
      return fmt("path of %.2f m (%u points) to (%.2f, %.2f)", d.value, d.count, d.point.x, d.point.y);
    case DecisionKind::PathFailed: return fmt("no path to (%.2f, %.2f): it stands", d.point.x, d.point.y);
    case DecisionKind::PathChanged:
      return fmt("path changed: %.2f m (%u points) to (%.2f, %.2f)", d.value, d.count, d.point.x, d.point.y);
    case DecisionKind::Collision: {
      const auto rule = static_cast<CooperationRule>(d.to);
      const auto cstate = static_cast<CollisionState>(d.flags >> kDecisionStateShift & 3);
      return fmt("%s %s collision with unit %u: %s, %s (%s)",
                 d.flags & kDecisionImmediate ? "immediate" : "future",
                 d.flags & kDecisionHard ? "hard" : "soft", d.whom, to_string(rule), to_string(cstate),
                 d.flags & kDecisionDecides ? "it decides" : "the other decides");
    }
    case DecisionKind::Yield: {
      std::string s =
          fmt("yield %s -> %s", to_string(static_cast<Yield>(d.from)), to_string(static_cast<Yield>(d.to)));
      if (d.has_other) s += fmt(" for unit %u", d.whom);
      const auto y = static_cast<Yield>(d.to);
      if (y == Yield::MoveAside || y == Yield::Detour || y == Yield::Return)
        s += fmt(", to (%.2f, %.2f)", d.point.x, d.point.y);
      return s;
    }
    case DecisionKind::BridgeWait:
      return d.to ? "waits before a bridge another platoon holds" : "no longer waits before the bridge";
    case DecisionKind::PassageWait:
      return d.to ? "waits before a narrow passage units come through the other way"
                  : "no longer waits before the passage";
    case DecisionKind::Avoided:
      return fmt("avoidance turns it %.1f deg off its path", d.value * 180 / std::numbers::pi);
    case DecisionKind::Pushed: return fmt("collision prevention pushes it %.3f m", d.value);
    case DecisionKind::Arrived: return fmt("arrived at (%.2f, %.2f)", d.point.x, d.point.y);
    case DecisionKind::Stuck: return fmt("flagged stuck: no progress for %.1f s", d.value);
    case DecisionKind::Unstuck: return "made progress again: no longer stuck";
    case DecisionKind::PlatoonPathRequested:
      return fmt("its platoon asks for a path to (%.2f, %.2f)", d.point.x, d.point.y);
    case DecisionKind::PlatoonPathFound:
      return fmt("its platoon's path: %.2f m (%u points) to (%.2f, %.2f)", d.value, d.count, d.point.x,
                 d.point.y);
    case DecisionKind::PlatoonPathFailed:
      return fmt("no path for its platoon to (%.2f, %.2f): the platoon stands", d.point.x, d.point.y);
    case DecisionKind::PlatoonWait:
      return d.to ? fmt("its platoon waits for unit %u, %.1f m from its point", d.whom, d.value)
                  : std::string("its platoon goes on");
    case DecisionKind::PlatoonArrived:
      return fmt("its platoon arrived at (%.2f, %.2f), facing %.1f deg", d.point.x, d.point.y,
                 d.value * 180 / std::numbers::pi);
    case DecisionKind::PlatoonDone: return "its platoon is done: each vehicle holds its slot on its own";
    case DecisionKind::VehiclePathRequested:
      return fmt("cut off from its point (%.2f, %.2f), asks for a path of its own", d.point.x, d.point.y);
    case DecisionKind::VehiclePathFound:
      return fmt("its own path: %.2f m (%u points) to (%.2f, %.2f)", d.value, d.count, d.point.x, d.point.y);
    case DecisionKind::VehiclePathFailed: return "no path of its own: it drives straight for its point";
  }
  return "?";
}

void Recording::log_changes(const Simulation& simulation) {
  const std::uint64_t step = simulation.step_count();
  const auto slots = simulation.slots();
  const bool first = empty();
  avoiding_.resize(slots.size(), 0);
  pushing_.resize(slots.size(), 0);
  const SimUnit blank;
  for (const SimUnit& u : slots) {
    const SimUnit& was = u.id.index < base_.size() ? base_[u.id.index] : blank;
    Decision d;
    d.step = step;
    d.unit = u.id;
    d.who = u.scenario_id;
    auto add = [&](DecisionKind kind) {
      Decision e = d;
      e.kind = kind;
      decisions_.push_back(e);
      return &decisions_.back();
    };
    const Vec2 target = u.route.order_point < u.route.order.points.size()
                            ? u.route.order.points[u.route.order_point]
                            : u.body.position;
    if (!u.alive) {
      if (was.alive && was.id.generation == u.id.generation) add(DecisionKind::Removed);
      continue;
    }
    if (first || !was.alive || was.id.generation != u.id.generation) {
      Decision* e = add(DecisionKind::Appeared);
      e->to = static_cast<std::uint8_t>(u.route.state);
      e->point = u.body.position;
      if (first) continue;
    }
    const bool path_changed = path_changed_[u.id.index] != 0;
    if (was.route.state != u.route.state) {
      if (u.route.state == MoveState::WaitingForPath) {
        Decision* e = add(DecisionKind::PathRequested);
        e->from = static_cast<std::uint8_t>(was.route.state);
        e->point = target;
      } else if (u.route.state == MoveState::Failed) {
        add(DecisionKind::PathFailed)->point = target;
      } else if (!(was.route.state == MoveState::WaitingForPath && path_changed)) {
        Decision* e = add(DecisionKind::State);
        e->from = static_cast<std::uint8_t>(was.route.state);
        e->to = static_cast<std::uint8_t>(u.route.state);
      }
    }
    if (path_changed && !u.route.path.empty()) {
      Decision* e = add(was.route.state == MoveState::WaitingForPath ? DecisionKind::PathFound
                                                                     : DecisionKind::PathChanged);
      e->value = path_length(u.route.path);
      e->count = static_cast<std::uint32_t>(u.route.path.size());
      e->point = u.route.path.back();
    }
    if (was.coop.yield != u.coop.yield ||
        (u.coop.yield != Yield::None && !(was.coop.yield_to == u.coop.yield_to))) {
      Decision* e = add(DecisionKind::Yield);
      e->from = static_cast<std::uint8_t>(was.coop.yield);
      e->to = static_cast<std::uint8_t>(u.coop.yield);
      if (u.coop.yield != Yield::None) {
        if (const SimUnit* other = simulation.unit(u.coop.yield_to)) {
          e->has_other = true;
          e->other = u.coop.yield_to;
          e->whom = other->scenario_id;
        }
      }
      e->point = u.coop.yield == Yield::Return ? u.coop.home : u.coop.aside;
    }
    if (was.waits.bridge != u.waits.bridge) add(DecisionKind::BridgeWait)->to = u.waits.bridge ? 1 : 0;
    if (was.waits.passage != u.waits.passage) add(DecisionKind::PassageWait)->to = u.waits.passage ? 1 : 0;
    const bool avoiding = std::abs(u.diag.steered) > 1e-3;
    if (avoiding && !avoiding_[u.id.index]) add(DecisionKind::Avoided)->value = u.diag.steered;
    avoiding_[u.id.index] = avoiding;
    const double push = glm::length(u.diag.pushed);
    const bool pushing = push > 1e-4;
    if (pushing && !pushing_[u.id.index]) add(DecisionKind::Pushed)->value = push;
    pushing_[u.id.index] = pushing;
    if (u.goal.arrived && !was.goal.arrived) add(DecisionKind::Arrived)->point = u.body.position;
  }
  log_platoons(simulation);
  // Collisions: each pair when found, and again when its rule or state changes.
  std::unordered_map<std::uint64_t, std::uint16_t> contacts;
  for (const Collision& c : simulation.collisions()) {
    const std::uint64_t key = pair_key(c.a, c.b);
    const auto code =
        static_cast<std::uint16_t>(static_cast<int>(c.rule) << 8 | static_cast<int>(c.state) << 2 |
                                   (c.hard ? 1 : 0) | (c.immediate ? 2 : 0));
    if (!contacts.emplace(key, code).second) continue;
    const auto it = contacts_.find(key);
    if (it != contacts_.end() && it->second == code) continue;
    const SimUnit* a = simulation.unit(c.a);
    const SimUnit* b = simulation.unit(c.b);
    if (!a || !b) continue;
    for (int side = 0; side < 2; ++side) {
      const SimUnit& me = side == 0 ? *a : *b;
      const SimUnit& other = side == 0 ? *b : *a;
      Decision d;
      d.step = step;
      d.unit = me.id;
      d.who = me.scenario_id;
      d.kind = DecisionKind::Collision;
      d.to = static_cast<std::uint8_t>(c.rule);
      d.flags = static_cast<std::uint8_t>(
          (c.hard ? kDecisionHard : 0) | (c.immediate ? kDecisionImmediate : 0) |
          (side == 0 ? kDecisionDecides : 0) | static_cast<int>(c.state) << kDecisionStateShift);
      d.has_other = true;
      d.other = other.id;
      d.whom = other.scenario_id;
      d.point = c.point;
      d.value = c.time;
      decisions_.push_back(d);
    }
  }
  contacts_ = std::move(contacts);
  // Stuck flags the detector raised at this step.
  if (detector_) {
    const auto events = detector_->events();
    for (std::size_t i = stuck_seen_; i < events.size(); ++i) {
      const StuckEvent& e = events[i];
      Decision d;
      d.step = step;
      d.unit = e.id;
      d.who = e.unit;
      d.kind = DecisionKind::Stuck;
      d.point = e.position;
      d.value = e.time - e.since;
      decisions_.push_back(d);
      stuck_.push_back({step, e.id, e.unit, e.time, e.since, RecordedStuck::kStillStuck, describe(e)});
    }
    stuck_seen_ = events.size();
    // Flags whose unit made progress again.
    for (std::size_t i = stuck_watched_from_; i < stuck_.size(); ++i) {
      RecordedStuck& r = stuck_[i];
      if (r.until != RecordedStuck::kStillStuck || r.step == step || detector_->is_stuck(r.unit)) continue;
      r.until = step;
      Decision d;
      d.step = step;
      d.unit = r.unit;
      d.who = r.who;
      d.kind = DecisionKind::Unstuck;
      if (const SimUnit* u = simulation.unit(r.unit)) d.point = u->body.position;
      decisions_.push_back(d);
    }
  }
}

void Recording::log_platoons(const Simulation& simulation) {
  const std::uint64_t step = simulation.step_count();
  const bool first = empty();
  const auto platoons = simulation.platoons();
  const PlatoonRun blank_platoon;
  const CrewState blank_crew;
  for (std::size_t i = 0; i < platoons.size(); ++i) {
    const PlatoonRun& p = platoons[i];
    const PlatoonRun& was = i < base_platoons_.size() ? base_platoons_[i] : blank_platoon;
    const SimUnit* teller = platoon_teller(simulation, p);
    if (teller == nullptr) continue;
    auto add = [&](const SimUnit& u, DecisionKind kind) {
      Decision d;
      d.step = step;
      d.unit = u.id;
      d.who = u.scenario_id;
      d.kind = kind;
      decisions_.push_back(d);
      return &decisions_.back();
    };
    // No path: the platoon's order fails and its vehicles stand Failed; the step after
    // the answer may already show the platoon with no order (none of its vehicles drives).
    bool vehicles_failed = false;
    for (const UnitId id : p.slots) {
      const SimUnit* u = simulation.unit(id);
      vehicles_failed = vehicles_failed || (u != nullptr && u->route.state == MoveState::Failed);
    }
    const bool failed =
        p.order == PlatoonOrderState::Failed || (p.order == PlatoonOrderState::None && vehicles_failed);
    // An order is seen as a request waiting for its answer, or (answered in the step it
    // was given) as another path, goal or outcome than the step before had.
    const bool waiting_for_path = p.order == PlatoonOrderState::WaitingForPath;
    const bool answered = p.order == PlatoonOrderState::Driving || failed;
    const bool other_order =
        !same_vec(was.goal, p.goal) || !same_path(was.path, p.path) || was.order != p.order;
    bool requested = false;
    if (waiting_for_path) {
      requested =
          first || was.order != p.order || !(was.requester == p.requester) || !same_vec(was.goal, p.goal);
    } else if (answered && !first) {
      requested = was.order != PlatoonOrderState::WaitingForPath && other_order;
    }
    if (requested) add(*teller, DecisionKind::PlatoonPathRequested)->point = p.goal;
    if (first) continue;
    if (p.order == PlatoonOrderState::Driving &&
        (was.order == PlatoonOrderState::WaitingForPath || requested)) {
      Decision* e = add(*teller, DecisionKind::PlatoonPathFound);
      e->value = path_length(p.path);
      e->count = static_cast<std::uint32_t>(p.path.size());
      e->point = p.path.empty() ? p.goal : p.path.back();
    }
    if (failed && (requested || was.order == PlatoonOrderState::WaitingForPath))
      add(*teller, DecisionKind::PlatoonPathFailed)->point = p.goal;
    const bool waiting = p.motion.phase == PlatoonPhase::Waiting;
    if (waiting != (was.motion.phase == PlatoonPhase::Waiting)) {
      Decision* e = add(*teller, DecisionKind::PlatoonWait);
      e->to = waiting ? 1 : 0;
      e->point = p.motion.position;
      if (waiting) {
        // The straggler: the vehicle present farthest from its drive-to point, as the
        // platoon layer measures it.
        double farthest = -1;
        for (std::size_t k = 0; k < p.slots.size() && k < p.targets.size(); ++k) {
          const SimUnit* u = simulation.unit(p.slots[k]);
          if (u == nullptr) continue;
          const double d = glm::length(u->body.position - p.targets[k].drive_to);
          if (d <= farthest) continue;
          farthest = d;
          e->has_other = true;
          e->other = u->id;
          e->whom = u->scenario_id;
          e->point = u->body.position;
        }
        e->value = std::max(farthest, 0.0);
      }
    }
    if (p.motion.phase == PlatoonPhase::Arrived && was.motion.phase != PlatoonPhase::Arrived) {
      Decision* e = add(*teller, DecisionKind::PlatoonArrived);
      e->point = p.motion.position;
      e->value = p.motion.heading;
    }
    if (was.order == PlatoonOrderState::Driving && p.order == PlatoonOrderState::None &&
        p.motion.phase == PlatoonPhase::Arrived)
      add(*teller, DecisionKind::PlatoonDone)->point = p.motion.position;
    // The crews' private paths (seed 004's bad-position check), each for its vehicle.
    for (std::size_t k = 0; k < p.crews.size() && k < p.slots.size(); ++k) {
      const SimUnit* u = simulation.unit(p.slots[k]);
      if (u == nullptr) continue;
      const bool same_crew = k < was.crews.size() && k < was.slots.size() && was.slots[k] == p.slots[k];
      const CrewState& c = p.crews[k];
      const CrewState& b = same_crew ? was.crews[k] : blank_crew;
      // A crew checks (and asks) only while it has no request open: a new check time with
      // a request open on both sides is an answer that failed and a new request.
      const bool asked_again =
          b.private_path_pending && c.private_path_pending && !(c.last_check == b.last_check);
      if (c.private_paths != b.private_paths && !c.private_path.points().empty()) {
        Decision* e = add(*u, DecisionKind::VehiclePathFound);
        e->value = path_length(c.private_path.points());
        e->count = static_cast<std::uint32_t>(c.private_path.points().size());
        e->point = c.private_path.points().back();
      } else if (b.private_path_pending && (!c.private_path_pending || asked_again)) {
        add(*u, DecisionKind::VehiclePathFailed)->point = u->body.position;
      }
      if (c.private_path_pending && (!b.private_path_pending || asked_again) && k < p.targets.size())
        add(*u, DecisionKind::VehiclePathRequested)->point = p.targets[k].drive_to;
    }
  }
}

}  // namespace pathscope::sim
