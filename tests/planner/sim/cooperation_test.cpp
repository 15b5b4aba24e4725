// Seed 002's cooperation between two movers (case 4) and its planning memory ("Basic
// Planning"): each case told apart by what the units then do, judged by the referee.

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;
using test_support::open_rows;

// What one run of a two-unit encounter showed.
struct Encounter {
  std::vector<CooperationRule> decided;  // the rules of new decisions about the pair, in turn
  bool higher_decided_all = true;        // every decision was the higher unit's (slot 0)
  std::optional<double> first_decision_time;
  std::vector<double> lower_factors;  // slot 1's slow-down factors while it slowed down
  // From the first pause until they have passed: how far slot 1 still went towards slot
  // 0's side (-x).
  std::optional<double> lower_x_at_pause;
  double lower_min_x_after_pause = INFINITY;
  RefereeCounts referee;
};

// Runs `s` (two units; slot 0 outranks slot 1) for `seconds` with the referee, logging the
// rules the pair was handled by, in turn.
Encounter run_encounter(const Scenario& s, double seconds) {
  Simulation sim(s);
  SimReferee referee;
  Encounter e;
  const auto steps = static_cast<int>(std::lround(seconds / s.sim.dt));
  for (int i = 0; i < steps; ++i) {
    sim.step();
    referee.check_step(sim);
    const SimUnit& hi = sim.slots()[0];
    const SimUnit& lo = sim.slots()[1];
    for (const Collision& c : sim.collisions()) {
      if (c.rule == CooperationRule::None || c.rule == CooperationRule::LowerPriority) continue;
      // A remembered pair is listed with its rule at every step: count a rule once per
      // run of steps.
      if (!e.decided.empty() && e.decided.back() == c.rule) continue;
      e.decided.push_back(c.rule);
      if (!e.first_decision_time) e.first_decision_time = sim.time();
      e.higher_decided_all = e.higher_decided_all && c.a == hi.id;
    }
    if (lo.coop.yield == Yield::SlowDown) e.lower_factors.push_back(lo.coop.speed_factor);
    if (!e.lower_x_at_pause && !e.decided.empty() && e.decided.front() == CooperationRule::Pause)
      e.lower_x_at_pause = lo.body.previous.x;
    if (e.lower_x_at_pause && hi.body.position.x < lo.body.position.x)  // until they have passed
      e.lower_min_x_after_pause = std::min(e.lower_min_x_after_pause, lo.body.position.x);
  }
  CHECK(sim.arrived_count() == 2);
  e.referee = referee.counts();
  return e;
}

}  // namespace

TEST_CASE("case 4.3: a lower mover crossing a higher one's way slows down and lets it pass first") {
  // Two units of the same class on crossing courses (their paths run through the cells'
  // centres, crossing at (11.5, 11.5)), due there at the same moment; slot 0 outranks
  // slot 1 (the lower slot index).
  Scenario s = test::ascii_scenario(open_rows(22, 22));
  s.units = {unit_at(1, {1.5, 11.0}, move_to({20.5, 11.0})), unit_at(2, {11.0, 1.5}, move_to({11.0, 20.5}))};
  // Record when each passes the crossing.
  Simulation sim(s);
  SimReferee referee;
  double hi_past = -1, lo_past = -1;
  bool slowed = false;
  std::optional<CooperationRule> first_rule;
  for (int i = 0; i < 40 * 30; ++i) {
    sim.step();
    referee.check_step(sim);
    const SimUnit& hi = sim.slots()[0];
    const SimUnit& lo = sim.slots()[1];
    if (hi_past < 0 && hi.body.position.x > 11.0) hi_past = sim.time();
    if (lo_past < 0 && lo.body.position.y > 11.0) lo_past = sim.time();
    for (const Collision& c : sim.collisions()) {
      if (!first_rule && c.rule != CooperationRule::None) first_rule = c.rule;
      if (c.rule == CooperationRule::SlowDown) {
        slowed = true;
        CHECK(c.a == hi.id);
      }
    }
    if (lo.coop.yield == Yield::SlowDown) {
      CHECK(lo.coop.speed_factor >= 0.1);
      CHECK(lo.coop.speed_factor <= 0.8);
    }
  }
  CHECK(slowed);
  CHECK(first_rule == CooperationRule::SlowDown);  // the first thing decided
  REQUIRE(hi_past > 0);
  REQUIRE(lo_past > 0);
  CHECK(hi_past < lo_past);          // the higher one crosses first
  CHECK(hi_past < 9.5 / 1.0 + 1.5);  // near its own time, unhindered (9.5 m at 1 m/s, plus starting)
  CHECK(sim.arrived_count() == 2);
  CHECK(referee.counts().hard_overlaps == 0);
  CHECK(referee.counts().tunnelled == 0);
}

