#include "planner/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/scenario/scenario_validate.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/stuck_detector.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/world/bridge_reservations.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

// An open field of `w` x `h` one-metre cells with units of class "unit" (radius 0.4).
Scenario field(const std::vector<std::string>& rows) { return test::ascii_scenario(rows); }

using test::move_to;
using test::unit_at;
using test_support::open_rows;
using test_support::step_checked;

// The deepest hard overlap among all pairs (brute force).
double deepest_overlap(const Simulation& sim) {
  double worst = 0;
  const auto slots = sim.slots();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    for (std::size_t j = i + 1; j < slots.size(); ++j) {
      if (!slots[i].alive || !slots[j].alive) continue;
      const Motion mi = resolve_motion(sim.scenario().classes[slots[i].movement_class]);
      const Motion mj = resolve_motion(sim.scenario().classes[slots[j].movement_class]);
      worst = std::max(worst, mi.hard_radius + mj.hard_radius -
                                  glm::length(slots[i].body.position - slots[j].body.position));
    }
  }
  return worst;
}

// Adds class 1, "boss": class 0 with priority 5 (the same terrain costs).
void add_boss_class(Scenario& s) { test_support::add_class_like_first(s, "boss", 5); }

// A corridor one cell wide and 20 long between walls.
std::vector<std::string> corridor_rows() {
  return {
      "####################",
      "....................",
      "####################",
  };
}

// Runs `steps` steps and lists the order points unit 0 heads for, in turn.
std::vector<std::size_t> order_points_in_turn(Simulation& sim, int steps) {
  std::vector<std::size_t> seen;
  for (int i = 0; i < steps; ++i) {
    sim.step();
    const SimUnit& u = sim.slots()[0];
    if (seen.empty() || seen.back() != u.route.order_point) seen.push_back(u.route.order_point);
  }
  return seen;
}

// Runs `steps` steps, `referee` (if given) checking each.
void run(Simulation& sim, int steps, SimReferee* referee = nullptr) {
  for (int i = 0; i < steps; ++i) {
    sim.step();
    if (referee) referee->check_step(sim);
  }
}

// Runs `steps` steps, `detector` and `referee` (if given) observing each; true if some
// step handled a collision by `rule`.
bool runs_into(Simulation& sim, int steps, CooperationRule rule, StuckDetector* detector = nullptr,
               SimReferee* referee = nullptr) {
  bool seen = false;
  for (int i = 0; i < steps; ++i) {
    sim.step();
    if (detector) detector->observe(sim);
    if (referee) referee->check_step(sim);
    for (const Collision& c : sim.collisions()) seen = seen || c.rule == rule;
  }
  return seen;
}

// A mover and a still unit, the mover in the first slot or (still_first) in the second.
std::vector<Unit> mover_and_still(bool still_first, Unit mover, Unit still) {
  return still_first ? std::vector<Unit>{still, mover} : std::vector<Unit>{mover, still};
}

}  // namespace

TEST_CASE("Simulation::create refuses an invalid scenario naming the field, and places a valid one's units") {
  Scenario s = field(open_rows(10, 10));
  s.factions = {Faction{}};
  s.factions[0].name = "blue";
  s.units.push_back(unit_at(1, Vec2{2.5, 2.5}));
  s.units.push_back(unit_at(2, Vec2{6.5, 6.5}));
  for (Unit& u : s.units) u.faction = "blue";
  const Result<std::unique_ptr<Simulation>> made = Simulation::create(s);
  REQUIRE_MESSAGE(made.ok(), (made.ok() ? std::string() : made.error().to_string()));
  CHECK((*made)->slots().size() == 2);
  CHECK((*made)->find_scenario_unit(2)->body.position == Vec2{6.5, 6.5});

  Scenario bad_dt = s;
  bad_dt.sim.dt = 0;
  const auto refused_dt = Simulation::create(bad_dt);
  REQUIRE_FALSE(refused_dt.ok());
  CHECK(refused_dt.error().where == "sim.dt");

  Scenario bad_class = s;
  bad_class.units[1].movement_class = 7;
  const auto refused_class = Simulation::create(bad_class);
  REQUIRE_FALSE(refused_class.ok());
  CHECK(refused_class.error().where.find("units[1]") != std::string::npos);
}

