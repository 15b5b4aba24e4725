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
//
// The length left along a path is the distance to the unit's waypoint plus the path's
// segments from there, summed front to back. Walking every path each step was half the
// cost of recording a step at 1,000 units, so each slot keeps its path's segment lengths
// and their sums from each point to the end, made once per new path (a new path is
// noticed by its revision, UnitPath, and then by comparing its bits with the copy kept,
// or the caller says which changed).
// lead + after[waypoint] adds the same numbers in another order, so it may differ from
// the front-to-back sum in the last bits: recursive summation of n positive terms, in
// any order, is within gamma_(n-1) = (n-1) u / (1 - (n-1) u) of the exact sum (Higham,
// "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 4.2), so the two
// differ by at most about (n-1) eps times the sum; the margin taken is 4 (n+1) eps
// times it. A comparison with a threshold is decided on the estimate when the threshold
// lies outside that margin, and otherwise with the front-to-back sums; a best length
// kept is the estimate and where it was measured, summed front to back when it must be
// exact (its path goes, a comparison is too close, state_json). The flags and the saved
// tracks are bit for bit those of the walk along every path.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "planner/sim/json_text.hpp"

namespace pathscope::sim {

namespace {

using Json = nlohmann::json;

// The version of the detector's part of a saved game.
constexpr int kDetectorStateVersion = 1;
// Numbers per track: generation, active, target x, y, best direct, best route, progress
// time, stuck.
constexpr std::size_t kTrackFields = 8;

// Units that can be stuck: an order with points that is not done (a unit beside its
// taken goal is done: it waits for the goal to be free).
bool has_open_order(const SimUnit& u) {
  if (!u.alive || u.goal.arrived || u.goal.taken || u.route.order.points.empty()) return false;
  return u.route.order.kind == OrderKind::Move || u.route.order.kind == OrderKind::Waypoints ||
         u.route.order.kind == OrderKind::Patrol;
}

// Metres still to go from `lead` metres before path point `waypoint`: the segments after
// it added front to back, one by one (the order every best length is defined by).
double sum_front_to_back(std::span<const double> segment, std::size_t waypoint, double lead) {
  double left = lead;
  for (std::size_t i = waypoint + 1; i < segment.size(); ++i) left += segment[i];
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

void StuckDetector::cache_path(std::size_t slot, const SimUnit& unit, bool compare) {
  RouteCache& c = routes_[slot];
  const UnitPath& path = unit.route.path;
  if (c.valid && c.unit == unit.id && c.revision == path.revision()) return;  // the same path
  if (c.valid && (!compare || (c.path.size() == path.size() &&
                               (path.empty() ||
                                std::memcmp(c.path.data(), path.data(), path.size() * sizeof(Vec2)) == 0)))) {
    c.unit = unit.id;
    c.revision = path.revision();
    return;
  }
  settle(slot);  // its best length was measured on the path going
  c.valid = true;
  c.unit = unit.id;
  c.revision = path.revision();
  c.path = path.points();
  const std::size_t n = path.size();
  c.segment.assign(n, 0.0);
  for (std::size_t i = 1; i < n; ++i) c.segment[i] = glm::length(path[i] - path[i - 1]);
  segments_measured_ += n > 0 ? n - 1 : 0;
  c.after.assign(n, 0.0);
  for (std::size_t i = n; i-- > 1;) c.after[i - 1] = c.segment[i] + c.after[i];
}

void StuckDetector::settle(std::size_t slot) {
  Track& t = tracks_[slot];
  if (!t.best_pending) return;
  t.best_route = sum_front_to_back(routes_[slot].segment, t.best_waypoint, t.best_lead);
  t.best_pending = false;
  t.best_error = 0;
}

bool StuckDetector::shorter_by_progress(std::size_t slot, RouteLeft& route) {
  const Track& t = tracks_[slot];
  const double progress = params_.progress;
  // The threshold best_route - progress lies in [low, high] (one value when exact).
  const double low = t.best_pending ? (t.best_route - t.best_error) - progress : t.best_route - progress;
  const double high = t.best_pending ? (t.best_route + t.best_error) - progress : low;
  const double error = route.exact ? 0.0 : route.error;
  if (route.estimate + error < low) return true;
  if (route.estimate - error >= high) return false;
  // Too close to tell: both lengths summed front to back, as they are defined.
  settle(slot);
  if (!route.exact) {
    route.estimate = sum_front_to_back(routes_[slot].segment, route.waypoint, route.lead);
    route.exact = true;
    route.error = 0;
  }
  return route.estimate < tracks_[slot].best_route - progress;
}

StuckView stuck_view(const Simulation& simulation) {
  return StuckView{simulation.time(),     simulation.scenario().sim.dt, simulation.slots(),
                   simulation.restores(), simulation.collisions(),      simulation.memory()};
}

void StuckDetector::observe(const StuckView& view) { observe_slots(view, nullptr); }

void StuckDetector::observe(const Simulation& simulation) { observe_slots(stuck_view(simulation), nullptr); }

void StuckDetector::observe(const Simulation& simulation, std::span<const std::uint8_t> path_changed) {
  observe_slots(stuck_view(simulation), &path_changed);
}

void StuckDetector::observe_slots(const StuckView& view, const std::span<const std::uint8_t>* path_changed) {
  const double now = view.now;
  const double start = std::max(0.0, now - view.dt);
  const auto slots = view.slots;
  // The live unit `id` names, or null.
  const auto unit = [&](UnitId id) -> const SimUnit* {
    if (id.index >= slots.size() || !slots[id.index].alive || slots[id.index].id.generation != id.generation)
      return nullptr;
    return &slots[id.index];
  };
  if (tracks_.size() < slots.size()) tracks_.resize(slots.size());
  if (routes_.size() < slots.size()) routes_.resize(slots.size());
  if (view.restores != restores_) {
    // The units were replaced: a revision no longer tells paths apart; compare the bits.
    for (RouteCache& c : routes_) c.revision = ~std::uint64_t{0};
    restores_ = view.restores;
  }
  if (path_changed) {
    // A changed path: its cache goes (once a best length measured on it is settled).
    for (std::size_t i = 0; i < routes_.size(); ++i) {
      if (routes_[i].valid && (i >= path_changed->size() || (*path_changed)[i] != 0)) {
        settle(i);
        routes_[i].valid = false;
      }
    }
  }
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const SimUnit& u = slots[i];
    Track& t = tracks_[i];
    if (!has_open_order(u)) {
      t.active = false;
      t.stuck = false;
      continue;
    }
    const Vec2 target = u.route.order.points[std::min(u.route.order_point, u.route.order.points.size() - 1)];
    const double direct = glm::length(target - u.body.position);
    // Metres still to go along its path; -1 without one.
    RouteLeft route;
    if (!u.route.path.empty() && u.route.waypoint < u.route.path.size()) {
      cache_path(i, u, path_changed == nullptr);
      const RouteCache& c = routes_[i];
      const std::size_t terms = u.route.path.size() - u.route.waypoint;  // the lead and the segments after it
      route.waypoint = u.route.waypoint;
      route.lead = glm::length(u.route.path[u.route.waypoint] - u.body.position);
      route.estimate = route.lead + c.after[u.route.waypoint];
      // With one segment left or none the two orders add the same numbers the same way.
      route.exact = terms <= 2;
      route.error = route.exact
                        ? 0.0
                        : 4.0 * double(terms + 1) * std::numeric_limits<double>::epsilon() * route.estimate;
    }
    // Keeps `route` as the best length so far.
    const auto keep_best = [&t, &route] {
      t.best_route = route.estimate;
      t.best_pending = route.estimate >= 0 && !route.exact;
      t.best_waypoint = route.waypoint;
      t.best_lead = route.lead;
      t.best_error = route.error;
    };
    if (!t.active || !(t.id == u.id) || t.target != target) {
      // A new unit, order or order point: progress is measured from here, the start of
      // the step it was first seen in (so a unit stuck from the start is flagged at
      // exactly StuckParams::seconds).
      t = Track{.id = u.id,
                .active = true,
                .target = target,
                .best_direct = direct,
                .progress_time = start,
                .stuck = false};
      keep_best();
    }
    bool progressed = false;
    if (direct < t.best_direct - params_.progress) {
      t.best_direct = direct;
      progressed = true;
    }
    if (route.estimate >= 0 && t.best_route < 0) {
      keep_best();  // its first path: the measure starts here
    } else if (route.estimate >= 0 && shorter_by_progress(i, route)) {
      keep_best();
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
    e.position = u.body.position;
    e.target = target;
    e.distance = direct;
    e.state = u.route.state;
    e.yield = u.coop.yield;
    if (u.coop.yield != Yield::None) {
      if (const SimUnit* other = unit(u.coop.yield_to)) e.yield_to = other->scenario_id;
    }
    e.bridge_wait = u.waits.bridge;
    for (const Memory& m : view.memory) {
      if (m.a == u.id || m.b == u.id) e.rule = m.rule;
    }
    for (const Collision& c : view.collisions) {
      if (!(c.a == u.id) && !(c.b == u.id)) continue;
      const SimUnit* other = unit(c.a == u.id ? c.b : c.a);
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

std::string StuckDetector::state_json() const {
  Json tracks = Json::array();
  for (std::size_t i = 0; i < tracks_.size(); ++i) {
    const Track& t = tracks_[i];
    const double best_route =
        t.best_pending ? sum_front_to_back(routes_[i].segment, t.best_waypoint, t.best_lead) : t.best_route;
    tracks.push_back(Json::array({t.id.generation, t.active ? 1 : 0, t.target.x, t.target.y, t.best_direct,
                                  best_route, t.progress_time, t.stuck ? 1 : 0}));
  }
  Json state;
  state["version"] = kDetectorStateVersion;
  state["tracks"] = std::move(tracks);
  return state.dump();
}

Status StuckDetector::restore_state(std::string_view text, std::size_t slots) {
  const std::string where = "sim_state.stuck_detector";
  const ParsedJson parsed = parse_json_text(text);
  if (!parsed.ok) return make_error(ErrorCode::Parse, where, "not JSON: " + parsed.error);
  const Json& state = parsed.value;
  if (!state.is_object()) return make_error(ErrorCode::Value, where, "expected an object");
  const auto version = state.find("version");
  if (version == state.end() || !version->is_number_integer() ||
      version->get<std::int64_t>() != kDetectorStateVersion) {
    return make_error(ErrorCode::Value, where + ".version",
                      "expected " + std::to_string(kDetectorStateVersion) +
                          (version == state.end() ? ", found none" : ", found " + version->dump()));
  }
  const auto list = state.find("tracks");
  if (list == state.end() || !list->is_array())
    return make_error(ErrorCode::Value, where + ".tracks", "expected a list");
  if (list->size() > slots) {
    return make_error(ErrorCode::Value, where + ".tracks",
                      std::to_string(list->size()) + " tracks for " + std::to_string(slots) + " slots");
  }
  std::vector<Track> tracks(list->size());
  for (std::size_t k = 0; k < list->size(); ++k) {
    const Json& v = (*list)[k];
    const std::string at = where + ".tracks[" + std::to_string(k) + "]";
    if (!v.is_array() || v.size() != kTrackFields) {
      return make_error(ErrorCode::Value, at,
                        "expected a list of " + std::to_string(kTrackFields) + " numbers");
    }
    auto flag = [&](std::size_t i) { return v[i].is_number_unsigned() && v[i].get<std::uint64_t>() <= 1; };
    if (!v[0].is_number_unsigned() || v[0].get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max())
      return make_error(ErrorCode::Value, at, "item 0 (generation): expected a whole number >= 0");
    if (!flag(1)) return make_error(ErrorCode::Value, at, "item 1 (active): expected 0 or 1");
    if (!flag(7)) return make_error(ErrorCode::Value, at, "item 7 (stuck): expected 0 or 1");
    for (std::size_t i = 2; i < 7; ++i) {
      if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
        return make_error(ErrorCode::Value, at, "item " + std::to_string(i) + ": expected a number");
    }
    Track& t = tracks[k];
    t.id = UnitId{static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(v[0].get<std::uint64_t>())};
    t.active = v[1].get<std::uint64_t>() == 1;
    t.target = Vec2{v[2].get<double>(), v[3].get<double>()};
    t.best_direct = v[4].get<double>();
    t.best_route = v[5].get<double>();
    t.progress_time = v[6].get<double>();
    t.stuck = v[7].get<std::uint64_t>() == 1;
    if (t.best_direct < 0) return make_error(ErrorCode::Value, at, "item 4 (best distance): negative");
    if (t.best_route < 0 && t.best_route != -1)
      return make_error(ErrorCode::Value, at, "item 5 (best route): negative (only -1, no path yet)");
  }
  tracks_ = std::move(tracks);
  routes_.clear();
  events_.clear();
  return Ok{};
}

Scenario saved_game(const Simulation& simulation, const StuckDetector& detector) {
  Scenario s = saved_game(simulation);
  Json state = Json::parse(s.sim_state);
  state["stuck_detector"] = Json::parse(detector.state_json());
  s.sim_state = state.dump();
  return s;
}

Status restore_saved_game(Simulation& simulation, StuckDetector& detector, std::string_view sim_state) {
  // The detector's part is read first, so that neither changes on an error in either.
  StuckDetector restored(detector.params());
  bool has_tracks = false;
  // (Not JSON: Simulation::restore_state says so, naming the field.)
  if (const ParsedJson parsed = parse_json_text(sim_state); parsed.ok && parsed.value.is_object()) {
    const Json& state = parsed.value;
    if (const auto it = state.find("stuck_detector"); it != state.end()) {
      const auto units = state.find("units");
      const std::size_t slots = units != state.end() && units->is_array() ? units->size() : 0;
      if (Status ok = restored.restore_state(it->dump(), slots); !ok.ok()) return ok;
      has_tracks = true;
    }
  }
  if (Status ok = simulation.restore_state(sim_state); !ok.ok()) return ok;
  if (has_tracks) {
    detector = std::move(restored);
  } else {
    detector = StuckDetector(detector.params());
  }
  return Ok{};
}

std::size_t StuckDetector::stuck_now() const {
  return static_cast<std::size_t>(
      std::count_if(tracks_.begin(), tracks_.end(), [](const Track& t) { return t.active && t.stuck; }));
}

}  // namespace pathscope::sim
