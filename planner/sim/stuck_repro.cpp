#include "planner/sim/stuck_repro.hpp"

// Stuck-unit repros (issue "QA", after seed 004's conclusion: "testers provide lots of
// test cases, particularly instances where vehicles got stuck"). The run that found the
// stuck units is run again from its start to each repro's start step: the simulation is
// deterministic (the same states bit for bit, tested by state hash), so the saved games
// are exactly the first run's. A repro's sim_state holds the stuck detector's tracks as
// well, so that run on it flags the unit at the same simulated time as the first run.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include <glm/geometric.hpp>

namespace pathscope::sim {

namespace {

// A repro to cut: the flag and the step it starts at.
struct Planned {
  StuckEvent event;
  std::uint64_t step = 0;
};

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

}  // namespace

std::vector<StuckEvent> first_flags(std::span<const StuckEvent> events) {
  std::vector<StuckEvent> out;
  for (const StuckEvent& e : events) {
    const bool seen = std::any_of(out.begin(), out.end(), [&](const StuckEvent& o) { return o.id == e.id; });
    if (!seen) out.push_back(e);
  }
  return out;
}

std::vector<Expectation> repro_expectations(const Simulation& simulation, const StuckEvent& event) {
  const SimUnit* u = simulation.unit(event.id);
  if (u == nullptr) return {};
  const Scenario& scenario = simulation.scenario();
  const bool arrives = u->route.order.kind == OrderKind::Move || u->route.order.kind == OrderKind::Waypoints;
  // Metres of its order left, straight from point to point.
  double left = 0;
  if (arrives) {
    Vec2 at = u->body.position;
    for (std::size_t k = std::min(u->route.order_point, u->route.order.points.size());
         k < u->route.order.points.size(); ++k) {
      left += glm::length(u->route.order.points[k] - at);
      at = u->route.order.points[k];
    }
  } else {
    left = glm::length(event.target - u->body.position);
  }
  const double speed = std::max(resolve_motion(scenario.classes[u->movement_class]).speed, 1e-3);
  const double deadline =
      std::ceil((event.time + scenario.sim.stuck_seconds + 2 * left / speed) * 10 - 1e-6) / 10;
  char name[96];
  std::snprintf(name, sizeof name, "unit %u flagged stuck at %.2f s", event.unit, event.time);
  std::vector<Expectation> out;
  Expectation reach;
  reach.name = name;
  reach.units = {event.unit};
  reach.within = deadline;
  if (arrives) {
    reach.kind = ExpectKind::Arrive;
  } else {
    // A patrol never arrives: it gets past the point it was stuck before.
    reach.kind = ExpectKind::Passes;
    reach.point = event.target;
    reach.radius = std::clamp(event.distance / 2, 0.05, 1.0);
  }
  out.push_back(std::move(reach));
  Expectation free;
  free.kind = ExpectKind::NoStuck;
  free.name = name;
  free.units = {event.unit};
  free.within = deadline;
  out.push_back(std::move(free));
  return out;
}

Status make_stuck_repros(const Scenario& start, std::span<const StuckEvent> events,
                         const StuckReproParams& params, const ReproSink& emit) {
  Scenario fresh = start;
  fresh.sim_state.clear();
  Simulation simulation(std::move(fresh));
  StuckDetector detector(stuck_params(start.sim));
  if (!start.sim_state.empty()) {
    if (Status restored = restore_saved_game(simulation, detector, start.sim_state); !restored.ok())
      return restored;
  }
  const double dt = start.sim.dt;
  const std::uint64_t first = simulation.step_count();
  // At least one step back: the state of the flag's own step has the flag in it already.
  const auto back = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::llround(std::max(0.0, params.seconds_before) / dt)));
  std::vector<Planned> plan;
  for (const StuckEvent& e : first_flags(events)) {
    const auto flagged = static_cast<std::uint64_t>(std::llround(e.time / dt));
    plan.push_back(Planned{.event = e, .step = flagged > first + back ? flagged - back : first});
  }
  std::stable_sort(plan.begin(), plan.end(),
                   [](const Planned& a, const Planned& b) { return a.step < b.step; });
  for (const Planned& p : plan) {
    while (simulation.step_count() < p.step) {
      simulation.step();
      detector.observe(simulation);
    }
    std::vector<Expectation> expect = repro_expectations(simulation, p.event);
    if (expect.empty()) continue;  // not there at that step (added later)
    StuckRepro r{.event = p.event, .step = p.step, .time = simulation.time(), .scenario = {}};
    // At the run's first step the repro is what the run started from, with its state.
    r.scenario = p.step == first ? start : saved_game(simulation, detector);
    r.scenario.expect = std::move(expect);
    r.scenario.description = "Repro of \"" + start.name + "\": unit " + std::to_string(p.event.unit) +
                             " was flagged stuck at " + seconds_text(p.event.time) + "; this starts at " +
                             seconds_text(r.time) + " (step " + std::to_string(p.step) + "). " +
                             describe(p.event);
    if (Status ok = emit(std::move(r)); !ok.ok()) return ok;
  }
  return Ok{};
}

Result<std::vector<StuckRepro>> stuck_repros(const Scenario& scenario, double seconds,
                                             const StuckReproParams& params) {
  std::vector<StuckEvent> events;
  {
    Scenario fresh = scenario;
    fresh.sim_state.clear();
    Simulation simulation(std::move(fresh));
    StuckDetector detector(stuck_params(scenario.sim));
    if (!scenario.sim_state.empty()) {
      if (Status restored = restore_saved_game(simulation, detector, scenario.sim_state); !restored.ok())
        return restored.error();
    }
    const auto steps = static_cast<std::uint64_t>(std::ceil(seconds / scenario.sim.dt - 1e-9));
    for (std::uint64_t i = 0; i < steps; ++i) {
      simulation.step();
      detector.observe(simulation);
    }
    events.assign(detector.events().begin(), detector.events().end());
  }
  std::vector<StuckRepro> out;
  const Status made = make_stuck_repros(scenario, events, params, [&](StuckRepro&& r) -> Status {
    out.push_back(std::move(r));
    return Ok{};
  });
  if (!made.ok()) return made.error();
  return out;
}

}  // namespace pathscope::sim
