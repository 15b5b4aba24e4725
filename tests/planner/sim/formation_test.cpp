#include "planner/sim/formation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/sim_cases.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;
using test_support::open_rows;
using test_support::step_checked;

// A scenario of `rows` with units at `positions` (ids 1..) given one order as group 1.
Scenario group_scenario(const std::vector<std::string>& rows, const std::vector<Vec2>& positions,
                        Order order) {
  Scenario s = test::ascii_scenario(rows);
  UnitGroup g{1, "group", {}, std::move(order)};
  for (std::size_t i = 0; i < positions.size(); ++i) {
    s.units.push_back(unit_at(std::uint32_t(i + 1), positions[i]));
    g.units.push_back(std::uint32_t(i + 1));
  }
  s.groups = {g};
  return s;
}

// A column of `n` units along y = `y`, its head at x = `head`, 1.2 m apart, going +x.
std::vector<Vec2> column(int n, double head, double y) {
  std::vector<Vec2> out;
  for (int i = 0; i < n; ++i) out.push_back({head - 1.2 * i, y});
  return out;
}

// True if a disc of radius r at p touches a cell that is not '.' in `rows` (or leaves them).
bool touches_closed(const std::vector<std::string>& rows, Vec2 p, double r) {
  for (int y = 0; y < int(rows.size()); ++y) {
    for (int x = 0; x < int(rows[0].size()); ++x) {
      if (rows[std::size_t(y)][std::size_t(x)] == '.') continue;
      const double cx = std::clamp(p.x, double(x), x + 1.0), cy = std::clamp(p.y, double(y), y + 1.0);
      if ((cx - p.x) * (cx - p.x) + (cy - p.y) * (cy - p.y) < r * r) return true;
    }
  }
  return p.x - r < 0 || p.y - r < 0 || p.x + r > double(rows[0].size()) || p.y + r > double(rows.size());
}

std::vector<Vec2> goals(const Simulation& sim) {
  std::vector<Vec2> out;
  for (const SimUnit& u : sim.slots()) {
    if (u.alive && !u.route.order.points.empty()) out.push_back(u.route.order.points.back());
  }
  return out;
}

double hard_radius(const Simulation& sim) { return resolve_motion(sim.scenario().classes[0]).hard_radius; }

}  // namespace

TEST_CASE("formation: a group's slots are distinct, spaced by two hard radii and more, and open") {
  const std::vector<std::string> rows = {
      "..............................", "..............................", "..........##..................",
      "..........##......#...........", "..................#...........", "..............................",
      "..............................", "........#.....................", "..............................",
      "..............................",
  };
  const Scenario s = group_scenario(rows, column(9, 11.5, 1.5), move_to({19.5, 5.5}));
  Simulation sim(s);
  const std::vector<Vec2> g = goals(sim);
  REQUIRE(g.size() == 9);
  const double r = hard_radius(sim);
  const auto cell = [&](Vec2 p) { return *sim.world().grid(0).cell_at(p); };
  for (std::size_t i = 0; i < g.size(); ++i) {
    CAPTURE(i);
    CHECK_FALSE(touches_closed(rows, g[i], r));
    CHECK(sim.world().regions(0).connected(cell(g[i]), cell(sim.slots()[i].body.position)));
    CHECK(sim.slots()[i].goal.formation);
    CHECK(sim.slots()[i].goal.formation_point == Vec2{19.5, 5.5});
    for (std::size_t j = i + 1; j < g.size(); ++j) CHECK(glm::length(g[i] - g[j]) >= 2 * r);
  }
  // Compact: every slot within two lattice steps of the ordered point.
  const double spacing = std::max(2 * resolve_motion(s.classes[0]).soft_radius, 2 * r + kSlotMargin);
  for (const Vec2 p : g) CHECK(glm::length(p - Vec2{19.5, 5.5}) <= 2 * spacing * std::sqrt(2.0) + 1e-9);
}

