#include "planner/sim/expectations.hpp"

// Regression runs (issue "QA"): a scenario states what must hold of its simulation, and
// a run checks it after every step. Units are tested by the segment they moved along in
// the step (previous -> position), so a fast unit cannot hop over a point or an area
// between two steps unseen.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <glm/geometric.hpp>

namespace pathscope::sim {

namespace {

constexpr double kTimeEps = 1e-9;

// Distance from p to the segment a-b.
double segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

// Does the segment a-b touch the area (a circle or an axis-aligned rectangle)?
bool segment_touches(const Shape& area, Vec2 a, Vec2 b) {
  if (area.kind == ShapeKind::Circle) return segment_distance(area.center, a, b) <= area.radius;
  // Slabs (Liang-Barsky): clip the segment's parameter range to the rectangle.
  double t0 = 0, t1 = 1;
  const Vec2 d = b - a;
  for (int axis = 0; axis < 2; ++axis) {
    const double lo = area.min[axis], hi = area.max[axis], p = a[axis], v = d[axis];
    if (v == 0) {
      if (p < lo || p > hi) return false;
      continue;
    }
    double ta = (lo - p) / v, tb = (hi - p) / v;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

std::string point_text(Vec2 p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.2f, %.2f)", p.x, p.y);
  return buf;
}

// "units 3, 7 and 9", at most `limit` named, then "and N more".
std::string unit_list(const std::vector<std::uint32_t>& ids) {
  constexpr std::size_t kLimit = 8;
  std::string out = ids.size() == 1 ? "unit " : "units ";
  for (std::size_t i = 0; i < ids.size() && i < kLimit; ++i) {
    if (i > 0) out += (i + 1 == ids.size() ? " and " : ", ");
    out += std::to_string(ids[i]);
  }
  if (ids.size() > kLimit) out += " and " + std::to_string(ids.size() - kLimit) + " more";
  return out;
}

bool can_arrive(const SimUnit& u) {
  return u.route.order.kind == OrderKind::Move || u.route.order.kind == OrderKind::Waypoints;
}

}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Pending: return "pending";
    case Verdict::Passed: return "passed";
    case Verdict::Failed: return "failed";
    case Verdict::Undecided: return "undecided";
  }
  return "?";
}

double expectation_horizon(std::span<const Expectation> expect) {
  double horizon = 0;
  for (const Expectation& e : expect) {
    if (e.within) horizon = std::max(horizon, *e.within);
  }
  return horizon > 0 ? horizon : kDefaultExpectSeconds;
}

ExpectationChecker::ExpectationChecker(std::vector<Expectation> expect)
    : expect_(std::move(expect)), states_(expect_.size()), results_(expect_.size()) {
  for (std::size_t i = 0; i < expect_.size(); ++i) {
    const Expectation& e = expect_[i];
    std::string label = "expect";
    if (expect_.size() > 1) label += "[" + std::to_string(i) + "]";
    label += std::string(" ") + to_string(e.kind);
    if (!e.name.empty()) label += " \"" + e.name + "\"";
    results_[i].label = std::move(label);
    results_[i].kind = e.kind;
    referee_needed_ =
        referee_needed_ || e.kind == ExpectKind::NoOverlaps || e.kind == ExpectKind::NoTunnelling;
  }
}

void ExpectationChecker::bind(const Simulation& simulation, std::size_t index) {
  State& st = states_[index];
  const Expectation& e = expect_[index];
  st.bound = true;
  if (e.units.empty()) {
    for (const SimUnit& u : simulation.slots()) {
      if (!u.alive || (e.kind == ExpectKind::Arrive && !can_arrive(u))) continue;
      st.ids.push_back(u.id);
      st.names.push_back(u.scenario_id);
    }
  } else {
    for (std::uint32_t name : e.units) {
      const SimUnit* u = simulation.find_scenario_unit(name);
      if (u == nullptr) continue;  // removed: nothing to check of it
      st.ids.push_back(u->id);
      st.names.push_back(name);
    }
  }
  st.done.assign(st.ids.size(), false);
}

void ExpectationChecker::decide(std::size_t index, Verdict verdict, double time, std::string message) {
  ExpectationResult& r = results_[index];
  r.verdict = verdict;
  r.time = time;
  r.message = std::move(message);
}

