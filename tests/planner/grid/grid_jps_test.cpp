// Jump point search: the same answers as A* (cost, length, status and message) on random
// uniform-cost maps and on the corner cases of the no-corner-cutting rule; refusal of
// terrain costs; stepping equals one-shot; the trace shows jumps and pruned neighbours.

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/grid/grid_jps.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using pathscope::test::ascii_scenario;
using pathscope::test::cell_center;

namespace {

std::unique_ptr<Planner> make(const PlanningWorld& world, const std::string& name) {
  const PlannerInfo* info = find_planner(name);
  REQUIRE(info != nullptr);
  return info->create(QueryContext{world, 0, std::nullopt, {}});
}

// Runs one query on jps and astar and checks that they agree.
void check_same(const PlanningWorld& world, Planner& jps, Planner& astar, glm::ivec2 s, glm::ivec2 g) {
  const PathQuery q{cell_center(world.scenario(), s.x, s.y), cell_center(world.scenario(), g.x, g.y)};
  const PathResult& a = find_path(astar, q);
  const PathResult& j = find_path(jps, q);
  INFO("from (" << s.x << ", " << s.y << ") to (" << g.x << ", " << g.y << ")");
  REQUIRE(j.status == a.status);
  CHECK(j.message == a.message);
  if (a.status != SearchStatus::Found) return;
  CHECK(std::abs(j.cost - a.cost) <= 1e-9);
  CHECK(std::abs(j.length - a.length) <= 1e-9);
  // The path is a chain of legal moves from the start cell to the goal cell.
  const CostGrid& grid = world.grid(0);
  REQUIRE(!j.nodes.empty());
  CHECK(j.nodes.front() == grid.index(s.x, s.y));
  CHECK(j.nodes.back() == grid.index(g.x, g.y));
  for (std::size_t i = 1; i < j.nodes.size(); ++i) {
    const glm::ivec2 p = grid.cell(j.nodes[i - 1]), c = grid.cell(j.nodes[i]);
    int d = 0;
    while (d < 8 && (kDirDx[d] != c.x - p.x || kDirDy[d] != c.y - p.y)) ++d;
    REQUIRE(d < 8);
    CHECK((grid.moves(j.nodes[i - 1]) >> d & 1u) == 1u);
  }
}

// Every pair of free cells of a small map.
void check_all_pairs(const std::vector<std::string>& rows) {
  const PlanningWorld world(ascii_scenario(rows));
  auto jps = make(world, "jps");
  auto astar = make(world, "astar");
  const int w = int(rows.front().size()), h = int(rows.size());
  for (int sy = 0; sy < h; ++sy) {
    for (int sx = 0; sx < w; ++sx) {
      if (rows[std::size_t(sy)][std::size_t(sx)] == '#') continue;
      for (int gy = 0; gy < h; ++gy) {
        for (int gx = 0; gx < w; ++gx) {
          if (rows[std::size_t(gy)][std::size_t(gx)] == '#') continue;
          check_same(world, *jps, *astar, {sx, sy}, {gx, gy});
        }
      }
    }
  }
}

}  // namespace

