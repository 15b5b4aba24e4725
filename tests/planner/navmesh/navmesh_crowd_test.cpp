// DetourCrowd beside the unit simulation: the scenario's units as crowd agents on their
// classes' navmeshes, and the crowd referee that checks them (overlaps against an all-pairs
// count, moves through walls against the test's own sampling, goal errors).

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "planner/navmesh/crowd_referee.hpp"
#include "planner/navmesh/crowd_run.hpp"
#include "planner/navmesh/navmesh_crowd.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

// A room 24 x 12 with a wall down the middle and a gap of 4 cells in it.
std::vector<std::string> gap_room() {
  std::vector<std::string> rows(12, std::string(24, '.'));
  for (int y = 0; y < 12; ++y) {
    if (y < 4 || y >= 8) rows[std::size_t(y)][12] = '#';
  }
  return rows;
}

// All pairs overlapping deeper than 1e-6, counted by brute force.
std::size_t overlapping_pairs(const std::vector<CrowdAgent>& agents) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    for (std::size_t j = i + 1; j < agents.size(); ++j) {
      const double d = std::hypot(agents[i].position.x - agents[j].position.x,
                                  agents[i].position.y - agents[j].position.y);
      if (agents[i].radius + agents[j].radius - d > 1e-6) ++n;
    }
  }
  return n;
}

// True when some sample of the segment lies strictly inside a wall cell of the room.
bool sampled_through_wall(const std::vector<std::string>& rows, Vec2 a, Vec2 b) {
  for (int k = 0; k <= 1000; ++k) {
    const double t = k / 1000.0;
    const double x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t;
    const int cx = int(std::floor(x)), cy = int(std::floor(y));
    if (cy < 0 || cx < 0 || cy >= int(rows.size()) || cx >= int(rows[0].size())) continue;
    if (rows[std::size_t(cy)][std::size_t(cx)] == '#' && x - cx > 1e-3 && cx + 1 - x > 1e-3 &&
        y - cy > 1e-3 && cy + 1 - y > 1e-3)
      return true;
  }
  return false;
}

// A lake between the west and the east shore, land round it along the top and bottom.
std::vector<std::string> lake_rows() {
  std::vector<std::string> rows(14, std::string(30, '.'));
  for (int y = 3; y < 11; ++y) {
    for (int x = 8; x < 22; ++x) rows[std::size_t(y)][std::size_t(x)] = 'w';
  }
  return rows;
}

// The symbol of the cell whose inside holds `p` (a millimetre in from its sides), or ' '
// for a point on a cell's side or outside the map: read from the drawing, not the world.
char cell_inside(const std::vector<std::string>& rows, Vec2 p) {
  const int cx = int(std::floor(p.x)), cy = int(std::floor(p.y));
  if (cy < 0 || cx < 0 || cy >= int(rows.size()) || cx >= int(rows[0].size())) return ' ';
  if (p.x - cx < 1e-3 || cx + 1 - p.x < 1e-3 || p.y - cy < 1e-3 || cy + 1 - p.y < 1e-3) return ' ';
  return rows[std::size_t(cy)][std::size_t(cx)];
}

}  // namespace

TEST_CASE("crowd: units through a gap reach their goals as DetourCrowd agents, never through the wall") {
  Scenario s = test::ascii_scenario(gap_room());
  s.units = {test::unit_at(1, {3.5, 2.5}, test::move_to({20.5, 9.5})),
             test::unit_at(2, {3.5, 9.5}, test::move_to({20.5, 2.5})),
             test::unit_at(3, {20.5, 6.0}, test::move_to({3.5, 6.0})),
             test::unit_at(4, {1.5, 10.5})};  // no order: stands
  const PlanningWorld world(s);
  auto made = NavmeshCrowd::create(world, CrowdSettings{});
  REQUIRE(made.ok());
  NavmeshCrowd& crowd = **made;
  REQUIRE(crowd.agents().size() == 4);
  CHECK(crowd.agents()[0].has_goal);
  CHECK_FALSE(crowd.agents()[3].has_goal);
  CrowdReferee referee(world);
  const double dt = 1.0 / 30;
  for (int i = 0; i < 60 * 30 && referee.counts().seconds_to_arrive < 0; ++i) {
    crowd.step(dt);
    referee.check_step(crowd.agents(), dt);
    for (const CrowdAgent& a : crowd.agents())
      REQUIRE_FALSE(sampled_through_wall(gap_room(), a.previous, a.position));
  }
  const CrowdGoals goals = referee.goals(crowd.agents());
  CHECK(goals.ordered == 3);
  CHECK(goals.at_goal == 3);
  CHECK(referee.counts().seconds_to_arrive > 10);  // about 18 m at 1 m/s
  CHECK(referee.counts().tunnelled == 0);
  CHECK(referee.counts().inside_walls == 0);
  CHECK(referee.counts().jumps == 0);
  // Each agent is its unit: same order, class and radius.
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(crowd.agents()[i].unit == i);
    CHECK(crowd.agents()[i].radius == doctest::Approx(0.4));
  }
}

