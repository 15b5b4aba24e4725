// What the grid planners declare through the general planner interface: cells as boxes
// on a lattice, hit-testing, and their structure (cells with multipliers, each legal
// move once), checked against the cost grid itself.

#include <doctest/doctest.h>

#include <random>
#include <set>

#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

struct Collect final : StructureVisitor {
  std::vector<StructureCell> cells;
  std::vector<StructureEdge> edges;
  std::size_t limit = std::size_t(-1);
  void cell(const StructureCell& c) override { cells.push_back(c); }
  void edge(const StructureEdge& e) override { edges.push_back(e); }
  bool full() const override { return cells.size() + edges.size() >= limit; }
};

}  // namespace

TEST_SUITE("grid views") {
  TEST_CASE("grid planners declare their cells as boxes on a lattice") {
    std::mt19937_64 rng(3);
    const Scenario s = test::ascii_scenario(test::random_rows(rng, 17, 11, 0.2, true), 2.0);
    const PlanningWorld world(s);
    const CostGrid& grid = world.grid(0);
    for (const PlannerInfo& info : planner_registry()) {
      if (info.family != "grid") continue;
      CAPTURE(info.name);
      auto planner = info.create(QueryContext{world, 0, std::nullopt, resolve_params(info, {}).value()});
      const std::optional<NodeLattice> lattice = planner->node_lattice();
      REQUIRE(lattice.has_value());
      CHECK(lattice->width == 17);
      CHECK(lattice->height == 11);
      CHECK(lattice->cell_size == 2.0);
      for (NodeId n = 0; n < grid.cell_count(); n += 7) {
        const NodeGeometry g = planner->node_geometry(n);
        CHECK(g.shape == NodeShape::Box);
        CHECK(g.position == grid.center(n));
        CHECK(g.bounds.size() == Vec2{2.0, 2.0});
        CHECK(g.bounds.contains(grid.center(n)));
        // Hit-testing from the lattice agrees with the grid everywhere in the cell.
        CHECK(planner->node_at(g.bounds.lo + Vec2{0.1, 1.9}, 0) == n);
      }
      CHECK(planner->node_at({-1, 3}, 0) == kNoNode);
      CHECK(planner->node_at({34.5, 3}, 0) == kNoNode);
    }
  }

  TEST_CASE("a grid planner's structure is its cells and each legal move once") {
    std::mt19937_64 rng(8);
    const Scenario s = test::ascii_scenario(test::random_rows(rng, 14, 9, 0.25, true));
    const PlanningWorld world(s);
    const CostGrid& grid = world.grid(0);
    auto planner = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});

    Collect all;
    planner->visit_structure(Box2{{0, 0}, {14, 9}}, all);
    CHECK(all.cells.size() == grid.cell_count());
    std::set<std::pair<NodeId, NodeId>> moves;  // brute force: every legal move, unordered
    for (std::uint32_t c = 0; c < grid.cell_count(); ++c) {
      for (int d = 0; d < 8; ++d) {
        if (!(grid.moves(c) & (1u << d))) continue;
        const NodeId n = NodeId(std::int64_t(c) + grid.offsets()[d]);
        moves.insert({std::min<NodeId>(c, n), std::max<NodeId>(c, n)});
      }
    }
    std::set<std::pair<NodeId, NodeId>> seen;
    for (const StructureEdge& e : all.edges) {
      CHECK(seen.insert({std::min(e.from, e.to), std::max(e.from, e.to)}).second);  // once each
      CHECK(e.kind == "move");
      CHECK(e.a == grid.center(e.from));
      CHECK(e.b == grid.center(e.to));
    }
    CHECK(seen == moves);
    for (const StructureCell& c : all.cells) {
      if (grid.passable(c.node)) {
        CHECK(c.value == grid.multiplier(c.node));
      } else {
        CHECK(std::isinf(c.value));
      }
    }

    // A box visits the cells it overlaps only; a full visitor stops the walk.
    Collect part;
    planner->visit_structure(Box2{{2.5, 3.5}, {4.5, 5.5}}, part);
    CHECK(part.cells.size() == 9);
    Collect few;
    few.limit = 10;
    planner->visit_structure(Box2{{0, 0}, {14, 9}}, few);
    CHECK(few.cells.size() + few.edges.size() <= 10 + 4);  // stops within one cell's moves
    CHECK(few.cells.size() < grid.cell_count());
  }

}  // TEST_SUITE
