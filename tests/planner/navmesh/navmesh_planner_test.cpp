// The navmesh planner (Recast/Detour): paths stay in passable cells (an exact segment-cell
// test of its own), with radius 0 reachability agrees with grid A* and lengths are never
// below the straight line; stepping equals one shot; traces replay (g, h, closed); kept answers equal fresh
// ones after edits; bad queries and budgets fail with clear messages; it is registered.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "planner/core/geometry.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/navmesh/navmesh_planner.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/navmesh/navmesh_test_support.hpp"
#include "tests/test_maps.hpp"
#include "tests/trace_replay_check.hpp"

using namespace pathscope;
using pathscope::test::cell_center;

namespace {

// Radius 0 and a small tile, so that random maps span several tiles.
NavmeshParams point_params(int tile_cells = 16) {
  NavmeshParams p;
  p.radius = 0;
  p.tile_cells = tile_cells;
  return p;
}

// Every leg of a path clear of blocked cells.
void check_legal(const Scenario& s, const PathResult& r) {
  for (std::size_t i = 0; i + 1 < r.points.size(); ++i) {
    const auto [x, y] = test::blocked_cell_on_segment(s, r.points[i], r.points[i + 1]);
    CAPTURE(i);
    CAPTURE(x);
    CAPTURE(y);
    CHECK(x == -1);
  }
}

}  // namespace

