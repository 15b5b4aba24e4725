#include "planner/sim/stuck_detector.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "planner/sim/simulation.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;

// Runs `seconds` of simulated time, the detector watching every step.
void run(Simulation& sim, StuckDetector& detector, double seconds) {
  const auto steps = static_cast<int>(std::lround(seconds / sim.scenario().sim.dt));
  for (int i = 0; i < steps; ++i) {
    sim.step();
    detector.observe(sim);
  }
}

// A room of walls with a one-cell gap in its floor, leading to a second room below.
std::vector<std::string> two_rooms() {
  return {
      "###########", "#.........#", "#.........#", "#####.#####", "#.........#", "#.........#", "###########",
  };
}

}  // namespace

TEST_CASE("stuck: a unit boxed in by walls is flagged at exactly the set time, with what it was doing") {
  Scenario s = test::ascii_scenario({
      "..........",
      ".####.....",
      ".#..#.....",
      ".####.....",
      "..........",
  });
  s.sim.stuck_seconds = 4;
  s.units = {unit_at(7, {2.5, 2.5}, move_to({8.5, 2.5}))};
  Simulation sim(s);
  StuckDetector detector(stuck_params(s.sim));
  run(sim, detector, 3.9);
  CHECK(detector.events().empty());
  CHECK(detector.stuck_now() == 0);
  run(sim, detector, 0.1);
  REQUIRE(detector.events().size() == 1);
  const StuckEvent& e = detector.events()[0];
  CHECK(e.unit == 7);
  CHECK(e.time == doctest::Approx(4.0));
  CHECK(e.since == 0);
  CHECK(e.position == Vec2{2.5, 2.5});
  CHECK(e.target == Vec2{8.5, 2.5});
  CHECK(e.distance == doctest::Approx(6.0));
  CHECK(e.state == MoveState::Failed);  // no path out of the box
  CHECK(e.contacts.empty());
  CHECK(detector.stuck_now() == 1);
  const std::string text = describe(e);
  CHECK(text ==
        "unit 7 stuck at 4.00 s at (2.50, 2.50), 6.00 m from its order point (8.50, 2.50), no progress "
        "since 0.00 s: failed, no collisions");
  // Flagged once while it stays stuck.
  run(sim, detector, 10);
  CHECK(detector.events().size() == 1);
}

TEST_CASE("stuck: a unit whose way through a one-cell gap is held by a stronger unit is flagged, naming it") {
  Scenario s = test::ascii_scenario(two_rooms());
  s.classes.push_back(s.classes[0]);
  s.classes[1].name = "guard";
  s.classes[1].priority = 5;
  for (TerrainType& t : s.terrains) t.cost.push_back(t.cost[0]);
  s.sim.stuck_seconds = 5;
  Unit guard = unit_at(2, {5.5, 3.5}, Order{OrderKind::Stop, {}, PatrolMode::Loop});
  guard.movement_class = 1;
  s.units = {unit_at(1, {5.5, 1.5}, move_to({5.5, 5.5})), guard};
  Simulation sim(s);
  StuckDetector detector(stuck_params(s.sim));
  run(sim, detector, 12);
  REQUIRE_FALSE(detector.events().empty());
  const StuckEvent& e = detector.events()[0];
  INFO(describe(e));
  CHECK(e.unit == 1);
  CHECK(e.time >= 5);
  CHECK(e.time <= 8);
  CHECK(e.position.y < 3);  // still in the upper room
  CHECK(e.distance > 2);
  // What it was doing: giving way to, colliding with, or remembering a rule about the guard.
  const bool names_guard = (e.yield != Yield::None && e.yield_to == 2) || e.rule != CooperationRule::None ||
                           (!e.contacts.empty() && e.contacts[0].other == 2);
  CHECK(names_guard);
  CHECK(sim.slots()[1].position == Vec2{5.5, 3.5});  // the guard held the gap
}

TEST_CASE("stuck: a long detour round a wall is progress, though the goal gets farther as the crow flies") {
  Scenario s = test::ascii_scenario({
      "........................................",
      "........................................",
      "........................................",
      "..####################################..",
      "........................................",
      "........................................",
  });
  s.sim.stuck_seconds = 3;
  s.units = {unit_at(1, {20.5, 1.5}, move_to({20.5, 5.5}))};
  Simulation sim(s);
  StuckDetector detector(stuck_params(s.sim));
  run(sim, detector, 60);
  CHECK(sim.slots()[0].arrived);
  CHECK(detector.events().empty());
}

TEST_CASE("stuck: the detector only observes: the run's hashes are the same with and without it") {
  Scenario s = test::ascii_scenario(two_rooms());
  s.units = {unit_at(1, {2.5, 1.5}, move_to({8.5, 5.5})), unit_at(2, {8.5, 5.5}, move_to({2.5, 1.5})),
             unit_at(3, {5.5, 2.5})};
  s.sim.stuck_seconds = 1;
  Simulation watched(s);
  Simulation plain(s);
  StuckDetector detector(stuck_params(s.sim));
  for (int i = 0; i < 600; ++i) {
    watched.step();
    detector.observe(watched);
    plain.step();
    REQUIRE(watched.state_hash() == plain.state_hash());
  }
  // And it is deterministic: a second watched run flags the same units at the same times.
  Simulation again(s);
  StuckDetector second(stuck_params(s.sim));
  for (int i = 0; i < 600; ++i) {
    again.step();
    second.observe(again);
  }
  REQUIRE(second.events().size() == detector.events().size());
  for (std::size_t i = 0; i < detector.events().size(); ++i) {
    CHECK(describe(second.events()[i]) == describe(detector.events()[i]));
  }
}

}  // namespace pathscope::sim