TEST_CASE("formation: the column's head takes a slot of the farthest row, and the tail one of the nearest") {
  const Scenario s = group_scenario(open_rows(40, 20), column(8, 12.5, 10.5), move_to({30.5, 10.5}));
  Simulation sim(s);
  const std::vector<Vec2> g = goals(sim);
  REQUIRE(g.size() == 8);
  double front = -1e300, back = 1e300;
  for (const Vec2 p : g) {
    front = std::max(front, p.x);
    back = std::min(back, p.x);
  }
  CHECK(front > 30.5);
  CHECK(g[0].x == front);  // unit 1 is the head (x = 12.5)
  CHECK(g[7].x == back);   // unit 8 the tail
  // Rows are taken in column order: no unit's slot lies behind that of a unit behind it.
  for (std::size_t i = 0; i + 1 < g.size(); ++i) CHECK(g[i].x >= g[i + 1].x);

  // The same through the planner's function: travelling -x, the head is the leftmost unit.
  const PlanningWorld& world = sim.world();
  std::vector<FormationUnit> units;
  for (int i = 0; i < 6; ++i)
    units.push_back({{20.5 + 1.2 * i, 4.5}, 0, move_key_at(world.grid(0), {20.5, 4.5}), 0.4, 0.6});
  const FormationPlan plan = plan_formation(world, units, {5.5, 4.5}, travel_direction(units, {5.5, 4.5}));
  CHECK(plan.direction == Vec2{-1, 0});
  int best = plan.slots[0].row;
  for (const FormationSlot& slot : plan.slots) best = std::max(best, slot.row);
  CHECK(plan.slots[0].row == best);
  CHECK(plan.slots[0].position.x <= plan.slots[5].position.x);
}

TEST_CASE("formation: a group ordered beside a wall, or into it, gets no slot in the wall nor past it") {
  // A wall from top to bottom: the east side is another region.
  std::vector<std::string> rows = open_rows(30, 16);
  for (std::string& row : rows) row[15] = '#';
  for (const Vec2 point : {Vec2{14.5, 8.5}, Vec2{15.5, 8.5}, Vec2{14.5, 0.5}}) {
    CAPTURE(point.x);
    CAPTURE(point.y);
    const Scenario s = group_scenario(rows, column(12, 10.5, 8.5), move_to(point));
    Simulation sim(s);
    const std::vector<Vec2> g = goals(sim);
    REQUIRE(g.size() == 12);
    for (const Vec2 p : g) {
      CHECK_FALSE(touches_closed(rows, p, hard_radius(sim)));
      CHECK(p.x < 15);  // the units' side
    }
  }
}

TEST_CASE("formation: every unit of a group ordered across open ground arrives at its own slot") {
  const Scenario s = group_scenario(open_rows(40, 20), column(8, 12.5, 10.5), move_to({30.5, 10.5}));
  Simulation sim(s);
  for (int i = 0; i < 60 * 30 && sim.arrived_count() < 8; ++i) sim.step();
  CHECK(sim.arrived_count() == 8);
  // At its slot, or where a unit arriving after it shoved it (arrived units stay where
  // they are pushed): within a unit's width.
  for (const SimUnit& u : sim.slots())
    CHECK(glm::length(u.body.position - u.route.order.points.back()) < 2.5 * hard_radius(sim));
}

TEST_CASE("formation: a group of 100 through a gap swaps slots on the way in, and every unit arrives" *
          doctest::test_suite("sim-long")) {
  // The funnel case's 100 units as one group order: the formation fills from the side of
  // the gap, and a unit whose slot lies deep in it swaps with the settled ones in its way.
  Scenario s = funnel_case(100);
  UnitGroup g{1, "funnel", {}, move_to({s.world.width - 4 - 5 * 0.75, 19.5})};
  for (const Unit& u : s.units) g.units.push_back(u.id);
  s.groups = {g};
  Simulation sim(s);
  SimReferee referee;
  std::vector<Vec2> before = goals(sim);
  std::size_t swaps = 0;
  const UnitId none{std::numeric_limits<std::uint32_t>::max(), 0};
  UnitId last_a = none, last_b = none;
  double all = -1;
  for (int i = 0; i < 300 * 30 && all < 0; ++i) {
    step_checked(sim, referee);
    for (const Collision& c : sim.collisions()) {
      if (c.rule != CooperationRule::SwapSlots || (c.a == last_a && c.b == last_b)) continue;
      ++swaps;  // (counted once per remembered pair in a row)
      last_a = c.a;
      last_b = c.b;
    }
    if (sim.arrived_count() == 100) all = sim.time();
  }
  CHECK(swaps > 0);
  // All within 200 s (about 167 s; 217 s without the swaps).
  CHECK(all > 0);
  CHECK(all < 200);
  CHECK(referee.counts().hard_overlaps == 0);
  CHECK(referee.counts().tunnelled == 0);
  // Swaps only trade slots: the formation's slots are the same, one unit each.
  std::vector<Vec2> after = goals(sim);
  auto less = [](Vec2 p, Vec2 q) { return p.x < q.x || (p.x == q.x && p.y < q.y); };
  std::sort(before.begin(), before.end(), less);
  std::sort(after.begin(), after.end(), less);
  CHECK(before == after);
}

