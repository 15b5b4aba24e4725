#include "planner/sim/stuck_repro.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/expectations.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

Scenario load(const std::string& relative) {
  const auto s = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/" + relative);
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? std::string() : s.error().to_string()));
  return *s;
}

// Through the file format, as a repro goes.
Scenario round_trip(const Scenario& s) {
  const auto loaded = parse_scenario(scenario_to_json(s), "repro.json");
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? std::string() : loaded.error().to_string()));
  return *loaded;
}

const ExpectationResult* result_of(const ExpectationRun& run, ExpectKind kind) {
  for (const ExpectationResult& r : run.results) {
    if (r.kind == kind) return &r;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("stuck repros: the saved game from 10 s before flags the same unit at the same time, and fails") {
  const Scenario s = load("tests/data/stuck_gap.json");
  const auto repros = stuck_repros(s, 30, StuckReproParams{.seconds_before = 10});
  REQUIRE(repros.ok());
  REQUIRE(repros->size() == 1);
  const StuckRepro& r = repros->front();
  CHECK(r.event.unit == 1);
  CHECK(r.step > 0);
  CHECK(r.time == doctest::Approx(r.event.time - 10));
  CHECK_FALSE(r.scenario.sim_state.empty());
  REQUIRE(r.scenario.expect.size() == 2);
  CHECK(r.scenario.expect[0].kind == ExpectKind::Arrive);
  CHECK(r.scenario.expect[0].units == std::vector<std::uint32_t>{1});
  CHECK(*r.scenario.expect[0].within > r.event.time);
  CHECK(r.scenario.expect[1].kind == ExpectKind::NoStuck);
  // Reopened, it runs on from the saved step and gets stuck again, at the same time.
  const ExpectationRun run = run_expectations(round_trip(r.scenario));
  CHECK(run.error.empty());
  REQUIRE_FALSE(run.stuck.empty());
  CHECK(run.stuck.front().unit == 1);
  CHECK(run.stuck.front().time == r.event.time);
  CHECK(run.stuck.front().since == r.event.since);
  CHECK(run.stuck.front().position == r.event.position);
  CHECK(run.failed);
  const ExpectationResult* arrive = result_of(run, ExpectKind::Arrive);
  REQUIRE(arrive != nullptr);
  CHECK(arrive->verdict == Verdict::Failed);
  CHECK(arrive->message.find("unit 1 had not arrived") != std::string::npos);
  const ExpectationResult* no_stuck = result_of(run, ExpectKind::NoStuck);
  REQUIRE(no_stuck != nullptr);
  CHECK(no_stuck->verdict == Verdict::Failed);
  CHECK(no_stuck->time == r.event.time);
}

TEST_CASE("stuck repros: clamped at the run's start, the repro is the scenario it started from") {
  const Scenario s = load("tests/data/expect_boxed_in.json");  // flagged at 4 s
  const auto repros = stuck_repros(s, 20, StuckReproParams{.seconds_before = 10});
  REQUIRE(repros.ok());
  REQUIRE(repros->size() == 1);
  const StuckRepro& r = repros->front();
  CHECK(r.step == 0);
  CHECK(r.scenario.sim_state.empty());
  CHECK(r.scenario.units == s.units);
  const ExpectationRun run = run_expectations(round_trip(r.scenario));
  REQUIRE_FALSE(run.stuck.empty());
  CHECK(run.stuck.front().unit == 1);
  CHECK(run.stuck.front().time == r.event.time);
  CHECK(run.failed);
}

TEST_CASE(
    "stuck repros: a patrol never arrives, so its repro expects it past the point it was stuck before") {
  Scenario s = test::ascii_scenario({
      "..........",
      ".####.....",
      ".#..#.....",
      ".####.....",
      "..........",
  });
  s.sim.stuck_seconds = 4;
  Faction blue;
  blue.name = "blue";
  s.factions = {blue};
  s.units = {
      test::unit_at(7, {2.5, 2.5}, Order{OrderKind::Patrol, {{8.5, 2.5}, {8.5, 0.5}}, PatrolMode::Loop})};
  s.units[0].faction = "blue";
  const auto repros = stuck_repros(s, 8, StuckReproParams{.seconds_before = 2});
  REQUIRE(repros.ok());
  REQUIRE(repros->size() == 1);
  const StuckRepro& r = repros->front();
  CHECK(r.step == 60);  // 4 s - 2 s
  REQUIRE(r.scenario.expect.size() == 2);
  const Expectation& past = r.scenario.expect[0];
  CHECK(past.kind == ExpectKind::Passes);
  CHECK(past.point == Vec2{8.5, 2.5});
  CHECK(past.units == std::vector<std::uint32_t>{7});
  // T + stuck_seconds + 2 x 6 m at 1 m/s.
  CHECK(*past.within == doctest::Approx(4 + 4 + 12));
  const ExpectationRun run = run_expectations(round_trip(r.scenario));
  REQUIRE_FALSE(run.stuck.empty());
  CHECK(run.stuck.front().time == r.event.time);
  const ExpectationResult* passes = result_of(run, ExpectKind::Passes);
  REQUIRE(passes != nullptr);
  CHECK(passes->verdict == Verdict::Failed);
  CHECK(passes->message.find("unit 7") != std::string::npos);
}

TEST_CASE("stuck repros: each unit once, at its first flag, from a saved game too") {
  Scenario s = load("maps/sim_bridge.json");
  s.expect.clear();
  // A saved game 5 s in: the repros start from it, not from the scenario's start.
  Simulation a(s);
  StuckDetector da(stuck_params(s.sim));
  for (int i = 0; i < 150; ++i) {
    a.step();
    da.observe(a);
  }
  const Scenario saved = round_trip(saved_game(a, da));
  const auto repros = stuck_repros(saved, 40, StuckReproParams{.seconds_before = 3});
  REQUIRE(repros.ok());
  REQUIRE(repros->size() >= 2);
  std::vector<std::uint32_t> units;
  for (const StuckRepro& r : *repros) {
    CAPTURE(r.event.unit);
    CHECK(std::find(units.begin(), units.end(), r.event.unit) == units.end());
    units.push_back(r.event.unit);
    CHECK(r.step >= 150);
    CHECK(r.time >= r.event.time - 3 - 1e-9);
  }
  // Ordered by start step.
  CHECK(std::is_sorted(repros->begin(), repros->end(),
                       [](const StuckRepro& x, const StuckRepro& y) { return x.step < y.step; }));
  // The latest repro reproduces its flag.
  const StuckRepro& last = repros->back();
  const ExpectationRun run = run_expectations(round_trip(last.scenario));
  const auto hit = std::find_if(run.stuck.begin(), run.stuck.end(),
                                [&](const StuckEvent& e) { return e.unit == last.event.unit; });
  REQUIRE(hit != run.stuck.end());
  CHECK(hit->time == last.event.time);
  CHECK(run.failed);
}

TEST_CASE("stuck detector: a saved game flags units as the uninterrupted run does") {
  Scenario s = load("maps/sim_bridge.json");
  s.expect.clear();
  std::mt19937_64 rng(7);
  std::size_t compared = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const int save_at = std::uniform_int_distribution<int>(200, 900)(rng);
    CAPTURE(save_at);
    Simulation a(s);
    StuckDetector da(stuck_params(s.sim));
    for (int i = 0; i < save_at; ++i) {
      a.step();
      da.observe(a);
    }
    const std::size_t before = da.events().size();
    const Scenario saved = round_trip(saved_game(a, da));
    Scenario fresh = saved;
    fresh.sim_state.clear();
    Simulation b(fresh);
    StuckDetector db(stuck_params(s.sim));
    REQUIRE(restore_saved_game(b, db, saved.sim_state).ok());
    CHECK(db.stuck_now() == da.stuck_now());
    for (int i = 0; i < 900; ++i) {
      a.step();
      da.observe(a);
      b.step();
      db.observe(b);
    }
    const auto after = da.events().subspan(before);
    compared += after.size();
    REQUIRE(db.events().size() == after.size());
    for (std::size_t k = 0; k < after.size(); ++k) {
      CAPTURE(k);
      CHECK(db.events()[k].unit == after[k].unit);
      CHECK(db.events()[k].time == after[k].time);
      CHECK(db.events()[k].since == after[k].since);
      CHECK(db.events()[k].position == after[k].position);
    }
    CHECK(db.stuck_now() == da.stuck_now());
  }
  CHECK(compared > 0);  // flags came after the save points
}

TEST_CASE("stuck detector: a broken detector state is refused, naming the field, and nothing changes") {
  Scenario s = load("maps/sim_bridge.json");
  Simulation a(s);
  StuckDetector da(stuck_params(s.sim));
  for (int i = 0; i < 400; ++i) {
    a.step();
    da.observe(a);
  }
  const std::string good = saved_game(a, da).sim_state;
  Simulation b(s);
  StuckDetector db(stuck_params(s.sim));
  const std::uint64_t hash = b.state_hash();
  auto refused = [&](std::string text) {
    const Status st = restore_saved_game(b, db, text);
    REQUIRE_FALSE(st.ok());
    CHECK(b.state_hash() == hash);
    CHECK(b.step_count() == 0);
    CHECK(db.stuck_now() == 0);
    return st.error().where;
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    return text;
  };
  CHECK(refused(replaced("\"version\":1},\"units\"", "\"version\":2},\"units\"")) ==
        "sim_state.stuck_detector.version");
  CHECK(refused(replaced("\"tracks\":[[", "\"tracks\":[[1,")) == "sim_state.stuck_detector.tracks[0]");
  CHECK(refused(replaced("\"tracks\":[[", "\"tracks\":[[0,1,0,0,0,0,0,0],[")) ==
        "sim_state.stuck_detector.tracks");
  CHECK(refused(replaced("\"stuck_detector\":{", "\"stuck_detector\":3,\"x\":{")) ==
        "sim_state.stuck_detector");
  // A good detector state with a broken simulation state: neither is taken.
  CHECK(refused(replaced("\"memory\"", "\"memoir\"")) == "sim_state");
  // Saved games without the detector's part (older files) restore, the detector afresh.
  Simulation c(s);
  StuckDetector dc(stuck_params(s.sim));
  CHECK(restore_saved_game(c, dc, a.state_json()).ok());
  CHECK(c.state_hash() == a.state_hash());
  CHECK(dc.stuck_now() == 0);
}

}  // namespace pathscope::sim
