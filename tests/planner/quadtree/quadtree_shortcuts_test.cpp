// The quadtree's shortcuts over the world's cells (planner/world/path_shortcuts.hpp with
// the family's open_leg), on the two conformance worlds where its cost lay above its
// declared bound (1.15 x grid A*), and open_leg's rules on a tiny map:
// - world 295, class 1: the cheapest way passes diagonally through two cell corners where
//   the corridor's 4-connected leaves only touch, so the corridor held a way 1.168 times
//   grid A*'s; the straight leg is open and cheaper;
// - world 83, class 1: the search, pulled on by the landmarks' greedy estimate (above the
//   true cost there), picked a corridor beside the road (1.156 x); the shortcut over the
//   road cells brings it to 1.093 x.
// Each path is checked by the path referee (legal, the cost it reports).

#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/quadtree/open_leg.hpp"
#include "planner/referee/conformance.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/path_cost.hpp"
#include "planner/world/path_shortcuts.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace quadtree_shortcuts_test {

// The quadtree's (registry defaults) cost on conformance world `seed` for class 1 over
// grid A*'s, after checking its path with the referee.
double ratio_to_grid_astar(std::uint64_t seed, const PathQuery& q) {
  const PlanningWorld world(referee::conformance_world(seed, seed % 3 != 0));
  const std::size_t cls = 1;
  const PlannerInfo* info = find_planner("quadtree");
  REQUIRE(info != nullptr);
  const auto values = resolve_params(*info, {});
  REQUIRE(values.ok());
  std::unique_ptr<Planner> quadtree = info->create(QueryContext{world, cls, std::nullopt, *values});
  const PathQuery queries[] = {q};
  const auto optimum = referee::grid_optima(find_planner("astar"), world, cls, queries);
  REQUIRE(optimum.front().has_value());
  const PathResult r = find_path(*quadtree, q);
  REQUIRE(r.status == SearchStatus::Found);
  const auto verdict =
      referee::referee_path(world, cls, r.points, referee::params_for(*info, *values, world, cls));
  REQUIRE(verdict.ok());
  CHECK(verdict->legal);
  CHECK(referee::costs_agree(r.cost, verdict->cost));
  MESSAGE("cost ", r.cost, ", grid A* ", *optimum.front());
  return verdict->cost / *optimum.front();
}

}  // namespace quadtree_shortcuts_test

TEST_CASE("quadtree: a shortcut through corners its leaves only touch at (conformance world 295, class 1)") {
  const double ratio = quadtree_shortcuts_test::ratio_to_grid_astar(295, {{23.5, 5.5}, {25.5, 7.5}});
  // Grid A*'s diagonal exactly (it was 1.1683 inside the corridor).
  CHECK(ratio == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("quadtree: a corridor beside the road is cut short over it (conformance world 83, class 1)") {
  const double ratio = quadtree_shortcuts_test::ratio_to_grid_astar(83, {{1.5, 10.5}, {4.5, 3.5}});
  // Within the declared bound (it was 1.1559); the corridor itself is the search's.
  CHECK(ratio <= 1.15);
  CHECK(ratio == doctest::Approx(1.0927).epsilon(0.001));
}

TEST_CASE("quadtree: open_leg is strict at corners, along walls and across terrain groups") {
  // '#' wall, 'w' water (another terrain group), '.' ground.
  const Scenario s = test::ascii_scenario({
      "....",
      ".#..",
      "..#.",
      "w...",
  });
  const PlanningWorld world(s);
  const CostGrid& grid = world.grid(0);
  CHECK(open_leg(grid, {0.5, 0.5}, {3.5, 0.5}));
  // Through a corner with four open cells round it.
  CHECK(open_leg(grid, {2.5, 0.5}, {3.5, 1.5}));
  // Through the corner where the two walls touch: refused (a squeeze).
  CHECK_FALSE(open_leg(grid, {1.5, 2.5}, {2.5, 1.5}));
  // Through a corner beside one wall: refused too (the grid's diagonal rule).
  CHECK_FALSE(open_leg(grid, {0.5, 1.5}, {1.5, 2.5}));
  // Along a wall's side: refused, though the world allows it.
  CHECK_FALSE(open_leg(grid, {1.0, 0.5}, {1.0, 1.5}));
  // Into water from ground.
  CHECK_FALSE(open_leg(grid, {1.5, 3.5}, {0.5, 3.5}));
  // Inside a wall.
  CHECK_FALSE(open_leg(grid, {1.5, 1.5}, {1.5, 0.5}));
}

TEST_CASE("quadtree: shortcuts never make a path dearer and keep its ends") {
  // Paths through random cell centres of a weighted conformance world: every shortcut
  // taken is open and cheaper, so the result costs no more.
  const PlanningWorld world(referee::conformance_world(83, true));
  const CostGrid& grid = world.grid(1);
  std::uint64_t x = 12345;
  const auto next = [&] { return x = x * 6364136223846793005ull + 1442695040888963407ull; };
  int shortened = 0;
  for (int k = 0; k < 200; ++k) {
    std::vector<Vec2> pts;
    for (int i = 0; i < 6; ++i) {
      const std::uint32_t c = std::uint32_t((next() >> 33) % grid.cell_count());
      if (grid.passable(c)) pts.push_back(grid.center(c));
    }
    if (pts.size() < 3) continue;
    const Shortcuts cut =
        cheaper_shortcuts(grid, pts, 8, [&grid](Vec2 a, Vec2 b) { return open_leg(grid, a, b); });
    CHECK(cut.points.front() == pts.front());
    CHECK(cut.points.back() == pts.back());
    CHECK(cut.points.size() + std::size_t(cut.dropped) == pts.size());
    CHECK(polyline_cost(grid, cut.points) <= polyline_cost(grid, pts));
    shortened += cut.dropped > 0;
  }
  CHECK(shortened > 0);
}