TEST_CASE("formation: off, or one unit, or a patrol: every unit keeps the ordered points") {
  const std::vector<Vec2> positions = column(5, 12.5, 10.5);
  SUBCASE("off") {
    Scenario s = group_scenario(open_rows(40, 20), positions, move_to({30.5, 10.5}));
    s.sim.formation_goals = false;
    Simulation sim(s);
    for (const SimUnit& u : sim.slots()) {
      CHECK(u.route.order == move_to({30.5, 10.5}));
      CHECK_FALSE(u.goal.formation);
    }
  }
  SUBCASE("one unit") {
    Scenario s = group_scenario(open_rows(40, 20), positions, Order{});
    Simulation sim(s);
    const UnitId id = sim.slots()[2].id;
    REQUIRE(sim.give_order(std::span(&id, 1), move_to({30.5, 10.5})).value() == 1);
    CHECK(sim.slots()[2].route.order == move_to({30.5, 10.5}));
    CHECK_FALSE(sim.slots()[2].goal.formation);
  }
  SUBCASE("patrol") {
    const Order patrol{OrderKind::Patrol, {{30.5, 10.5}, {30.5, 3.5}}, PatrolMode::Loop};
    Simulation sim(group_scenario(open_rows(40, 20), positions, patrol));
    for (const SimUnit& u : sim.slots()) CHECK(u.route.order == patrol);
  }
  SUBCASE("waypoints: only the last point, rows facing the last leg") {
    const Order route{OrderKind::Waypoints, {{30.5, 10.5}, {30.5, 3.5}}, PatrolMode::Loop};
    Simulation sim(group_scenario(open_rows(40, 20), positions, route));
    double front = 1e300;
    for (const SimUnit& u : sim.slots()) {
      REQUIRE(u.route.order.points.size() == 2);
      CHECK(u.route.order.points[0] == Vec2{30.5, 10.5});
      front = std::min(front, u.route.order.points[1].y);
    }
    CHECK(sim.slots()[0].route.order.points[1].y == front);  // going -y, the head's row is the lowest y
  }
}

TEST_CASE("formation: an order given twice to the same units gives the same slots and the same run") {
  const std::vector<std::string> rows = {
      "........................", "........................", "..........#.............",
      "..........#.............", "..........#.............", "........................",
      "........................", "........................",
  };
  Scenario s = group_scenario(rows, {{2.5, 1.5}, {3.5, 3.5}, {2.5, 5.5}, {4.5, 6.5}, {1.5, 2.5}, {5.5, 4.5}},
                              move_to({18.5, 4.5}));
  Simulation a(s), b(s);
  CHECK(goals(a) == goals(b));
  for (int i = 0; i < 400; ++i) {
    a.step();
    b.step();
    REQUIRE(a.state_hash() == b.state_hash());
  }
  // The mouse's way (give_order) gives what the scenario's group gave.
  Scenario plain = s;
  plain.groups.clear();
  Simulation c(plain);
  std::vector<UnitId> ids;
  for (const SimUnit& u : c.slots()) ids.push_back(u.id);
  REQUIRE(c.give_order(ids, move_to({18.5, 4.5})).value() == 6);
  Simulation d(s);
  CHECK(goals(c) == goals(d));
}

TEST_CASE("formation: a saved game keeps each unit's slot and the ordered point") {
  const Scenario s = group_scenario(open_rows(40, 20), column(4, 12.5, 10.5), move_to({30.5, 10.5}));
  Simulation sim(s);
  for (int i = 0; i < 30; ++i) sim.step();
  Simulation restored(saved_game(sim));
  REQUIRE(restored.restore_state(sim.state_json()).ok());
  for (std::size_t i = 0; i < sim.slots().size(); ++i) {
    CHECK(restored.slots()[i].goal.formation);
    CHECK(restored.slots()[i].goal.formation_point == Vec2{30.5, 10.5});
    CHECK(restored.slots()[i].route.order == sim.slots()[i].route.order);
  }
  CHECK(restored.state_hash() == sim.state_hash());
}

}  // namespace pathscope::sim
