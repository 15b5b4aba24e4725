// The grid planners' shared search state: paged, generation-stamped cells; and the
// planners on maps large enough to be paged (allocation on first touch).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>

#include "planner/grid/grid_astar.hpp"
#include "planner/grid/grid_bidirectional.hpp"
#include "planner/grid/grid_search_state.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using pathscope::test::cell_center;

TEST_SUITE("grid_search_state") {
  TEST_CASE("cells read as untouched until added, and again after the next search") {
    constexpr std::size_t kCells = GridSearchState<1>::kEagerCells + 5000;  // paged
    GridSearchState<1> state(kCells);
    CHECK(state.pages_allocated() == 0);
    state.next_search();
    CHECK(state.find(0) == nullptr);
    CHECK(state.find(NodeId(kCells - 1)) == nullptr);
    GridCellState<1>& c = state.add(NodeId(kCells - 1));  // the last, partial page
    CHECK(std::isinf(c.g[0]));
    CHECK(c.parent_dir[0] == GridCellState<1>::kNoDir);
    CHECK(c.closed == 0);
    c.g[0] = 2.5;
    REQUIRE(state.find(NodeId(kCells - 1)) == &c);
    CHECK(state.at(NodeId(kCells - 1)).g[0] == 2.5);
    CHECK(state.pages_allocated() == 1);
    state.add(17).closed = 1;
    CHECK(state.pages_allocated() == 2);
    // Untouched cells of an allocated page stay untouched.
    CHECK(state.find(18) == nullptr);
    std::vector<NodeId> reached;
    state.for_each_reached([&](NodeId n, const GridCellState<1>&) { reached.push_back(n); });
    CHECK(reached == std::vector<NodeId>{17, NodeId(kCells - 1)});

    state.next_search();
    CHECK(state.find(17) == nullptr);
    CHECK(state.find(NodeId(kCells - 1)) == nullptr);
    reached.clear();
    state.for_each_reached([&](NodeId n, const GridCellState<1>&) { reached.push_back(n); });
    CHECK(reached.empty());
    CHECK(state.pages_allocated() == 2);  // kept for the next searches
  }

  TEST_CASE("small maps get every page at once, as one block") {
    GridSearchState<2> state(300 * 200);
    REQUIRE(300 * 200 <= GridSearchState<2>::kEagerCells);
    CHECK(state.pages_allocated() ==
          (300 * 200 + GridSearchState<2>::kPageCells - 1) / GridSearchState<2>::kPageCells);
    state.next_search();
    for (NodeId n = 0; n < 300 * 200; n += 997) CHECK(state.find(n) == nullptr);
    GridCellState<2>& c = state.add(12345);
    CHECK(std::isinf(c.g[0]));
    CHECK(std::isinf(c.g[1]));
    CHECK(state.find(12345) == &c);
  }

  TEST_CASE("a short query on a huge map touches a few pages, answers match the reference") {
    // 1200 x 1000 cells: above kEagerCells, so pages are allocated on first touch.
    std::mt19937_64 rng(2024);
    const int w = 1200, h = 1000;
    const Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.2, true));
    REQUIRE(std::size_t(w) * std::size_t(h) > GridSearchState<1>::kEagerCells);
    const PlanningWorld world(s);
    GridAStar astar(world, 0, GridAStarParams{1.0}, "astar");
    GridAStar dijkstra(world, 0, GridAStarParams{0.0}, "dijkstra");
    GridBidirectional bidirectional(world, 0, "bidirectional");
    CHECK(astar.state_bytes() < 2 * 1024 * 1024);  // the page table and the shared empty page

    int found = 0;
    for (int q = 0; q < 12; ++q) {
      const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
      const int gx = std::clamp(sx + int(rng() % 41) - 20, 0, w - 1),
                gy = std::clamp(sy + int(rng() % 41) - 20, 0, h - 1);
      const PathQuery query{cell_center(s, sx, sy), cell_center(s, gx, gy)};
      const double expected = test::reference_cost(s, sx, sy, gx, gy);
      const PathResult a = find_path(astar, query);
      const PathResult b = find_path(bidirectional, query);
      const PathResult d = find_path(dijkstra, query);
      if (std::isinf(expected)) {
        CHECK(a.status != SearchStatus::Found);
        CHECK(b.status != SearchStatus::Found);
        continue;
      }
      ++found;
      REQUIRE(a.status == SearchStatus::Found);
      REQUIRE(b.status == SearchStatus::Found);
      REQUIRE(d.status == SearchStatus::Found);
      CHECK(a.cost == doctest::Approx(expected).epsilon(1e-9));
      CHECK(b.cost == doctest::Approx(expected).epsilon(1e-9));
      CHECK(d.cost == doctest::Approx(expected).epsilon(1e-9));
    }
    CHECK(found > 6);
    // Short queries: a small part of the 19 MB a dense A* state would take.
    CHECK(astar.state_bytes() < 4 * 1024 * 1024);
    CHECK(bidirectional.state_bytes() < 6 * 1024 * 1024);
  }

  TEST_CASE("a paged search over the whole map answers as a dense one, node for node") {
    // The same map once below kEagerCells (one block) and once padded above it with a
    // wall band (paged): the same query expands the same cells in the same order.
    std::mt19937_64 rng(8);
    const int w = 500, h = 500;
    std::vector<std::string> rows = test::random_rows(rng, w, h, 0.25, true);
    const Scenario small = test::ascii_scenario(rows);
    for (std::string& row : rows) row += std::string(600 - w, '#');
    const Scenario large = test::ascii_scenario(rows);
    REQUIRE(std::size_t(w) * std::size_t(h) <= GridSearchState<1>::kEagerCells);
    REQUIRE(std::size_t(600) * std::size_t(h) > GridSearchState<1>::kEagerCells);
    const PlanningWorld ws(small), wl(large);
    GridAStar as(ws, 0, GridAStarParams{1.0}, "astar"), al(wl, 0, GridAStarParams{1.0}, "astar");
    GridBidirectional bs(ws, 0, "bidirectional"), bl(wl, 0, "bidirectional");
    for (int q = 0; q < 4; ++q) {
      const PathQuery query{cell_center(small, int(rng() % 500), int(rng() % 500)),
                            cell_center(small, int(rng() % 500), int(rng() % 500))};
      const PathResult a = find_path(as, query), b = find_path(al, query);
      REQUIRE(a.status == b.status);
      CHECK(a.stats.expansions == b.stats.expansions);
      CHECK(a.cost == b.cost);
      const PathResult c = find_path(bs, query), d = find_path(bl, query);
      REQUIRE(c.status == d.status);
      CHECK(c.stats.expansions == d.stats.expansions);
      CHECK(c.cost == d.cost);
      if (a.status != SearchStatus::Found) continue;
      // Node ids differ with the row width; compare cell coordinates.
      REQUIRE(a.nodes.size() == b.nodes.size());
      for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        CHECK(ws.grid(0).cell(a.nodes[i]) == wl.grid(0).cell(b.nodes[i]));
      }
    }
  }

}  // TEST_SUITE
