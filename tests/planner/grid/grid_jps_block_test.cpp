// Block-based and preprocessed jump point search (jps_block, jps_plus): the same answers
// as A* (cost, length, status and message) on random uniform-cost maps and on the corner
// cases of the no-corner-cutting rule; refusal of terrain costs; stepping equals
// one-shot; tracing changes nothing; the trace shows jumps; the dependency covers the
// cells read; a sample of the Moving AI ground truth (the full set runs in the slow tier
// through `pathscope movingai`).

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/grid/grid_jps.hpp"
#include "planner/grid/grid_jps_plus.hpp"
#include "planner/scenario/movingai.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/benchmark_files.hpp"
#include "tests/planner/grid/jump_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using pathscope::test::ascii_scenario;
using pathscope::test::cell_center;
using pathscope::test::check_all_pairs;
using pathscope::test::check_same_as_astar;
using pathscope::test::make_planner;

namespace {

const std::vector<std::string> kPlanners = {"jps_block", "jps_plus"};

}  // namespace

TEST_SUITE("grid_jps_block") {
  TEST_CASE("block-based and preprocessed jps equal astar on random uniform-cost maps") {
    std::mt19937_64 rng(20261127);
    int queries = 0;
    for (int m = 0; m < 50; ++m) {
      const int w = std::uniform_int_distribution<int>(3, 90)(rng);
      const int h = std::uniform_int_distribution<int>(3, 48)(rng);
      const double density = std::uniform_real_distribution<double>(0.0, 0.45)(rng);
      std::vector<std::string> rows = test::random_rows(rng, w, h, density, false);
      // Some maps get water: another terrain group that moves never join.
      if (m % 3 == 0) {
        for (auto& row : rows) {
          for (char& c : row) {
            if (c == '.' && std::uniform_real_distribution<double>(0, 1)(rng) < 0.15) c = 'w';
          }
        }
      }
      const PlanningWorld world(ascii_scenario(rows));
      auto astar = make_planner(world, "astar");
      std::vector<std::unique_ptr<Planner>> jumps;
      for (const std::string& name : kPlanners) jumps.push_back(make_planner(world, name));
      std::uniform_int_distribution<int> ux(0, w - 1), uy(0, h - 1);
      for (int k = 0; k < 40; ++k) {
        const glm::ivec2 s{ux(rng), uy(rng)}, g{ux(rng), uy(rng)};
        for (auto& j : jumps) check_same_as_astar(world, *j, *astar, s, g);
        ++queries;
      }
    }
    CHECK(queries == 2000);
  }

  TEST_CASE("no corner cutting: every pair of cells on the corner cases") {
    check_all_pairs({"....#...", "...#....", "........", ".#...#..", "........"}, kPlanners);
    check_all_pairs({"#.####", "#.....", "####.#", "...#.#", ".#...#", ".#####"}, kPlanners);
    check_all_pairs({".......", ".#.#.#.", ".......", "#.#.#.#", "......."}, kPlanners);
    check_all_pairs({"..#....", "..#.##.", "..#..#.", "....#.."}, kPlanners);
    check_all_pairs({".#", "#."}, kPlanners);
  }

  TEST_CASE("terrain costs are refused with a message naming astar, a uniform multiplier scales") {
    const PlanningWorld world(ascii_scenario({"..r..", ".....", "....."}));
    for (const std::string& name : kPlanners) {
      auto jump = make_planner(world, name);
      const auto& r =
          find_path(*jump, {cell_center(world.scenario(), 0, 0), cell_center(world.scenario(), 4, 2)});
      CHECK(r.status == SearchStatus::Invalid);
      CHECK(r.message ==
            name +
                " needs uniform costs, but class \"unit\" has terrain costs (multipliers 1 and 1.5 "
                "in the start's terrain group): use astar");
    }
    const PlanningWorld rough(ascii_scenario({"rrrrrr", "rr#rrr", "rrrr#r", "rrrrrr"}));
    auto astar = make_planner(rough, "astar");
    for (const std::string& name : kPlanners) {
      auto jump = make_planner(rough, name);
      check_same_as_astar(rough, *jump, *astar, {0, 0}, {5, 3});
      check_same_as_astar(rough, *jump, *astar, {5, 0}, {0, 3});
    }
  }

  TEST_CASE("stepping equals one-shot, tracing changes nothing, runs repeat exactly") {
    std::mt19937_64 rng(11);
    const std::vector<std::string> rows = test::random_rows(rng, 40, 30, 0.3, false);
    const PlanningWorld world(ascii_scenario(rows));
    for (const std::string& name : kPlanners) {
      auto one_shot = make_planner(world, name);
      auto stepped = make_planner(world, name);
      auto traced = make_planner(world, name);
      SearchTrace trace;
      traced->set_observer(&trace);
      std::uniform_int_distribution<int> ux(0, 39), uy(0, 29);
      for (int k = 0; k < 60; ++k) {
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
        const PathResult& c = find_path(*traced, q);
        CHECK(c.nodes == a.nodes);
        CHECK(c.stats.expansions == a.stats.expansions);
        CHECK(c.stats.pushes == a.stats.pushes);
      }
    }
  }

  TEST_CASE("the trace holds the jump points and their scans, and replays") {
    const PlanningWorld world(ascii_scenario({
        "..........",
        "..........",
        "...#......",
        "..........",
        "......#...",
        "..........",
    }));
    const CostGrid& grid = world.grid(0);
    for (const std::string& name : kPlanners) {
      auto jump = make_planner(world, name);
      SearchTrace trace;
      jump->set_observer(&trace);
      const auto& r =
          find_path(*jump, {cell_center(world.scenario(), 0, 5), cell_center(world.scenario(), 9, 0)});
      REQUIRE(r.status == SearchStatus::Found);
      int expand = 0, scan = 0, path = 0;
      for (const SearchEvent& e : trace.events()) {
        if (e.kind == SearchEventKind::Expand) ++expand;
        if (e.kind == SearchEventKind::Path) ++path;
        if (e.kind != SearchEventKind::PassOver) continue;
        ++scan;
        const glm::ivec2 a = grid.cell(e.parent), b = grid.cell(e.node);
        const int dx = std::abs(b.x - a.x), dy = std::abs(b.y - a.y);
        CHECK((dx == 0 || dy == 0 || dx == dy));
        CHECK(dx + dy > 0);
      }
      CHECK(std::uint64_t(expand) == r.stats.expansions);
      CHECK(scan > 0);
      CHECK(std::size_t(path) == r.nodes.size());
      TraceReplay replay(trace);
      replay.seek(trace.step_count());
      CHECK(replay.path() == r.nodes);
    }
  }

  TEST_CASE("the dependency covers the cells the jumps read") {
    Scenario s = ascii_scenario({"..........", "##########", "..........", ".........."});
    for (const std::string& name : kPlanners) {
      PlanningWorld world(s);
      auto jump = make_planner(world, name);
      REQUIRE(find_path(*jump, {cell_center(s, 0, 0), cell_center(s, 9, 0)}).status == SearchStatus::Found);
      const std::unique_ptr<ResultDependency> dep = jump->result_dependency();
      REQUIRE(dep != nullptr);
      Scenario far = s;
      far.tiles->terrain[3 * 10 + 5] = 1;
      CHECK(dep->still_valid(world.update(far).value()));
      Scenario near = far;
      near.tiles->terrain[0 * 10 + 5] = 1;
      CHECK_FALSE(dep->still_valid(world.update(near).value()));
    }
  }

  TEST_CASE("jps_plus: the table kept up to date through random edits equals one built from scratch") {
    std::mt19937_64 rng(31);
    const int w = 70, h = 50;
    Scenario s = ascii_scenario(test::random_rows(rng, w, h, 0.25, false));
    PlanningWorld world(s);
    const CostGrid& grid0 = world.grid(0);
    std::uint16_t key = 0;
    for (std::uint32_t i = 0; i < grid0.cell_count() && key == 0; ++i) key = grid0.move_key(i);
    REQUIRE(key != 0);
    auto plus = make_planner(world, "jps_plus");
    auto astar = make_planner(world, "astar");
    (void)JpsPlusTable::of(world, 0, key);
    std::uniform_int_distribution<int> ux(0, w - 1), uy(0, h - 1), size(1, 4), coin(0, 2);
    std::uint64_t incremental = 0;
    for (int e = 0; e < 40; ++e) {
      // A small rectangle of walls or of open ground (sometimes water: another group).
      const int x0 = ux(rng), y0 = uy(rng), ew = size(rng), eh = size(rng);
      const int what = coin(rng);
      for (int y = y0; y < std::min(h, y0 + eh); ++y) {
        for (int x = x0; x < std::min(w, x0 + ew); ++x) {
          s.tiles->terrain[std::size_t(y * w + x)] = std::uint8_t(what == 0 ? 1 : what == 1 ? 0 : 4);
        }
      }
      const WorldChange change = world.update(s).value();
      REQUIRE_FALSE(change.rebuilt);
      const JpsPlusTable& kept = JpsPlusTable::of(world, 0, key);
      const JpsPlusTable fresh(world.grid(0), key, 0);
      CHECK(fresh.last_update_cells() == 0);
      // Updated in place (not dropped and built again), and over fewer cells than a build.
      if (!change.cells.empty()) CHECK(kept.last_update_cells() > 0);
      CHECK(kept.last_update_cells() < std::uint64_t(w * h * 6));
      incremental += kept.last_update_cells();
      CHECK(kept == fresh);
      for (int k = 0; k < 5; ++k)
        check_same_as_astar(world, *plus, *astar, {ux(rng), uy(rng)}, {ux(rng), uy(rng)});
    }
    CHECK(incremental > 0);
  }

  TEST_CASE("jump point bit grid: block scans answer what a walk cell by cell finds") {
    std::mt19937_64 rng(17);
    constexpr int kDx[4] = {1, 0, -1, 0}, kDy[4] = {0, 1, 0, -1};  // E, S, W, N
    for (const auto& [w, h, density] : {std::tuple{61, 19, 0.2}, std::tuple{23, 130, 0.35},
                                        std::tuple{3, 2, 0.1}, std::tuple{150, 7, 0.05}}) {
      const PlanningWorld world(ascii_scenario(test::random_rows(rng, w, h, density, false)));
      const CostGrid& grid = world.grid(0);
      std::uint16_t key = 0;
      for (std::uint32_t i = 0; i < grid.cell_count() && key == 0; ++i) key = grid.move_key(i);
      REQUIRE(key != 0);
      const JpsBitGrid bits(grid, key);
      const auto open = [&](int x, int y) {
        return x >= 0 && y >= 0 && x < w && y < h && grid.move_key(grid.index(x, y)) == key;
      };
      // The walk: step by step, the goal first, then a wall (stop before it), then a
      // forced neighbour (a side cell open whose cell behind it is not).
      const auto walk = [&](int dir, int x, int y, glm::ivec2 g) {
        const int dx = kDx[dir], dy = kDy[dir];
        for (int k = 1;; ++k) {
          const int cx = x + k * dx, cy = y + k * dy;
          if (cx == g.x && cy == g.y) return JpsBitGrid::Jump{k, true};
          if (!open(cx, cy)) return JpsBitGrid::Jump{k - 1, false};
          for (const int side : {-1, 1}) {
            const int sx = side * dy, sy = side * dx;
            if (open(cx + sx, cy + sy) && !open(cx - dx + sx, cy - dy + sy)) return JpsBitGrid::Jump{k, true};
          }
        }
      };
      std::uniform_int_distribution<int> ux(0, w - 1), uy(0, h - 1);
      for (int y = -1; y <= h; ++y) {
        for (int x = -1; x <= w; ++x) CHECK(bits.passable(x, y) == open(x, y));
      }
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          std::uint32_t around = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
              around |= std::uint32_t(open(x + dx, y + dy)) << ((dy + 1) * 3 + dx + 1);
          CHECK(bits.around(x, y) == around);
          if (!open(x, y)) continue;
          // Goals: none ahead, and cells on the cell's row and column.
          for (const glm::ivec2 g : {glm::ivec2{-5, -5}, glm::ivec2{ux(rng), y}, glm::ivec2{x, uy(rng)}}) {
            CAPTURE(x);
            CAPTURE(y);
            CAPTURE(g);
            const auto same = [&](const JpsBitGrid::Jump& a, int dir) {
              CAPTURE(dir);
              const JpsBitGrid::Jump b = walk(dir, x, y, g);
              CHECK(a.steps == b.steps);
              CHECK(a.found == b.found);
            };
            same(bits.jump<0>(x, y, g.x, g.y), 0);
            same(bits.jump<1>(x, y, g.x, g.y), 1);
            same(bits.jump<2>(x, y, g.x, g.y), 2);
            same(bits.jump<3>(x, y, g.x, g.y), 3);
            for (int dir = 0; dir < 4; ++dir) same(bits.jump_straight(dir, x, y, g.x, g.y), dir);
          }
        }
      }
    }
  }

  TEST_CASE("jump point bit grid: lines moved along a diagonal scan as lines found at each cell") {
    // A diagonal jump moves its two lines one cell per step; at every cell the moved lines
    // must scan as the jumps from that cell do, and the move test (alone, and from the
    // scan's first words) must be the no-corner-cutting rule read cell by cell.
    std::mt19937_64 rng(29);
    for (const auto& [w, h, density] : {std::tuple{61, 19, 0.15}, std::tuple{23, 130, 0.3},
                                        std::tuple{140, 9, 0.05}, std::tuple{2, 3, 0.1}}) {
      const PlanningWorld world(ascii_scenario(test::random_rows(rng, w, h, density, false)));
      const CostGrid& grid = world.grid(0);
      std::uint16_t key = 0;
      for (std::uint32_t i = 0; i < grid.cell_count() && key == 0; ++i) key = grid.move_key(i);
      REQUIRE(key != 0);
      const JpsBitGrid bits(grid, key);
      const auto open = [&](int x, int y) {
        return x >= 0 && y >= 0 && x < w && y < h && grid.move_key(grid.index(x, y)) == key;
      };
      std::uniform_int_distribution<int> ux(0, w - 1), uy(0, h - 1);
      const auto as_int = [](const JpsBitGrid::Jump& j) { return j.found ? j.steps : -j.steps; };
      const auto walk = [&]<int kH, int kV>(int x, int y, int dx, int dy) {
        const glm::ivec2 g{ux(rng), uy(rng)};
        JpsBitGrid::Line hl = bits.line<kH>(x, y), vl = bits.line<kV>(x, y);
        for (;;) {
          CAPTURE(x);
          CAPTURE(y);
          CAPTURE(g);
          const bool legal = open(x + dx, y + dy) && open(x + dx, y) && open(x, y + dy);
          CHECK(JpsBitGrid::diagonal_open(hl, dy) == legal);
          bool next = !legal;
          CHECK(JpsBitGrid::scan < kV == 1 ? 1
                                           : -1 > (hl, y == g.y ? bits.position<kH>(g.x, g.y) : -1, &next) ==
                                                 as_int(bits.jump<kH>(x, y, g.x, g.y)));
          CHECK(next == legal);
          CHECK(JpsBitGrid::scan(vl, x == g.x ? bits.position<kV>(g.x, g.y) : -1) ==
                as_int(bits.jump<kV>(x, y, g.x, g.y)));
          if (!legal) return;
          x += dx;
          y += dy;
          hl.advance(dy);
          vl.advance(dx);
        }
      };
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          if (!open(x, y)) continue;
          walk.template operator()<0, 1>(x, y, 1, 1);
          walk.template operator()<0, 3>(x, y, 1, -1);
          walk.template operator()<2, 1>(x, y, -1, 1);
          walk.template operator()<2, 3>(x, y, -1, -1);
        }
      }
    }
  }

  TEST_CASE("jps_plus: a cell's table row by index is its row by coordinates") {
    std::mt19937_64 rng(5);
    const int w = 37, h = 23;
    const PlanningWorld world(ascii_scenario(test::random_rows(rng, w, h, 0.3, false)));
    const CostGrid& grid = world.grid(0);
    std::uint16_t key = 0;
    for (std::uint32_t i = 0; i < grid.cell_count() && key == 0; ++i) key = grid.move_key(i);
    REQUIRE(key != 0);
    const JpsPlusTable& table = JpsPlusTable::of(world, 0, key);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const std::int16_t* row = table.row(std::uint32_t(y * w + x));
        CHECK(row == table.row(x, y));
        for (int d = 0; d < 8; ++d) CHECK(row[d] == table.distance(x, y, d));
      }
    }
  }

  TEST_CASE("registered as exact grid planners") {
    for (const std::string& name : kPlanners) {
      const PlannerInfo* info = find_planner(name);
      REQUIRE(info != nullptr);
      CHECK(info->exact);
      CHECK(info->family == "grid");
    }
  }

  TEST_CASE("a sample of the Moving AI ground truth (every 25th problem of every fourth map)") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    auto files = collect_scen_files({PATHSCOPE_BENCHMARKS_DIR});
    REQUIRE(files.ok());
    std::size_t checked = 0;
    for (std::size_t fi = 0; fi < files->size(); fi += 4) {
      const auto& scen = (*files)[fi];
      auto problems = load_movingai_scen(scen);
      REQUIRE(problems.ok());
      auto map = load_movingai_map(scen_map_path(scen, problems->front()));
      REQUIRE(map.ok());
      const PlanningWorld world(movingai_to_scenario(*map));
      for (const std::string& name : kPlanners) {
        auto planner = make_planner(world, name);
        for (std::size_t i = 0; i < problems->size(); i += 25) {
          const MovingAiProblem& p = (*problems)[i];
          const PathResult& r = find_path(*planner, {Vec2(p.start) + 0.5, Vec2(p.goal) + 0.5});
          CAPTURE(scen.filename().string());
          CAPTURE(p.line);
          CAPTURE(name);
          REQUIRE(r.status == SearchStatus::Found);
          CHECK(std::abs(r.length - p.optimal_length) <= p.tolerance);
          ++checked;
        }
      }
    }
    CHECK(checked >= 150 * kPlanners.size());
  }

}  // TEST_SUITE
