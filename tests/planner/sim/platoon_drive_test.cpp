#include "planner/sim/platoon_drive.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace platoon_drive_test {

constexpr double kQuarterTurn = 1.5707963267948966;

/// An open 240 x 160 m world (2 m cells) with a platoon (group 1) of `n` units of
/// class `class_name` standing in its formation round (40, 80) facing east, ordered to
/// `goal` to face `heading` at the end.
Scenario platoon_scenario(const std::string& class_name, std::size_t n, const std::string& formation,
                          Vec2 goal, double heading) {
  Scenario s = make_empty_scenario(240, 160, 2);
  const std::size_t c = *s.find_class(class_name);
  const PlatoonFormation f = formation == "column" ? make_formation(FormationShape::Column, n, 10)
                             : formation == "line" ? make_formation(FormationShape::Line, n, 10)
                                                   : make_formation(FormationShape::Wedge, n, 10);
  UnitGroup g;
  g.id = 1;
  for (std::size_t k = 0; k < n; ++k) {
    Unit u;
    u.id = static_cast<std::uint32_t>(k + 1);
    u.movement_class = c;
    u.position = formation_point({60, 80}, 0, f.offsets[k]);
    u.heading = 0;
    s.units.push_back(u);
    g.units.push_back(u.id);
  }
  g.order = Order{OrderKind::Move, {goal}, PatrolMode::Loop};
  g.platoon = PlatoonSpec{formation, 10, heading};
  s.groups.push_back(g);
  return s;
}

/// Adds a rectangle of terrain `terrain` from `lo` to `hi` (metres) as a feature of `s`.
void add_rect(Scenario& s, const std::string& terrain, Vec2 lo, Vec2 hi) {
  Feature f;
  f.id = static_cast<std::uint32_t>(s.features.size() + 1);
  f.terrain = *s.find_terrain(terrain);
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = lo;
  f.shape.max = hi;
  s.features.push_back(f);
}

/// Runs `sim` for at most `seconds`, the referee checking every step, until the
/// platoon's order is done and every unit has arrived.
void run_until_arrived(Simulation& sim, SimReferee& referee, double seconds) {
  const auto steps = static_cast<int>(seconds / sim.scenario().sim.dt);
  for (int i = 0; i < steps; ++i) {
    sim.step();
    referee.check_step(sim);
    if (sim.platoons()[0].order == PlatoonOrderState::None && sim.arrived_count() == sim.unit_count()) return;
  }
}

}  // namespace platoon_drive_test

using platoon_drive_test::kQuarterTurn;
using platoon_drive_test::platoon_scenario;
using platoon_drive_test::run_until_arrived;

TEST_CASE("platoon in the simulation: four tanks in a wedge cross open ground and end in their slots") {
  Simulation sim(platoon_scenario("tracked", 4, "wedge", {200, 80}, kQuarterTurn));
  REQUIRE(sim.platoons().size() == 1);
  SimReferee referee;
  double worst_lag = 0;
  const auto steps = static_cast<int>(120 / sim.scenario().sim.dt);
  bool done = false;
  for (int i = 0; i < steps && !done; ++i) {
    sim.step();
    referee.check_step(sim);
    const PlatoonRun& p = sim.platoons()[0];
    if (p.order == PlatoonOrderState::Driving && p.targets.size() == 4) {
      for (std::size_t k = 0; k < 4; ++k) {
        worst_lag =
            std::max(worst_lag, glm::distance(sim.unit(p.slots[k])->body.position, p.targets[k].drive_to));
      }
    }
    done = p.order == PlatoonOrderState::None && sim.arrived_count() == 4;
  }
  CHECK(done);
  CHECK(referee.counts().hard_overlaps == 0);
  CHECK(referee.counts().tunnelled == 0);
  const GoalErrors goals = referee.goal_errors(sim);
  CHECK(goals.at_goal_pct == 100);
  // The slots at the end: the wedge round the goal, facing north on screen.
  const PlatoonRun& p = sim.platoons()[0];
  const PlatoonFormation wedge = make_formation(FormationShape::Wedge, 4, 10);
  for (std::size_t k = 0; k < 4; ++k) {
    CAPTURE(k);
    const Vec2 slot = formation_point({200, 80}, kQuarterTurn, wedge.offsets[k]);
    // The last turn ends within PlatoonParams::final_heading_tolerance (0.01 rad).
    CHECK(glm::distance(p.targets[k].drive_to, slot) <= 0.01 * glm::length(wedge.offsets[k]) + 1e-9);
    // Each stops within its arrival radius (seed 004: 2.5 m) and holds there.
    CHECK(glm::distance(sim.unit(p.slots[k])->body.position, p.targets[k].drive_to) <= 2.5 + 1e-9);
  }
  // The platoon never left a vehicle beyond its wait distance (2 x maxspeed).
  CHECK(worst_lag <= 2 * 12 + 1e-9);
}

