// The visibility graph on the two conformance worlds where its cost lay above its declared
// bound (1.45 x the cheapest cell-centre moves keeping its radius; here against grid A*'s
// optimum, which is no dearer than those moves):
// - world 274, query 1: the goal lies half a cell inside a swamp (x3) whose corners are
//   5.5 m away; turning only at region corners, the path went straight through the swamp
//   (1.625 x grid A*). The goal's own turning points on the swamp's sides (the angle rule)
//   let it run along the swamp's edge and step in;
// - world 332, query 4: the search prices a road as its centre line, the world as its band
//   of cells; the path along the line cost 1.476 x grid A*. The straight leg in sight is
//   cheaper by the world's cost, and the shortcuts take it.
// Each path is checked by the path referee (legal with the radius, the cost it reports).

#include <doctest/doctest.h>

#include <memory>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/conformance.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/planning_world.hpp"

using namespace pathscope;

namespace visgraph_region_sides_test {

// The visgraph's (registry defaults) path on conformance world `seed` for class 0: its cost
// over grid A*'s, after checking it with the referee.
double ratio_to_grid_astar(std::uint64_t seed, const PathQuery& q, std::size_t* points = nullptr) {
  const PlanningWorld world(referee::conformance_world(seed, seed % 3 != 0));
  const PlannerInfo* info = find_planner("visgraph");
  REQUIRE(info != nullptr);
  const auto values = resolve_params(*info, {});
  REQUIRE(values.ok());
  std::unique_ptr<Planner> visgraph = info->create(QueryContext{world, 0, std::nullopt, *values});
  const PathQuery queries[] = {q};
  const auto optimum = referee::grid_optima(find_planner("astar"), world, 0, queries);
  REQUIRE(optimum.front().has_value());
  const PathResult r = find_path(*visgraph, q);
  REQUIRE(r.status == SearchStatus::Found);
  const auto verdict =
      referee::referee_path(world, 0, r.points, referee::params_for(*info, *values, world, 0));
  REQUIRE(verdict.ok());
  CHECK(verdict->legal);
  CHECK(referee::costs_agree(r.cost, verdict->cost));
  if (points) *points = r.points.size();
  MESSAGE("cost ", r.cost, ", grid A* ", *optimum.front());
  return verdict->cost / *optimum.front();
}

}  // namespace visgraph_region_sides_test

TEST_CASE("visgraph: a goal inside a swamp is reached along its side (conformance world 274)") {
  std::size_t points = 0;
  const double ratio =
      visgraph_region_sides_test::ratio_to_grid_astar(274, {{9.5, 23.5}, {17.5, 19.5}}, &points);
  // Round the swamp's corner (12, 19), along its top side, in at the goal's joining point.
  CHECK(points == 4);
  CHECK(ratio == doctest::Approx(0.9228).epsilon(0.001));
}

TEST_CASE("visgraph: a road's cells are crossed where the world charges less (conformance world 332)") {
  const double ratio = visgraph_region_sides_test::ratio_to_grid_astar(332, {{22.5, 5.5}, {17.5, 3.5}});
  CHECK(ratio <= 1.45);
  CHECK(ratio == doctest::Approx(1.2473).epsilon(0.001));
}