TEST_CASE("a unit with a move order waits for its path, follows it and reaches its goal") {
  Scenario s = field({
      "..........",
      "..######..",
      "..........",
  });
  s.units = {unit_at(1, {0.5, 0.5}, move_to({9.5, 2.5}))};
  Simulation sim(s);
  SimReferee referee;
  CHECK(sim.slots()[0].route.state == MoveState::WaitingForPath);
  step_checked(sim, referee);
  CHECK(sim.slots()[0].route.state == MoveState::Moving);
  CHECK(sim.slots()[0].route.path.size() >= 2);
  run(sim, 30 * 30, &referee);
  const SimUnit& u = sim.slots()[0];
  CHECK(u.route.state == MoveState::ReachedGoal);
  CHECK(u.goal.arrived);
  CHECK(u.body.position == Vec2{9.5, 2.5});
  CHECK(u.body.speed == 0);
  CHECK(sim.arrived_count() == 1);
  CHECK(referee.counts().tunnelled == 0);
}

TEST_CASE("waypoints are visited in order and patrols wrap or turn back") {
  Scenario s = field(open_rows(20, 20));
  const std::vector<Vec2> points = {{15.5, 2.5}, {15.5, 15.5}, {2.5, 15.5}};
  SUBCASE("waypoints") {
    s.units = {unit_at(1, {2.5, 2.5}, Order{OrderKind::Waypoints, points, PatrolMode::Loop})};
    Simulation sim(s);
    const std::vector<std::size_t> seen = order_points_in_turn(sim, 60 * 30);
    CHECK(seen == std::vector<std::size_t>{0, 1, 2});
    CHECK(sim.slots()[0].goal.arrived);
    CHECK(sim.slots()[0].body.position == points.back());
  }
  SUBCASE("loop") {
    s.units = {unit_at(1, {2.5, 2.5}, Order{OrderKind::Patrol, points, PatrolMode::Loop})};
    Simulation sim(s);
    const std::vector<std::size_t> seen = order_points_in_turn(sim, 120 * 30);
    REQUIRE(seen.size() >= 5);
    CHECK(std::vector<std::size_t>(seen.begin(), seen.begin() + 5) ==
          std::vector<std::size_t>{0, 1, 2, 0, 1});
    CHECK_FALSE(sim.slots()[0].goal.arrived);  // patrols never arrive
  }
  SUBCASE("back and forth") {
    s.units = {unit_at(1, {2.5, 2.5}, Order{OrderKind::Patrol, points, PatrolMode::BackForth})};
    Simulation sim(s);
    const std::vector<std::size_t> seen = order_points_in_turn(sim, 120 * 30);
    REQUIRE(seen.size() >= 5);
    CHECK(std::vector<std::size_t>(seen.begin(), seen.begin() + 5) ==
          std::vector<std::size_t>{0, 1, 2, 1, 0});
  }
}

TEST_CASE("predicted positions are the moves the unit then makes") {
  Scenario s = field({
      "..............................",
      "..............................",
      "......######..................",
      "..............................",
  });
  s.units = {unit_at(1, {0.5, 0.5}, move_to({29.5, 3.5}))};
  Simulation sim(s);
  run(sim, 2);
  for (int round = 0; round < 8; ++round) {
    const PredictedList predicted = sim.slots()[0].route.predicted;
    REQUIRE(predicted.size() >= 10);
    for (std::size_t k = 0; k < 10; ++k) {
      sim.step();
      const SimUnit& u = sim.slots()[0];
      CHECK(u.body.position == predicted[k].position);  // bit for bit
      CHECK(u.body.heading == predicted[k].heading);
      CHECK(sim.time() == doctest::Approx(predicted[k].time));
    }
  }
}