TEST_CASE(
    "platoon in the simulation: wheeled cars and infantry in columns arrive, no overlap, same states twice") {
  for (const std::string cls : {"wheeled", "infantry"}) {
    CAPTURE(cls);
    const auto run = [&]() {
      Simulation sim(platoon_scenario(cls, 3, "column", {200, 40}, 0));
      SimReferee referee;
      run_until_arrived(sim, referee, 300);
      CHECK(sim.arrived_count() == 3);
      CHECK(referee.counts().hard_overlaps == 0);
      CHECK(referee.counts().tunnelled == 0);
      return sim.state_hash();
    };
    CHECK(run() == run());
  }
}

TEST_CASE(
    "platoon in the simulation: a vehicle ordered on its own leaves its slot empty, nobody is promoted") {
  Simulation sim(platoon_scenario("tracked", 3, "line", {200, 80}, 0));
  const UnitId lead = sim.platoons()[0].slots[0];
  const UnitId second = sim.platoons()[0].slots[1];
  const std::vector<UnitId> one{lead};
  REQUIRE(sim.give_order(one, Order{OrderKind::Move, {{60, 20}}, PatrolMode::Loop}).ok());
  const PlatoonRun& p = sim.platoons()[0];
  CHECK(p.slots[0].index == 0xffffffffu);
  CHECK(p.slots[1] == second);
  SimReferee referee;
  run_until_arrived(sim, referee, 200);
  CHECK(sim.arrived_count() == 3);
  // The others end in their own slots of the line round the goal (within the arrival
  // radius, the last turn's 0.01 rad on a 10 m offset too), slot 0 empty.
  const PlatoonFormation line = make_formation(FormationShape::Line, 3, 10);
  CHECK(glm::distance(sim.unit(second)->body.position, formation_point({200, 80}, 0, line.offsets[1])) <=
        2.5 + 0.1);
  CHECK(referee.counts().hard_overlaps == 0);
}

TEST_CASE(
    "platoon in the simulation: a waypoints order plans leg by leg and drives through every point in turn") {
  // Open ground with a wall across the middle; the waypoints go round its south end,
  // then back north: a path straight to the last point would go round the north end.
  Scenario s = platoon_scenario("tracked", 4, "wedge", {200, 40}, 0);
  s.groups[0].order = Order{};
  Feature wall;
  wall.id = 1;
  wall.terrain = *s.find_terrain("wall");
  wall.shape.kind = ShapeKind::Rect;
  wall.shape.min = {110, 20};
  wall.shape.max = {130, 130};
  s.features.push_back(wall);
  Simulation sim(s);
  const std::vector<Vec2> points{{100, 145}, {140, 145}, {200, 40}};
  REQUIRE(sim.order_platoon(1, Order{OrderKind::Waypoints, points, PatrolMode::Loop}, std::nullopt).ok());
  const PlatoonRun& p = sim.platoons()[0];
  CHECK(p.order == PlatoonOrderState::WaitingForPath);
  CHECK(p.goal == points.back());
  SimReferee referee;
  // The path, once found: through each point in order, each leg from the end of the one
  // before (no repeated point where two legs meet).
  std::size_t steps = 0;
  while (p.order == PlatoonOrderState::WaitingForPath && steps < 300) {
    sim.step();
    referee.check_step(sim);
    ++steps;
  }
  REQUIRE(p.order == PlatoonOrderState::Driving);
  CHECK(p.legs.empty());
  std::size_t next = 0;
  for (std::size_t i = 0; i < p.path.size(); ++i) {
    if (i > 0) CHECK(p.path[i] != p.path[i - 1]);
    if (next < points.size() && glm::distance(p.path[i], points[next]) < 1e-9) ++next;
  }
  CHECK(next == points.size());
  // The walk goes round the wall's south end: its lowest point is below the wall.
  double lowest = 0;
  for (const Vec2 q : p.path) lowest = std::max(lowest, q.y);
  CHECK(lowest >= 130);
  run_until_arrived(sim, referee, 300);
  CHECK(p.order == PlatoonOrderState::None);
  CHECK(sim.arrived_count() == 4);
  CHECK(referee.counts().hard_overlaps == 0);
  CHECK(referee.counts().tunnelled == 0);
  CHECK(referee.counts().inside_walls == 0);
}

