// Held-up units finding a way round the units in their way (planner/sim/detours.cpp).

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;
using test_support::add_guard_class;
using test_support::open_rows;

// Runs until every ordered unit has arrived or `seconds` pass; the seconds it took, or -1.
double run_until_arrived(Simulation& sim, double seconds) {
  const auto steps = static_cast<int>(std::ceil(seconds / sim.scenario().sim.dt));
  for (int i = 0; i < steps; ++i) {
    sim.step();
    if (sim.arrived_count() == sim.ordered_count()) return sim.time();
  }
  return -1;
}

// Every pair of live units apart by at least their hard radii (less a contact's slack).
bool no_hard_overlap(const Simulation& sim) {
  const auto& u = sim.slots();
  for (std::size_t i = 0; i < u.size(); ++i) {
    for (std::size_t j = i + 1; j < u.size(); ++j) {
      if (!u[i].alive || !u[j].alive) continue;
      const double r = resolve_motion(sim.scenario().classes[u[i].movement_class]).hard_radius +
                       resolve_motion(sim.scenario().classes[u[j].movement_class]).hard_radius;
      if (glm::length(u[i].body.position - u[j].body.position) < r - 1e-6) return false;
    }
  }
  return true;
}

// A unit ordered east through a wall of standing guards across its way, from y0 to y1.
Scenario guard_wall(double y0, double y1) {
  Scenario s = test::ascii_scenario(open_rows(30, 16));
  add_guard_class(s);
  std::uint32_t id = 1;
  s.units.push_back(unit_at(id++, {4.5, 8.0}, move_to({25.5, 8.0})));
  for (double y = y0; y <= y1 + 1e-9; y += 0.82) {
    Unit g = unit_at(id++, {15.0, y});
    g.movement_class = 1;
    s.units.push_back(g);
  }
  return s;
}

}  // namespace

TEST_CASE(
    "detours: a unit held up by a wall of guards walks round its end, and keeps its path without detours") {
  for (const bool detours : {true, false}) {
    CAPTURE(detours);
    Scenario s = guard_wall(5.0, 11.0);
    s.sim.detours = detours;
    Simulation sim(s);
    const double arrived = run_until_arrived(sim, 90);
    const SimUnit& u = sim.slots()[0];
    if (detours) {
      CHECK(arrived > 0);
      CHECK(sim.counters().repaths >= 1);
      // It went round an end of the wall: past y = 5 - 0.8 or y = 11 + 0.8 at some point
      // (the wall is the only way it could be held up).
      CHECK(glm::length(u.body.position - Vec2{25.5, 8.0}) < 0.5);
    } else {
      CHECK(arrived < 0);
      CHECK(u.body.position.x < 15.0);  // still before the wall
    }
    CHECK(no_hard_overlap(sim));
  }
}

TEST_CASE("detours: the way round keeps clear of every unit's hard shape where it stood") {
  Scenario s = guard_wall(4.0, 12.0);
  Simulation sim(s);
  // Where the guards stand when the step that finds the way begins (they may have been
  // pushed a little meanwhile).
  std::vector<Vec2> guards;
  int steps = 0;
  while (sim.counters().repaths == 0 && steps < 30 * 60) {
    guards.clear();
    for (std::size_t i = 1; i < sim.slots().size(); ++i) guards.push_back(sim.slots()[i].body.position);
    sim.step();
    ++steps;
  }
  REQUIRE(sim.counters().repaths == 1);
  const SimUnit& u = sim.slots()[0];
  // The new path: from where the unit stands round the wall's end to the order point.
  REQUIRE(u.route.path.size() >= 2);
  CHECK(u.route.path.back() == Vec2{25.5, 8.0});
  double lowest = INFINITY, highest = -INFINITY;
  for (const Vec2& g : guards) {
    lowest = std::min(lowest, g.y);
    highest = std::max(highest, g.y);
  }
  Vec2 from = u.body.position;
  bool round_an_end = false;
  for (const Vec2& p : u.route.path) {
    for (const Vec2& g : guards) CHECK(std::sqrt(distance_sq_to_segment(g, from, p)) >= 0.8);
    round_an_end = round_an_end || p.y < lowest - 0.8 || p.y > highest + 0.8;
    from = p;
  }
  CHECK(round_an_end);
}

TEST_CASE("detours: every unit of a circle of 40 reaches its antipode, sooner than without detours") {
  double with = -1, without = -1;
  for (const bool detours : {true, false}) {
    Scenario s = circle_case(40);
    s.sim.detours = detours;
    Simulation sim(s);
    (detours ? with : without) = run_until_arrived(sim, 240);
    CHECK(sim.arrived_count() == 40);
    CHECK(no_hard_overlap(sim));
  }
  // Without detours the units held up in the middle wait for the knot there to untie
  // (about 82 s against 56).
  CHECK(with > 0);
  CHECK(without > 0);
  CHECK(with < 0.8 * without);
}

TEST_CASE("detours: the same circle twice gives the same state hash at every step") {
  Scenario s = circle_case(24);
  Simulation a(s), b(s);
  for (int i = 0; i < 1800; ++i) {
    a.step();
    b.step();
    REQUIRE(a.state_hash() == b.state_hash());
  }
  CHECK(a.counters().repaths > 0);
}

}  // namespace pathscope::sim

namespace pathscope::sim {

TEST_CASE("detours: two groups of 10 crossing through a gap all arrive, none left behind the wall") {
  // A unit pushed back through the gap past its path (its next point across the wall's
  // corner) asks for a new path rather than walking to its cell's centre and back.
  Simulation sim(crossing_case(10));
  const double t = run_until_arrived(sim, 150);
  CHECK(t > 0);
  CHECK(sim.arrived_count() == 20);
  CHECK(no_hard_overlap(sim));
}

}  // namespace pathscope::sim

namespace pathscope::sim {

TEST_CASE("detours: a unit ordered onto a guard standing there stops beside it, its goal taken") {
  for (const bool detours : {true, false}) {
    CAPTURE(detours);
    Scenario s = test::ascii_scenario(open_rows(30, 16));
    add_guard_class(s);
    s.units.push_back(unit_at(1, {4.5, 8.0}, move_to({20.5, 8.5})));
    Unit guard = unit_at(2, {20.5, 8.5});
    guard.movement_class = 1;
    s.units.push_back(guard);
    s.sim.detours = detours;
    Simulation sim(s);
    // Never arrived: it cannot get to its goal (arrived means at the goal).
    CHECK(run_until_arrived(sim, 40) < 0);
    const SimUnit& u = sim.slots()[0];
    CHECK_FALSE(u.goal.arrived);
    if (detours) {
      // Its order done beside the goal the guard holds.
      CHECK(u.route.state == MoveState::ReachedGoal);
      CHECK(u.goal.taken);
      CHECK(sim.goal_taken_count() == 1);
      CHECK(glm::length(u.body.position - Vec2{20.5, 8.5}) <= 3 * 0.4 + 0.02);
    } else {
      CHECK(u.route.state != MoveState::ReachedGoal);
      CHECK_FALSE(u.goal.taken);
    }
    CHECK(glm::length(sim.slots()[1].body.position - Vec2{20.5, 8.5}) < 0.5);  // the guard stays
  }
}

}  // namespace pathscope::sim