TEST_CASE("the same scenario gives the same state hash at every step") {
  Scenario s = circle_case(40);
  Simulation a(s), b(s);
  for (int i = 0; i < 300; ++i) {
    a.step();
    b.step();
    REQUIRE(a.state_hash() == b.state_hash());
  }
  // And a change shows in the hash.
  Scenario t = s;
  t.units[3].position.x += 1e-9;
  Simulation c(t);
  c.step();
  Simulation d(s);
  d.step();
  CHECK(c.state_hash() != d.state_hash());
}

TEST_CASE("unit ids are stable: a removed unit's id never names the unit in its slot") {
  Scenario s = field(open_rows(10, 10));
  s.units = {unit_at(1, {1.5, 1.5}), unit_at(2, {5.5, 5.5})};
  Simulation sim(s);
  const UnitId first = sim.slots()[0].id;
  CHECK(sim.remove_unit(first));
  CHECK_FALSE(sim.remove_unit(first));
  CHECK(sim.unit(first) == nullptr);
  const UnitId again = sim.add_unit(unit_at(3, {8.5, 8.5}));
  CHECK(again.index == first.index);
  CHECK(again.generation != first.generation);
  CHECK(sim.unit(again) != nullptr);
  CHECK(sim.unit(first) == nullptr);
  CHECK(sim.unit_count() == 2);
  CHECK(sim.find_scenario_unit(3)->id == again);
}

TEST_CASE("a malformed order is refused, naming the field") {
  Scenario s = field(open_rows(10, 10));
  s.units = {unit_at(1, {1.5, 1.5})};
  Simulation sim(s);
  const UnitId id = sim.slots()[0].id;
  auto r = sim.give_order(std::span(&id, 1), Order{OrderKind::Patrol, {{1, 1}}, PatrolMode::Loop});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().where == "order.points");
  r = sim.give_order(std::span(&id, 1), move_to({50, 1}));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().where == "order.points[0]");
  r = sim.give_order(std::span(&id, 1), move_to({5, 5}));
  REQUIRE(r.ok());
  CHECK(r.value() == 1);
  CHECK(sim.slots()[0].route.state == MoveState::WaitingForPath);
}

TEST_CASE("an order to an unreachable point fails and the unit stands") {
  Scenario s = field({
      ".....#....",
      ".....#....",
      ".....#....",
  });
  s.units = {unit_at(1, {0.5, 0.5}, move_to({8.5, 1.5}))};
  Simulation sim(s);
  run(sim, 5);
  CHECK(sim.slots()[0].route.state == MoveState::Failed);
  CHECK(sim.slots()[0].body.position == Vec2{0.5, 0.5});
}

TEST_CASE("a fast unit hops over another with the discrete check and not with the continuous one") {
  // One step is longer than unit 2 is wide: the discrete check looks only where a move
  // ends, so unit 1 may land on the far side (where it lands depends on the blocker's
  // place: at some places it lands inside it and walks out).
  Scenario u = field(open_rows(14, 3));
  u.classes[0].speed = 90;  // 3 m per step
  u.classes[0].acceleration = 100000;
  u.classes[0].turn_rate = 1000;
  u.sim.cooperation = false;
  u.sim.prevention = false;
  int hops = 0;
  for (const double x : {4.5, 5.0, 5.5, 6.0, 6.5, 7.0}) {
    u.units = {unit_at(1, {0.5, 1.5}, move_to({13.5, 1.5})), unit_at(2, {x, 1.5})};
    for (const bool continuous : {false, true}) {
      Scenario t = u;
      t.sim.continuous = continuous;
      Simulation sim(t);
      SimReferee referee;
      run(sim, 60, &referee);
      if (continuous) {
        CHECK(referee.counts().tunnelled == 0);  // it stops at the contact (and may slide round)
        CHECK(deepest_overlap(sim) <= 1e-9);
      } else {
        CHECK(sim.slots()[0].goal.arrived);  // it always gets past, one way or the other
        hops += static_cast<int>(referee.counts().tunnelled);
      }
    }
  }
  CHECK(hops >= 2);  // cleanly over it (a landing inside it is an overlap instead)
}

