// Head-on knots (knots.hpp) found on hand-built units, and what becomes of their passages.
// Which cells a knot covers is worked out here from the definition (every open cell with
// a point within the margin of one of its units), not by the code under test.

#include "planner/sim/knots.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "planner/sim/passage_turns.hpp"
#include "planner/sim/passages.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test_support::open_rows;
using test_support::step_checked;

// A unit of slot `index`, under way towards `to` and held up since t = 0.
SimUnit held_unit(std::uint32_t index, Vec2 at, Vec2 to) {
  SimUnit u;
  u.id = UnitId{index, 0};
  u.alive = true;
  u.body.position = u.body.previous = at;
  u.body.heading = std::atan2(to.y - at.y, to.x - at.x);
  u.route.state = MoveState::Moving;
  u.route.path = {at, to};
  u.route.waypoint = 1;
  u.route.progress_time = 0;
  return u;
}

// A street's knot: five units going east (x = 18, rows 12 to 16), three going west just
// east of them (x = 19.2, rows 13 to 15), all held up since t = 0.
std::vector<SimUnit> street_knot() {
  std::vector<SimUnit> units;
  for (int k = 0; k < 5; ++k)
    units.push_back(held_unit(std::uint32_t(k), {18.0, 12.5 + k}, {38.0, 12.5 + k}));
  for (int k = 0; k < 3; ++k)
    units.push_back(held_unit(std::uint32_t(5 + k), {19.2, 13.5 + k}, {2.0, 13.5 + k}));
  return units;
}

// 40 x 30 cells; with `street`, rows 0-10 and 19-29 are walls: a street 8 m wide (10 hard
// diameters of the test class).
std::vector<std::string> street_rows(bool street) {
  std::vector<std::string> rows = open_rows(40, 30);
  for (int y = 0; y < 30 && street; ++y) {
    if (y < 11 || y >= 19) rows[std::size_t(y)] = std::string(40, '#');
  }
  return rows;
}

struct Open {
  explicit Open(bool street = true) : scenario(test::ascii_scenario(street_rows(street))) {}
  Scenario scenario;
  PlanningWorld world{scenario};
  Motion motion = resolve_motion(scenario.classes[0]);
  std::vector<PassageMap> maps{PassageMap(world.grid(0), passage_rules(motion))};
  const CostGrid* grid = &world.grid(0);
  std::uint16_t key = world.grid(0).move_key(world.grid(0).index(0, 15));

  std::vector<Knot> find(std::span<const SimUnit> units, double now) {
    const std::vector<std::uint16_t> keys(units.size(), key);
    const Motion motions[1] = {motion};
    const CostGrid* grids[1] = {grid};
    std::vector<Knot> knots;
    find_knots(units, keys, maps, motions, grids, KnotRules{}, now, knots);
    return knots;
  }
};

}  // namespace

