#include "planner/sim/expectations.hpp"

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;

Expectation expect(ExpectKind kind, std::optional<double> within = std::nullopt,
                   std::vector<std::uint32_t> units = {}) {
  Expectation e;
  e.kind = kind;
  e.within = within;
  e.units = std::move(units);
  return e;
}

// A 20 x 5 field: unit 1 walks from x 1.5 to x 18.5 along y 2.5 (about 17 s at 1 m/s).
Scenario walk() {
  Scenario s = test::ascii_scenario(std::vector<std::string>(5, std::string(20, '.')));
  s.units = {unit_at(1, {1.5, 2.5}, move_to({18.5, 2.5}))};
  return s;
}

}  // namespace

TEST_CASE(
    "expectations: arrival within a deadline passes when it arrives, and fails at the deadline naming who") {
  Scenario s = walk();
  s.expect = {expect(ExpectKind::Arrive, 40.0)};
  ExpectationRun run = run_expectations(s);
  REQUIRE(run.results.size() == 1);
  CHECK(run.results[0].verdict == Verdict::Passed);
  CHECK(run.results[0].time > 15);
  CHECK(run.results[0].time < 25);
  CHECK(run.seconds == doctest::Approx(run.results[0].time));  // stopped once decided
  CHECK(run.results[0].message.find("1 unit arrived, the last at") != std::string::npos);
  CHECK_FALSE(run.failed);

  s.expect = {expect(ExpectKind::Arrive, 5.0)};
  run = run_expectations(s);
  CHECK(run.failed);
  CHECK(run.results[0].verdict == Verdict::Failed);
  CHECK(run.results[0].time == doctest::Approx(5.0));
  CHECK(run.results[0].label == "expect arrive");
  CHECK(run.results[0].message == "unit 1 had not arrived after 5.00 s");
}

TEST_CASE("expectations: passing a point, and avoiding an area, are checked along each step's move") {
  Scenario s = walk();
  Expectation passes = expect(ExpectKind::Passes, 30.0, {1});
  passes.point = {10, 3};
  passes.radius = 0.6;
  passes.name = "the middle";
  Expectation avoids_far = expect(ExpectKind::Avoids, 30.0);
  avoids_far.area = Shape{.kind = ShapeKind::Circle,
                          .points = {},
                          .min = {0, 0},
                          .max = {0, 0},
                          .center = {10, 0.5},
                          .radius = 0.5};
  Expectation avoids_path = expect(ExpectKind::Avoids);
  avoids_path.area = Shape{.kind = ShapeKind::Rect,
                           .points = {},
                           .min = {14, 2},
                           .max = {14.05, 3},
                           .center = {0, 0},
                           .radius = 0};
  s.expect = {passes, avoids_far, avoids_path};
  const ExpectationRun run = run_expectations(s);
  REQUIRE(run.results.size() == 3);
  CHECK(run.results[0].label == "expect[0] passes \"the middle\"");
  CHECK(run.results[0].verdict == Verdict::Passed);
  CHECK(run.results[0].time > 7);
  CHECK(run.results[0].time < 13);
  CHECK(run.results[1].verdict == Verdict::Passed);
  CHECK(run.results[1].time == doctest::Approx(30.0));
  // The thin rectangle is crossed within one step: found by the move line.
  CHECK(run.results[2].verdict == Verdict::Failed);
  CHECK(run.results[2].time > 11);
  CHECK(run.results[2].time < 17);
  CHECK(run.results[2].message.find("unit 1 entered the area at (14.") == 0);
  CHECK(run.failed);
}

TEST_CASE(
    "expectations: an overlap fails no_overlaps at the step it is seen, and tunnelling is checked over "
    "its window") {
  Scenario s = walk();
  // Two units standing 0.3 m apart (hard radii 0.4): with prevention and cooperation off
  // nothing separates them.
  s.units = {unit_at(1, {5, 2.5}), unit_at(2, {5.3, 2.5})};
  s.sim.prevention = false;
  s.sim.cooperation = false;
  s.expect = {expect(ExpectKind::NoOverlaps), expect(ExpectKind::NoTunnelling, 20.0)};
  const ExpectationRun run = run_expectations(s);
  REQUIRE(run.results.size() == 2);
  CHECK(run.results[0].verdict == Verdict::Failed);
  CHECK(run.results[0].time == doctest::Approx(s.sim.dt));
  CHECK(run.results[0].message == "1 pair of units overlapped (deepest 0.500 m)");
  CHECK(run.results[1].verdict == Verdict::Passed);
  CHECK(run.results[1].time == doctest::Approx(20.0));
  CHECK(run.seconds == doctest::Approx(20.0));
}