TEST_CASE("fast units crossing do not pass through each other's moves between two steps") {
  // 30 m per step: two units may each be clear of where the other stands and still cross
  // its move, the two taken as simultaneous straight lines (the referee's reading). Both
  // groups of the crossing case at 900 m/s, judged by the referee. With potential fields,
  // the walls that push are those within what a unit senses, clipped to the world (not a
  // box of a million cells at this speed).
  for (const AvoidanceMode mode : {AvoidanceMode::None, AvoidanceMode::PotentialField}) {
    CAPTURE(static_cast<int>(mode));
    Scenario s = crossing_case(10, 4);
    for (MovementClass& c : s.classes) c.speed = 900;
    s.sim.avoidance = mode;
    Simulation sim(s);
    SimReferee referee;
    for (int i = 0; i < 600 && sim.arrived_count() < sim.ordered_count(); ++i) {
      sim.step();
      referee.check_step(sim);
    }
    CHECK(sim.arrived_count() > 0);  // under way: a crossing through a 4 m gap takes longer than 20 s
    CHECK(referee.counts().tunnelled == 0);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().inside_walls == 0);
  }
}

TEST_CASE("collision prevention leaves no hard overlap on random dense set-ups") {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 10; ++round) {
    Scenario s = field(open_rows(30, 30));
    std::uniform_real_distribution<double> c(8, 22);
    // About one unit per 2 square metres: many start overlapping.
    for (std::uint32_t i = 0; i < 80; ++i) s.units.push_back(unit_at(i + 1, {c(rng), c(rng)}));
    // Half of them walk across the crowd.
    for (std::size_t i = 0; i < s.units.size(); i += 2) s.units[i].order = move_to({c(rng), c(rng)});
    Simulation sim(s);
    run(sim, 90);
    CHECK(deepest_overlap(sim) <= 1e-6);
    for (int i = 0; i < 60; ++i) {
      sim.step();
      REQUIRE(deepest_overlap(sim) <= 1e-6);
    }
  }
}

