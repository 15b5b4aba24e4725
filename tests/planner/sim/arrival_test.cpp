// Arrival (planner/sim/arrival.cpp): "arrived" means at the goal. A unit pushed off its
// goal is no longer arrived and walks back once it has stood still and the goal is free;
// a unit beside a goal another unit holds is not arrived either (SimUnit::goal_taken).
// Goals are measured by the referee (sim_referee.hpp), not by the flag.

#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "planner/sim/sim_cases.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/stuck_detector.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;
using test_support::add_guard_class;
using test_support::open_rows;
using test_support::step_checked;
using test_support::teleport;

double goal_distance(const SimUnit& u) { return glm::length(u.route.order.points.back() - u.body.position); }

// The unit's arrival tolerance (half its hard radius, at most 0.5 m).
double tolerance(const Simulation& sim, const SimUnit& u) {
  return arrival_tolerance(resolve_motion(sim.scenario().classes[u.movement_class]));
}

// Steps until `done` holds or `seconds` pass, `referee` (if given) checking each step;
// true if it held.
template <class Done>
bool run_until(Simulation& sim, double seconds, Done done, SimReferee* referee = nullptr) {
  const auto steps = static_cast<int>(seconds / sim.scenario().sim.dt);
  for (int i = 0; i < steps; ++i) {
    sim.step();
    if (referee) referee->check_step(sim);
    if (done()) return true;
  }
  return false;
}

// The flags say what the positions say: arrived only at the goal, a taken goal only off it.
void check_flags(const Simulation& sim) {
  for (const SimUnit& u : sim.slots()) {
    if (!u.alive) continue;
    if (u.goal.arrived) {
      REQUIRE(u.route.state == MoveState::ReachedGoal);
      REQUIRE(goal_distance(u) <= tolerance(sim, u));
      REQUIRE(u.goal.arrived_time >= 0);
    }
    if (u.goal.taken) {
      REQUIRE_FALSE(u.goal.arrived);
      REQUIRE(goal_distance(u) > tolerance(sim, u));
    }
  }
}

}  // namespace

