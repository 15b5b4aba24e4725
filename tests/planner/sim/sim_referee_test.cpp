#include "planner/sim/sim_referee.hpp"

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "planner/sim/simulation.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/sim/sim_test_support.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

using test::move_to;
using test::unit_at;
using test_support::open_rows;
using test_support::teleport;

// Adds a class like class 0 (the same terrain costs) and returns its index.
std::size_t add_class(Scenario& s, MovementClass c) {
  s.classes.push_back(std::move(c));
  for (TerrainType& t : s.terrains) t.cost.push_back(t.cost[0]);
  return s.classes.size() - 1;
}

}  // namespace

TEST_SUITE("sim referee") {
  TEST_CASE("the referee finds a planted overlap and counts each pair once") {
    Scenario s = test::ascii_scenario(open_rows(10, 6));
    s.units = {unit_at(1, {2.0, 2.0}), unit_at(2, {2.5, 2.0}), unit_at(3, {7.0, 4.0})};
    Simulation sim(s);
    SimReferee referee;
    referee.check_step(sim);  // as placed
    CHECK(referee.counts().hard_overlaps == 1);
    CHECK(referee.counts().overlaps_now == 1);
    CHECK(referee.counts().max_overlap_m == doctest::Approx(0.3));
    for (int i = 0; i < 10; ++i) {
      sim.step();
      referee.check_step(sim);
    }
    // Prevention separated them; the pair stays counted once.
    CHECK(referee.counts().overlaps_now == 0);
    CHECK(referee.counts().hard_overlaps == 1);
    CHECK(referee.counts().tunnelled == 0);
    CHECK(referee.counts().steps == 11);
  }

  TEST_CASE("the referee finds an overlap of elongated units that centre-line extents miss") {
    Scenario s = test::ascii_scenario(open_rows(10, 10));
    s.classes[0].radius = 1;
    s.classes[0].hard_aspect = 0.5;
    // Leaning towards each other like the sides of a roof, their radii along the centre
    // line summing to the distance (2 x 0.6325 m).
    Unit a = unit_at(1, {4.0, 5.0}), b = unit_at(2, {4.0 + 2 * 0.5 / std::sqrt(0.625), 5.0});
    a.heading = 3 * std::numbers::pi / 4;
    b.heading = std::numbers::pi / 4;
    s.units = {a, b};
    Simulation sim(s);
    SimReferee referee;
    referee.check_step(sim);
    CHECK(referee.counts().hard_overlaps == 1);
    CHECK(referee.counts().max_overlap_m > 0.2);
  }

  TEST_CASE("the referee gives zeros for units that keep apart and out of walls") {
    Scenario s = test::ascii_scenario({
        "............",
        "....####....",
        "....#.......",
        "............",
    });
    s.units = {unit_at(1, {0.5, 0.5}, move_to({11.5, 2.5})), unit_at(2, {11.5, 0.5}, move_to({0.5, 3.5})),
               unit_at(3, {6.5, 3.5})};
    Simulation sim(s);
    SimReferee referee;
    for (int i = 0; i < 600; ++i) {
      sim.step();
      referee.check_step(sim);
    }
    CHECK(sim.arrived_count() == 2);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().max_overlap_m == 0);
    CHECK(referee.counts().tunnelled == 0);
    CHECK(referee.counts().inside_walls == 0);
    const GoalErrors g = referee.goal_errors(sim);
    CHECK(g.ordered == 2);
    CHECK(g.at_goal_pct == 100);
    CHECK(g.max_goal_error_m < 0.5);
  }

  TEST_CASE("the referee finds a unit that jumped across a one-cell wall") {
    Scenario s = test::ascii_scenario({
        "...#.ww",
        "...#.ww",
        "...#.ww",
    });
    s.units = {unit_at(1, {1.5, 1.5})};
    Simulation sim(s);
    SimReferee referee;
    sim.step();
    referee.check_step(sim);
    CHECK(referee.counts().tunnelled == 0);
    teleport(sim, 0, {4.5, 1.5});
    sim.step();
    referee.check_step(sim);
    CHECK(referee.counts().tunnelled_walls == 1);
    CHECK(referee.counts().tunnelled == 1);
    CHECK(referee.counts().inside_walls == 0);
    sim.step();
    referee.check_step(sim);
    CHECK(referee.counts().tunnelled == 1);  // each unit once
    // Into water (another terrain group): a tunnel, and the unit is in a cell closed to it.
    teleport(sim, 0, {5.5, 0.5});
    sim.step();
    referee.check_step(sim);
    CHECK(referee.counts().tunnelled_walls == 1);  // the same unit
    CHECK(referee.counts().inside_walls == 1);
    CHECK(referee.counts().inside_walls_now == 1);
  }

  TEST_CASE("the referee finds a unit inside a wall") {
    Scenario s = test::ascii_scenario({
        "...#...",
        "...#...",
        "...#...",
    });
    s.units = {unit_at(1, {1.5, 1.5}), unit_at(2, {5.5, 1.5})};
    Simulation sim(s);
    teleport(sim, 1, {3.5, 1.5});
    SimReferee referee;
    referee.check_step(sim);
    CHECK(referee.counts().inside_walls == 1);
    CHECK(referee.counts().inside_walls_now == 1);
    CHECK(referee.counts().tunnelled == 0);  // it did not move there within a step
    // On the wall's border is not inside it.
    teleport(sim, 1, {3.0, 1.5});
    SimReferee on_border;
    on_border.check_step(sim);
    CHECK(on_border.counts().inside_walls == 0);
  }

  TEST_CASE("the referee finds a unit that jumped through another unit") {
    Scenario s = test::ascii_scenario(open_rows(12, 5));
    s.units = {unit_at(1, {2.0, 2.5}), unit_at(2, {6.0, 2.5})};
    Simulation sim(s);
    SimReferee referee;
    referee.check_step(sim);
    teleport(sim, 0, {10.0, 2.5});
    sim.step();
    referee.check_step(sim);
    CHECK(referee.counts().tunnelled_units == 1);  // the jumper, not the unit it went through
    CHECK(referee.counts().tunnelled == 1);
    CHECK(referee.counts().hard_overlaps == 0);
    CHECK(referee.counts().tunnelled_walls == 0);
  }

  TEST_CASE("elongated units: a jump through is found, a pass beside the ellipse is not") {
    Scenario s = test::ascii_scenario(open_rows(10, 8));
    s.classes[0].radius = 1;
    s.classes[0].hard_aspect = 0.4;
    // All pointing up the screen: 1 m along (vertically), 0.4 m across.
    Unit a = unit_at(1, {3.0, 4.0}), b = unit_at(2, {5.0, 4.0}), c = unit_at(3, {6.0, 1.0});
    a.heading = b.heading = c.heading = std::numbers::pi / 2;
    s.units = {a, b, c};
    Simulation sim(s);
    SimReferee referee;
    referee.check_step(sim);
    // c slides down past b 1 m to its side: their circles round them would overlap, their
    // ellipses (0.4 + 0.4 m across) never do.
    teleport(sim, 2, {6.0, 7.0});
    referee.check_step(sim);
    CHECK(referee.counts().tunnelled == 0);
    // a jumps sideways through b.
    teleport(sim, 0, {7.0, 4.0});
    referee.check_step(sim);
    CHECK(referee.counts().tunnelled_units == 1);
    CHECK(referee.counts().hard_overlaps == 0);
  }

  TEST_CASE("goal errors measure the distance to the order's last point") {
    Scenario s = test::ascii_scenario(open_rows(12, 6));
    s.units = {
        unit_at(1, {1.5, 1.5}, move_to({4.5, 1.5})),
        unit_at(2, {6.5, 2.5}, Order{OrderKind::Waypoints, {{9.5, 2.5}, {6.5, 2.8}}, PatrolMode::Loop}),
        unit_at(3, {1.5, 4.5}, Order{OrderKind::Patrol, {{1.5, 4.5}, {5.5, 4.5}}, PatrolMode::Loop}),
        unit_at(4, {10.5, 4.5}),
    };
    Simulation sim(s);
    const GoalErrors g = SimReferee().goal_errors(sim);
    CHECK(g.ordered == 2);  // patrols and idle units have no goal
    CHECK(g.at_goal == 1);
    CHECK(g.at_goal_pct == doctest::Approx(50));
    CHECK(g.mean_goal_error_m == doctest::Approx((3.0 + 0.3) / 2));
    CHECK(g.max_goal_error_m == doctest::Approx(3.0));
    CHECK(g.tolerance_m == 0.5);
    const GoalErrors tight = SimReferee(RefereeSettings{.goal_tolerance_m = 0.2}).goal_errors(sim);
    CHECK(tight.at_goal == 0);
    CHECK(tight.at_goal_pct == 0);
    CHECK(tight.tolerance_m == 0.2);
  }

  // Random dense scenes of mixed circular classes (several radii, speeds and priorities,
  // one amphibious) on random ground with walls and water, prevention and cooperation on:
  // the referee finds no overlap beyond its tolerance and no tunnelling.
  TEST_CASE("property: random dense scenes of circular units keep apart and out of walls") {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      CAPTURE(seed);
      std::mt19937_64 rng(seed);
      Scenario s = test::ascii_scenario(test::random_rows(rng, 24, 16, 0.08, true));
      add_class(s, MovementClass{.name = "scout", .radius = 0.3, .speed = 2.0});
      add_class(s, MovementClass{.name = "tank", .radius = 0.6, .speed = 1.2, .priority = 2});
      add_class(s, MovementClass{.name = "hover", .radius = 0.45, .speed = 1.5, .amphibious = true});
      const PlanningWorld world(s);
      std::uniform_int_distribution<int> cx(0, 23), cy(0, 15), cls(0, 3);
      std::uint32_t id = 1;
      for (int tries = 0; tries < 4000 && s.units.size() < 40; ++tries) {
        const std::size_t c = static_cast<std::size_t>(cls(rng));
        const CostGrid& grid = world.grid(c);
        const int x = cx(rng), y = cy(rng), gx = cx(rng), gy = cy(rng);
        if (!grid.passable(grid.index(x, y)) || !grid.passable(grid.index(gx, gy))) continue;
        // A goal it can reach, so that it goes there through the crowd.
        if (world.regions(c).region(grid.index(x, y)) != world.regions(c).region(grid.index(gx, gy)))
          continue;
        const Vec2 p = test::cell_center(s, x, y);
        const double r = s.classes[c].radius;
        bool free = true;
        for (const Unit& u : s.units) {
          free = free && glm::length(u.position - p) > r + s.classes[u.movement_class].radius + 0.2;
        }
        if (!free) continue;
        Unit u = unit_at(id++, p, move_to(test::cell_center(s, gx, gy)));
        u.movement_class = c;
        s.units.push_back(u);
      }
      REQUIRE(s.units.size() == 40);
      Simulation sim(s);
      SimReferee referee;
      const double start_error = referee.goal_errors(sim).mean_goal_error_m;
      referee.check_step(sim);
      for (int i = 0; i < 600; ++i) {
        sim.step();
        referee.check_step(sim);
      }
      CHECK(referee.counts().hard_overlaps == 0);
      CHECK(referee.counts().tunnelled == 0);
      CHECK(referee.counts().inside_walls == 0);
      // The crowd went a good way towards its goals (it was tested on the move).
      CHECK(referee.goal_errors(sim).mean_goal_error_m < 0.8 * start_error);
    }
  }

  // The same with elongated hard shapes (ellipses along the heading, aspect 0.5 and 0.3).
  TEST_CASE("property: random dense scenes of elongated units keep apart and out of walls") {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      CAPTURE(seed);
      std::mt19937_64 rng(seed);
      Scenario s = test::ascii_scenario(test::random_rows(rng, 24, 16, 0.08, false));
      s.classes[0].hard_aspect = seed % 2 == 0 ? 0.5 : 0.3;
      s.classes[0].radius = 0.6;
      const PlanningWorld world(s);
      const CostGrid& grid = world.grid(0);
      std::uniform_int_distribution<int> cx(0, 23), cy(0, 15);
      std::uniform_real_distribution<double> angle(-std::numbers::pi, std::numbers::pi);
      std::uint32_t id = 1;
      for (int tries = 0; tries < 8000 && s.units.size() < 40; ++tries) {
        const int x = cx(rng), y = cy(rng), gx = cx(rng), gy = cy(rng);
        if (!grid.passable(grid.index(x, y)) || !grid.passable(grid.index(gx, gy))) continue;
        if (world.regions(0).region(grid.index(x, y)) != world.regions(0).region(grid.index(gx, gy)))
          continue;
        const Vec2 p = test::cell_center(s, x, y);
        bool free = true;
        for (const Unit& u : s.units) free = free && glm::length(u.position - p) > 1.3;
        if (!free) continue;
        Unit u = unit_at(id++, p, move_to(test::cell_center(s, gx, gy)));
        u.heading = angle(rng);
        s.units.push_back(u);
      }
      REQUIRE(s.units.size() == 40);
      Simulation sim(s);
      SimReferee referee;
      const double start_error = referee.goal_errors(sim).mean_goal_error_m;
      referee.check_step(sim);
      for (int i = 0; i < 600; ++i) {
        sim.step();
        referee.check_step(sim);
      }
      CHECK(referee.counts().hard_overlaps == 0);
      CHECK(referee.counts().tunnelled == 0);
      CHECK(referee.counts().inside_walls == 0);
      CHECK(referee.goal_errors(sim).mean_goal_error_m < 0.8 * start_error);
    }
  }
}

}  // namespace pathscope::sim