TEST_CASE(
    "platoon in the simulation: a waypoints order whose second leg has no path fails with no path drawn") {
  // The second point lies inside a closed box of walls: the first leg is found, the
  // second is not, and the order fails whole.
  Scenario s = platoon_scenario("tracked", 3, "wedge", {200, 40}, 0);
  s.groups[0].order = Order{};
  platoon_drive_test::add_rect(s, "wall", {150, 100}, {190, 104});
  platoon_drive_test::add_rect(s, "wall", {150, 136}, {190, 140});
  platoon_drive_test::add_rect(s, "wall", {150, 100}, {154, 140});
  platoon_drive_test::add_rect(s, "wall", {186, 100}, {190, 140});
  Simulation sim(s);
  const std::vector<Vec2> points{{100, 145}, {170, 120}};
  REQUIRE(sim.order_platoon(1, Order{OrderKind::Waypoints, points, PatrolMode::Loop}, std::nullopt).ok());
  const PlatoonRun& p = sim.platoons()[0];
  bool had_first_leg = false;
  for (int k = 0; k < 300 && p.order == PlatoonOrderState::WaitingForPath; ++k) {
    sim.step();
    had_first_leg = had_first_leg || !p.path.empty();
  }
  CHECK(had_first_leg);
  // Failed, its vehicles' orders too (once none drives in it, it has no order left).
  CHECK(p.order != PlatoonOrderState::Driving);
  for (const UnitId id : p.slots) CHECK(sim.unit(id)->route.state == MoveState::Failed);
  CHECK(p.path.empty());
  CHECK(p.legs.empty());
}

TEST_CASE(
    "platoon in the simulation: with break_when_blocked a platoon with no path breaks and re-forms at the "
    "goal") {
  // A wheeled car and an infantry unit in a wedge; the goal lies inside a ring of forest,
  // which the car (the widest vehicle: the platoon's path class) cannot enter and the
  // infantry can. The platoon finds no path. Without the setting the order fails for
  // both; with it, each goes to its slot at the goal on its own: the infantry gets
  // there, the car finds no path of its own.
  const auto scenario = [](bool breaks) {
    Scenario s = platoon_scenario("wheeled", 2, "wedge", {180, 80}, 0);
    s.units[1].movement_class = *s.find_class("infantry");
    s.groups[0].platoon->break_when_blocked = breaks;
    platoon_drive_test::add_rect(s, "forest", {150, 50}, {210, 56});
    platoon_drive_test::add_rect(s, "forest", {150, 104}, {210, 110});
    platoon_drive_test::add_rect(s, "forest", {150, 50}, {156, 110});
    platoon_drive_test::add_rect(s, "forest", {204, 50}, {210, 110});
    return s;
  };
  {
    Simulation sim(scenario(false));
    const PlatoonRun& p = sim.platoons()[0];
    const Vec2 foot_start = sim.unit(p.slots[1])->body.position;
    for (int k = 0; k < 300; ++k) sim.step();
    for (const UnitId id : p.slots) CHECK(sim.unit(id)->route.state == MoveState::Failed);
    CHECK(glm::distance(sim.unit(p.slots[1])->body.position, foot_start) < 0.5);
  }
  {
    Simulation sim(scenario(true));
    SimReferee referee;
    const PlatoonRun& p = sim.platoons()[0];
    CHECK(p.break_when_blocked);
    // Its slot at the goal: the wedge's left rung, facing the way from the platoon to the goal.
    const Vec2 pose = sim.unit(p.slots[0])->body.position;
    const Vec2 slot = formation_point({180, 80}, std::atan2(-(80 - pose.y), 180 - pose.x), p.to.offsets[1]);
    for (int k = 0; k < 3000 && !sim.unit(p.slots[1])->goal.arrived; ++k) {
      sim.step();
      referee.check_step(sim);
    }
    CHECK(p.order == PlatoonOrderState::None);
    CHECK(p.path.empty());
    const SimUnit& foot = *sim.unit(p.slots[1]);
    CHECK(foot.goal.arrived);
    CHECK(glm::distance(foot.body.position, slot) < 0.5);
    CHECK(sim.unit(p.slots[0])->route.state == MoveState::Failed);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().tunnelled == 0);
    CHECK(referee.counts().inside_walls == 0);
  }
}

TEST_CASE("platoon in the simulation: orders and formation changes refuse what does not exist, naming it") {
  Simulation sim(platoon_scenario("tracked", 2, "wedge", {200, 80}, 0));
  CHECK(sim.order_platoon(7, Order{OrderKind::Move, {{10, 10}}, PatrolMode::Loop}, std::nullopt)
            .error()
            .where == "group");
  CHECK(sim.change_formation(1, "phalanx").error().where == "formation");
  CHECK(sim.change_formation(1, "column").ok());
  CHECK(sim.order_platoon(1, Order{OrderKind::Move, {{10, 10}}, PatrolMode::Loop}, std::nan(""))
            .error()
            .where == "heading");
}

}  // namespace pathscope::sim
