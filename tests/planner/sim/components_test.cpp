// The step's components called directly, on small hand-built inputs: collision prevention,
// reactive avoidance, arrivals, bridges and passages. Each expectation is worked out here
// (shapes sampled along their boundaries, distances, sides), not by the code under test.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/scenario/scenario.hpp"
#include "planner/sim/arrival.hpp"
#include "planner/sim/avoidance.hpp"
#include "planner/sim/bridges.hpp"
#include "planner/sim/detours.hpp"
#include "planner/sim/passage_turns.hpp"
#include "planner/sim/passages.hpp"
#include "planner/sim/prevention.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/spatial_hash.hpp"
#include "planner/world/bridge_reservations.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/ellipse_test_support.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace components_test {

using Ellipse = test_support::TestEllipse;

// A unit of slot `index`, alive, under way along `path` (heading for path[1]).
inline SimUnit unit_under_way(std::uint32_t index, Vec2 at, double heading, std::vector<Vec2> path) {
  SimUnit u;
  u.id = UnitId{index, 0};
  u.alive = true;
  u.body.position = u.body.previous = at;
  u.body.heading = heading;
  u.body.speed = 1;
  u.route.state = MoveState::Moving;
  u.route.path = std::move(path);
  u.route.waypoint = u.route.path.size() > 1 ? 1 : 0;
  return u;
}

}  // namespace components_test

using components_test::Ellipse;
using components_test::unit_under_way;
using test_support::open_rows;

