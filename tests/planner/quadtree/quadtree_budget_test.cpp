// The quadtree family's memory budget: a world whose tree, links or landmarks would not
// fit is refused with a message naming the budget and the planner parameter memory_mib,
// before the tree when its table of cells alone is too large, while it is built when its
// leaves pass what the budget allows (keeping none of them), and before the landmarks are
// costed.

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "planner/core/memory_budget.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/quadtree/quadtree_landmarks.hpp"
#include "planner/quadtree/quadtree_map.hpp"
#include "tests/test_files.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

using test::contains;

Scenario random_walls(std::uint64_t seed, int side) {
  std::mt19937_64 rng(seed);
  return test::ascii_scenario(test::random_rows(rng, side, side, 0.3, false));
}

}  // namespace

TEST_SUITE("quadtree") {
  TEST_CASE("memory budget: a world whose table of cells is over the budget is refused before the tree") {
    const PlanningWorld world(random_walls(33, 96));
    const std::uint64_t cells = 96 * 96;
    const QuadtreeMap refused(world, 0, MemoryBudget{cells * QuadtreeMap::kBytesPerCell - 1});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::Limit);
    const std::string message = refused.error().message;
    INFO(message);
    CHECK(contains(message, "the quadtree would need ~"));
    CHECK(contains(message, "over the memory budget of 1 MiB"));
    CHECK(contains(message, "memory_mib"));
    CHECK(contains(message, "(9216 cells)"));
    CHECK(refused.tree().leaf_slots() == 0);
    CHECK(refused.links().link_count() == 0);

    // The default budget builds it.
    const QuadtreeMap built(world, 0);
    REQUIRE(built.ok());
    CHECK(built.tree().leaf_count() > 1000);
    CHECK(built.links().link_count() > 0);
  }

  TEST_CASE("memory budget: leaves past the budget stop the build, which keeps none of them") {
    const PlanningWorld world(random_walls(34, 96));
    const CostGrid& grid = world.grid(0);
    const Quadtree full(grid);
    const std::size_t leaves = full.leaf_count();
    CAPTURE(leaves);
    // The tree itself: exactly its leaves fit, one fewer does not.
    CHECK_FALSE(Quadtree(grid, leaves).over_budget());
    const Quadtree stopped(grid, leaves - 1);
    CHECK(stopped.over_budget());
    CHECK(stopped.leaf_slots() == 0);
    CHECK(stopped.leaf_at_cell(5, 5) == Quadtree::kNoLeaf);

    // A map whose budget holds the table of cells and half the leaves.
    const std::uint64_t per_leaf = QuadtreeMap::kBytesPerLeaf + QuadtreeMap::kLinkBytesPerLeaf;
    const std::uint64_t budget = grid.cell_count() * QuadtreeMap::kBytesPerCell + leaves / 2 * per_leaf;
    const QuadtreeMap refused(world, 0, MemoryBudget{budget});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::Limit);
    INFO(refused.error().message);
    CHECK(contains(refused.error().message,
                   "it passed " + std::to_string(leaves / 2) + " leaves while building"));
    CHECK(contains(refused.error().message,
                   "over the memory budget of " + MemoryBudget::mib_text(budget) + " MiB"));
    CHECK(refused.tree().leaf_slots() == 0);
  }

  TEST_CASE("memory budget: landmarks over the budget are refused before they are costed") {
    const PlanningWorld world(random_walls(35, 96));
    const QuadtreeMap& full = QuadtreeMap::of(world, 0);
    REQUIRE(full.ok());
    const std::uint64_t slots = full.tree().leaf_slots();
    const std::uint64_t per_leaf = QuadtreeMap::kBytesPerLeaf + QuadtreeMap::kLinkBytesPerLeaf;
    // What the map needs while built and once built, then half the landmarks' estimate.
    const std::uint64_t map_needs =
        std::max(world.grid(0).cell_count() * QuadtreeMap::kBytesPerCell + slots * per_leaf,
                 full.memory_bytes() + slots * (QuadtreeMap::kBytesPerLeaf - sizeof(QuadLeaf)));
    const std::uint64_t landmarks = QuadLandmarks::estimate_bytes(slots, 8);
    const std::uint64_t budget = map_needs + landmarks / 2;
    REQUIRE(budget < full.memory_bytes() + landmarks);

    REQUIRE(QuadtreeMap::of(world, 0, MemoryBudget{budget}).ok());
    const QuadLandmarks& refused = QuadLandmarks::of(world, 0, 8, MemoryBudget{budget});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.count() == 0);
    INFO(refused.error().message);
    CHECK(contains(refused.error().message, "the quadtree with its landmarks would need ~"));
    CHECK(contains(refused.error().message, "planner parameter landmarks"));
    CHECK(contains(refused.error().message, "memory_mib"));
    // Fewer landmarks fit.
    const QuadLandmarks& two = QuadLandmarks::of(world, 0, 2, MemoryBudget{budget});
    CHECK(two.ok());
    CHECK(two.count() == 2);
  }

  TEST_CASE("memory budget: the planner parameter memory_mib refuses a query through the planner's Invalid") {
    const PlanningWorld world(random_walls(36, 160));
    const PlannerInfo* info = find_planner("quadtree");
    REQUIRE(info != nullptr);
    const std::vector<PlannerParam> overrides = {PlannerParam{"memory_mib", 1}};
    const Result<ParamValues> values = resolve_params(*info, overrides);
    REQUIRE(values.ok());
    const std::unique_ptr<Planner> planner = info->create(QueryContext{world, 0, std::nullopt, *values});
    const SearchStatus status = planner->start(PathQuery{{0.5, 0.5}, {159.5, 159.5}});
    CHECK(status == SearchStatus::Invalid);
    INFO(planner->result().message);
    CHECK(contains(planner->result().message, "the quadtree would need ~"));
    CHECK(contains(planner->result().message, "over the memory budget of 1 MiB"));
    CHECK(contains(planner->result().message, "memory_mib"));
    // Nothing is drawn from a refused map.
    CHECK(planner->node_at(Vec2{10.5, 10.5}, 0) == kNoNode);
  }
}  // TEST_SUITE