TEST_CASE("cooperation on two units") {
  // Case 3 is the mover's to decide whichever of the two a collision lists first: each
  // set-up runs with the mover in the first slot, then with the still unit there.
  SUBCASE("case 3.1: a still unit on a higher mover's path moves aside and comes back") {
    for (const bool still_first : {false, true}) {
      CAPTURE(still_first);
      const std::size_t mover = still_first ? 1 : 0, still = 1 - mover;
      Scenario s = field(open_rows(20, 7));
      s.units =
          mover_and_still(still_first, unit_at(1, {1.5, 3.5}, move_to({18.5, 3.5})), unit_at(2, {9.5, 3.5}));
      Simulation sim(s);
      SimReferee referee;
      bool moved_aside = false;
      double max_away = 0;
      for (int i = 0; i < 30 * 30; ++i) {
        step_checked(sim, referee);
        const SimUnit& b = sim.slots()[still];
        moved_aside = moved_aside || b.coop.yield == Yield::MoveAside;
        max_away = std::max(max_away, glm::length(b.body.position - Vec2{9.5, 3.5}));
        for (const Collision& c : sim.collisions()) {
          if (c.rule == CooperationRule::MoveAside) CHECK(c.a == sim.slots()[mover].id);
          CHECK(c.rule != CooperationRule::Pause);  // a still unit is never paused
        }
      }
      CHECK(moved_aside);
      CHECK(max_away >= 0.7);
      CHECK(sim.slots()[mover].goal.arrived);
      CHECK(glm::length(sim.slots()[still].body.position - Vec2{9.5, 3.5}) < 0.05);  // back home
      CHECK(referee.counts().hard_overlaps == 0);
    }
  }
  SUBCASE("case 3.2: a lower mover goes round a higher still unit") {
    for (const bool still_first : {false, true}) {
      CAPTURE(still_first);
      const std::size_t mover = still_first ? 1 : 0, still = 1 - mover;
      Scenario s = field(open_rows(20, 7));
      add_boss_class(s);
      s.units =
          mover_and_still(still_first, unit_at(1, {1.5, 3.5}, move_to({18.5, 3.5})), unit_at(2, {9.5, 3.5}));
      s.units[still].movement_class = 1;
      Simulation sim(s);
      SimReferee referee;
      CHECK(runs_into(sim, 30 * 30, CooperationRule::Avoid, nullptr, &referee));
      CHECK(sim.slots()[mover].goal.arrived);
      CHECK(sim.slots()[still].body.position == Vec2{9.5, 3.5});  // the higher one never moved
      CHECK(referee.counts().hard_overlaps == 0);
    }
  }
  SUBCASE("case 3.3: in a corridor the higher mover pushes the lower one along its path") {
    for (const bool still_first : {false, true}) {
      CAPTURE(still_first);
      const std::size_t mover = still_first ? 1 : 0, still = 1 - mover;
      Scenario s = field(corridor_rows());
      s.units =
          mover_and_still(still_first, unit_at(1, {0.5, 1.5}, move_to({14.5, 1.5})), unit_at(2, {6.5, 1.5}));
      Simulation sim(s);
      SimReferee referee;
      CHECK(runs_into(sim, 40 * 30, CooperationRule::Push, nullptr, &referee));
      CHECK(sim.slots()[mover].goal.arrived);
      CHECK(sim.slots()[still].body.position.x > 14.5);  // pushed on ahead of it
      CHECK(referee.counts().hard_overlaps == 0);
    }
  }
  SUBCASE("case 3.4: in a corridor a lower mover stops before a higher still unit") {
    for (const bool still_first : {false, true}) {
      CAPTURE(still_first);
      const std::size_t mover = still_first ? 1 : 0, still = 1 - mover;
      Scenario s = field(corridor_rows());
      add_boss_class(s);
      s.units =
          mover_and_still(still_first, unit_at(1, {0.5, 1.5}, move_to({14.5, 1.5})), unit_at(2, {6.5, 1.5}));
      s.units[still].movement_class = 1;
      Simulation sim(s);
      SimReferee referee;
      StuckDetector detector(stuck_params(s.sim));
      CHECK(runs_into(sim, 20 * 30, CooperationRule::Repath, &detector, &referee));
      CHECK_FALSE(sim.slots()[mover].goal.arrived);
      CHECK(sim.slots()[still].body.position == Vec2{6.5, 1.5});
      CHECK(referee.counts().hard_overlaps == 0);
      CHECK(detector.stuck_now() == 1);  // and the stuck detector sees it
      CHECK(detector.is_stuck(sim.slots()[mover].id));
    }
  }
  SUBCASE("case 4: two units meeting head-on both arrive; the lower one gives way") {
    Scenario s = field(open_rows(24, 7));
    s.units = {unit_at(1, {1.5, 3.5}, move_to({22.5, 3.5})), unit_at(2, {22.5, 3.5}, move_to({1.5, 3.5}))};
    Simulation sim(s);
    SimReferee referee;
    bool gave_way = false;
    for (int i = 0; i < 40 * 30; ++i) {
      step_checked(sim, referee);
      for (const Collision& c : sim.collisions()) {
        if (c.rule == CooperationRule::Pause || c.rule == CooperationRule::SlowDown ||
            c.rule == CooperationRule::MoveAside) {
          gave_way = true;
          CHECK(c.a == sim.slots()[0].id);  // the higher one decides
        }
      }
    }
    CHECK(gave_way);
    CHECK(sim.arrived_count() == 2);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().tunnelled == 0);
  }
  SUBCASE("case 1: two still overlapping units are moved apart") {
    Scenario s = field(open_rows(10, 10));
    s.units = {unit_at(1, {5.0, 5.0}), unit_at(2, {5.3, 5.0})};
    Simulation sim(s);
    SimReferee referee;
    run(sim, 60, &referee);
    CHECK(deepest_overlap(sim) <= 1e-6);
  }
}