void ExpectationChecker::observe(const Simulation& simulation, const StuckDetector& detector) {
  const double now = simulation.time();
  if (referee_needed_) {
    referee_needed_ = false;
    for (std::size_t i = 0; i < expect_.size(); ++i) {
      const ExpectKind k = expect_[i].kind;
      if (results_[i].verdict == Verdict::Pending &&
          (k == ExpectKind::NoOverlaps || k == ExpectKind::NoTunnelling))
        referee_needed_ = true;
    }
    if (referee_needed_) referee_.check_step(simulation);
  }
  const RefereeCounts& counts = referee_.counts();
  const auto events = detector.events();
  for (std::size_t i = 0; i < expect_.size(); ++i) {
    if (results_[i].verdict != Verdict::Pending) continue;
    if (!states_[i].bound) bind(simulation, i);
    const Expectation& e = expect_[i];
    State& st = states_[i];
    // Checked over [0, within] only: a step that ends after the deadline is not looked at.
    const bool in_window = !e.within || now <= *e.within + kTimeEps;
    const bool deadline_reached = e.within && now >= *e.within - kTimeEps;
    switch (e.kind) {
      case ExpectKind::Arrive: {
        std::vector<std::uint32_t> waiting;
        double last = 0;
        for (std::size_t k = 0; k < st.ids.size(); ++k) {
          const SimUnit* u = simulation.unit(st.ids[k]);
          if (u == nullptr) continue;
          if (u->goal.arrived && (!e.within || u->goal.arrived_time <= *e.within + kTimeEps)) {
            last = std::max(last, u->goal.arrived_time);
          } else {
            waiting.push_back(st.names[k]);
          }
        }
        if (waiting.empty()) {
          decide(i, Verdict::Passed, now,
                 std::to_string(st.ids.size()) + (st.ids.size() == 1 ? " unit" : " units") +
                     " arrived, the last at " + seconds_text(last));
        } else if (deadline_reached) {
          decide(i, Verdict::Failed, *e.within,
                 unit_list(waiting) + " had not arrived after " + seconds_text(*e.within));
        }
        break;
      }
      case ExpectKind::Passes: {
        if (in_window) {
          for (std::size_t k = 0; k < st.ids.size(); ++k) {
            const SimUnit* u = simulation.unit(st.ids[k]);
            if (u != nullptr && !st.done[k] &&
                segment_distance(e.point, u->body.previous, u->body.position) <= e.radius) {
              st.done[k] = true;
            }
          }
        }
        std::vector<std::uint32_t> missing;
        for (std::size_t k = 0; k < st.ids.size(); ++k) {
          if (!st.done[k]) missing.push_back(st.names[k]);
        }
        char near[48];
        std::snprintf(near, sizeof near, "within %.2f m of ", e.radius);
        const std::string where = near + point_text(e.point);
        if (missing.empty()) {
          decide(i, Verdict::Passed, now, "every unit came " + where);
        } else if (deadline_reached) {
          decide(i, Verdict::Failed, *e.within,
                 unit_list(missing) + " did not come " + where + " in " + seconds_text(*e.within));
        }
        break;
      }
      case ExpectKind::NoOverlaps:
        if (in_window && counts.hard_overlaps > 0) {
          char buf[96];
          std::snprintf(buf, sizeof buf, "%llu pair%s of units overlapped (deepest %.3f m)",
                        static_cast<unsigned long long>(counts.hard_overlaps),
                        counts.hard_overlaps == 1 ? "" : "s", counts.max_overlap_m);
          decide(i, Verdict::Failed, now, buf);
        } else if (deadline_reached) {
          decide(i, Verdict::Passed, *e.within, "no hard overlaps in " + seconds_text(*e.within));
        }
        break;
      case ExpectKind::NoTunnelling:
        if (in_window && counts.tunnelled > 0) {
          decide(i, Verdict::Failed, now,
                 std::to_string(counts.tunnelled) + (counts.tunnelled == 1 ? " unit" : " units") +
                     " tunnelled through an obstacle or a unit");
        } else if (deadline_reached) {
          decide(i, Verdict::Passed, *e.within, "no tunnelling in " + seconds_text(*e.within));
        }
        break;
      case ExpectKind::NoStuck: {
        for (std::size_t k = events_seen_; k < events.size() && results_[i].verdict == Verdict::Pending;
             ++k) {
          const StuckEvent& ev = events[k];
          if (e.within && ev.time > *e.within + kTimeEps) continue;
          if (std::find(st.ids.begin(), st.ids.end(), ev.id) == st.ids.end()) continue;
          decide(i, Verdict::Failed, ev.time, describe(ev));
        }
        if (results_[i].verdict == Verdict::Pending && deadline_reached) {
          decide(i, Verdict::Passed, *e.within, "no unit stuck in " + seconds_text(*e.within));
        }
        break;
      }
      case ExpectKind::Avoids: {
        if (in_window) {
          for (std::size_t k = 0; k < st.ids.size(); ++k) {
            const SimUnit* u = simulation.unit(st.ids[k]);
            if (u != nullptr && segment_touches(e.area, u->body.previous, u->body.position)) {
              decide(i, Verdict::Failed, now,
                     "unit " + std::to_string(st.names[k]) + " entered the area at " +
                         point_text(u->body.position));
              break;
            }
          }
        }
        if (results_[i].verdict == Verdict::Pending && deadline_reached) {
          decide(i, Verdict::Passed, *e.within, "no unit entered the area in " + seconds_text(*e.within));
        }
        break;
      }
    }
  }
  events_seen_ = events.size();
}

