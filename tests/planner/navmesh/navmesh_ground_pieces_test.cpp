// Two ways Recast's watershed regions give wrong polygons with nothing logged, each found on
// a uniform world at radius 0, and the tile then built from monotone regions:
// - two polygons of one piece of ground unlinked, so the navmesh refuses a path across
//   them (world 1781: two queries refused that grid A* answers);
// - the side two regions share traced as one straight segment that cuts through a wall's
//   corner, so the polygons lie across it (world 2640: a path through a blocked cell).
// Checked against grid A* (found by both) and the path referee (legal).

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/referee/uniform_bounds.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/navmesh/navmesh_test_support.hpp"

using namespace pathscope;

namespace navmesh_ground_pieces_test {

// Plans each of `queries` on uniform world `seed` with the navmesh at radius 0 and checks
// that grid A* finds it too, that the navmesh finds it, and that the path referee finds
// its path legal.
void check_found_and_legal(std::uint64_t seed, const std::vector<PathQuery>& queries) {
  const Scenario s = referee::uniform_world(seed);
  const PlanningWorld world(s);
  const PlannerInfo* info = find_planner("navmesh");
  REQUIRE(info != nullptr);
  const auto values = resolve_params(*info, std::vector<PlannerParam>{{"radius", 0.0}});
  REQUIRE(values.ok());
  std::unique_ptr<Planner> navmesh = info->create(QueryContext{world, 0, std::nullopt, *values});
  std::unique_ptr<Planner> astar = test::make_planner(world, "astar");
  REQUIRE(navmesh);
  REQUIRE(astar);
  const referee::RefereeParams rp = referee::params_for(*info, *values, world, 0);
  for (const PathQuery& q : queries) {
    CAPTURE(q.start);
    CAPTURE(q.goal);
    REQUIRE(find_path(*astar, q).status == SearchStatus::Found);
    const PathResult r = find_path(*navmesh, q);
    CAPTURE(r.message);
    REQUIRE(r.status == SearchStatus::Found);
    const auto verdict = referee::referee_path(world, 0, r.points, rp);
    REQUIRE(verdict.ok());
    CHECK(verdict->legal);
    CHECK(verdict->violation_count == 0);
  }
}

}  // namespace navmesh_ground_pieces_test

TEST_CASE("navmesh: ground split by watershed regions is joined again (uniform world 1781, radius 0)") {
  // The two queries refused before; then the one leg of the first that was cut (two
  // cells one above the other, in a corridor two cells wide).
  navmesh_ground_pieces_test::check_found_and_legal(
      1781, {{{26.5, 6.5}, {25.5, 20.5}}, {{2.5, 44.5}, {16.5, 9.5}}, {{31.5, 16.5}, {31.5, 17.5}}});
}

TEST_CASE("navmesh: an outline cutting a wall's corner is traced again (uniform world 2640, radius 0)") {
  // The path turned at (19.333, 35.0), on the top side of blocked cell (19, 34), and its
  // first leg crossed the cell's corner.
  navmesh_ground_pieces_test::check_found_and_legal(2640, {{{14.5, 29.5}, {24.5, 38.5}}});
}
