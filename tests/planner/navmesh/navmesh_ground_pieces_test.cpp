// Recast's watershed regions can leave two polygons of one piece of ground unlinked with
// nothing logged; the navmesh then refuses a path across them. On uniform world 1781
// (random cells, radius 0) two queries were refused that grid A* answers: the tile is now
// built again from monotone regions when its polygons fall into more pieces than its
// ground. Checked here against grid A* (found by both) and the path referee (legal).

#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/referee/uniform_bounds.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/navmesh/navmesh_test_support.hpp"

using namespace pathscope;

TEST_CASE("navmesh: ground split by watershed regions is joined again (uniform world 1781, radius 0)") {
  const Scenario s = referee::uniform_world(1781);
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
  // The two queries refused before; then the one leg of the first that was cut (two
  // cells one above the other, in a corridor two cells wide).
  const std::vector<PathQuery> queries = {
      {{26.5, 6.5}, {25.5, 20.5}}, {{2.5, 44.5}, {16.5, 9.5}}, {{31.5, 16.5}, {31.5, 17.5}}};
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
  }
}