TEST_CASE("a higher priority unit gets through a corridor against a column: the push passes along it") {
  // A corridor 2 m wide and 16 m long between two open rooms; the boss goes west, a
  // column of five goes east into it.
  std::vector<std::string> rows(9, std::string(30, '.'));
  for (int x = 7; x < 23; ++x) {
    for (int y = 0; y < 9; ++y) {
      if (y < 3 || y > 4) rows[std::size_t(y)][std::size_t(x)] = '#';
    }
  }
  Scenario s = field(rows);
  add_boss_class(s);
  s.units = {unit_at(1, {27.5, 4.0}, move_to({1.5, 4.0}))};
  s.units[0].movement_class = 1;
  for (std::uint32_t k = 0; k < 5; ++k)
    s.units.push_back(unit_at(2 + k, {2.5 + 1.2 * k, 4.0}, move_to({28.5 - 1.2 * k, 4.0})));
  Simulation sim(s);
  SimReferee referee;
  for (int i = 0; i < 120 * 30 && sim.arrived_count() < 6; ++i) {
    step_checked(sim, referee);
    REQUIRE(deepest_overlap(sim) <= 1e-6);
  }
  CHECK(sim.arrived_count() == 6);
  CHECK(referee.counts().tunnelled == 0);
}

TEST_CASE("one platoon at a time on a bridge: the other waits before it, then crosses") {
  // A chasm across the middle, a bridge 2 m wide over it; one unit of each side.
  std::vector<std::string> rows(9, std::string(30, '.'));
  for (int y = 0; y < 9; ++y) {
    for (int x = 12; x < 18; ++x) rows[std::size_t(y)][std::size_t(x)] = '#';
  }
  Scenario s = field(rows);
  Bridge b;
  b.id = 9;
  b.a = {11, 4.5};
  b.b = {19, 4.5};
  b.width = 2;
  s.bridges = {b};
  s.factions = {Faction{}, Faction{}};
  s.factions[0].name = "west";
  s.factions[1].name = "east";
  s.units = {unit_at(1, {2.5, 4.5}, move_to({27.5, 4.5})), unit_at(2, {27.5, 4.5}, move_to({2.5, 4.5}))};
  s.units[0].faction = "west";
  s.units[1].faction = "east";
  Simulation sim(s);
  bool waited = false;
  for (int i = 0; i < 90 * 30 && sim.arrived_count() < 2; ++i) {
    sim.step();
    int on = 0;
    for (const SimUnit& u : sim.slots()) {
      on +=
          glm::length(u.body.position - Vec2{std::clamp(u.body.position.x, 11.0, 19.0), 4.5}) <= 1.0 ? 1 : 0;
      waited = waited || u.waits.bridge;
    }
    REQUIRE(on <= 1);
  }
  CHECK(waited);
  CHECK(sim.arrived_count() == 2);
  CHECK(sim.bridge_reservations().size() == 0);  // released once crossed
}

TEST_CASE("a group order reaches every unit of the group") {
  Scenario s = field(open_rows(20, 20));
  s.units = {unit_at(1, {2.5, 2.5}), unit_at(2, {4.5, 2.5}), unit_at(3, {6.5, 2.5})};
  s.groups = {UnitGroup{7, "pair", {1, 3}, move_to({10.5, 15.5})}};
  Simulation sim(s);
  CHECK(sim.slots()[0].route.order.kind == OrderKind::Move);
  CHECK(sim.slots()[1].route.order.kind == OrderKind::None);
  CHECK(sim.slots()[2].route.order.kind == OrderKind::Move);
  CHECK(sim.ordered_count() == 2);
}

