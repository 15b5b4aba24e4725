// The path referee against brute force (fine sampling of each leg) on random worlds, and
// planted illegal paths, each of which it must catch.

#include "planner/referee/path_referee.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

namespace pathscope {
namespace {

using referee::referee_path;
using referee::RefereeParams;
using referee::Verdict;
using referee::ViolationKind;

// Brute force: the path's cost from `samples` evenly spaced points per leg (midpoint
// rule), each weighing its stretch by the multiplier of the cell it lies in, read from
// the world's data.
double sampled_cost(const PlanningWorld& world, const std::vector<Vec2>& pts, int samples) {
  const CostGrid& g = world.grid(0);
  double total = 0;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
    const Vec2 a = pts[i], b = pts[i + 1];
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    for (int k = 0; k < samples; ++k) {
      const Vec2 p = a + (b - a) * ((k + 0.5) / samples);
      const auto cell = g.cell_at(p);
      REQUIRE(cell);
      total += len / samples * g.multiplier(*cell);
    }
  }
  return total;
}

bool has(const Verdict& v, ViolationKind kind) {
  for (const auto& x : v.violations) {
    if (x.kind == kind) return true;
  }
  return false;
}

Verdict judge(const PlanningWorld& world, std::vector<Vec2> pts, RefereeParams p = {}) {
  auto v = referee_path(world, 0, pts, p);
  REQUIRE(v.ok());
  return *v;
}

}  // namespace

TEST_CASE("referee: cost equals fine sampling on random weighted worlds with roads and bridges") {
  std::mt19937_64 rng(32);
  std::uniform_real_distribution<double> u(0, 1);
  for (int world_no = 0; world_no < 12; ++world_no) {
    const double cell = world_no % 3 == 0 ? 0.5 : 1.0;
    Scenario s = test::ascii_scenario(test::random_rows(rng, 24, 20, 0.0, true), cell);
    s.classes[0].amphibious = true;  // the water is costed, not refused
    const double w = s.world.width, h = s.world.height;
    s.roads.push_back(Road{1, {{0.1 * w, 0.2 * h}, {0.9 * w, 0.7 * h}}, 3.0, 2.0});
    s.bridges.push_back(Bridge{2, {0.5 * w, 0.05 * h}, {0.55 * w, 0.95 * h}, 2.5, true});
    const PlanningWorld world(s);
    for (int q = 0; q < 10; ++q) {
      std::vector<Vec2> pts;
      const int n = 2 + int(u(rng) * 4);
      for (int k = 0; k < n; ++k) pts.push_back({u(rng) * w, u(rng) * h});
      // Now and then a leg on a cell line or a diagonal through cell corners.
      if (q == 0) pts = {{2 * cell, 3 * cell}, {9 * cell, 3 * cell}, {9 * cell, 11 * cell}};
      if (q == 1) pts = {{1 * cell, 1 * cell}, {12 * cell, 12 * cell}, {20 * cell, 4 * cell}};
      const Verdict v = judge(world, pts);
      CHECK(v.legal);
      const double brute = sampled_cost(world, pts, 50000);
      CAPTURE(world_no);
      CAPTURE(q);
      if (q == 0) {
        // Along cell lines the referee takes the cheaper side; sampling sees one side.
        CHECK(v.cost <= brute * 1.001);
      } else {
        CHECK(v.cost == doctest::Approx(brute).epsilon(2e-3));
      }
    }
  }
}

TEST_CASE(
    "referee: a leg along a cell line costs the cheaper side, and grid moves cost as the movement rule") {
  const PlanningWorld world(test::ascii_scenario({
      "ssss",
      "....",
      "rrrr",
  }));
  // Along the line between swamp (3) and ground (1): ground.
  CHECK(judge(world, {{0, 1}, {4, 1}}).cost == doctest::Approx(4.0));
  // Between ground and rough (1.5): ground.
  CHECK(judge(world, {{0.5, 2}, {3.5, 2}}).cost == doctest::Approx(3.0));
  // A straight move centre to centre spends half in each cell; a diagonal as well.
  CHECK(judge(world, {{0.5, 0.5}, {0.5, 1.5}}).cost == doctest::Approx(0.5 * (3 + 1)));
  CHECK(judge(world, {{0.5, 1.5}, {1.5, 2.5}}).cost == doctest::Approx(std::sqrt(2.0) * 0.5 * (1 + 1.5)));
  // The cell-centre convention moves the ends to their cells' centres.
  RefereeParams centres;
  centres.cell_centres = true;
  CHECK(judge(world, {{0.1, 1.9}, {3.9, 1.2}}, centres).cost == doctest::Approx(3.0));
}