TEST_CASE("expectations: no stuck units fails at the time a unit is flagged, saying what it was doing") {
  Scenario s = test::ascii_scenario({
      "..........",
      ".####.....",
      ".#..#.....",
      ".####.....",
      "..........",
  });
  s.sim.stuck_seconds = 3;
  s.units = {unit_at(4, {2.5, 2.5}, move_to({8.5, 2.5})), unit_at(5, {6.5, 0.5}, move_to({6.5, 4.5}))};
  SUBCASE("every unit") {
    s.expect = {expect(ExpectKind::NoStuck, 20.0)};
    const ExpectationRun run = run_expectations(s);
    CHECK(run.results[0].verdict == Verdict::Failed);
    CHECK(run.results[0].time == doctest::Approx(3.0));
    CHECK(run.results[0].message.find("unit 4 stuck at 3.00 s at (2.50, 2.50)") == 0);
    CHECK(run.results[0].message.find(": failed") != std::string::npos);
    REQUIRE(run.stuck.size() == 1);
    CHECK(run.stuck[0].unit == 4);
  }
  SUBCASE("a unit that is not stuck") {
    s.expect = {expect(ExpectKind::NoStuck, 20.0, {5})};
    const ExpectationRun run = run_expectations(s);
    CHECK(run.results[0].verdict == Verdict::Passed);
    CHECK(run.results[0].time == doctest::Approx(20.0));
  }
}

TEST_CASE("expectations: a run cut short leaves a later deadline undecided, which is not a failure") {
  Scenario s = walk();
  s.expect = {expect(ExpectKind::Arrive, 40.0), expect(ExpectKind::NoOverlaps)};
  const ExpectationRun run = run_expectations(s, 2.0);
  CHECK(run.seconds == doctest::Approx(2.0));
  CHECK(run.results[0].verdict == Verdict::Undecided);
  CHECK(run.results[1].verdict == Verdict::Passed);
  CHECK_FALSE(run.failed);
  CHECK(expectation_horizon(s.expect) == 40);
  CHECK(expectation_horizon(std::vector<Expectation>{expect(ExpectKind::NoStuck)}) == kDefaultExpectSeconds);
}

TEST_CASE("expectations: an arrival without a deadline (built in code) is decided by the end of the run") {
  Scenario s = walk();
  s.expect = {expect(ExpectKind::Arrive)};
  ExpectationRun run = run_expectations(s);
  CHECK(run.results[0].verdict == Verdict::Passed);
  run = run_expectations(s, 5.0);
  CHECK(run.results[0].verdict == Verdict::Failed);
  CHECK(run.results[0].message == "unit 1 had not arrived in the run's 5.00 s");
}

TEST_CASE("expectations: a saved game runs on from where it was saved, to deadlines counted from the start") {
  Scenario s = walk();
  s.expect = {expect(ExpectKind::Arrive, 40.0)};
  Simulation a(s);
  for (int i = 0; i < 300; ++i) a.step();  // 10 s in
  Scenario saved = saved_game(a);
  saved.expect = s.expect;
  const ExpectationRun whole = run_expectations(s);
  const ExpectationRun rest = run_expectations(saved);
  CHECK(rest.error.empty());
  REQUIRE(rest.results.size() == 1);
  CHECK(rest.results[0].verdict == Verdict::Passed);
  CHECK(rest.results[0].message == whole.results[0].message);  // arrived at the same time
  CHECK(rest.seconds == whole.seconds);
  // A state that does not restore: nothing runs, and the run fails saying why.
  saved.sim_state = "{\"version\":1}";
  const ExpectationRun broken = run_expectations(saved);
  CHECK(broken.failed);
  CHECK(broken.results.empty());
  CHECK(broken.error.find("sim_state") != std::string::npos);
}

}  // namespace pathscope::sim
