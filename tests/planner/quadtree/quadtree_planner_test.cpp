// The quadtree planner: reachability agrees with grid A*, final paths stay inside
// passable cells (exact segment-cell test), each stage is no dearer than the one before
// and, on terrain, near grid A*'s cost (the referee's integration over the tiles),
// stepping equals one-shot, runs are deterministic, traces replay, and it is registered.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/quadtree/quadtree_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/quadtree/quadtree_test_support.hpp"
#include "tests/test_maps.hpp"
#include "tests/trace_replay_check.hpp"

using namespace pathscope;
using pathscope::test::cell_center;

namespace {

std::vector<std::string> random_map(std::mt19937_64& rng, int round, bool terrain) {
  const int w = 2 + int(rng() % 45), h = 2 + int(rng() % 45);
  if (round % 3 == 0) return test::random_rows(rng, w, h, 0.2, terrain);
  return test::block_rows(rng, w, h, 2 + int(rng() % 20), 1 + int(rng() % 10), terrain);
}

// Every segment of the path runs only through passable cells of the start's move key:
// it never enters the open square of any other cell, and stays on the map.
void check_inside(const PathResult& r, const CostGrid& grid, std::uint16_t key) {
  for (std::size_t i = 1; i < r.points.size(); ++i) {
    const Vec2 a = r.points[i - 1], b = r.points[i];
    CHECK(a.x >= 0);
    CHECK(a.y >= 0);
    CHECK(b.x <= grid.width());
    CHECK(b.y <= grid.height());
    const int x0 = int(std::floor(std::min(a.x, b.x))) - 1, x1 = int(std::floor(std::max(a.x, b.x))) + 1;
    const int y0 = int(std::floor(std::min(a.y, b.y))) - 1, y1 = int(std::floor(std::max(a.y, b.y))) + 1;
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const bool ok = grid.in_bounds(x, y) && grid.move_key(grid.index(x, y)) == key;
        if (ok) continue;
        const bool enters =
            test::segment_enters_open_box(a, b, Vec2{double(x), double(y)}, Vec2{x + 1.0, y + 1.0});
        CAPTURE(a.x);
        CAPTURE(a.y);
        CAPTURE(b.x);
        CAPTURE(b.y);
        CAPTURE(x);
        CAPTURE(y);
        CHECK_FALSE(enters);
      }
    }
  }
}

// Rooms of 15 x 15 cells behind walls, with a door 2 cells wide at a random place in
// each wall between two rooms: the straight line says little about the way round.
std::vector<std::string> rooms(std::mt19937_64& rng, int across, int down) {
  const int w = 16 * across + 1, h = 16 * down + 1;
  std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (x % 16 == 0 || y % 16 == 0) rows[y][x] = '#';
    }
  }
  for (int ry = 0; ry < down; ++ry) {
    for (int rx = 0; rx < across; ++rx) {
      if (rx + 1 < across) {  // the wall to the right
        const int d = 1 + int(rng() % 13);
        rows[16 * ry + d][16 * (rx + 1)] = rows[16 * ry + d + 1][16 * (rx + 1)] = '.';
      }
      if (ry + 1 < down) {  // the wall below
        const int d = 1 + int(rng() % 13);
        rows[16 * (ry + 1)][16 * rx + d] = rows[16 * (ry + 1)][16 * rx + d + 1] = '.';
      }
    }
  }
  return rows;
}

double extra(const PathResult& r, const std::string& name) {
  for (const auto& [k, v] : r.stats.extra) {
    if (k == name) return v;
  }
  FAIL("no stat " << name);
  return 0;
}

}  // namespace