TEST_CASE("referee: planted illegal paths are caught") {
  Scenario s = test::ascii_scenario({
      "..........",
      "...#......",
      "....#.....",
      "..........",
      ".....www..",
      ".....www..",
      "..........",
  });
  const PlanningWorld world(s);
  SUBCASE("through a wall cell") {
    const Verdict v = judge(world, {{0.5, 1.5}, {6.5, 1.5}});
    CHECK_FALSE(v.legal);
    CHECK(has(v, ViolationKind::Blocked));
  }
  SUBCASE("clipping a wall's corner") {
    const Verdict v = judge(world, {{2.0, 0.5}, {4.5, 2.001}});
    CHECK(has(v, ViolationKind::Blocked));
  }
  SUBCASE("between two walls touching at a corner") {
    const Verdict v = judge(world, {{3.5, 2.5}, {4.5, 1.5}});
    CHECK(has(v, ViolationKind::CornerSqueeze));
    CHECK_FALSE(has(v, ViolationKind::Blocked));
  }
  SUBCASE("touching a wall's side or corner is legal without clearance") {
    CHECK(judge(world, {{0.5, 1.0}, {6.5, 1.0}}).legal);
    CHECK(judge(world, {{3.0, 0.5}, {3.0, 3.5}}).legal);
    CHECK(judge(world, {{0.0, 4.0}, {4.0, 0.0}}).legal);  // through a wall's corner
  }
  SUBCASE("into water for a class that is not amphibious") {
    const Verdict v = judge(world, {{4.5, 4.5}, {6.5, 4.5}});
    CHECK(has(v, ViolationKind::GroupChange));
  }
  SUBCASE("outside the world") {
    CHECK(has(judge(world, {{9.5, 6.5}, {11, 6.5}}), ViolationKind::OutsideWorld));
    CHECK(has(judge(world, {{-1, -1}}), ViolationKind::OutsideWorld));
  }
  SUBCASE("clearance") {
    RefereeParams p;
    p.clearance = 0.6;
    const Verdict near = judge(world, {{0.5, 3.5}, {9.5, 3.5}}, p);  // 0.5 m under the wall at (4, 2)
    CHECK(has(near, ViolationKind::Clearance));
    CHECK(near.min_clearance == doctest::Approx(0.5));
    p.clearance = 0.4;
    CHECK(judge(world, {{0.5, 3.5}, {9.5, 3.5}}, p).legal);
    p.clearance = 0.6;
    CHECK(has(judge(world, {{0.5, 6.7}, {3.5, 6.7}}, p), ViolationKind::Clearance));  // the world's edge
  }
  SUBCASE("bad input is an error, not a crash") {
    CHECK_FALSE(referee_path(world, 3, std::vector<Vec2>{{1, 1}}).ok());
    CHECK_FALSE(referee_path(world, 0, std::vector<Vec2>{}).ok());
    CHECK_FALSE(referee_path(world, 0, std::vector<Vec2>{{1, 1}, {NAN, 2}}).ok());
  }
}

TEST_CASE("referee: a destroyed bridge is water again, an intact one is ground") {
  Scenario s = test::ascii_scenario({
      "..wwww..",
      "..wwww..",
      "..wwww..",
  });
  s.terrains[4].cost[0] = std::nullopt;  // deep water: impassable
  s.bridges.push_back(Bridge{1, {1.5, 1.5}, {6.5, 1.5}, 1.0, true});
  const std::vector<Vec2> across{{0.5, 1.5}, {7.5, 1.5}};
  {
    const PlanningWorld world(s);
    const Verdict v = judge(world, across);
    CHECK(v.legal);
    CHECK(v.cost == doctest::Approx(7.0));
  }
  s.bridges[0].intact = false;
  const PlanningWorld world(s);
  CHECK(has(judge(world, across), ViolationKind::Blocked));
}

TEST_CASE("referee: legality agrees with fine sampling on random walls") {
  std::mt19937_64 rng(3201);
  std::uniform_real_distribution<double> u(0, 1);
  int illegal = 0, legal = 0;
  for (int world_no = 0; world_no < 10; ++world_no) {
    const PlanningWorld world(test::ascii_scenario(test::random_rows(rng, 20, 20, 0.12, false)));
    const CostGrid& g = world.grid(0);
    for (int q = 0; q < 40; ++q) {
      const std::vector<Vec2> pts{{0.01 + u(rng) * 19.98, 0.01 + u(rng) * 19.98},
                                  {0.01 + u(rng) * 19.98, 0.01 + u(rng) * 19.98}};
      bool sampled_blocked = false;
      for (int k = 0; k <= 20000 && !sampled_blocked; ++k) {
        const Vec2 p = pts[0] + (pts[1] - pts[0]) * (k / 20000.0);
        sampled_blocked = !g.passable(*g.cell_at(p));
      }
      const Verdict v = judge(world, pts);
      // A random leg meets a cell corner with probability 0: blocked iff sampling says so.
      CHECK(has(v, ViolationKind::Blocked) == sampled_blocked);
      (sampled_blocked ? illegal : legal) += 1;
    }
  }
  CHECK(illegal > 50);
  CHECK(legal > 50);
}

}  // namespace pathscope