TEST_CASE(
    "case 4.2: a lower mover that would hit a higher one before it could stop pauses, then case 3 follows") {
  // Head-on, with a prediction horizon so short (and soft shapes so thin) that the
  // collision is seen only when the hard shapes would meet sooner than the lower unit
  // could stop: it pauses (stops where
  // it is), and the next step it is a still unit on the higher one's way.
  Scenario s = test::ascii_scenario(open_rows(24, 9));
  s.sim.prediction_seconds = 0.2;
  s.classes[0].soft_radius = 0.4;  // as the hard radius: the first contact seen is a hard one
  s.units = {unit_at(1, {1.5, 4.5}, move_to({22.5, 4.5})), unit_at(2, {22.5, 4.5}, move_to({1.5, 4.5}))};
  const Encounter e = run_encounter(s, 40);
  REQUIRE_FALSE(e.decided.empty());
  CHECK(e.decided.front() == CooperationRule::Pause);
  CHECK(e.higher_decided_all);
  // It stopped about where it was: no farther on than its stopping distance (1 m/s at
  // 4 m/s^2: 0.125 m) and half its hard radius (the steps' discretisation, the way aside
  // it is sent next). A slow-down (4.3) would have gone on at 0.1 to 0.8 m/s for seconds.
  REQUIRE(e.lower_x_at_pause);
  CHECK(*e.lower_x_at_pause - e.lower_min_x_after_pause <= 0.125 + 0.2);
  // Then the higher mover resolves the still unit on its way (case 3.1: it moves aside).
  CHECK(std::find(e.decided.begin(), e.decided.end(), CooperationRule::MoveAside) != e.decided.end());
  CHECK(e.referee.hard_overlaps == 0);
  CHECK(e.referee.tunnelled == 0);
}

TEST_CASE("case 4.3 and not 4.2 when the lower mover has time to slow down") {
  // The same head-on meeting with the default horizon (1 s): the collision is seen while
  // the lower unit can still slow down, and it does, before anything else.
  Scenario s = test::ascii_scenario(open_rows(24, 9));
  s.units = {unit_at(1, {1.5, 4.5}, move_to({22.5, 4.5})), unit_at(2, {22.5, 4.5}, move_to({1.5, 4.5}))};
  const Encounter e = run_encounter(s, 40);
  REQUIRE_FALSE(e.decided.empty());
  CHECK(e.decided.front() == CooperationRule::SlowDown);
  CHECK(e.higher_decided_all);
  REQUIRE_FALSE(e.lower_factors.empty());
  for (const double f : e.lower_factors) {
    CHECK(f >= 0.1);
    CHECK(f <= 0.8);
  }
  CHECK(e.referee.hard_overlaps == 0);
  CHECK(e.referee.tunnelled == 0);
}

TEST_CASE(
    "planning memory: a decided pair is remembered, not decided again while it runs, forgotten on a new "
    "order") {
  // Case 3.1: the higher mover meets a still unit on its way, which moves aside.
  Scenario s = test::ascii_scenario(open_rows(20, 7));
  s.sim.memory_seconds = 2;
  s.units = {unit_at(1, {1.5, 3.5}, move_to({18.5, 3.5})), unit_at(2, {9.5, 3.5})};
  Simulation sim(s);
  std::optional<Memory> first;
  double first_at = 0;
  int decisions = 0;
  for (int i = 0; i < 30 * 30 && !first; ++i) {
    sim.step();
    for (const Memory& m : sim.memory()) {
      first = m;
      first_at = sim.time();
    }
  }
  REQUIRE(first);
  CHECK(first->rule == CooperationRule::MoveAside);
  CHECK(first->a == sim.slots()[0].id);  // the decider
  CHECK(first->b == sim.slots()[1].id);
  // Remembered while the resolution runs (kYieldSeconds, 4 s) and memory_seconds after.
  CHECK(first->until == doctest::Approx(first_at - s.sim.dt + 4 + 2));  // decided at the step's start
  // While remembered, the same entry stands: nobody decides about the pair again, and the
  // pair is not checked for collisions at all (its plan stands), although the two pass
  // within a hard radius of each other.
  int checked = 0;
  double closest = 1e9;
  while (sim.time() < first->until - 1e-9) {
    sim.step();
    REQUIRE(sim.memory().size() <= 1);
    if (sim.memory().empty()) break;
    const Memory& m = sim.memory().front();
    decisions += m.until != first->until;
    CHECK(m.a == first->a);
    CHECK(m.b == first->b);
    checked += int(sim.collisions().size());
    closest = std::min(closest, glm::length(sim.unit(m.a)->body.position - sim.unit(m.b)->body.position));
  }
  CHECK(decisions == 0);
  CHECK(checked == 0);
  const double soft = 2 * 1.5 * s.classes[0].radius;   // two default soft radii
  CHECK_MESSAGE(closest < soft, "closest ", closest);  // they met, soft shapes overlapping
  // A new order to either unit forgets the pair at once.
  Simulation again(s);
  while (again.memory().empty() && again.step_count() < 30 * 30) again.step();
  REQUIRE_FALSE(again.memory().empty());
  const UnitId still[] = {again.slots()[1].id};
  REQUIRE(again.give_order(still, move_to({9.5, 1.5})).ok());
  CHECK(again.memory().empty());
}

}  // namespace pathscope::sim