TEST_SUITE("grid_jps") {
  TEST_CASE("jps equals astar on thousands of random queries over random uniform-cost maps") {
    std::mt19937_64 rng(20261124);
    int queries = 0;
    for (int m = 0; m < 60; ++m) {
      const int w = std::uniform_int_distribution<int>(3, 48)(rng);
      const int h = std::uniform_int_distribution<int>(3, 48)(rng);
      const double density = std::uniform_real_distribution<double>(0.0, 0.45)(rng);
      std::vector<std::string> rows = test::random_rows(rng, w, h, density, false);
      // Some maps get water: another terrain group, of the same cost, that moves never join.
      if (m % 3 == 0) {
        for (auto& row : rows) {
          for (char& c : row) {
            if (c == '.' && std::uniform_real_distribution<double>(0, 1)(rng) < 0.15) c = 'w';
          }
        }
      }
      const PlanningWorld world(ascii_scenario(rows));
      auto jps = make(world, "jps");
      auto astar = make(world, "astar");
      std::uniform_int_distribution<int> ux(0, w - 1), uy(0, h - 1);
      for (int k = 0; k < 50; ++k) {
        check_same(world, *jps, *astar, {ux(rng), uy(rng)}, {ux(rng), uy(rng)});
        ++queries;
      }
    }
    CHECK(queries == 3000);
  }

  TEST_CASE("no corner cutting: every pair of cells on the corner cases") {
    // A diagonal gap between two walls (no way through), single blocked corners, a one-cell
    // corridor with bends, pillars forcing neighbours on both sides, and a dead-end room.
    check_all_pairs({
        "....#...",
        "...#....",
        "........",
        ".#...#..",
        "........",
    });
    check_all_pairs({
        "#.####",
        "#.....",
        "####.#",
        "...#.#",
        ".#...#",
        ".#####",
    });
    check_all_pairs({
        ".......",
        ".#.#.#.",
        ".......",
        "#.#.#.#",
        ".......",
    });
    check_all_pairs({
        "..#....",
        "..#.##.",
        "..#..#.",
        "....#..",
    });
  }

  TEST_CASE("a diagonal gap between two walls is not crossed") {
    const PlanningWorld world(ascii_scenario({".#", "#."}));
    auto jps = make(world, "jps");
    const auto& r =
        find_path(*jps, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 1, 1)});
    CHECK(r.status == SearchStatus::NoPath);
  }

  TEST_CASE("start == goal is found at cost 0 with one expansion") {
    const PlanningWorld world(ascii_scenario({"...", ".#.", "..."}));
    auto jps = make(world, "jps");
    const PathQuery q{{0.3, 0.2}, {0.7, 0.9}};  // both in cell (0, 0)
    const auto& r = find_path(*jps, q);
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == 0.0);
    CHECK(r.nodes.size() == 1);
    CHECK(r.stats.expansions == 1);
    CHECK(r.length == doctest::Approx(std::hypot(0.4, 0.7)));
  }

  TEST_CASE("blocked ends are Invalid and other regions NoPath, with astar's messages") {
    const PlanningWorld world(ascii_scenario({"..#..", "..#..", "..#.."}));
    auto jps = make(world, "jps");
    auto astar = make(world, "astar");
    check_same(world, *jps, *astar, {2, 0}, {0, 0});  // start in the wall
    check_same(world, *jps, *astar, {0, 0}, {2, 1});  // goal in the wall
    check_same(world, *jps, *astar, {0, 0}, {4, 2});  // across the wall
    const auto& r = find_path(*jps, {{-1, 0.5}, {0.5, 0.5}});
    CHECK(r.status == SearchStatus::Invalid);
    CHECK(r.message.find("outside the map") != std::string::npos);
  }

  TEST_CASE("terrain costs are refused with a message naming astar") {
    const PlanningWorld world(ascii_scenario({"..r..", ".....", "....."}));
    auto jps = make(world, "jps");
    const auto& r =
        find_path(*jps, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 4, 2)});
    CHECK(r.status == SearchStatus::Invalid);
    CHECK(r.message ==
          "jps needs uniform costs, but class \"unit\" has terrain costs (multipliers 1 and 1.5 in the "
          "start's terrain group): use astar");
    // Water is its own group: costs elsewhere do not matter to a query on the water.
    const PlanningWorld lake(ascii_scenario({"www..", "www.s", "....."}));
    auto on_lake = make(lake, "jps");
    CHECK(find_path(*on_lake, {cell_center(lake.scenario(), 0, 0), cell_center(lake.scenario(), 2, 1)})
              .status == SearchStatus::Found);
    CHECK(find_path(*on_lake, {cell_center(lake.scenario(), 3, 0), cell_center(lake.scenario(), 4, 2)})
              .status == SearchStatus::Invalid);
  }

  TEST_CASE("a uniform multiplier other than 1 scales the cost as in astar") {
    const PlanningWorld world(ascii_scenario({"rrrrrr", "rr#rrr", "rrrr#r", "rrrrrr"}));
    auto jps = make(world, "jps");
    auto astar = make(world, "astar");
    check_same(world, *jps, *astar, {0, 0}, {5, 3});
    check_same(world, *jps, *astar, {5, 0}, {0, 3});
    CHECK(find_path(*jps, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 5, 0)}).cost ==
          doctest::Approx(7.5));
  }

  TEST_CASE("stepping one jump point at a time equals the one-shot answer, and runs repeat exactly") {
    std::mt19937_64 rng(7);
    const std::vector<std::string> rows = test::random_rows(rng, 40, 30, 0.3, false);
    const PlanningWorld world(ascii_scenario(rows));
    auto one_shot = make(world, "jps");
    auto stepped = make(world, "jps");
    auto again = make(world, "jps");
    std::uniform_int_distribution<int> ux(0, 39), uy(0, 29);
    for (int k = 0; k < 100; ++k) {
      const PathQuery q{cell_center(world.scenario(), ux(rng), uy(rng)),
                        cell_center(world.scenario(), ux(rng), uy(rng))};
      const PathResult a = find_path(*one_shot, q);
      SearchStatus st = stepped->start(q);
      std::uint64_t steps = 0;
      while (st == SearchStatus::Running) {
        st = stepped->step(1);
        ++steps;
      }
      const PathResult& b = stepped->result();
      CHECK(b.status == a.status);
      CHECK(b.nodes == a.nodes);
      CHECK(b.cost == a.cost);
      CHECK(b.stats.expansions == a.stats.expansions);
      CHECK(b.stats.pushes == a.stats.pushes);
      if (a.status == SearchStatus::Found) CHECK(steps == a.stats.expansions);
      const PathResult& c = find_path(*again, q);
      CHECK(c.nodes == a.nodes);
      CHECK(c.stats.extra == a.stats.extra);
    }
  }

  TEST_CASE("the trace holds the jump points, their scans and the pruned neighbours") {
    const PlanningWorld world(ascii_scenario({
        "..........",
        "..........",
        "...#......",
        "..........",
        "......#...",
        "..........",
    }));
    auto jps = make(world, "jps");
    SearchTrace trace;
    jps->set_observer(&trace);
    const auto& r =
        find_path(*jps, {cell_center(world.scenario(), 0, 5), cell_center(world.scenario(), 9, 0)});
    REQUIRE(r.status == SearchStatus::Found);
    int expand = 0, prune = 0, scan = 0, path = 0;
    const CostGrid& grid = world.grid(0);
    for (const SearchEvent& e : trace.events()) {
      switch (e.kind) {
        case SearchEventKind::Expand: ++expand; break;
        case SearchEventKind::Prune: ++prune; break;
        case SearchEventKind::Path: ++path; break;
        case SearchEventKind::PassOver: {
          ++scan;
          // A scan runs along one straight or diagonal line from its origin.
          const glm::ivec2 a = grid.cell(e.parent), b = grid.cell(e.node);
          const int dx = std::abs(b.x - a.x), dy = std::abs(b.y - a.y);
          CHECK((dx == 0 || dy == 0 || dx == dy));
          CHECK(dx + dy > 0);
          break;
        }
        default: break;
      }
    }
    CHECK(std::uint64_t(expand) == r.stats.expansions);
    CHECK(prune > 0);
    CHECK(scan > 0);
    CHECK(std::size_t(path) == r.nodes.size());
    // The replay goes forward and back over the same states.
    TraceReplay replay(trace);
    replay.seek(trace.step_count());
    CHECK(replay.path() == r.nodes);
    const std::size_t final_nodes = replay.nodes().size();
    replay.seek(1);
    CHECK(replay.current() == r.nodes.front());
    replay.seek(trace.step_count());
    CHECK(replay.nodes().size() == final_nodes);
    // Jump points have their jump-point parents: the partial path skips straight runs.
    std::size_t reached = 0;
    jps->visit_nodes([&](const NodeView& v) {
      ++reached;
      if (v.node != r.nodes.front()) CHECK(v.parent != kNoNode);
    });
    CHECK(reached == final_nodes);
  }

  TEST_CASE("the dependency covers the cells the jumps read") {
    Scenario s = ascii_scenario({
        "..........",
        "##########",
        "..........",
        "..........",
    });
    PlanningWorld world(s);
    auto jps = make(world, "jps");
    REQUIRE(find_path(*jps, {cell_center(s, 0, 0), cell_center(s, 9, 0)}).status == SearchStatus::Found);
    const std::unique_ptr<ResultDependency> dep = jps->result_dependency();
    REQUIRE(dep != nullptr);
    // A wall two rows below the row the jump scanned leaves the answer; one on it does not.
    Scenario far = s;
    far.tiles->terrain[3 * 10 + 5] = 1;
    const WorldChange far_change = world.update(far);
    CHECK(dep->still_valid(far_change));
    Scenario near = far;
    near.tiles->terrain[0 * 10 + 5] = 1;
    const WorldChange near_change = world.update(near);
    CHECK_FALSE(dep->still_valid(near_change));
  }

  TEST_CASE("jps is registered as an exact grid planner") {
    const PlannerInfo* info = find_planner("jps");
    REQUIRE(info != nullptr);
    CHECK(info->exact);
    CHECK(info->family == "grid");
  }

}  // TEST_SUITE