TEST_CASE("crowd: a unit inside a wall is refused, naming it") {
  Scenario s = test::ascii_scenario(gap_room());
  s.units = {test::unit_at(7, {12.5, 1.5}, test::move_to({3.5, 3.5}))};
  const PlanningWorld world(s);
  auto made = NavmeshCrowd::create(world, CrowdSettings{});
  REQUIRE_FALSE(made.ok());
  CHECK(made.error().to_string().find("unit 7") != std::string::npos);
}

TEST_CASE(
    "crowd referee: its overlap count equals all pairs by brute force, and it fires on planted faults") {
  const Scenario s = test::ascii_scenario(gap_room());
  const PlanningWorld world(s);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> x(0.5, 23.5), y(0.5, 11.5), r(0.2, 0.8);
  for (int round = 0; round < 20; ++round) {
    std::vector<CrowdAgent> agents(60);
    for (CrowdAgent& a : agents) {
      a.radius = r(rng);
      a.position = a.previous = Vec2{x(rng), y(rng)};
    }
    CrowdReferee referee(world);
    referee.check_step(agents, 1.0 / 30);
    CHECK(referee.counts().hard_overlaps == overlapping_pairs(agents));
  }
  // Planted: a move across the wall, a centre inside it.
  std::vector<CrowdAgent> agents(2);
  agents[0].radius = agents[1].radius = 0.4;
  agents[0].previous = {11.5, 1.5};
  agents[0].position = {13.5, 1.5};  // through cell (12, 1)
  agents[1].previous = agents[1].position = {12.5, 10.5};
  CrowdReferee referee(world);
  referee.check_step(agents, 1.0 / 30);
  CHECK(referee.counts().tunnelled == 1);
  CHECK(referee.counts().inside_walls == 1);
  CHECK(referee.counts().hard_overlaps == 0);
  // 2 m in a thirtieth of a second at 1 m/s: more than the speed and a diameter (0.833 m).
  CHECK(referee.counts().jumps == 1);
  CHECK(referee.counts().longest_step_m == doctest::Approx(2.0));
  // Along the wall's face, not into it: no tunnel.
  agents[0].previous = {11.0, 1.5};
  agents[0].position = {11.0, 3.5};
  agents[1].previous = agents[1].position = {12.0, 3.5};  // on a wall cell's side: its boundary, not inside
  CrowdReferee clean(world);
  clean.check_step(agents, 1.0 / 30);
  CHECK(clean.counts().tunnelled == 0);
  CHECK(clean.counts().inside_walls == 0);
  CHECK(clean.counts().jumps == 1);  // 2 m again
  // Within the speed and a diameter: 0.8 m in a step of 1/30 s is no jump (0.833 m allowed).
  agents[0].previous = {5.0, 5.0};
  agents[0].position = {5.8, 5.0};
  agents[1].previous = agents[1].position = {20.0, 5.0};
  CrowdReferee pushed(world);
  pushed.check_step(agents, 1.0 / 30);
  CHECK(pushed.counts().jumps == 0);
}