TEST_SUITE("navmesh") {
  TEST_CASE("round a wall: a legal path no shorter than the straight line, costed over the cells") {
    const Scenario s = test::ascii_scenario({
        "..........",
        "..........",
        "....#.....",
        "....#.....",
        "....#.....",
        "..........",
    });
    const PlanningWorld world(s);
    NavmeshPlanner planner(world, 0, point_params());
    const PathQuery q{cell_center(s, 1, 3), cell_center(s, 8, 3)};
    const PathResult& r = find_path(planner, q);
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.points.front() == q.start);
    CHECK(r.points.back() == q.goal);
    check_legal(s, r);
    // Round the wall's top or bottom corner: two legs through (4, 2) or (5, 5) and the like.
    CHECK(r.length > 7.0);
    CHECK(r.length < 7.0 * 1.2);
    CHECK(r.cost == doctest::Approx(r.length));  // every cell costs 1
    CHECK(r.stats.expansions > 0);
  }

  TEST_CASE("slow ground is an area: the path goes round a swamp, and pays for what it crosses") {
    const Scenario s = test::ascii_scenario({
        "............",
        "....ssss....",
        "....ssss....",
        "....ssss....",
        "............",
    });
    const PlanningWorld world(s);
    NavmeshPlanner planner(world, 0, point_params());
    const PathResult& r = find_path(planner, {cell_center(s, 1, 2), cell_center(s, 10, 2)});
    REQUIRE(r.status == SearchStatus::Found);
    // Through the swamp: 9 m at 3 = 27; round it: a little over 9 m at 1.
    CHECK(r.cost < 14);
    CHECK(r.cost >= r.length);
    const Navmesh& mesh = *planner.navmesh();
    CHECK(mesh.exact_areas());
    REQUIRE(mesh.areas().size() == 3);  // none, ground, swamp
    CHECK(mesh.areas()[1].multiplier == 1.0);
    CHECK(mesh.areas()[2].multiplier == 3.0);
  }

  TEST_CASE("random maps, radius 0: legal paths, reachability as grid A*, never below the straight line") {
    std::mt19937_64 rng(4101);
    int found = 0, none = 0;
    for (int round = 0; round < 10; ++round) {
      const int w = 8 + int(rng() % 30), h = 8 + int(rng() % 30);
      const Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.25, false));
      const PlanningWorld world(s);
      NavmeshPlanner planner(world, 0, point_params(8 + int(rng() % 16)));
      for (int k = 0; k < 15; ++k) {
        const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
        const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
        if (!test::tile_passable(s, sx, sy) || !test::tile_passable(s, gx, gy)) continue;
        const PathQuery q{cell_center(s, sx, sy), cell_center(s, gx, gy)};
        const PathResult& r = find_path(planner, q);
        const double optimum = test::reference_cost(s, sx, sy, gx, gy);
        CAPTURE(round);
        CAPTURE(k);
        if (std::isinf(optimum)) {
          CHECK(r.status == SearchStatus::NoPath);
          ++none;
          continue;
        }
        REQUIRE(r.status == SearchStatus::Found);
        ++found;
        check_legal(s, r);
        CHECK(r.length >= std::hypot(q.goal.x - q.start.x, q.goal.y - q.start.y) - 1e-9);
        // Any-angle paths through the corridor Detour picks: near the octile optimum.
        CHECK(r.length <= 1.6 * optimum + 1e-9);
      }
    }
    CHECK(found > 60);
    CHECK(none > 3);
  }

  TEST_CASE("random maps, radius 0.5 or 1: every path found is legal, from its first leg to its last") {
    // Starts and goals in the eroded margin along walls are taken to the mesh, never
    // across a wall's corner (the first and last legs stay out of blocked cells).
    std::mt19937_64 rng(3434);
    int found = 0, refused = 0;
    for (int round = 0; round < 60; ++round) {
      const int w = 10 + int(rng() % 20), h = 10 + int(rng() % 20);
      const Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.12, false));
      const PlanningWorld world(s);
      NavmeshParams p = point_params(8 + int(rng() % 16));
      p.radius = 0.5 * double(1 + rng() % 2);
      NavmeshPlanner planner(world, 0, p);
      for (int k = 0; k < 30; ++k) {
        const int sx = int(rng() % unsigned(w)), sy = int(rng() % unsigned(h));
        const int gx = int(rng() % unsigned(w)), gy = int(rng() % unsigned(h));
        if (!test::tile_passable(s, sx, sy) || !test::tile_passable(s, gx, gy)) continue;
        const PathResult& r = find_path(planner, {cell_center(s, sx, sy), cell_center(s, gx, gy)});
        CAPTURE(round);
        CAPTURE(k);
        if (r.status != SearchStatus::Found) {
          ++refused;
          continue;
        }
        ++found;
        check_legal(s, r);
      }
    }
    CHECK(found > 200);
    CHECK(refused > 20);
    MESSAGE(found << " found, " << refused << " refused");
  }

  TEST_CASE("water: a land path never enters water, and a goal in water is no path (path referee)") {
    // Land polygons touch water polygons along the shore. A goal in water was taken to the
    // nearest land polygon and the path ended with a leg into the water; a land point off
    // the mesh's voxels could be taken to a water polygon.
    const Scenario lake = test::ascii_scenario({
        "..........",
        "...www....",
        "...www....",
        "..........",
    });
    const PlanningWorld lw(lake);
    NavmeshPlanner planner(lw, 0, point_params());
    const PathResult& wet = find_path(planner, {cell_center(lake, 0, 0), cell_center(lake, 4, 1)});
    CHECK(wet.status == SearchStatus::NoPath);
    CHECK(wet.message ==
          "goal (4.5, 1.5) is in another terrain group than the start (class \"unit\" cannot cross between "
          "them)");
    const PathResult& swim = find_path(planner, {Vec2{4.5, 1.2}, cell_center(lake, 5, 2)});
    CHECK(swim.status == SearchStatus::Found);  // water to water

    const PlannerInfo* info = find_planner("navmesh");
    REQUIRE(info != nullptr);
    std::mt19937_64 rng(4105);
    int found = 0, wet_goals = 0, refused_wet = 0;
    for (int round = 0; round < 30; ++round) {
      const int w = 12 + int(rng() % 24), h = 12 + int(rng() % 24);
      std::vector<std::string> rows = test::random_rows(rng, w, h, 0.1, true);
      for (std::string& row : rows) std::replace(row.begin(), row.end(), 'r', 'w');  // more shore
      Scenario s = test::ascii_scenario(rows);
      s.classes[0].radius = std::array{0.0, 0.2, 0.4, 0.5}[rng() % 4];
      const PlanningWorld world(s);
      auto values =
          resolve_params(*info, std::vector<PlannerParam>{{"voxels_per_cell", double(1 + rng() % 5)},
                                                          {"tile_cells", double(8 + rng() % 24)}});
      REQUIRE(values.ok());
      auto navmesh = info->create(QueryContext{world, 0, std::nullopt, *values});
      const referee::RefereeParams rp = referee::params_for(*info, *values, world, 0);
      for (int k = 0; k < 30; ++k) {
        const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
        const PathResult r = find_path(*navmesh, q);
        const CostGrid& grid = world.grid(0);
        const bool same_group = grid.move_key(*grid.cell_at(q.start)) == grid.move_key(*grid.cell_at(q.goal));
        CAPTURE(round);
        CAPTURE(k);
        CAPTURE(r.message);
        if (!same_group && grid.passable(*grid.cell_at(q.start)) && grid.passable(*grid.cell_at(q.goal))) {
          // No path, or the start refused before the goal is looked at.
          ++wet_goals;
          CHECK(r.status != SearchStatus::Found);
          refused_wet += r.status == SearchStatus::NoPath ? 1 : 0;
        }
        if (r.status != SearchStatus::Found) continue;
        ++found;
        const auto verdict = referee::referee_path(world, 0, r.points, rp);
        REQUIRE(verdict.ok());
        CHECK_MESSAGE(verdict->legal,
                      (verdict->violations.empty() ? std::string() : verdict->violations.front().message));
      }
    }
    MESSAGE(found << " found, " << wet_goals << " goals in another group than the start, " << refused_wet
                  << " of them no path");
    CHECK(found > 300);
    CHECK(refused_wet > 50);
  }

  TEST_CASE("stepping one polygon at a time equals one shot") {
    std::mt19937_64 rng(4102);
    int compared = 0;
    for (int round = 0; round < 6; ++round) {
      const Scenario s = test::ascii_scenario(test::random_rows(rng, 40, 30, 0.2, true));
      const PlanningWorld world(s);
      NavmeshPlanner stepped(world, 0, point_params()), whole(world, 0, point_params());
      for (int k = 0; k < 10; ++k) {
        const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
        const PathResult a = find_path(whole, q);
        SearchStatus st = stepped.start(q);
        while (!is_finished(st)) st = stepped.step(1);
        const PathResult& b = stepped.result();
        CHECK(a.status == b.status);
        CHECK(a.points == b.points);
        CHECK(a.nodes == b.nodes);
        CHECK(a.cost == b.cost);
        CHECK(a.stats.expansions == b.stats.expansions);
        if (a.status != SearchStatus::Found) continue;
        ++compared;
      }
    }
    CHECK(compared > 20);
  }

  TEST_CASE("the trace replays the live search: open and closed polygons and parents at every step") {
    std::mt19937_64 rng(4103);
    int found = 0;
    for (int round = 0; round < 6; ++round) {
      const Scenario s = test::ascii_scenario(test::random_rows(rng, 30, 20, 0.2, true));
      const PlanningWorld world(s);
      // One tile: each polygon has one node in Detour's pool.
      NavmeshPlanner traced(world, 0, point_params(64)), live(world, 0, point_params(64));
      SearchTrace trace;
      traced.set_observer(&trace);
      const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
      const PathResult full = find_path(traced, q);
      CHECK(trace.expansion_count() == full.stats.expansions);
      // Parents too, after the search finished: Detour's finalize reverses them along the
      // path it returns; the planner keeps the search's.
      test::check_replay_follows_live(live, trace, q, [&] { return live.result().stats.expansions; });
      if (full.status != SearchStatus::Found) continue;
      ++found;
      TraceReplay replay(trace);
      replay.seek(trace.step_count());
      CHECK(replay.path() == full.nodes);
      REQUIRE(!trace.refinements().empty());
      CHECK(trace.refinements().back().points == full.points);
    }
    CHECK(found >= 3);
  }

  TEST_CASE("nodes are polygons: geometry, hit-testing, the structure view and the corridor") {
    const Scenario s = test::ascii_scenario(test::bent_rows());
    const PlanningWorld world(s);
    NavmeshPlanner planner(world, 0, point_params());
    const PathResult& r = find_path(planner, {cell_center(s, 0, 0), cell_center(s, 15, 7)});
    REQUIRE(r.status == SearchStatus::Found);
    for (const NodeId n : r.nodes) {
      const NodeGeometry g = planner.node_geometry(n);
      REQUIRE(g.shape == NodeShape::Polygon);
      CHECK(g.polygon.size() >= 3);
      CHECK(planner.node_at(planner.node_position(n), 0) == n);  // convex: its vertex mean is inside
    }
    CHECK(planner.node_at(cell_center(s, 5, 2), 0) == kNoNode);  // a wall
    struct Count final : StructureVisitor {
      int cells = 0, portals = 0, corridor = 0, path_portals = 0;
      void cell(const StructureCell& c) override {
        (c.role == StructureRole::Corridor ? corridor : cells) += 1;
        CHECK(c.shape == NodeShape::Polygon);
      }
      int detail = 0;
      void shape(const StructureShape& sh) override {
        if (sh.role == StructureRole::Detail) {
          ++detail;
          CHECK(sh.points.size() == 3);
          CHECK(sh.kind == StructureShape::Kind::Polygon);
          return;
        }
        (sh.role == StructureRole::Portal ? path_portals : portals) += 1;
        CHECK(sh.points.size() == 2);
      }
    } count;
    planner.visit_structure(Box2{{0, 0}, {16, 8}}, count);
    planner.visit_path_structure(count);
    CHECK(std::size_t(count.cells) == planner.navmesh()->polygon_count());
    CHECK(count.portals >= count.cells - 1);  // connected: a spanning tree at least
    CHECK(std::size_t(count.corridor) == r.nodes.size());
    CHECK(std::size_t(count.path_portals) == r.nodes.size() - 1);
    // The detail mesh: each polygon's triangles cover it exactly (areas add up, every
    // corner on or inside it), and the view draws every one.
    std::size_t triangles = 0;
    for (NodeId n = 0; n < NodeId(planner.node_count()); ++n) {
      const std::span<const Vec2> poly = planner.navmesh()->polygon(n);
      const auto tris = planner.navmesh()->detail_triangles(n);
      CAPTURE(n);
      CHECK(tris.size() >= poly.size() - 2);
      double area = 0;
      for (const auto& t : tris) {
        area += std::abs(polygon_area(t));
        for (const Vec2& p : t) {
          bool inside = true;
          for (std::size_t k = 0; k < poly.size(); ++k) {
            const Vec2 a = poly[k], b = poly[(k + 1) % poly.size()];
            // Clockwise in (x, z) seen from above: with y down, the point is never right of an edge.
            if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) > 1e-6) inside = false;
          }
          CHECK(inside);
        }
      }
      CHECK(area == doctest::Approx(std::abs(polygon_area(poly))).epsilon(1e-6));
      triangles += tris.size();
    }
    CHECK(triangles > 0);
    CHECK(std::size_t(count.detail) == triangles);
  }

  TEST_CASE("node ids are dense: every id is a polygon, found by node_at at its own position") {
    // Several tiles, some of them without ground: ids still run over polygons only.
    std::mt19937_64 rng(34);
    std::vector<std::string> rows(40, std::string(50, '.'));
    for (int k = 0; k < 120; ++k) rows[rng() % 40][rng() % 50] = '#';
    for (int y = 0; y < 16; ++y)
      for (int x = 32; x < 50; ++x) rows[std::size_t(y)][std::size_t(x)] = '#';  // tile (2, 0): no ground
    const Scenario s = test::ascii_scenario(rows);
    const PlanningWorld world(s);
    NavmeshPlanner planner(world, 0, point_params(16));
    const Navmesh& m = Navmesh::of(world, 0, point_params(16));
    REQUIRE(m.ok());
    CHECK(planner.node_count() == m.polygon_count());
    for (NodeId n = 0; n < NodeId(planner.node_count()); ++n) {
      CAPTURE(n);
      const NodeGeometry g = planner.node_geometry(n);
      REQUIRE(g.shape == NodeShape::Polygon);
      CHECK(planner.node_at(g.position, 0) == n);  // convex: its vertex mean is inside, on no edge
      CHECK(m.node_of(m.ref_of(n)) == n);
    }
    CHECK(planner.node_geometry(NodeId(planner.node_count())).polygon.empty());
  }

  TEST_CASE("a kept answer equals a fresh one after edits, whenever the dependency keeps it") {
    std::mt19937_64 rng(4104);
    int kept = 0, dropped = 0;
    Scenario s = test::ascii_scenario(test::random_rows(rng, 64, 48, 0.15, true));
    PlanningWorld world(s);
    for (int edit = 0; edit < 30; ++edit) {
      NavmeshPlanner before(world, 0, point_params());
      const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
      const PathResult old = find_path(before, q);
      const std::unique_ptr<ResultDependency> dep = before.result_dependency();
      // A small block of one terrain somewhere.
      const int x0 = int(rng() % 60), y0 = int(rng() % 44), t = int(rng() % 4);
      for (int y = y0; y < y0 + 3; ++y) {
        for (int x = x0; x < x0 + 3; ++x) s.tiles->terrain[std::size_t(y * 64 + x)] = std::uint8_t(t);
      }
      const WorldChange change = world.update(s).value();
      REQUIRE_FALSE(change.rebuilt);
      if (!dep || !dep->still_valid(change)) {
        ++dropped;
        continue;
      }
      ++kept;
      NavmeshPlanner fresh(world, 0, point_params());
      const PathResult& now = find_path(fresh, q);
      CAPTURE(edit);
      CHECK(now.status == old.status);
      CHECK(now.points == old.points);
      CHECK(now.cost == old.cost);
    }
    CHECK(kept >= 1);
    CHECK(dropped > 5);
  }

  TEST_CASE("a query within one polygon shows and depends on its own polygon, not the last query's nodes") {
    // 40 x 24 cells, tiles of 8: a long query along the top row of tiles, then one within
    // a polygon of the bottom row (Detour answers it without a search, leaving its node
    // pool empty). Swamp exists (right), so painting it adds no area.
    std::vector<std::string> rows(24, std::string(40, '.'));
    rows[12][30] = rows[12][31] = 's';
    Scenario s = test::ascii_scenario(rows);
    PlanningWorld world(s);
    NavmeshPlanner planner(world, 0, point_params(8));
    REQUIRE(find_path(planner, {cell_center(s, 1, 1), cell_center(s, 38, 1)}).status == SearchStatus::Found);
    const PathQuery q{cell_center(s, 10, 21), cell_center(s, 12, 21)};
    const PathResult r = find_path(planner, q);
    REQUIRE(r.status == SearchStatus::Found);
    REQUIRE(r.nodes.size() == 1);
    CHECK(r.cost == doctest::Approx(2.0));
    int shown = 0;
    planner.visit_nodes([&](const NodeView&) { ++shown; });
    CHECK(shown == 0);  // no search ran: no polygon of the first query
    const std::unique_ptr<ResultDependency> dep = planner.result_dependency();
    REQUIRE(dep != nullptr);
    // Swamp under the path: the answer does not hold (it costs 6 now).
    for (int x = 10; x <= 12; ++x)
      s.tiles->terrain[std::size_t(21 * 40 + x)] = std::uint8_t(*s.find_terrain("swamp"));
    const WorldChange change = world.update(s).value();
    CHECK_FALSE(dep->still_valid(change));
    NavmeshPlanner fresh(world, 0, point_params(8));
    CHECK(find_path(fresh, q).cost == doctest::Approx(6.0));
  }

  TEST_CASE(
      "clear failures: a start in a wall, a goal off the map, a gap narrower than the radius, over the "
      "budget") {
    const Scenario s = test::ascii_scenario({"......", ".##...", "......", "wwwwww", "wwwwww"});
    const PlanningWorld world(s);
    NavmeshPlanner planner(world, 0, point_params());
    const PathResult& wall = find_path(planner, {cell_center(s, 1, 1), cell_center(s, 5, 0)});
    CHECK(wall.status == SearchStatus::Invalid);
    CHECK(wall.message == "start (1.5, 1.5) is inside terrain \"wall\", which class \"unit\" cannot enter");
    const PathResult& off = find_path(planner, {cell_center(s, 0, 0), Vec2{50, 1}});
    CHECK(off.status == SearchStatus::Invalid);
    CHECK(off.message == "goal (50, 1) is outside the map");
    // Within the mesh's radius of a wall in a one-cell gap: no path from there keeps it.
    const Scenario gap = test::ascii_scenario({"#.#", "#.#", "#.#"});
    const PlanningWorld gw(gap);
    NavmeshParams wide;
    wide.radius = 0.9;
    NavmeshPlanner fat(gw, 0, wide);
    const PathResult& r = find_path(fat, {cell_center(gap, 1, 0), cell_center(gap, 1, 2)});
    CHECK(r.status == SearchStatus::Invalid);
    CHECK(r.message.find("is nearer than 0.733333 m (the navmesh's radius) to a wall") != std::string::npos);
    // A budget too small for one tile's build.
    NavmeshParams tight = point_params();
    tight.memory = MemoryBudget::from_mib(0.01);
    NavmeshPlanner poor(world, 0, tight);
    const PathResult& b = find_path(poor, {cell_center(s, 0, 0), cell_center(s, 5, 0)});
    CHECK(b.status == SearchStatus::Invalid);
    CHECK(b.message.find("over the memory budget") != std::string::npos);
    CHECK(b.message.find("memory_mib") != std::string::npos);
  }

  TEST_CASE("registered as navmesh, family navmesh, with its build and query parameters") {
    const PlannerInfo* info = find_planner("navmesh");
    REQUIRE(info != nullptr);
    CHECK(info->family == "navmesh");
    CHECK_FALSE(info->exact);
    REQUIRE(info->params.size() == 8);
    CHECK(info->params[0].name == "radius");
    CHECK(info->params[5].name == "memory_mib");
    CHECK(info->params[6].name == "searches");
    CHECK(info->params[7].name == "weighted_pull");
    const Scenario s = test::ascii_scenario(test::bent_rows());
    const PlanningWorld world(s);
    auto planner = test::make_planner(world, "navmesh", {{"radius", 0}});
    REQUIRE(planner != nullptr);
    CHECK(find_path(*planner, {cell_center(s, 0, 0), cell_center(s, 15, 7)}).status == SearchStatus::Found);
  }

  TEST_CASE("the registry's declared clearance is the mesh's radius: the class's less half a voxel") {
    const PlannerInfo* info = find_planner("navmesh");
    REQUIRE(info != nullptr);
    for (const double class_radius : {0.0, 0.3, 0.5, 0.6, 0.9}) {
      for (const double voxels_per_cell : {1.0, 2.0, 3.0}) {
        Scenario s = test::ascii_scenario(test::bent_rows());
        s.classes[0].radius = class_radius;
        const PlanningWorld world(s);
        auto values = resolve_params(*info, std::vector<PlannerParam>{{"voxels_per_cell", voxels_per_cell}});
        REQUIRE(values.ok());
        const QueryContext context{world, 0, std::nullopt, *values};
        auto planner = info->create(context);
        find_path(*planner, {cell_center(s, 0, 0), cell_center(s, 15, 7)});
        const auto* navmesh = dynamic_cast<const NavmeshPlanner*>(planner.get());
        REQUIRE(navmesh != nullptr);
        REQUIRE(navmesh->navmesh() != nullptr);
        CAPTURE(class_radius);
        CAPTURE(voxels_per_cell);
        CHECK(declared_clearance(*info, context) == navmesh->navmesh()->radius());
        CHECK(declared_clearance(*info, context) ==
              doctest::Approx(std::max(0.0, class_radius - 0.5 * s.world.cell_size / voxels_per_cell)));
      }
    }
  }
}  // TEST_SUITE
