#include "planner/sim/stuck_detector.hpp"

// Stuck units (issue "QA", after seed 004's conclusion: testers report "instances where
// vehicles got stuck"). Progress is measured two ways, and either counts: the straight
// distance to the order point, and the length still to go along the unit's path (so a
// unit walking a long detour round a wall makes progress although it gets no closer as
// the crow flies). Both are measured against the best the unit has done for this order
// point, never reset by a new path: a unit that circles in front of a blocked gap,
// taking one avoiding path after another, gets nowhere it has not been and is found.
// (A path made longer by a change of the world counts as no progress until the unit
// gets closer than it had been.)

#include <algorithm>
#include <cstdio>

#include <glm/geometric.hpp>

namespace pathscope::sim {

namespace {

// Units that can be stuck: an order with points that is not done.
bool has_open_order(const SimUnit& u) {
  if (!u.alive || u.arrived || u.order.points.empty()) return false;
  return u.order.kind == OrderKind::Move || u.order.kind == OrderKind::Waypoints ||
         u.order.kind == OrderKind::Patrol;
}

// Metres still to go along the unit's path; -1 without one.
double route_left(const SimUnit& u) {
  if (u.path.empty() || u.waypoint >= u.path.size()) return -1;
  double left = glm::length(u.path[u.waypoint] - u.position);
  for (std::size_t i = u.waypoint + 1; i < u.path.size(); ++i) left += glm::length(u.path[i] - u.path[i - 1]);
  return left;
}

}  // namespace

StuckParams stuck_params(const SimSettings& sim) {
  return StuckParams{.seconds = sim.stuck_seconds, .progress = sim.stuck_progress};
}

const char* to_string(Yield yield) {
  switch (yield) {
    case Yield::None: return "none";
    case Yield::Wait: return "wait";
    case Yield::SlowDown: return "slow_down";
    case Yield::MoveAside: return "move_aside";
    case Yield::Return: return "return";
    case Yield::Detour: return "detour";
  }
  return "?";
}

std::string describe(const StuckEvent& e) {
  char buf[320];
  std::snprintf(
      buf, sizeof buf,
      "unit %u stuck at %.2f s at (%.2f, %.2f), %.2f m from its order point (%.2f, %.2f), no progress since "
      "%.2f s: %s",
      e.unit, e.time, e.position.x, e.position.y, e.distance, e.target.x, e.target.y, e.since,
      to_string(e.state));
  std::string out = buf;
  if (e.yield != Yield::None) {
    out += std::string(", yield ") + to_string(e.yield);
    if (e.yield_to) out += " (to unit " + std::to_string(*e.yield_to) + ")";
  }
  if (e.bridge_wait) out += ", waiting before a bridge";
  if (e.rule != CooperationRule::None) out += std::string(", last rule ") + to_string(e.rule);
  if (e.contacts.empty()) {
    out += ", no collisions";
  } else {
    out += ", collisions:";
    for (const StuckContact& c : e.contacts) {
      out += " unit " + std::to_string(c.other) + " (" + (c.hard ? "hard" : "soft") + ", " +
             (c.immediate ? "immediate" : "future") + ", " + to_string(c.state) + ", " + to_string(c.rule) +
             ")";
    }
  }
  return out;
}

void StuckDetector::observe(const Simulation& simulation) {
  const double now = simulation.time();
  const double start = std::max(0.0, now - simulation.scenario().sim.dt);
  const auto slots = simulation.slots();
  if (tracks_.size() < slots.size()) tracks_.resize(slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const SimUnit& u = slots[i];
    Track& t = tracks_[i];
    if (!has_open_order(u)) {
      t.active = false;
      t.stuck = false;
      continue;
    }
    const Vec2 target = u.order.points[std::min(u.order_point, u.order.points.size() - 1)];
    const double direct = glm::length(target - u.position);
    const double route = route_left(u);
    if (!t.active || !(t.id == u.id) || t.target != target) {
      // A new unit, order or order point: progress is measured from here, the start of
      // the step it was first seen in (so a unit stuck from the start is flagged at
      // exactly StuckParams::seconds).
      t = Track{.id = u.id,
                .active = true,
                .target = target,
                .best_direct = direct,
                .best_route = route,
                .progress_time = start,
                .stuck = false};
    }
    bool progressed = false;
    if (direct < t.best_direct - params_.progress) {
      t.best_direct = direct;
      progressed = true;
    }
    if (route >= 0 && t.best_route < 0) {
      t.best_route = route;  // its first path: the measure starts here
    } else if (route >= 0 && route < t.best_route - params_.progress) {
      t.best_route = route;
      progressed = true;
    }
    if (progressed) {
      t.progress_time = now;
      t.stuck = false;
      continue;
    }
    if (t.stuck || now - t.progress_time < params_.seconds - 1e-9) continue;
    t.stuck = true;
    StuckEvent e;
    e.id = u.id;
    e.unit = u.scenario_id;
    e.time = now;
    e.since = t.progress_time;
    e.position = u.position;
    e.target = target;
    e.distance = direct;
    e.state = u.state;
    e.yield = u.yield;
    if (u.yield != Yield::None) {
      if (const SimUnit* other = simulation.unit(u.yield_to)) e.yield_to = other->scenario_id;
    }
    e.bridge_wait = u.bridge_wait;
    for (const Memory& m : simulation.memory()) {
      if (m.a == u.id || m.b == u.id) e.rule = m.rule;
    }
    for (const Collision& c : simulation.collisions()) {
      if (!(c.a == u.id) && !(c.b == u.id)) continue;
      const SimUnit* other = simulation.unit(c.a == u.id ? c.b : c.a);
      e.contacts.push_back(StuckContact{.other = other != nullptr ? other->scenario_id : 0,
                                        .hard = c.hard,
                                        .immediate = c.immediate,
                                        .decides = c.a == u.id,
                                        .state = c.state,
                                        .rule = c.rule});
    }
    events_.push_back(std::move(e));
  }
}

std::size_t StuckDetector::stuck_now() const {
  return static_cast<std::size_t>(
      std::count_if(tracks_.begin(), tracks_.end(), [](const Track& t) { return t.active && t.stuck; }));
}

}  // namespace pathscope::sim