TEST_CASE("crowd: land agents never stand on water and water agents never on land (each group's polygons)") {
  // Land and water polygons share the shore. With one filter for every group, land agents
  // walked straight across the lake to the east shore and a boat ordered to the lake's
  // far end could leave it.
  const std::vector<std::string> rows = lake_rows();
  Scenario s = test::ascii_scenario(rows);
  s.units = {test::unit_at(1, {3.5, 5.5}, test::move_to({26.5, 5.5})),
             test::unit_at(2, {3.5, 8.5}, test::move_to({26.5, 8.5})),
             test::unit_at(3, {26.5, 7.5}, test::move_to({3.5, 7.5})),
             test::unit_at(4, {9.5, 6.5}, test::move_to({20.5, 7.5})),     // a boat
             test::unit_at(5, {20.5, 4.5}, test::move_to({9.5, 9.5})),     // a boat
             test::unit_at(6, {3.5, 12.5}, test::move_to({15.5, 7.5})),    // land ordered into the lake
             test::unit_at(7, {15.5, 9.5}, test::move_to({27.5, 12.5}))};  // a boat ordered ashore
  const PlanningWorld world(s);
  auto made = NavmeshCrowd::create(world, CrowdSettings{});
  REQUIRE(made.ok());
  NavmeshCrowd& crowd = **made;
  // A goal in another group than the start is no target: those units stand.
  CHECK(crowd.agents()[3].has_goal);
  CHECK_FALSE(crowd.agents()[5].has_goal);
  CHECK_FALSE(crowd.agents()[6].has_goal);
  std::vector<char> group(crowd.agents().size());
  for (std::size_t i = 0; i < group.size(); ++i) {
    group[i] = cell_inside(rows, s.units[i].position);
    REQUIRE((group[i] == '.' || group[i] == 'w'));  // each starts inside a cell of its group
  }
  CrowdReferee referee(world);
  const double dt = 1.0 / 30;
  std::size_t wet = 0, dry = 0;
  for (int i = 0; i < 90 * 30 && referee.counts().seconds_to_arrive < 0; ++i) {
    crowd.step(dt);
    referee.check_step(crowd.agents(), dt);
    for (std::size_t k = 0; k < crowd.agents().size(); ++k) {
      const CrowdAgent& a = crowd.agents()[k];
      // The move's samples too, not only where it ended.
      for (int t = 0; t <= 20; ++t) {
        const Vec2 p = a.previous + (a.position - a.previous) * (t / 20.0);
        const char under = cell_inside(rows, p);
        CAPTURE(k);
        CAPTURE(i);
        if (group[k] == '.' && under == 'w') ++wet;
        if (group[k] == 'w' && under == '.') ++dry;
      }
    }
  }
  CHECK(wet == 0);
  CHECK(dry == 0);
  // Round the lake, not through it: every unit with a goal reaches it.
  const CrowdGoals goals = referee.goals(crowd.agents());
  CHECK(goals.ordered == 5);
  CHECK(goals.at_goal == 5);
  // The land units walked round: more than the 23 m straight across at 1 m/s.
  CHECK(referee.counts().seconds_to_arrive > 26);
  // The two without a target stayed about where they stood (pushed aside at most).
  for (const std::size_t k : {std::size_t(5), std::size_t(6)}) {
    const Vec2 d = crowd.agents()[k].position - s.units[k].position;
    CHECK(std::hypot(d.x, d.y) < 2.0);
  }
}

TEST_CASE(
    "crowd run: steps by the scenario's dt, takes orders as the units would, refuses another group's goal") {
  Scenario s = test::ascii_scenario(lake_rows());
  s.sim.dt = 0.05;
  s.units = {test::unit_at(1, {3.5, 5.5}, test::move_to({3.5, 1.5})), test::unit_at(2, {3.5, 8.5}),
             test::unit_at(3, {5.5, 12.5}), test::unit_at(4, {12.5, 6.5})};  // a boat
  auto made = CrowdRun::create(s);
  REQUIRE(made.ok());
  CrowdRun& run = **made;
  CHECK(run.steps() == 0);
  CHECK(run.goals().ordered == 1);
  // Units 2 and 3 to the east shore; the boat cannot go ashore, nor a land unit into the
  // lake: each terrain group keeps to its own polygons.
  const std::vector<std::size_t> second = {1}, third = {2};
  CHECK(run.order(second, {26.5, 12.5}) == 1);
  CHECK(run.order(third, {23.5, 12.5}) == 1);
  const std::vector<std::size_t> boat = {3};
  CHECK(run.order(boat, {26.5, 1.5}) == 0);
  CHECK_FALSE(run.agents()[3].has_goal);
  const std::vector<std::size_t> first = {0};
  CHECK(run.order(first, {12.5, 5.5}) == 0);  // into the lake: refused, and it stops
  CHECK_FALSE(run.agents()[0].has_goal);
  CHECK(run.goals().ordered == 2);
  for (int i = 0; i < 60 * 20 && run.counts().seconds_to_arrive < 0; ++i) run.step();
  CHECK(run.goals().at_goal == 2);
  CHECK(run.time() == doctest::Approx(double(run.steps()) * 0.05));
  CHECK(run.time() > 20);  // about 23 m at 1 m/s
  CHECK(run.moved(0.5) == 2);
  CHECK(run.counts().tunnelled == 0);
}