void ExpectationChecker::finish(const Simulation& simulation) {
  const double now = simulation.time();
  for (std::size_t i = 0; i < expect_.size(); ++i) {
    if (results_[i].verdict != Verdict::Pending) continue;
    const Expectation& e = expect_[i];
    switch (e.kind) {
      case ExpectKind::NoOverlaps:
        decide(i, Verdict::Passed, now, "no hard overlaps in the run's " + seconds_text(now));
        break;
      case ExpectKind::NoTunnelling:
        decide(i, Verdict::Passed, now, "no tunnelling in the run's " + seconds_text(now));
        break;
      case ExpectKind::NoStuck:
        decide(i, Verdict::Passed, now, "no unit stuck in the run's " + seconds_text(now));
        break;
      case ExpectKind::Avoids:
        decide(i, Verdict::Passed, now, "no unit entered the area in the run's " + seconds_text(now));
        break;
      case ExpectKind::Arrive:
      case ExpectKind::Passes:
        if (e.kind == ExpectKind::Arrive && !e.within) {
          // Only a scenario built in code lacks the deadline (files require it).
          std::vector<std::uint32_t> waiting;
          for (std::size_t k = 0; k < states_[i].ids.size(); ++k) {
            const SimUnit* u = simulation.unit(states_[i].ids[k]);
            if (u != nullptr && !u->goal.arrived) waiting.push_back(states_[i].names[k]);
          }
          decide(i, Verdict::Failed, now,
                 unit_list(waiting) + " had not arrived in the run's " + seconds_text(now));
        } else if (e.within) {
          decide(i, Verdict::Undecided, now,
                 "the run ended at " + seconds_text(now) + ", before the deadline of " +
                     seconds_text(*e.within));
        } else {
          std::vector<std::uint32_t> missing;
          for (std::size_t k = 0; k < states_[i].ids.size(); ++k) {
            if (!states_[i].done[k]) missing.push_back(states_[i].names[k]);
          }
          decide(i, Verdict::Failed, now,
                 unit_list(missing) + " did not come within the radius of " + point_text(e.point) +
                     " in the run's " + seconds_text(now));
        }
        break;
    }
  }
}

bool ExpectationChecker::decided() const {
  return std::all_of(results_.begin(), results_.end(),
                     [](const ExpectationResult& r) { return r.verdict != Verdict::Pending; });
}

bool ExpectationChecker::failed() const { return first_failure() != nullptr; }

const ExpectationResult* ExpectationChecker::first_failure() const {
  for (const ExpectationResult& r : results_) {
    if (r.verdict == Verdict::Failed) return &r;
  }
  return nullptr;
}

ExpectationRun run_expectations(Scenario scenario, double max_seconds) {
  if (max_seconds <= 0) max_seconds = expectation_horizon(scenario.expect);
  const auto last_step = static_cast<std::uint64_t>(std::ceil(max_seconds / scenario.sim.dt - 1e-9));
  StuckDetector detector(stuck_params(scenario.sim));
  ExpectationChecker checker(scenario.expect);
  const std::string saved_state = std::move(scenario.sim_state);
  scenario.sim_state.clear();
  Simulation simulation(std::move(scenario));
  ExpectationRun out;
  if (!saved_state.empty()) {
    if (const Status restored = restore_saved_game(simulation, detector, saved_state); !restored.ok()) {
      out.error = restored.error().to_string();
      out.failed = true;
      return out;
    }
  }
  while (simulation.step_count() < last_step && !checker.decided()) {
    simulation.step();
    detector.observe(simulation);
    checker.observe(simulation, detector);
  }
  checker.finish(simulation);
  out.seconds = simulation.time();
  out.results.assign(checker.results().begin(), checker.results().end());
  out.stuck.assign(detector.events().begin(), detector.events().end());
  out.failed = checker.failed();
  return out;
}

}  // namespace pathscope::sim