TEST_SUITE("simulation") {
  TEST_CASE("arrival: a unit moved off its goal after arriving is no longer arrived, and walks back") {
    Scenario s = test::ascii_scenario(open_rows(20, 10));
    const Vec2 goal{12.5, 5.5};
    s.units = {unit_at(1, {3.5, 5.5}, move_to(goal))};
    Simulation sim(s);
    SimReferee referee;
    REQUIRE(run_until(
        sim, 30, [&] { return sim.slots()[0].goal.arrived; }, &referee));
    const double first = sim.slots()[0].goal.arrived_time;
    CHECK(sim.slots()[0].body.position == goal);
    for (int i = 0; i < 30; ++i) step_checked(sim, referee);
    teleport(sim, 0, goal + Vec2{0.0, 1.5});
    step_checked(sim, referee);
    CHECK_FALSE(sim.slots()[0].goal.arrived);
    CHECK_FALSE(sim.slots()[0].goal.taken);
    CHECK(sim.arrived_count() == 0);
    // It stands still a moment first, then walks back and arrives again.
    for (int i = 0; i < 15; ++i) step_checked(sim, referee);
    CHECK(sim.slots()[0].route.state == MoveState::ReachedGoal);
    CHECK(run_until(
        sim, 10, [&] { return sim.slots()[0].goal.arrived; }, &referee));
    const SimUnit& u = sim.slots()[0];
    CHECK(goal_distance(u) <= tolerance(sim, u));
    CHECK(u.body.position == goal);
    CHECK(u.goal.arrived_time == first);  // the first arrival
    CHECK(referee.counts().tunnelled == 0);
  }

  TEST_CASE(
      "arrival: a unit pushed off its goal by a unit put there waits while the goal is taken, then walks "
      "back") {
    // A guard (higher class priority) is put down on the arrived unit's spot: cooperation
    // has the lower one step out of the overlap, for good. While the guard stands there
    // the goal is taken; once it has gone, the unit walks back.
    Scenario s = test::ascii_scenario(open_rows(24, 12));
    add_guard_class(s);
    const Vec2 goal{12.5, 6.5};
    s.units = {unit_at(1, {3.5, 6.5}, move_to(goal))};
    Simulation sim(s);
    REQUIRE(run_until(sim, 30, [&] { return sim.slots()[0].goal.arrived; }));
    const double tight = tolerance(sim, sim.slots()[0]);
    CHECK(tight == doctest::Approx(0.2));  // half of 0.4 m
    Unit guard = unit_at(2, goal + Vec2{0.15, 0.1});
    guard.movement_class = 1;
    const UnitId g = sim.add_unit(guard);
    // A detector quick to flag: 1 s without progress.
    StuckDetector detector(StuckParams{.seconds = 1, .progress = 0.5});
    for (int i = 0; i < 5 * 30; ++i) {
      sim.step();
      detector.observe(sim);
      check_flags(sim);
    }
    // The guard was put down overlapping it: the referee watches from here, when they
    // stand apart.
    SimReferee referee(RefereeSettings{.goal_tolerance_m = tight});
    referee.check_step(sim);
    CHECK(referee.counts().hard_overlaps == 0);
    const SimUnit& u = sim.slots()[0];
    CHECK(goal_distance(u) > tight);
    CHECK_FALSE(u.goal.arrived);
    CHECK(u.goal.taken);  // the guard stands on it
    CHECK(sim.goal_taken_count() == 1);
    CHECK(detector.stuck_now() == 0);  // waiting for its goal is not being stuck
    CHECK(detector.events().empty());
    CHECK(referee.goal_errors(sim).at_goal == 0);
    // The guard goes; the unit walks back.
    REQUIRE(sim.give_order(std::vector<UnitId>{g}, move_to({20.5, 2.5})).ok());
    CHECK(run_until(sim, 20, [&] {
      referee.check_step(sim);
      check_flags(sim);
      return sim.slots()[0].goal.arrived;
    }));
    CHECK(goal_distance(sim.slots()[0]) <= tight);
    CHECK_FALSE(sim.slots()[0].goal.taken);
    CHECK(referee.goal_errors(sim).at_goal == 1);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().tunnelled == 0);
  }

  TEST_CASE(
      "arrival: a unit sent onto a guard standing there stops beside it, not arrived, and walks in later") {
    Scenario s = test::ascii_scenario(open_rows(30, 16));
    add_guard_class(s);
    const Vec2 goal{20.5, 8.5};
    s.units.push_back(unit_at(1, {4.5, 8.0}, move_to(goal)));
    Unit guard = unit_at(2, goal);
    guard.movement_class = 1;
    s.units.push_back(guard);
    Simulation sim(s);
    CHECK(run_until(sim, 40, [&] { return sim.slots()[0].route.state == MoveState::ReachedGoal; }));
    for (int i = 0; i < 30; ++i) sim.step();
    const SimUnit& u = sim.slots()[0];
    CHECK(u.route.state == MoveState::ReachedGoal);
    CHECK_FALSE(u.goal.arrived);
    CHECK(u.goal.taken);
    CHECK(u.goal.arrived_time < 0);
    CHECK(goal_distance(u) <= 3 * 0.4 + 0.02);
    CHECK(sim.arrived_count() == 0);
    const double t = sim.time();
    REQUIRE(sim.remove_unit(sim.slots()[1].id));
    CHECK(run_until(sim, 10, [&] { return sim.slots()[0].goal.arrived; }));
    CHECK(sim.slots()[0].body.position == goal);
    CHECK(sim.slots()[0].goal.arrived_time > t);  // when it got there
  }

  TEST_CASE("arrival: a unit off its goal does not walk back while a unit under way passes by it") {
    // A patrols nothing; B patrols a short beat 1.1 m beside where A was pushed to, under
    // way all the time. A waits for the traffic, then walks back once B has stopped.
    Scenario s = test::ascii_scenario(open_rows(24, 12));
    const Vec2 goal{12.5, 6.7};
    s.units = {unit_at(1, {3.5, 6.7}, move_to(goal))};
    Simulation sim(s);
    REQUIRE(run_until(sim, 30, [&] { return sim.slots()[0].goal.arrived; }));
    teleport(sim, 0, {12.5, 5.2});
    Unit walker = unit_at(2, {11.5, 4.1});
    walker.order = Order{OrderKind::Patrol, {{11.5, 4.1}, {13.5, 4.1}}, PatrolMode::BackForth};
    const UnitId b = sim.add_unit(walker);
    int still_moving = 0;
    for (int i = 0; i < 10 * 30; ++i) {
      sim.step();
      const SimUnit& a = sim.slots()[0];
      const SimUnit* w = sim.unit(b);
      REQUIRE(w != nullptr);
      still_moving += w->route.state == MoveState::Moving ? 1 : 0;
      CHECK_FALSE(a.goal.walking_back);
      CHECK_FALSE(a.goal.arrived);
    }
    CHECK(still_moving > 9 * 30);  // the traffic went on all the while
    REQUIRE(sim.give_order(std::vector<UnitId>{b}, Order{OrderKind::Stop, {}, PatrolMode::Loop}).ok());
    bool walked = false;
    CHECK(run_until(sim, 10, [&] {
      walked = walked || sim.slots()[0].goal.walking_back;
      return sim.slots()[0].goal.arrived;
    }));
    CHECK(walked);
    CHECK(sim.slots()[0].body.position == goal);
  }

  TEST_CASE("arrival: a saved game with units off their goals runs on exactly") {
    Scenario s = test::ascii_scenario(open_rows(24, 12));
    add_guard_class(s);
    const Vec2 goal{12.5, 6.5};
    s.units = {unit_at(1, {3.5, 6.5}, move_to(goal))};
    Simulation sim(s);
    REQUIRE(run_until(sim, 30, [&] { return sim.slots()[0].goal.arrived; }));
    Unit guard = unit_at(2, goal + Vec2{0.15, 0.1});
    guard.movement_class = 1;
    const UnitId g = sim.add_unit(guard);
    for (int i = 0; i < 60; ++i) sim.step();
    REQUIRE(sim.slots()[0].goal.taken);
    REQUIRE(sim.give_order(std::vector<UnitId>{g}, move_to({20.5, 2.5})).ok());
    for (int i = 0; i < 10; ++i) sim.step();
    const std::string state = sim.state_json();
    CHECK(nlohmann::json::parse(state).contains("goals"));
    Simulation copy(s);
    const Status restored = copy.restore_state(state);
    REQUIRE_MESSAGE(restored.ok(), (restored.ok() ? "" : restored.error().to_string()));
    CHECK(copy.state_json() == state);
    for (int i = 0; i < 10 * 30; ++i) {
      sim.step();
      copy.step();
      REQUIRE(sim.state_hash() == copy.state_hash());
      REQUIRE(sim.slots()[0].goal.arrived == copy.slots()[0].goal.arrived);
      REQUIRE(sim.slots()[0].goal.taken == copy.slots()[0].goal.taken);
    }
    CHECK(copy.slots()[0].goal.arrived);
  }

  TEST_CASE("arrival: the circle of 100 ends with every unit at its goal, by the referee") {
    Simulation sim(circle_case(100));
    const double tight = tolerance(sim, sim.slots()[0]);
    CHECK(tight == 0.25);  // half of 0.5 m
    SimReferee referee(RefereeSettings{.goal_tolerance_m = tight});
    double first_all = -1;  // when the flags first said every unit was there
    for (int i = 0; i < 300 * 30; ++i) {
      sim.step();
      referee.check_step(sim);
      check_flags(sim);
      if (sim.arrived_count() == sim.ordered_count()) {
        first_all = sim.time();
        break;
      }
    }
    REQUIRE(first_all > 0);
    const GoalErrors e = referee.goal_errors(sim);
    CHECK(e.ordered == 100);
    CHECK(e.at_goal == 100);
    CHECK(e.max_goal_error_m <= tight);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().tunnelled == 0);
    // Left standing, they stay there.
    for (int i = 0; i < 10 * 30; ++i) sim.step();
    CHECK(referee.goal_errors(sim).at_goal == 100);
    CHECK(sim.arrived_count() == 100);
  }
}

}  // namespace pathscope::sim
