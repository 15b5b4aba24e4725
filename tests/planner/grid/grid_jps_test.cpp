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
#include "tests/planner/grid/jump_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using pathscope::test::ascii_scenario;
using pathscope::test::cell_center;
using pathscope::test::check_all_pairs;
using pathscope::test::check_same_as_astar;
using pathscope::test::make_planner;

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
      auto jps = make_planner(world, "jps");
      auto astar = make_planner(world, "astar");
      std::uniform_int_distribution<int> ux(0, w - 1), uy(0, h - 1);
      for (int k = 0; k < 50; ++k) {
        check_same_as_astar(world, *jps, *astar, {ux(rng), uy(rng)}, {ux(rng), uy(rng)});
        ++queries;
      }
    }
    CHECK(queries == 3000);
  }

  TEST_CASE("no corner cutting: every pair of cells on the corner cases") {
    // A diagonal gap between two walls (no way through), single blocked corners, a one-cell
    // corridor with bends, pillars forcing neighbours on both sides, and a dead-end room.
    check_all_pairs(
        {
            "....#...",
            "...#....",
            "........",
            ".#...#..",
            "........",
        },
        {"jps"});
    check_all_pairs(
        {
            "#.####",
            "#.....",
            "####.#",
            "...#.#",
            ".#...#",
            ".#####",
        },
        {"jps"});
    check_all_pairs(
        {
            ".......",
            ".#.#.#.",
            ".......",
            "#.#.#.#",
            ".......",
        },
        {"jps"});
    check_all_pairs(
        {
            "..#....",
            "..#.##.",
            "..#..#.",
            "....#..",
        },
        {"jps"});
  }

  TEST_CASE("a diagonal gap between two walls is not crossed") {
    const PlanningWorld world(ascii_scenario({".#", "#."}));
    auto jps = make_planner(world, "jps");
    const auto& r =
        find_path(*jps, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 1, 1)});
    CHECK(r.status == SearchStatus::NoPath);
  }

  TEST_CASE("start == goal is found at cost 0 with one expansion") {
    const PlanningWorld world(ascii_scenario({"...", ".#.", "..."}));
    auto jps = make_planner(world, "jps");
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
    auto jps = make_planner(world, "jps");
    auto astar = make_planner(world, "astar");
    check_same_as_astar(world, *jps, *astar, {2, 0}, {0, 0});  // start in the wall
    check_same_as_astar(world, *jps, *astar, {0, 0}, {2, 1});  // goal in the wall
    check_same_as_astar(world, *jps, *astar, {0, 0}, {4, 2});  // across the wall
    const auto& r = find_path(*jps, {{-1, 0.5}, {0.5, 0.5}});
    CHECK(r.status == SearchStatus::Invalid);
    CHECK(r.message.find("outside the map") != std::string::npos);
  }

  TEST_CASE("terrain costs are refused with a message naming astar") {
    const PlanningWorld world(ascii_scenario({"..r..", ".....", "....."}));
    auto jps = make_planner(world, "jps");
    const auto& r =
        find_path(*jps, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 4, 2)});
    CHECK(r.status == SearchStatus::Invalid);
    CHECK(r.message ==
          "jps needs uniform costs, but class \"unit\" has terrain costs (multipliers 1 and 1.5 in the "
          "start's terrain group): use astar");
    // Water is its own group: costs elsewhere do not matter to a query on the water.
    const PlanningWorld lake(ascii_scenario({"www..", "www.s", "....."}));
    auto on_lake = make_planner(lake, "jps");
    CHECK(find_path(*on_lake, {cell_center(lake.scenario(), 0, 0), cell_center(lake.scenario(), 2, 1)})
              .status == SearchStatus::Found);
    CHECK(find_path(*on_lake, {cell_center(lake.scenario(), 3, 0), cell_center(lake.scenario(), 4, 2)})
              .status == SearchStatus::Invalid);
  }

  TEST_CASE("a uniform multiplier other than 1 scales the cost as in astar") {
    const PlanningWorld world(ascii_scenario({"rrrrrr", "rr#rrr", "rrrr#r", "rrrrrr"}));
    auto jps = make_planner(world, "jps");
    auto astar = make_planner(world, "astar");
    check_same_as_astar(world, *jps, *astar, {0, 0}, {5, 3});
    check_same_as_astar(world, *jps, *astar, {5, 0}, {0, 3});
    CHECK(find_path(*jps, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 5, 0)}).cost ==
          doctest::Approx(7.5));
  }

  TEST_CASE("stepping one jump point at a time equals the one-shot answer, and runs repeat exactly") {
    std::mt19937_64 rng(7);
    const std::vector<std::string> rows = test::random_rows(rng, 40, 30, 0.3, false);
    const PlanningWorld world(ascii_scenario(rows));
    auto one_shot = make_planner(world, "jps");
    auto stepped = make_planner(world, "jps");
    auto again = make_planner(world, "jps");
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
    auto jps = make_planner(world, "jps");
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
    auto jps = make_planner(world, "jps");
    REQUIRE(find_path(*jps, {cell_center(s, 0, 0), cell_center(s, 9, 0)}).status == SearchStatus::Found);
    const std::unique_ptr<ResultDependency> dep = jps->result_dependency();
    REQUIRE(dep != nullptr);
    // A wall two rows below the row the jump scanned leaves the answer; one on it does not.
    Scenario far = s;
    far.tiles->terrain[3 * 10 + 5] = 1;
    const WorldChange far_change = world.update(far).value();
    CHECK(dep->still_valid(far_change));
    Scenario near = far;
    near.tiles->terrain[0 * 10 + 5] = 1;
    const WorldChange near_change = world.update(near).value();
    CHECK_FALSE(dep->still_valid(near_change));
  }

  TEST_CASE("jps is registered as an exact grid planner") {
    const PlannerInfo* info = find_planner("jps");
    REQUIRE(info != nullptr);
    CHECK(info->exact);
    CHECK(info->family == "grid");
  }

}  // TEST_SUITE