TEST_SUITE("components") {
  TEST_CASE(
      "knots: units held up head-on are one knot, its way the larger side's, its cells those near them") {
    Open o;
    REQUIRE(o.maps[0].passages().empty());  // 8 m wide: no narrow passage
    const std::vector<SimUnit> units = street_knot();
    const std::vector<Knot> knots = o.find(units, 10.0);
    REQUIRE(knots.size() == 1);
    const Knot& k = knots[0];
    CHECK(k.flow.x == doctest::Approx(1.0).epsilon(1e-9));  // east: five against three
    CHECK(k.going == 5);
    CHECK(k.queued == 3);
    // Every open cell with a point within the margin (3 m) of a unit, and no other.
    const KnotRules rules;
    std::vector<std::uint32_t> expected;
    for (int y = 0; y < 30; ++y) {
      for (int x = 0; x < 40; ++x) {
        bool near = false;
        for (const SimUnit& u : units) {
          const Vec2 nearest = glm::clamp(u.body.position, Vec2{x, y}, Vec2{x + 1, y + 1});
          near = near || glm::length(nearest - u.body.position) <= rules.margin;
        }
        if (near && y >= 11 && y < 19) expected.push_back(o.grid->index(x, y));
      }
    }
    CHECK(k.cells.size() == expected.size());
    CHECK(k.cells == expected);
    Vec2 lo{1e9, 1e9}, hi{-1e9, -1e9};
    for (const std::uint32_t c : expected) {
      const glm::ivec2 xy = o.grid->cell(c);
      lo = glm::min(lo, Vec2{xy.x, xy.y});
      hi = glm::max(hi, Vec2{xy.x + 1, xy.y + 1});
    }
    CHECK(k.bounds.lo == lo);
    CHECK(k.bounds.hi == hi);
  }

  TEST_CASE(
      "knots: no knot while units are not held long enough, go one way, come from all sides, stand apart or "
      "in the "
      "open") {
    Open o;
    SUBCASE("held up for less than held_seconds") {
      std::vector<SimUnit> units = street_knot();
      for (SimUnit& u : units) u.route.progress_time = 8.0;
      CHECK(o.find(units, 10.0).empty());
      CHECK(o.find(units, 11.0).size() == 1);
    }
    SUBCASE("all one way") {
      std::vector<SimUnit> units = street_knot();
      for (std::size_t k = 5; k < units.size(); ++k) {
        const Vec2 at = units[k].body.position;
        units[k] = held_unit(std::uint32_t(k), at, {38.0, at.y});
      }
      CHECK(o.find(units, 10.0).empty());
    }
    SUBCASE("from all sides to one point (a circle swapping places)") {
      std::vector<SimUnit> units;
      for (int k = 0; k < 12; ++k) {
        const double a = 2 * std::numbers::pi * k / 12;
        const Vec2 d{std::cos(a), std::sin(a)};
        units.push_back(held_unit(std::uint32_t(k), Vec2{20, 15} + d * 1.5, Vec2{20, 15} - d * 8.0));
      }
      CHECK(o.find(units, 10.0).empty());
    }
    SUBCASE("the two sides farther apart than link hard diameters") {
      std::vector<SimUnit> units = street_knot();
      for (std::size_t k = 5; k < units.size(); ++k) units[k].body.position.x += 2.5;  // 3.7 m off
      CHECK(o.find(units, 10.0).empty());
    }
    SUBCASE("on open ground (wider than max_width hard diameters)") {
      Open open(false);
      CHECK(open.find(street_knot(), 10.0).empty());
    }
    SUBCASE("waiting for a passage already, or dead") {
      std::vector<SimUnit> units = street_knot();
      for (std::size_t k = 5; k < units.size(); ++k) units[k].waits.passage = true;
      CHECK(o.find(units, 10.0).empty());
      units = street_knot();
      for (std::size_t k = 6; k < units.size(); ++k) units[k].alive = false;
      CHECK(o.find(units, 10.0).empty());  // one unit west: less than min_side
    }
  }

  TEST_CASE(
      "knots: a knot's passage refuses the other side inside it, and goes when nobody is in or before it") {
    Open o;
    std::vector<SimUnit> units = street_knot();
    const std::vector<Knot> knots = o.find(units, 10.0);
    REQUIRE(knots.size() == 1);
    const KnotRules rules;
    keep_knots(o.maps, knots, rules, 10.0);
    REQUIRE(o.maps[0].passages().size() == 1);
    const Passage& p = o.maps[0].passages()[0];
    CHECK(p.knot);
    CHECK(p.held);
    CHECK(p.queued);
    CHECK(p.queue_flow.x < -0.99);
    for (const std::uint32_t c : knots[0].cells) CHECK(o.maps[0].passage_of(c) == 0u);
    // The passage rule: the three going west, inside it, wait; the five going east go.
    const Motion motions[1] = {o.motion};
    const CostGrid* grids[1] = {o.grid};
    std::vector<PassageUnit> track(units.size());
    for (PassageUnit& t : track) t.move_key = o.key;
    PassageClaims claims;
    std::vector<std::vector<PassageTally>> tallies;
    std::vector<PassageWait> waits;
    keep_passages(units, o.maps, motions, grids, 10.0, track, claims, tallies, waits);
    std::vector<std::uint32_t> waited;
    for (const PassageWait& w : waits) waited.push_back(w.unit);
    CHECK(waited == std::vector<std::uint32_t>{5, 6, 7});
    CHECK(p.held);
    CHECK(p.flow.x > 0.99);
    CHECK(p.inside == 5);
    CHECK(p.waiting == 3);
    CHECK(p.seen == 10.0);
    // Everyone gone: nobody in or before it after 10.0, so it stays until linger_seconds
    // have passed, then its cells are in no passage; the entry is kept, empty.
    for (SimUnit& u : units) u.alive = false;
    keep_passages(units, o.maps, motions, grids, 11.0, track, claims, tallies, waits);
    keep_knots(o.maps, {}, rules, 10.0 + rules.linger_seconds);
    CHECK(o.maps[0].passage_of(knots[0].cells[0]) == 0u);
    keep_knots(o.maps, {}, rules, 10.0 + rules.linger_seconds + 0.1);
    CHECK_FALSE(o.maps[0].passage_of(knots[0].cells[0]));
    REQUIRE(o.maps[0].passages().size() == 1);
    CHECK(o.maps[0].passages()[0].cells.empty());
    CHECK_FALSE(o.maps[0].passages()[0].held);
    // A new knot takes the entry again only once no unit's memory of the old one counts
    // (kClearSeconds after it was last seen).
    keep_knots(o.maps, knots, rules, 17.0);
    CHECK(o.maps[0].passages().size() == 2);
    keep_knots(o.maps, {}, rules, 30.0);  // the second dissolved (last seen at 17)
    keep_knots(o.maps, knots, rules, 30.0);
    CHECK(o.maps[0].passages().size() == 2);
    CHECK(o.maps[0].passages()[0].cells == knots[0].cells);
    CHECK(o.maps[0].passages()[0].held);
  }
}

