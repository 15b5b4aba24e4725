// The visibility graph's memory budget: a world whose graph would not fit is refused with
// a message naming the budget, before the obstacles are built when the inputs already
// promise too much, or while the links are found, without building the rest.

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "planner/core/memory_budget.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "tests/test_files.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

using test::contains;

// Small square obstacles on a lattice in open ground: few vertices, and corners that see
// many others, so that the links are most of the graph.
Scenario open_lattice(int side) {
  Scenario s = make_empty_scenario(8.0 * side + 8, 8.0 * side + 8, 1.0);
  const std::size_t wall = *s.find_terrain("wall");
  std::uint32_t id = 1;
  for (int y = 0; y < side; ++y) {
    for (int x = 0; x < side; ++x) {
      Feature f;
      f.id = id++;
      f.terrain = wall;
      f.shape.kind = ShapeKind::Rect;
      // One cell each (the graph's obstacles are the cells an obstacle blocks), staggered.
      f.shape.min = Vec2{8.0 * x + 6, 8.0 * y + 6} + Vec2{double(y % 3), double(x % 4)};
      f.shape.max = f.shape.min + Vec2{1, 1};
      s.features.push_back(std::move(f));
    }
  }
  return s;
}

}  // namespace

TEST_SUITE("visgraph") {
  TEST_CASE("memory budget: a grid of random walls over the budget is refused before anything is built") {
    std::mt19937_64 rng(33);
    const Scenario s = test::ascii_scenario(test::random_rows(rng, 96, 96, 0.3, false));
    const PlanningWorld world(s);
    const visgraph::ObstacleParams params{0.4, 0.05};
    const std::uint64_t vertices = visgraph::world_obstacle_vertices(world, 0);
    CHECK(vertices > 1000);

    const visgraph::VisGraphMap refused(world, 0, params, MemoryBudget{kMiB});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::Limit);
    const std::string message = refused.error().message;
    INFO(message);
    CHECK(contains(message, "the visibility graph would need ~"));
    CHECK(contains(message, "over the memory budget of 1 MiB"));
    CHECK(contains(message, "memory_mib"));
    CHECK(contains(message, std::to_string(vertices) + " obstacle vertices before inflation"));
    CHECK(refused.memory_bytes() == 0);

    // The default budget builds it.
    const visgraph::VisGraphMap built(world, 0, params);
    REQUIRE(built.ok());
    CHECK(built.graph().link_count() > 0);
    CHECK(built.memory_bytes() < kDefaultMemoryBudget);
  }

  TEST_CASE("memory budget: links past the budget stop the build, which keeps none of them") {
    const Scenario lattice = open_lattice(16);
    const PlanningWorld world(lattice);
    const visgraph::ObstacleParams params{0.5, 0.05};
    // The whole graph, and what the budget checks before its links.
    const visgraph::VisGraphMap full(world, 0, params);
    REQUIRE(full.ok());
    const std::uint64_t links = full.graph().link_count();
    const std::uint64_t fixed = full.graph().memory_bytes() - 8 * links;  // without the adjacency lists
    std::uint64_t ring_vertices = 0;
    for (const visgraph::Ring& r : full.graph().obstacles().rings) ring_vertices += r.points.size();
    const std::uint64_t before_links = std::max(
        visgraph::world_obstacle_vertices(world, 0) * visgraph::VisGraphMap::kPeakBytesPerInputVertex,
        ring_vertices * visgraph::VisGraphMap::kBytesPerRingVertex);
    // A budget the estimates before the links pass and half the links do not.
    const std::uint64_t budget =
        std::max(before_links, fixed + links * visgraph::VisibilityGraph::kBuildBytesPerLink / 2);
    CAPTURE(links);
    CAPTURE(fixed);
    CAPTURE(before_links);
    REQUIRE(budget < fixed + links * visgraph::VisibilityGraph::kBuildBytesPerLink);

    const visgraph::VisGraphMap refused(world, 0, params, MemoryBudget{budget});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::Limit);
    INFO(refused.error().message);
    CHECK(contains(refused.error().message, "its links passed the budget while building"));
    CHECK(contains(refused.error().message,
                   "over the memory budget of " + MemoryBudget::mib_text(budget) + " MiB"));
    CHECK(refused.memory_bytes() == 0);

    // The graph itself stops scanning at the budget and keeps no links.
    visgraph::ObstacleSet obstacles = full.graph().obstacles();
    const visgraph::VisibilityGraph stopped(std::move(obstacles), visgraph::PairScan::Automatic, budget);
    CHECK(stopped.over_budget());
    CHECK(stopped.link_count() == 0);
    CHECK(stopped.projected_bytes() > budget);
  }

  TEST_CASE("memory budget: the planner parameter memory_mib refuses a query through the planner's Invalid") {
    std::mt19937_64 rng(34);
    Scenario s = test::ascii_scenario(test::random_rows(rng, 96, 96, 0.3, false));
    const PlanningWorld world(s);
    const PlannerInfo* info = find_planner("visgraph");
    REQUIRE(info != nullptr);
    const std::vector<PlannerParam> overrides = {PlannerParam{"memory_mib", 1}};
    const Result<ParamValues> values = resolve_params(*info, overrides);
    REQUIRE(values.ok());
    const std::unique_ptr<Planner> planner = info->create(QueryContext{world, 0, std::nullopt, *values});
    const SearchStatus status = planner->start(PathQuery{{0.5, 0.5}, {95.5, 95.5}});
    CHECK(status == SearchStatus::Invalid);
    INFO(planner->result().message);
    CHECK(contains(planner->result().message, "over the memory budget of 1 MiB"));
    CHECK_FALSE(contains(planner->result().message, "could not be built"));
  }
}  // TEST_SUITE
