// Seed 000's reactive avoidance (potential fields, steering arcs) on top of the
// cooperation rules: each mode judged by what the units then do, by the referee.

#include <doctest/doctest.h>

#include "planner/sim/sim_cases.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

namespace {

struct Outcome {
  std::size_t arrived = 0;
  std::size_t ordered = 0;
  double seconds = 0;
  RefereeCounts referee;
  GoalErrors goals;
};

Outcome run_circle(int units, AvoidanceMode mode, double seconds) {
  Scenario s = circle_case(units);
  s.sim.avoidance = mode;
  Simulation sim(s);
  SimReferee referee;
  const auto steps = static_cast<std::uint64_t>(seconds / s.sim.dt);
  while (sim.step_count() < steps && sim.arrived_count() < sim.ordered_count()) {
    sim.step();
    referee.check_step(sim);
  }
  return {sim.arrived_count(), sim.ordered_count(), sim.time(), referee.counts(), referee.goal_errors(sim)};
}

}  // namespace

TEST_CASE("reactive avoidance: a circle of 40 swapping places arrives with every mode, apart and at goal") {
  for (const AvoidanceMode mode :
       {AvoidanceMode::None, AvoidanceMode::PotentialField, AvoidanceMode::SteeringArcs}) {
    CAPTURE(static_cast<int>(mode));
    const Outcome o = run_circle(40, mode, 120);
    MESSAGE("mode ", static_cast<int>(mode), ": ", o.arrived, " of ", o.ordered, " in ", o.seconds,
            " s, overlaps ", o.referee.hard_overlaps, ", at goal ", o.goals.at_goal_pct, "%");
    CHECK(o.arrived == o.ordered);
    CHECK(o.referee.hard_overlaps == 0);
    CHECK(o.referee.tunnelled == 0);
    CHECK(o.goals.at_goal_pct == 100.0);
  }
}

}  // namespace pathscope::sim