TEST_SUITE("components") {
  TEST_CASE("prevention: two overlapping ellipses of aspect 0.3 to 1 at random headings end apart") {
    Motion m;
    m.hard_radius = 1;
    m.soft_radius = 1.5;
    PlanningWorld world(test::ascii_scenario(open_rows(20, 20)));
    const CostGrid* grids[1] = {&world.grid(0)};
    std::mt19937_64 rng(31);
    std::uniform_real_distribution<double> angle(-std::numbers::pi, std::numbers::pi);
    std::uniform_real_distribution<double> aspect(0.3, 1.0);
    std::uniform_real_distribution<double> depth(0.05, 0.2);
    PreventionScratch scratch;
    int separated = 0;
    for (int trial = 0; trial < 60; ++trial) {
      m.hard_aspect = aspect(rng);
      const Motion motions[1] = {m};
      const double ha = angle(rng), hb = angle(rng);
      const double theta = angle(rng);
      const Vec2 dir_n{std::cos(theta), std::sin(theta)};
      // The touching distance along dir, by bisection on the sampled test.
      Ellipse a{{10, 10}, ha, 1, m.hard_aspect}, b{{10, 10}, hb, 1, m.hard_aspect};
      double lo = 0, hi = 2.5;
      for (int i = 0; i < 40; ++i) {
        const double mid = 0.5 * (lo + hi);
        b.centre = a.centre + dir_n * mid;
        (test_support::overlap_sampled(a, b, 0) ? lo : hi) = mid;
      }
      const double touch = hi;
      // Overlapping by 5 to 20% of that distance (at most 0.4 m: a unit pushed alone is
      // pushed at most half its hard radius per step).
      b.centre = a.centre + dir_n * (touch * (1 - depth(rng)));
      const Vec2 b_from = b.centre;
      REQUIRE(test_support::overlap_sampled(a, b, 0.005));
      const bool a_moves = trial % 3 != 0, b_moves = trial % 3 != 1;
      std::vector<PreventionUnit> units{
          {a.centre, a.centre, ha, 0, grids[0]->move_key(0), true, a_moves, false},
          {b.centre, b.centre, hb, 0, grids[0]->move_key(0), true, b_moves, false}};
      prevent_overlaps(units, motions, grids, scratch);
      a.centre = units[0].position;
      b.centre = units[1].position;
      CHECK_FALSE(test_support::overlap_sampled(a, b, 0.005));
      // A still unit gives way to a mover: the mover stays where its move ended.
      if (a_moves && !b_moves) CHECK(units[0].position == Vec2{10, 10});
      if (b_moves && !a_moves) CHECK(units[1].position == b_from);
      CHECK(units[0].pushed == (units[0].position != Vec2{10, 10}));
      CHECK(units[1].pushed == (units[1].position != b_from));
      separated += !test_support::overlap_sampled(a, b, 0.005);
    }
    CHECK(separated == 60);
  }

  TEST_CASE("avoidance: a potential field turns a unit away from a unit or a wall on its left") {
    // Heading +x (y down): its left is -y. Potential fields with a unit ahead on its left,
    // then a wall along its left (a unit behind it, which does not repel, makes it sense).
    Motion m;
    m.hard_radius = 0.4;
    m.soft_radius = 0.6;
    const Motion motions[1] = {m};
    const auto run = [&](const std::vector<std::string>& rows, Vec2 other) {
      PlanningWorld world(test::ascii_scenario(rows));
      const CostGrid* grids[1] = {&world.grid(0)};
      const Vec2 start{3.5, 5.5};
      std::vector<SimUnit> units{unit_under_way(0, start, 0, {start, {39.5, 5.5}}),
                                 unit_under_way(1, other, 0, {})};
      const std::uint16_t key = world.grid(0).move_key(world.grid(0).index(3, 5));
      const std::vector<std::uint16_t> keys{key, key};
      const std::vector<Vec2> points{units[0].body.position, units[1].body.position};
      SpatialHash hash;
      hash.build(points, 4.0);
      std::vector<AvoidanceSteer> out;
      avoid(AvoidanceMode::PotentialField, units, keys, hash, motions, grids, 0.1, out);
      REQUIRE(out.size() == 1);
      CHECK(out[0].unit == 0);
      return out[0].next.position.y - start.y;  // > 0: to its right
    };
    const std::vector<std::string> open = open_rows(40, 11);
    CHECK(run(open, {4.5, 4.7}) > 0);                      // a unit ahead on its left: it goes right
    CHECK(run(open, {4.5, 6.3}) < run(open, {4.5, 4.7}));  // on its right: less right (or left)
    std::vector<std::string> wall_left = open, wall_right = open;
    wall_left[4] = std::string(40, '#');
    wall_right[6] = std::string(40, '#');
    CHECK(run(wall_left, {2.5, 5.5}) > 0);
    CHECK(run(wall_right, {2.5, 5.5}) < 0);
  }

  TEST_CASE("arrivals: arrived is set and cleared by the distance to the goal") {
    Motion m;
    m.hard_radius = 0.5;
    const Motion motions[1] = {m};
    const double tolerance = 0.25;  // half the hard radius (at most 0.5 m)
    const Vec2 goal{10, 10};
    const std::vector<double> offsets{0.0, 0.1, 0.24, 0.26, 0.4, 2.0};
    std::vector<SimUnit> units;
    std::vector<ArrivalUnit> arrivals;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      // Each unit its own goal, 6 m apart; alternate flags before, so each must change or stay.
      const Vec2 g = goal + Vec2{6.0 * double(i), 0};
      SimUnit u = unit_under_way(std::uint32_t(i), g + Vec2{0, offsets[i]}, 0, {});
      u.body.speed = 0;
      u.route.state = MoveState::ReachedGoal;
      u.route.order = Order{OrderKind::Move, {g}, PatrolMode::Loop};
      units.push_back(u);
      ArrivalUnit a;
      a.goal.arrived = i % 2 == 0;
      arrivals.push_back(a);
    }
    ArrivalScratch scratch;
    keep_arrivals(units, motions, 5.0, arrivals, scratch);
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      CAPTURE(i);
      CHECK(arrivals[i].goal.arrived == (offsets[i] <= tolerance));
      CHECK_FALSE(arrivals[i].goal.taken);
      if (arrivals[i].goal.arrived) CHECK(arrivals[i].goal.arrived_time >= 0);
    }
    // A unit standing on the goal of another (arrived at its own goal 0.3 m away) takes
    // it: the other, 1 m off, is not arrived and its goal is taken.
    std::vector<SimUnit> pair{units[0], units[5]};
    pair[0].body.position = pair[1].route.order.points[0] + Vec2{0.3, 0};
    pair[0].route.order.points = {pair[0].body.position};
    pair[1].id.index = 1;
    pair[1].body.position = pair[1].route.order.points[0] + Vec2{-1.0, 0};
    std::vector<ArrivalUnit> two(2);
    keep_arrivals(pair, motions, 5.0, two, scratch);
    CHECK(two[0].goal.arrived);
    CHECK_FALSE(two[1].goal.arrived);
    CHECK(two[1].goal.taken);  // 0.3 m < the two hard radii (1 m)
  }

  TEST_CASE("bridges: one platoon at a time on a bridge, the other waits before it") {
    // A bridge from (10, 10) to (20, 10), 3 m wide. Platoon 7 drives on from the west,
    // platoon 9 from the east; the first asked (slot order) gets it.
    const Bridge bridge{4, {10, 10}, {20, 10}, 3, true};
    const auto approaching = [](std::uint32_t slot, Vec2 at, Vec2 onto) {
      SimUnit u = unit_under_way(slot, at, onto.x > at.x ? 0 : std::numbers::pi, {at, onto});
      u.route.predicted = {PredictedPoint{onto, u.body.heading, 1, 0.1, 1}};
      return u;
    };
    std::vector<SimUnit> units{approaching(0, {8, 10}, {10.5, 10}), approaching(1, {7, 10.5}, {10.2, 10.5}),
                               approaching(2, {22, 10}, {19.5, 10}), approaching(3, {40, 30}, {41, 30})};
    std::vector<BridgeUnit> track{{7}, {7}, {9}, {9}};
    BridgeReservations ledger;
    std::vector<BridgeWait> waits;
    const auto ask = [&](double now) {
      for (BridgeUnit& t : track) t.waiting = false;
      keep_bridge(bridge, units, now, ledger, track, {}, waits);
      std::vector<std::uint32_t> waited;
      for (const BridgeWait& w : waits) waited.push_back(w.unit);
      return waited;
    };
    CHECK(ask(1.0) == std::vector<std::uint32_t>{2});
    REQUIRE(ledger.holder(4).has_value());
    CHECK(*ledger.holder(4) == 7);
    REQUIRE(waits.size() == 1);
    CHECK(waits[0].flow.x < -0.99);  // unit 2 would drive west onto it
    CHECK(waits[0].half_width == 1.5);
    // Where its way reaches the deck: within the deck's rectangle.
    CHECK(waits[0].entry.x >= 10);
    CHECK(waits[0].entry.x <= 20);
    CHECK(std::abs(waits[0].entry.y - 10) <= 1.5);
    CHECK_FALSE(track[0].waiting);
    CHECK_FALSE(track[1].waiting);
    CHECK(track[2].waiting);
    CHECK_FALSE(track[3].waiting);      // far away: not asked
    CHECK(track[0].last_bridge == -1);  // not on the deck yet
    // Platoon 7 gone (far away, long after): unit 2 still waits this step, at whose end
    // the bridge is released; the next step platoon 9 gets it.
    units[0].body.position = units[1].body.position = Vec2{60, 60};
    units[0].route.predicted.clear();
    units[1].route.predicted.clear();
    units[0].route.path = units[1].route.path = {{60, 60}, {61, 60}};
    CHECK(ask(20.0) == std::vector<std::uint32_t>{2});
    CHECK_FALSE(ledger.holder(4).has_value());
    CHECK(ask(20.1).empty());
    REQUIRE(ledger.holder(4).has_value());
    CHECK(*ledger.holder(4) == 9);
    CHECK_FALSE(track[2].waiting);
    // A broken bridge is cleared and refuses nobody.
    Bridge broken = bridge;
    broken.intact = false;
    keep_bridge(broken, units, 20.2, ledger, track, {}, waits);
    CHECK(waits.empty());
    CHECK_FALSE(ledger.holder(4).has_value());
  }

  TEST_CASE("bridges: a platoon asks for the bridge its path reaches, and stops its front short of it") {
    // A bridge from (100, 50) to (132, 50), 10 m wide: its deck begins at x = 95 on the
    // line y = 50. Platoon 3 comes from the west along y = 50, platoon 5 from the east.
    const Bridge bridge{2, {100, 50}, {132, 50}, 10, true};
    const std::vector<Vec2> west_path{{20, 50}, {220, 50}};
    const std::vector<Vec2> east_path{{220, 50}, {20, 50}};
    const PathWalk west({20, 50}, 0, west_path, 0);
    const PathWalk east({220, 50}, std::numbers::pi, east_path, 0);
    const std::vector<Vec2> west_vehicles{{60, 50}, {52, 50}};
    const std::vector<Vec2> east_vehicles{{160, 50}, {168, 50}};
    std::vector<BridgePlatoon> platoons(2);
    platoons[0] = BridgePlatoon{3, &west, 40, 6, 30, west_vehicles};  // at x = 60: 35 m to the deck
    platoons[1] = BridgePlatoon{5, &east, 60, 6, 30, east_vehicles};  // at x = 160: 23 m to it
    BridgeReservations ledger;
    std::vector<std::uint32_t> claimed;
    keep_bridge_for_platoons(bridge, ledger, platoons, claimed);
    // Both within front + reach (36 m); the first asked gets it, the second stops 6 m
    // (its front) before where its path meets the deck: x = 137 + 6 = 143, 17 m on.
    CHECK(claimed == std::vector<std::uint32_t>{3});
    REQUIRE(ledger.holder(2).has_value());
    CHECK(*ledger.holder(2) == 3);
    CHECK(std::isinf(platoons[0].hold_at));
    CHECK(platoons[1].held_by == 2);
    CHECK(platoons[1].hold_at == doctest::Approx(60 + 23 - 6).epsilon(0.5 / 77));
    // Out of reach: not asked, no hold.
    std::vector<BridgePlatoon> far{BridgePlatoon{7, &west, 0, 6, 30, {}}};  // 75 m from the deck
    claimed.clear();
    keep_bridge_for_platoons(bridge, ledger, far, claimed);
    CHECK(claimed.empty());
    CHECK(std::isinf(far[0].hold_at));
    // The holder's claim keeps the bridge held though none of its units is near it.
    std::vector<BridgeUnit> track;
    std::vector<BridgeWait> waits;
    const std::vector<std::uint32_t> holder{3};
    keep_bridge(bridge, std::span<const SimUnit>{}, 1.0, ledger, track, holder, waits);
    CHECK(ledger.holder(2).has_value());
    keep_bridge(bridge, std::span<const SimUnit>{}, 1.1, ledger, track, {}, waits);
    CHECK_FALSE(ledger.holder(2).has_value());
    // Nearer than its front when refused: it stops where it is.
    std::vector<BridgePlatoon> near{BridgePlatoon{5, &east, 60, 6, 30, east_vehicles}};
    (void)ledger.reserve(2, 3);
    near[0].along = 80;  // x = 140: 3 m from the deck
    claimed.clear();
    keep_bridge_for_platoons(bridge, ledger, near, claimed);
    CHECK(near[0].hold_at == 80);
  }

  TEST_CASE("passages: the unit coming the other way waits while one goes through") {
    // A wall down column 20 with a one-cell gap at row 10: a passage. Unit 0 is in the
    // gap going east; unit 1, 2 m east of it, heads west through it.
    std::vector<std::string> rows = open_rows(40, 21);
    for (std::string& row : rows) row[20] = '#';
    rows[10][20] = '.';
    Scenario s = test::ascii_scenario(rows);
    PlanningWorld world(s);
    const Motion m = resolve_motion(s.classes[0]);
    const Motion motions[1] = {m};
    const CostGrid* grids[1] = {&world.grid(0)};
    std::vector<PassageMap> maps{PassageMap(world.grid(0), passage_rules(m))};
    REQUIRE_FALSE(maps[0].passages().empty());
    const std::uint16_t key = world.grid(0).move_key(world.grid(0).index(0, 0));
    std::vector<SimUnit> units{
        unit_under_way(0, {20.5, 10.5}, 0, {{20.5, 10.5}, {30.5, 10.5}}),
        unit_under_way(1, {22.5, 10.5}, std::numbers::pi, {{22.5, 10.5}, {10.5, 10.5}})};
    std::vector<PassageUnit> track(2);
    for (PassageUnit& t : track) t.move_key = key;
    PassageClaims claims;
    std::vector<std::vector<PassageTally>> tallies;
    std::vector<PassageWait> waits;
    const auto ask = [&](double now) {
      for (PassageUnit& t : track) t.waiting = false;
      keep_passages(units, maps, motions, grids, now, track, claims, tallies, waits);
      std::vector<std::uint32_t> waited;
      for (const PassageWait& w : waits) waited.push_back(w.unit);
      return waited;
    };
    CHECK(ask(1.0) == std::vector<std::uint32_t>{1});
    const Passage& p = maps[0].passages()[0];
    CHECK(p.held);
    CHECK(p.flow.x > 0.9);  // east, the way unit 0 goes
    CHECK_FALSE(track[0].waiting);
    CHECK(track[1].waiting);
    REQUIRE(waits.size() == 1);
    CHECK(waits[0].flow.x < -0.9);  // unit 1 would go west
    CHECK_FALSE(waits[0].at_spot);  // nothing claimed yet: it waits clear of the way
    // Unit 0 gone: unit 1 waits this step, at whose end the passage is free; the next
    // step it is let through, going west. While the passage is held, the queue keeps 6 m
    // clear of its mouths: unit 1, 2 m from it, steps to a cell farther off, on its side.
    units[0].alive = false;
    track[0].last_passage = -1;
    CHECK(ask(30.0) == std::vector<std::uint32_t>{1});
    REQUIRE(waits.size() == 1);
    CHECK(waits[0].at_spot);
    const Vec2 nearest{std::clamp(waits[0].spot.x, 20.0, 21.0), std::clamp(waits[0].spot.y, 10.0, 11.0)};
    CHECK(glm::length(waits[0].spot - nearest) > 6.0);
    CHECK(waits[0].spot.x > 21);
    CHECK_FALSE(maps[0].passages()[0].held);
    CHECK(ask(30.1).empty());
    CHECK_FALSE(track[1].waiting);
    CHECK(maps[0].passages()[0].held);
    CHECK(maps[0].passages()[0].flow.x < -0.9);
  }

  TEST_CASE(
      "detours: a held-up unit gets a way round a row of units, clear of each, or stops at a taken goal") {
    Scenario s = test::ascii_scenario(open_rows(30, 30));
    PlanningWorld world(s);
    const Motion m = resolve_motion(s.classes[0]);
    const Motion motions[1] = {m};
    const CostGrid* grids[1] = {&world.grid(0)};
    const std::uint16_t key = world.grid(0).move_key(0);
    // Unit 0 heads east from (10.5, 15.5), no progress since t = 0; a row of 8 standing
    // units across its way 1 m ahead, hard shapes touching; unit 9, far off, is under way
    // and has made progress a moment ago.
    const Vec2 start{10.5, 15.5}, end{25.5, 15.5};
    std::vector<SimUnit> units{unit_under_way(0, start, 0, {start, end})};
    for (std::uint32_t k = 0; k < 8; ++k) {
      SimUnit o = unit_under_way(k + 1, {11.5, 12.7 + 0.8 * k}, 0, {});
      o.route.state = MoveState::Idle;
      o.body.speed = 0;
      units.push_back(o);
    }
    units.push_back(unit_under_way(9, {3.5, 3.5}, 0, {{3.5, 3.5}, {3.5, 20.5}}));
    units[9].route.progress_time = 4.5;
    units.push_back(unit_under_way(10, {3.5, 4.3}, 0, {}));  // touching unit 9
    std::vector<DetourUnit> track(units.size(), DetourUnit{key, -1e300});
    DetourScratch scratch;
    std::vector<Detour> out;
    find_detours(units, track, motions, grids, 5.0, scratch, out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].unit == 0);
    CHECK_FALSE(out[0].goal_taken);
    REQUIRE(out[0].way.size() >= 2);
    CHECK(out[0].way.back() == end);
    CHECK(track[0].last_repath == 5.0);
    CHECK(track[9].last_repath == -1e300);
    // Every segment of the way, from where it stands, keeps clear of every standing unit's
    // hard shape (the two hard radii), by a point-to-segment distance worked out here.
    const auto clearance = [](Vec2 p, Vec2 a, Vec2 b) {
      const Vec2 ab = b - a;
      const double t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0, 1.0);
      return glm::length(p - (a + ab * t));
    };
    Vec2 from = start;
    double nearest = INFINITY;
    for (const Vec2 to : out[0].way) {
      for (std::uint32_t k = 1; k <= 8; ++k)
        nearest = std::min(nearest, clearance(units[k].body.position, from, to));
      from = to;
    }
    CHECK(nearest >= 2 * m.hard_radius - 1e-9);
    CHECK(clearance(units[4].body.position, start, end) < 2 * m.hard_radius);  // the straight line is not
    // One try per 2 s: asked again a second later, nothing.
    find_detours(units, track, motions, grids, 6.0, scratch, out);
    CHECK(out.empty());

    // Its path's end 0.8 m ahead, with unit 1 standing on it: it is there, its goal taken.
    std::vector<SimUnit> two{unit_under_way(0, start, 0, {start, start + Vec2{0.8, 0}}), units[1]};
    two[1].id.index = 1;
    two[1].body.position = start + Vec2{0.8, 0};
    std::vector<DetourUnit> track2(2, DetourUnit{key, -1e300});
    find_detours(two, track2, motions, grids, 5.0, scratch, out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].goal_taken);
    // Unit 1 passing (under way), not standing there: the goal is not taken.
    two[1].route.state = MoveState::Moving;
    two[1].route.progress_time = 5.0;
    track2 = std::vector<DetourUnit>(2, DetourUnit{key, -1e300});
    find_detours(two, track2, motions, grids, 5.0, scratch, out);
    for (const Detour& d : out) CHECK_FALSE(d.goal_taken);
  }
}

}  // namespace pathscope::sim