TEST_CASE(
    "knots: two crowds swapping sides through a street wider than a passage all arrive, and lock without" *
    doctest::test_suite("sim-long")) {
  // 50 a side through a street 8 m wide (16 hard diameters: no narrow passage). Without
  // knots both crowds stand in the street from about 20 s on and nobody arrives in 300 s.
  for (const bool knots : {true, false}) {
    CAPTURE(knots);
    Scenario s = street_case(50, 8.0);
    s.sim.knots = knots;
    Simulation sim(s);
    SimReferee referee;
    bool knot_seen = false;
    for (int i = 0; i < 400 * 30 && sim.arrived_count() < sim.ordered_count(); ++i) {
      step_checked(sim, referee);
      for (const Passage& p : sim.passages(0)) knot_seen = knot_seen || (p.knot && p.held);
      if (!knots && sim.time() >= 300) break;
    }
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().tunnelled == 0);
    if (knots) {
      CHECK(knot_seen);
      CHECK(sim.arrived_count() == sim.ordered_count());  // in about 257 s
    } else {
      CHECK_FALSE(knot_seen);
      CHECK(sim.arrived_count() < sim.ordered_count() / 10);  // none
    }
  }
}

TEST_CASE("knots: a saved game taken while knots hold their passages runs on with the same hashes") {
  Scenario s = street_case(50, 8.0);
  s.sim.knots = true;
  Simulation a(s);
  int knots = 0;
  while (a.time() < 120 && knots == 0) {
    a.step();
    knots = 0;
    for (const Passage& p : a.passages(0)) knots += p.knot && p.held ? 1 : 0;
  }
  REQUIRE(knots > 0);
  for (int i = 0; i < 60; ++i) a.step();  // taken a while into the knot's turn
  const std::string state = a.state_json();
  REQUIRE(nlohmann::json::parse(state).contains("knots"));
  Simulation b(s);
  const Status restored = b.restore_state(state);
  REQUIRE_MESSAGE(restored.ok(), restored.error().to_string());
  REQUIRE(b.passages(0).size() == a.passages(0).size());
  for (std::size_t k = 0; k < a.passages(0).size(); ++k) {
    CHECK(b.passages(0)[k].cells == a.passages(0)[k].cells);
    CHECK(b.passages(0)[k].held == a.passages(0)[k].held);
    CHECK(b.passages(0)[k].seen == a.passages(0)[k].seen);
  }
  for (int i = 0; i < 900; ++i) {
    a.step();
    b.step();
    REQUIRE(b.state_hash() == a.state_hash());
  }
  // A knot's cell listed twice, or in the wrong order, is refused naming the knot.
  nlohmann::json bad = nlohmann::json::parse(state);
  nlohmann::json& first = bad["knots"][0];
  REQUIRE(first.size() > 9);
  first[9] = first[8];
  Simulation c(s);
  const Status refused = c.restore_state(bad.dump());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().where == "sim_state.knots[0]");
}

}  // namespace pathscope::sim