TEST_SUITE("quadtree planner") {
  TEST_CASE("registered as quadtree, inexact, with parameters: the heuristic weight and its landmarks") {
    const PlannerInfo* info = find_planner("quadtree");
    REQUIRE(info != nullptr);
    CHECK(info->family == "quadtree");
    CHECK_FALSE(info->exact);
    REQUIRE(info->params.size() == 4);
    CHECK(info->params[0].name == "weight");
    CHECK(info->params[0].default_value == 1.0);
    CHECK(info->params[0].min_value == 1.0);
    CHECK(info->params[1].name == "landmarks");
    CHECK(info->params[1].default_value == 8);
    CHECK(info->params[2].name == "landmark_margin");
    CHECK(info->params[3].name == "memory_mib");
    CHECK(info->params[3].default_value == 2048);
    const PlanningWorld world(test::ascii_scenario({"....", "...."}));
    auto p = info->create(QueryContext{world, 0, std::nullopt, {1.0, 8, 0.05, 2048}});
    CHECK(p->name() == "quadtree");
  }

  TEST_CASE("a heavier heuristic expands fewer leaves and still keeps to passable cells") {
    std::mt19937_64 rng(47);
    std::uint64_t plain = 0, weighted = 0;
    int found = 0;
    for (int round = 0; round < 60; ++round) {
      const Scenario s = test::ascii_scenario(random_map(rng, round, round % 2 == 1));
      const PlanningWorld world(s);
      const CostGrid& grid = world.grid(0);
      QuadtreePlanner a(world, 0), b(world, 0, "quadtree", QuadtreeParams{.weight = 2.0});
      for (int q = 0; q < 8; ++q) {
        const PathQuery query{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
        const PathResult ra = find_path(a, query);
        const PathResult& rb = find_path(b, query);
        CAPTURE(round);
        CAPTURE(q);
        REQUIRE(rb.status == ra.status);
        if (ra.status != SearchStatus::Found) continue;
        const std::uint32_t start_cell = *grid.cell_at(query.start);
        if (!grid.passable(start_cell)) continue;
        ++found;
        plain += ra.stats.expansions;
        weighted += rb.stats.expansions;
        check_inside(rb, grid, grid.move_key(start_cell));
        // The search's own cost (the leaves' entry points) bounds the weighted one by the weight.
        CHECK(extra(rb, "search_cost") <= 2.0 * extra(ra, "search_cost") + 1e-9);
      }
    }
    CHECK(found > 200);
    CHECK(weighted < plain);
  }

  TEST_CASE(
      "searches with landmarks: the same answers found, paths near the plain search's, fewer expansions") {
    std::mt19937_64 rng(61);
    std::uint64_t plain[2] = {0, 0}, marked[2] = {0, 0};  // blocks, rooms
    int found = 0;
    double worst = 0;
    for (int round = 0; round < 20; ++round) {
      const auto rows = round % 2
                            ? rooms(rng, 3 + int(rng() % 4), 2 + int(rng() % 4))
                            : test::block_rows(rng, 64, 48, 10 + int(rng() % 20), 2 + int(rng() % 10), true);
      const int w = int(rows[0].size()), h = int(rows.size());
      const Scenario s = test::ascii_scenario(rows);
      const PlanningWorld world(s);
      QuadtreePlanner a(world, 0), b(world, 0, "quadtree", QuadtreeParams{.landmarks = 8});
      for (int q = 0; q < 10; ++q) {
        const PathQuery query{cell_center(s, int(rng() % unsigned(w)), int(rng() % unsigned(h))),
                              cell_center(s, int(rng() % unsigned(w)), int(rng() % unsigned(h)))};
        const PathResult ra = find_path(a, query);
        const PathResult& rb = find_path(b, query);
        CAPTURE(round);
        CAPTURE(q);
        REQUIRE(rb.status == ra.status);
        if (ra.status != SearchStatus::Found) continue;
        const CostGrid& grid = world.grid(0);
        const std::uint32_t start_cell = *grid.cell_at(query.start);
        if (grid.passable(start_cell))
          check_inside(rb, grid, grid.move_key(start_cell));  // else it leaves a wall
        ++found;
        plain[round % 2] += ra.stats.expansions;
        marked[round % 2] += rb.stats.expansions;
        worst = std::max(worst, rb.cost / std::max(ra.cost, 1e-9));
      }
    }
    MESSAGE("landmarks: " << marked[0] << " and " << marked[1] << " expansions against " << plain[0]
                          << " and " << plain[1] << ", worst cost ratio " << worst);
    CHECK(found > 150);
    CHECK(marked[0] < plain[0]);
    CHECK(double(marked[1]) < 0.85 * double(plain[1]));
    CHECK(worst < 1.25);
  }

  TEST_CASE("an open map: one leaf, a straight path, stats of every stage") {
    const PlanningWorld world(test::ascii_scenario({"........", "........", "........", "........"}));
    QuadtreePlanner p(world, 0);
    const PathResult& r = find_path(p, {{0.5, 0.5}, {7.5, 3.5}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.points.size() == 2);
    CHECK(r.length == doctest::Approx(std::sqrt(49.0 + 9.0)));
    CHECK(r.cost == doctest::Approx(r.length));
    CHECK(extra(r, "cells") == 2);
    CHECK(extra(r, "grid_cells") == 32);
    CHECK(extra(r, "links") == 2);
    CHECK(extra(r, "corridor") == 2);
    CHECK(extra(r, "length_final") == doctest::Approx(r.length));
    CHECK(extra(r, "length_step1") >= extra(r, "length_final") - 1e-12);
    CHECK(extra(r, "length_centres") >= extra(r, "length_step1") - 1e-12);
  }

  TEST_CASE("found / no_path / invalid agree with grid A* on random maps") {
    std::mt19937_64 rng(41);
    int found = 0, no_path = 0;
    for (int round = 0; round < 120; ++round) {
      const Scenario s = test::ascii_scenario(random_map(rng, round, round % 2 == 0));
      const PlanningWorld world(s);
      QuadtreePlanner qt(world, 0);
      auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
      for (int q = 0; q < 8; ++q) {
        const PathQuery query{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
        const PathResult& g = find_path(*astar, query);
        const PathResult& r = find_path(qt, query);
        const std::uint32_t start_cell = *world.grid(0).cell_at(query.start);
        CAPTURE(round);
        CAPTURE(q);
        if (!world.grid(0).passable(start_cell)) continue;  // the grid refuses; the quadtree may leave
        CHECK(r.status == g.status);
        found += r.status == SearchStatus::Found;
        no_path += r.status == SearchStatus::NoPath;
        if (r.status == SearchStatus::NoPath) CHECK(r.stats.expansions == 0);  // regions decide at once
      }
    }
    CHECK(found > 200);
    CHECK(no_path > 20);
  }

  TEST_CASE("final paths stay inside passable cells, no dearer than step 1, near grid A* on terrain") {
    std::mt19937_64 rng(43);
    int checked = 0, weighted = 0, over = 0;
    double worst = 0;
    for (int round = 0; round < 150; ++round) {
      const bool terrain = round % 2 == 1;
      const Scenario s = test::ascii_scenario(random_map(rng, round, terrain));
      const PlanningWorld world(s);
      const CostGrid& grid = world.grid(0);
      QuadtreePlanner qt(world, 0);
      for (int q = 0; q < 8; ++q) {
        const PathQuery query{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
        const PathResult& r = find_path(qt, query);
        if (r.status != SearchStatus::Found) continue;
        const std::uint32_t start_cell = *grid.cell_at(query.start);
        if (!grid.passable(start_cell)) continue;
        ++checked;
        CAPTURE(round);
        CAPTURE(q);
        CHECK(r.points.front() == query.start);
        CHECK(r.points.back() == query.goal);
        check_inside(r, grid, grid.move_key(start_cell));
        const Vec2 d = query.goal - query.start;
        CHECK(r.length >= std::sqrt(d.x * d.x + d.y * d.y) - 1e-9);
        const Corridor& c = qt.corridor();
        CHECK(r.cost <= corridor_cost(c, qt.portal_stage()) * (1 + 1e-9));
        // The reported cost is the returned path's in the world's model, by the test's own
        // integration (a leg along a line between two tiles costs the cheaper one).
        const test::RefereeCost ref = test::referee_cost(s, r.points);
        CHECK(ref.legal);
        CHECK(r.cost == doctest::Approx(ref.low).epsilon(1e-9));
        if (!terrain) {
          // Uniform cost: every stage minimises length.
          CHECK(r.length <= polyline_length(qt.portal_stage().points) + 1e-9);
          CHECK(polyline_length(qt.portal_stage().points) <=
                polyline_length(qt.centre_stage().points) + 1e-9);
          CHECK(r.cost == doctest::Approx(r.length));
        } else {
          // With terrain, every stage minimises cost; against grid A* on the same cells.
          CHECK(corridor_cost(c, qt.portal_stage()) <= corridor_cost(c, qt.centre_stage()) + 1e-9);
          CHECK(r.cost <= corridor_cost(c, pulled_path(c)) * (1 + 1e-9));
          const glm::ivec2 a = grid.cell(start_cell), b = grid.cell(*grid.cell_at(query.goal));
          const double optimum = test::reference_cost(s, a.x, a.y, b.x, b.y);
          if (optimum == 0) continue;
          ++weighted;
          const double ratio = ref.low / optimum;
          worst = std::max(worst, ratio);
          over += ratio > 1.05;
          CHECK(ratio <= 1.2);
        }
      }
    }
    MESSAGE("terrain: " << weighted << " paths, worst cost / grid A* " << worst << ", " << over
                        << " above 1.05");
    CHECK(checked > 400);
    CHECK(weighted > 200);
    CHECK(double(over) < 0.01 * weighted);
  }

  TEST_CASE("a start inside an obstacle leaves it, a goal inside one is invalid") {
    const Scenario s =
        test::ascii_scenario({"........", "..####..", "..####..", "..####..", "..####..", "........"});
    const PlanningWorld world(s);
    QuadtreePlanner qt(world, 0);
    const PathResult& out = find_path(qt, {cell_center(s, 3, 2), cell_center(s, 0, 5)});
    REQUIRE(out.status == SearchStatus::Found);
    CHECK(out.points.size() >= 2);
    auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    CHECK(find_path(*astar, {cell_center(s, 3, 2), cell_center(s, 0, 5)}).status == SearchStatus::Invalid);
    const PathResult& in = find_path(qt, {cell_center(s, 0, 5), cell_center(s, 3, 2)});
    CHECK(in.status == SearchStatus::Invalid);
    CHECK(in.message.find("wall") != std::string::npos);
    CHECK(find_path(qt, {{-1, 0}, {1, 1}}).status == SearchStatus::Invalid);
  }

  TEST_CASE("stepping one expansion at a time equals one-shot, runs are deterministic") {
    std::mt19937_64 rng(47);
    for (int round = 0; round < 30; ++round) {
      const Scenario s = test::ascii_scenario(random_map(rng, round, true));
      const PlanningWorld world(s), twin(s);
      QuadtreePlanner a(world, 0), b(twin, 0);
      for (int q = 0; q < 5; ++q) {
        const PathQuery query{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
        const PathResult one = find_path(a, query);
        SearchStatus st = b.start(query);
        while (!is_finished(st)) st = b.step(1);
        const PathResult& stepped = b.result();
        CAPTURE(round);
        REQUIRE(stepped.status == one.status);
        CHECK(stepped.points == one.points);
        CHECK(stepped.nodes == one.nodes);
        CHECK(stepped.cost == one.cost);
        CHECK(stepped.stats.expansions == one.stats.expansions);
        CHECK(stepped.stats.pushes == one.stats.pushes);
        CHECK(stepped.stats.extra == one.stats.extra);
        // Again on the same planner: the same answer, bit for bit.
        const PathResult again = find_path(a, query);
        CHECK(again.points == one.points);
        CHECK(again.stats.expansions == one.stats.expansions);
      }
    }
  }

  TEST_CASE("the trace replays the live search and holds the three stages") {
    std::mt19937_64 rng(53);
    int refined = 0;
    for (int round = 0; round < 12; ++round) {
      const Scenario s = test::ascii_scenario(test::block_rows(rng, 30, 22, 14, 7, true));
      const PlanningWorld world(s);
      QuadtreePlanner traced(world, 0), live(world, 0);
      SearchTrace trace;
      traced.set_observer(&trace);
      const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
      const PathResult full = find_path(traced, q);
      CHECK(trace.expansion_count() == full.stats.expansions);
      test::check_replay_follows_live(live, trace, q, [&] { return live.result().stats.expansions; });
      if (full.status != SearchStatus::Found) continue;
      ++refined;
      const std::vector<Refinement>& stages = trace.refinements();
      REQUIRE(stages.size() >= 3);
      CHECK(stages.front().stage == "cell centres");
      CHECK(stages[1].stage == "portal A*");
      // String pulling, then on ground of several costs the shortcuts over the cells
      // when they took one.
      const bool cut = stages.back().stage == "shortcuts";
      CHECK(stages[stages.size() - (cut ? 2 : 1)].stage == "string pulling");
      CHECK(stages.back().points == full.points);
      TraceReplay replay(trace);
      replay.seek(trace.step_count());
      CHECK(replay.path() == full.nodes);
    }
    CHECK(refined > 5);
  }

  TEST_CASE("nodes are leaves: geometry, hit-testing and the structure view") {
    std::mt19937_64 rng(59);
    const Scenario s = test::ascii_scenario(test::block_rows(rng, 37, 23, 10, 8, true), 2.0);
    const PlanningWorld world(s);
    QuadtreePlanner qt(world, 0);
    const Quadtree& tree = QuadtreeMap::of(world, 0).tree();
    // Node ids are the leaves' top-left cells; other cells name no node.
    REQUIRE(qt.node_count() == world.grid(0).cell_count());
    std::size_t nodes = 0;
    for (NodeId n = 0; n < qt.node_count(); ++n) {
      const std::uint32_t leaf = tree.leaf_at_corner(n);
      if (leaf == Quadtree::kNoLeaf) {
        CHECK(qt.node_geometry(n).shape == NodeShape::Point);
        continue;
      }
      ++nodes;
      CHECK(tree.corner(leaf) == n);
      const NodeGeometry g = qt.node_geometry(n);
      CHECK(g.shape == NodeShape::Box);
      CHECK(g.bounds == tree.leaf_box(leaf));
      CHECK(qt.node_at(g.bounds.center(), 0) == n);
      CHECK(qt.node_at(g.bounds.lo + Vec2{0.01, 0.01}, 0) == n);
    }
    CHECK(nodes == tree.leaf_count());
    CHECK(qt.node_at({-1, 1}, 0) == kNoNode);
    CHECK(qt.node_at({74.5, 1}, 0) == kNoNode);

    struct Collect final : StructureVisitor {
      std::vector<StructureCell> cells;
      std::vector<StructureEdge> edges;
      std::vector<StructureShape> shapes;
      void cell(const StructureCell& c) override { cells.push_back(c); }
      void edge(const StructureEdge& e) override { edges.push_back(e); }
      void shape(const StructureShape& sh) override { shapes.push_back(sh); }
    };
    const PathResult& r = find_path(qt, {cell_center(s, 0, 0), cell_center(s, 36, 22)});
    Collect all;
    qt.visit_structure(Box2{{0, 0}, {74, 46}}, all);
    CHECK(all.cells.size() == tree.leaf_count());
    double area = 0;
    for (const StructureCell& c : all.cells) area += c.box.size().x * c.box.size().y;
    CHECK(area == doctest::Approx(74.0 * 46.0));
    const QuadLinks& links = QuadtreeMap::of(world, 0).links();
    std::size_t directed = 0;
    for (const StructureEdge& e : all.edges) directed += e.directed ? 1 : 2;
    CHECK(directed == links.link_count());
    CHECK(std::size_t(std::count_if(all.edges.begin(), all.edges.end(), [](const StructureEdge& e) {
            return e.directed;
          })) == links.one_way_count());
    CHECK(all.shapes.empty());  // the path's portals are path structure (visit_path_structure)
    if (r.status == SearchStatus::Found) {
      Collect path;
      qt.visit_path_structure(path);
      CHECK(path.shapes.size() == r.nodes.size() - 1);
    }

    Collect part;
    qt.visit_structure(Box2{{0, 0}, {10, 10}}, part);
    CHECK(part.cells.size() < all.cells.size());
  }

  TEST_CASE("with landmarks, any changed cell drops the answer and a moved threat keeps it") {
    std::mt19937_64 rng(62);
    int found = 0;
    for (int round = 0; round < 20; ++round) {
      Scenario s = test::ascii_scenario(test::block_rows(rng, 48, 40, 10, 8, false));
      s.threats = {Influence{1, {5, 5}, 2, 1, ""}};
      PlanningWorld world(s);
      QuadtreePlanner qt(world, 0, "quadtree", QuadtreeParams{.landmarks = 8});
      const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
      const PathResult before = find_path(qt, q);
      if (before.status != SearchStatus::Found) continue;
      ++found;
      const std::unique_ptr<ResultDependency> dep = qt.result_dependency();
      REQUIRE(dep != nullptr);
      // A threat moved: no cell changes, the landmarks and the answer stand.
      s.threats[0].center = {7, 6};
      const WorldChange moved = world.update(s).value();
      REQUIRE(moved.cells.empty());
      CHECK(dep->still_valid(moved));
      const PathResult again = find_path(qt, q);
      CHECK(again.points == before.points);
      CHECK(again.stats.expansions == before.stats.expansions);
      // One cell toggled anywhere: the landmarks' costs may change, so the answer goes.
      const std::unique_ptr<ResultDependency> dep2 = qt.result_dependency();
      REQUIRE(dep2 != nullptr);
      std::uint8_t& t = s.tiles->terrain[std::size_t(int(rng() % 40) * 48 + int(rng() % 48))];
      t = t == 0 ? 1 : 0;
      CHECK_FALSE(dep2->still_valid(world.update(s).value()));
    }
    CHECK(found > 10);
  }

  TEST_CASE("an edit away from every leaf the search read keeps the answer") {
    std::mt19937_64 rng(61);
    int kept = 0, dropped = 0;
    for (int round = 0; round < 40; ++round) {
      Scenario s = test::ascii_scenario(test::block_rows(rng, 48, 40, 10, 8, false));
      PlanningWorld world(s);
      QuadtreePlanner qt(world, 0);
      const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
      const PathResult before = find_path(qt, q);
      if (before.status != SearchStatus::Found) continue;
      const std::unique_ptr<ResultDependency> dep = qt.result_dependency();
      REQUIRE(dep != nullptr);
      // Toggle one random cell between ground and wall.
      const int x = int(rng() % 48), y = int(rng() % 40);
      std::uint8_t& t = s.tiles->terrain[std::size_t(y * 48 + x)];
      t = t == 0 ? 1 : 0;
      const WorldChange change = world.update(s).value();
      const bool valid = dep->still_valid(change);
      const PathResult after = find_path(qt, q);
      if (valid) {
        ++kept;
        CHECK(after.points == before.points);
        CHECK(after.stats.expansions == before.stats.expansions);
      } else {
        ++dropped;
      }
    }
    CHECK(kept > 3);
    CHECK(dropped > 3);
  }

}  // TEST_SUITE