TEST_CASE("a group with no order (a saved game's) leaves its units their own orders") {
  Scenario s = field(open_rows(20, 20));
  s.units = {unit_at(1, {2.5, 2.5}, move_to({10.5, 15.5})), unit_at(2, {4.5, 2.5}, move_to({12.5, 15.5}))};
  s.groups = {UnitGroup{7, "pair", {1, 2}, Order{}}};
  Simulation sim(s);
  CHECK(sim.slots()[0].route.order == move_to({10.5, 15.5}));
  CHECK(sim.slots()[1].route.order == move_to({12.5, 15.5}));
  // An expectation that they arrive is valid: their orders are their own.
  s.factions.resize(1);
  s.factions[0].name = "blue";
  for (Unit& u : s.units) u.faction = "blue";
  Expectation arrive;
  arrive.kind = ExpectKind::Arrive;
  arrive.units = {1, 2};
  arrive.within = 60.0;
  s.expect = {arrive};
  const Status valid = validate_scenario(s);
  CHECK_MESSAGE(valid.ok(), (valid.ok() ? std::string() : valid.error().to_string()));
}

TEST_CASE("a thousand units ordered at once are answered a budget per step") {
  Scenario s = field(open_rows(100, 100));
  for (std::uint32_t i = 0; i < 1000; ++i) {
    s.units.push_back(unit_at(i + 1, {1.5 + 3 * (i % 32), 1.5 + 3 * (i / 32)}, move_to({50.5, 50.5})));
  }
  s.sim.path_budget = 64;
  Simulation sim(s);
  sim.step();
  const auto waiting = [&] {
    return std::count_if(sim.slots().begin(), sim.slots().end(),
                         [](const SimUnit& u) { return u.route.state == MoveState::WaitingForPath; });
  };
  CHECK(waiting() == 1000 - 64);
  sim.step();
  CHECK(waiting() == 1000 - 128);
  CHECK(sim.counters().path_requests == 1000);
}

TEST_CASE("a late unit shoves arrived units aside to reach a goal inside their block, not a higher class's") {
  // A 6 x 6 block of standing units 1.3 m apart (0.3 m gaps: no way in for a 1 m unit)
  // round the goal, the middle of one of its squares; the late unit comes from the west.
  for (const bool boss_block : {false, true}) {
    CAPTURE(boss_block);
    Scenario s = field(open_rows(30, 24));
    add_boss_class(s);
    std::uint32_t id = 1;
    constexpr double kSpacing = 1.3;
    const Vec2 goal{14 + 2.5 * kSpacing, 9 + 2.5 * kSpacing};
    s.units.push_back(unit_at(id++, {3.5, 12.75}, move_to(goal)));
    std::vector<Vec2> start;
    for (int row = 0; row < 6; ++row) {
      for (int col = 0; col < 6; ++col) {
        Unit b = unit_at(id++, {14 + col * kSpacing, 9 + row * kSpacing});
        if (boss_block) b.movement_class = 1;
        start.push_back(b.position);
        s.units.push_back(b);
      }
    }
    Simulation sim(s);
    SimReferee referee;
    double worst = 0, moved = 0;  // the deepest overlap; the farthest a block unit was moved
    bool arrived = false;
    // Within 30 s (about 23 with shoves; 66 when the block only moves aside for it).
    for (int i = 0; i < 30 * 30 && !arrived; ++i) {
      step_checked(sim, referee);
      worst = std::max(worst, deepest_overlap(sim));
      arrived = sim.slots()[0].goal.arrived;
      for (std::size_t k = 0; k < start.size(); ++k)
        moved = std::max(moved, glm::length(sim.slots()[k + 1].body.position - start[k]));
    }
    CHECK(worst <= 1e-6);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().tunnelled == 0);
    if (boss_block) {
      CHECK_FALSE(arrived);  // a higher class priority is never shoved
      CHECK(glm::length(sim.slots()[0].body.position - goal) > 1.5);
    } else {
      CHECK(arrived);
      // At the goal, or touching a block unit moved aside onto it (it then stops beside
      // it, as a unit sent to a taken spot does: detours.cpp): inside the block.
      CHECK(glm::length(sim.slots()[0].body.position - goal) < 0.8);
      CHECK(moved > 0.2);
    }
  }
}

}  // namespace pathscope::sim
