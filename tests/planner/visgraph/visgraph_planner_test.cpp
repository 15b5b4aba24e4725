// The visgraph planner: exact lengths against brute force and the Moving AI optimum,
// A* against Dijkstra, stepping, determinism, the shortcut mode, invalid queries.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/scenario/movingai.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "tests/benchmark_files.hpp"
#include "tests/planner/visgraph/visgraph_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

// A scenario of w x h metres with obstacle features from random_obstacles.
Scenario polygon_scenario(std::mt19937_64& rng, double w, double h, int count) {
  Scenario s = make_empty_scenario(w, h, 1.0);
  const std::size_t wall = *s.find_terrain("wall");
  std::uint32_t id = 1;
  for (visgraph::ObstacleInput& in : test::random_obstacles(rng, w, h, count, true)) {
    Feature f;
    f.id = id++;
    f.terrain = wall;
    f.shape = std::move(in.shape);
    s.features.push_back(std::move(f));
  }
  return s;
}

Vec2 random_free_point(std::mt19937_64& rng, const VisGraphPlanner& planner) {
  const visgraph::VisibilityGraph& g = planner.map().graph();
  const Box2 box = g.obstacles().free_box;
  std::uniform_real_distribution<double> ux(box.lo.x, box.hi.x), uy(box.lo.y, box.hi.y);
  for (;;) {
    const Vec2 p{ux(rng), uy(rng)};
    if (!g.index().inside(p)) return p;
  }
}

VisGraphParams params(double radius, bool dijkstra = false, bool shortcut = false) {
  VisGraphParams p;
  p.world_cost = false;  // the search's own cost, which these tests check
  p.radius = radius;
  p.dijkstra = dijkstra;
  p.shortcut = shortcut;
  return p;
}

}  // namespace

TEST_SUITE("visgraph") {
  TEST_CASE("path lengths equal a brute-force all-pairs visibility-graph Dijkstra on random polygon maps") {
    std::mt19937_64 rng(21);
    int found = 0;
    for (int map = 0; map < 5; ++map) {
      const PlanningWorld world(polygon_scenario(rng, 30, 22, 9));
      for (const double radius : {0.0, 0.5}) {
        VisGraphPlanner astar(world, 0, params(radius));
        VisGraphPlanner dijkstra(world, 0, params(radius, true));
        REQUIRE(astar.map().ok());
        const visgraph::ObstacleSet& obstacles = astar.map().graph().obstacles();
        for (int q = 0; q < 6; ++q) {
          const PathQuery query{random_free_point(rng, astar), random_free_point(rng, astar)};
          const PathResult a = find_path(astar, query);
          const PathResult d = find_path(dijkstra, query);
          const double expected =
              test::reference_shortest(obstacles.rings, obstacles.free_box, query.start, query.goal);
          CAPTURE(map);
          CAPTURE(radius);
          if (!std::isfinite(expected)) {
            CHECK(a.status == SearchStatus::NoPath);
            CHECK(d.status == SearchStatus::NoPath);
            continue;
          }
          REQUIRE(a.status == SearchStatus::Found);
          REQUIRE(d.status == SearchStatus::Found);
          CHECK(a.cost == doctest::Approx(expected).epsilon(1e-9));
          CHECK(d.cost == doctest::Approx(expected).epsilon(1e-9));
          CHECK(a.length == doctest::Approx(a.cost).epsilon(1e-12));
          CHECK(d.stats.expansions >= a.stats.expansions);
          // Every leg of the path is in sight.
          for (std::size_t i = 0; i + 1 < a.points.size(); ++i) {
            CHECK(test::reference_visible(obstacles.rings, a.points[i], a.points[i + 1]));
          }
          ++found;
        }
      }
    }
    CHECK(found > 30);
  }

  TEST_CASE(
      "on Moving AI maps (radius 0) A* equals Dijkstra, no longer than the octile optimum, no shorter than "
      "the line") {
    PATHSCOPE_SKIP_WITHOUT_BENCHMARKS();
    const auto files = collect_scen_files({PATHSCOPE_BENCHMARKS_DIR});
    REQUIRE(files.ok());
    int checked = 0;
    for (const auto& scen : *files) {
      const std::string stem = scen.filename().string();
      // The small maps: their graphs build in milliseconds (the large ones in the benchmark).
      if (stem.rfind("den312d", 0) != 0 && stem.rfind("random-32-32-20", 0) != 0 &&
          stem.rfind("lak303d", 0) != 0) {
        continue;
      }
      const auto problems = load_movingai_scen(scen);
      REQUIRE(problems.ok());
      const auto map = load_movingai_map(scen_map_path(scen, problems->front()));
      REQUIRE(map.ok());
      const PlanningWorld world(movingai_to_scenario(*map));
      VisGraphPlanner astar(world, 0, params(0));
      VisGraphPlanner dijkstra(world, 0, params(0, true));
      for (std::size_t i = 0; i < problems->size(); i += 7) {
        const MovingAiProblem& p = (*problems)[i];
        const PathQuery q{Vec2(p.start) + 0.5, Vec2(p.goal) + 0.5};
        const PathResult a = find_path(astar, q);
        const PathResult d = find_path(dijkstra, q);
        CAPTURE(stem);
        CAPTURE(p.line);
        REQUIRE(a.status == SearchStatus::Found);
        REQUIRE(d.status == SearchStatus::Found);
        CHECK(a.cost == doctest::Approx(d.cost).epsilon(1e-12));
        CHECK(a.length <= p.optimal_length + p.tolerance);
        CHECK(a.length >= std::hypot(q.goal.x - q.start.x, q.goal.y - q.start.y) - 1e-9);
        // No leg enters a blocked cell (checked on the map itself, not on the polygons): a
        // union once left two blocked rows touching along an edge, and paths ran between.
        for (std::size_t k = 0; k + 1 < a.points.size(); ++k) {
          const Vec2 u = a.points[k], v = a.points[k + 1];
          const int samples = 1 + int(std::hypot(v.x - u.x, v.y - u.y) * 16);
          for (int t = 1; t < samples; ++t) {
            const Vec2 x = u + (v - u) * (double(t) / samples);
            if (x.x == std::floor(x.x) || x.y == std::floor(x.y)) continue;  // on a cell edge
            const char c = map->at(int(x.x), int(x.y));
            CAPTURE(x.x);
            CAPTURE(x.y);
            CHECK((c == '.' || c == 'G' || c == 'S'));
          }
        }
        ++checked;
      }
    }
    CHECK(checked > 200);
  }

  TEST_CASE("stepping one expansion at a time equals one shot, and runs are deterministic") {
    std::mt19937_64 rng(3);
    const Scenario s = polygon_scenario(rng, 30, 22, 10);
    const PlanningWorld world(s), again(s);
    for (const bool shortcut : {false, true}) {
      VisGraphPlanner one(world, 0, params(0.4, false, shortcut));
      VisGraphPlanner stepped(world, 0, params(0.4, false, shortcut));
      VisGraphPlanner other(again, 0, params(0.4, false, shortcut));
      for (int k = 0; k < 8; ++k) {
        const PathQuery q{random_free_point(rng, one), random_free_point(rng, one)};
        const PathResult a = find_path(one, q);
        stepped.start(q);
        int calls = 0;
        while (!is_finished(stepped.step(1))) ++calls;
        const PathResult& b = stepped.result();
        const PathResult c = find_path(other, q);
        CAPTURE(shortcut);
        CHECK(a.status == b.status);
        CHECK(a.nodes == b.nodes);
        CHECK(a.points == b.points);
        CHECK(a.cost == b.cost);
        CHECK(a.stats.expansions == b.stats.expansions);
        CHECK(std::uint64_t(calls + 1) == b.stats.expansions);
        CHECK(a.nodes == c.nodes);
        CHECK(a.points == c.points);
        CHECK(a.cost == c.cost);
      }
    }
  }

  TEST_CASE("the shortcut mode finds paths in sight, no shorter than the exact ones") {
    std::mt19937_64 rng(8);
    int longer = 0, found = 0;
    for (int map = 0; map < 4; ++map) {
      const PlanningWorld world(polygon_scenario(rng, 40, 30, 12));
      VisGraphPlanner exact(world, 0, params(0.5));
      VisGraphPlanner shortcut(world, 0, params(0.5, false, true));
      const visgraph::SegmentIndex& index = exact.map().graph().index();
      for (int k = 0; k < 10; ++k) {
        const PathQuery q{random_free_point(rng, exact), random_free_point(rng, exact)};
        const PathResult e = find_path(exact, q);
        const PathResult s = find_path(shortcut, q);
        if (e.status != SearchStatus::Found || s.status != SearchStatus::Found) continue;
        ++found;
        CHECK(s.length >= e.length - 1e-9);
        longer += s.length > e.length + 1e-9;
        REQUIRE(s.points.size() >= 2);
        CHECK(s.points.front() == q.start);
        CHECK(s.points.back() == q.goal);
        for (std::size_t i = 0; i + 1 < s.points.size(); ++i)
          CHECK(index.visible(s.points[i], s.points[i + 1]));
      }
    }
    CHECK(found > 20);
    CHECK(longer > 0);  // the heuristic does cost length
  }

  TEST_CASE("the planner is registered, reads its parameters, and refuses points inside obstacles") {
    const PlannerInfo* info = find_planner("visgraph");
    REQUIRE(info != nullptr);
    CHECK(info->family == "visgraph");
    CHECK_FALSE(info->exact);
    const Scenario s = test::ascii_scenario({
        "..........",
        "..####....",
        "..####....",
        "..........",
    });
    const PlanningWorld world(s);
    const std::vector<PlannerParam> radius0 = {{"radius", 0}};
    auto planner = info->create(QueryContext{world, 0, std::nullopt, resolve_params(*info, radius0).value()});
    const PathResult& r = find_path(*planner, {{0.5, 2.5}, {7.5, 1.5}});
    REQUIRE(r.status == SearchStatus::Found);
    // Around two corners of the block, above or below (both as long).
    CHECK(r.points.size() == 4);
    CHECK(r.length == doctest::Approx(std::hypot(1.5, 0.5) + 4 + std::hypot(1.5, 1.5)));
    CHECK(find_path(*planner, {{3, 2}, {8, 1}}).status == SearchStatus::Invalid);
    CHECK(planner->result().message ==
          "start (3, 2) is inside an obstacle inflated by the unit's radius (0 m)");
    // With the class's radius (0.4 m) the first row is too close to the block for the goal.
    auto wide = info->create(QueryContext{world, 0, std::nullopt, resolve_params(*info, {}).value()});
    CHECK(find_path(*wide, {{0.5, 2.5}, {3, 0.7}}).status == SearchStatus::Invalid);
    CHECK(wide->result().message ==
          "goal (3, 0.7) is inside an obstacle inflated by the unit's radius (0.4 m)");
    CHECK(find_path(*wide, {{0.2, 3.5}, {8, 3.5}}).status == SearchStatus::Invalid);
    CHECK(wide->result().message ==
          "start (0.2, 3.5) is outside the world, or within 0.4 m of its edge (the unit's radius)");
  }

  TEST_CASE("the structure shows inflated obstacles, corners and each link once") {
    struct Collect : StructureVisitor {
      int polygons = 0, holes = 0, corners = 0, edges = 0;
      void edge(const StructureEdge& e) override {
        ++edges;
        CHECK(e.kind == "link");
      }
      void shape(const StructureShape& s) override {
        if (s.name == "inflated obstacle") ++polygons;
        if (s.name == "obstacle hole") ++holes;
        if (s.name == "corner") corners += int(s.points.size());
      }
    };
    std::mt19937_64 rng(4);
    const PlanningWorld world(polygon_scenario(rng, 30, 22, 8));
    VisGraphPlanner planner(world, 0, params(0.5));
    Collect c;
    planner.visit_structure(Box2{{0, 0}, {30, 22}}, c);
    const visgraph::VisibilityGraph& g = planner.map().graph();
    CHECK(c.corners == int(g.node_count()));
    CHECK(c.edges == int(g.link_count()));
    CHECK(c.polygons + c.holes + 1 == int(g.obstacles().rings.size()));  // all but the frame's outside
    CHECK(c.holes >= 1);                                                 // the world's frame
  }

  TEST_CASE("paths keep the radius from every cell an obstacle covers, as the path referee judges them") {
    // The world's one model is its raster: an obstacle blocks every cell it overlaps. A
    // wall 1.3 m wide off the cell lines blocks two columns; going round its exact corner
    // (6.3, 8) cut through cell (6, 7).
    Scenario s = make_empty_scenario(20, 10, 1.0);
    Feature wall;
    wall.id = 1;
    wall.terrain = *s.find_terrain("wall");
    wall.shape.kind = ShapeKind::Rect;
    wall.shape.min = {5, 2};
    wall.shape.max = {6.3, 8};
    s.features.push_back(wall);
    const PlanningWorld world(s);
    for (const double radius : {0.0, 0.5}) {
      CAPTURE(radius);
      VisGraphPlanner p(world, 0, params(radius));
      const PathResult r = find_path(p, {{2.5, 5.5}, {12.5, 5.5}});
      REQUIRE(r.status == SearchStatus::Found);
      referee::RefereeParams rp;
      rp.clearance = radius;
      const auto v = referee::referee_path(world, 0, r.points, rp);
      REQUIRE(v.ok());
      CHECK_MESSAGE(v->legal, (v->legal ? std::string() : v->violations.front().message));
    }
    // Random polygons, rectangles and circles off the cell lines.
    std::mt19937_64 rng(32);
    int paths = 0;
    for (int map = 0; map < 10; ++map) {
      const PlanningWorld w(polygon_scenario(rng, 30, 20, 6));
      for (const double radius : {0.0, 0.5}) {
        VisGraphPlanner p(w, 0, params(radius));
        referee::RefereeParams rp;
        rp.clearance = radius;
        for (int q = 0; q < 8; ++q) {
          const PathQuery query{random_free_point(rng, p), random_free_point(rng, p)};
          const PathResult r = find_path(p, query);
          if (r.status != SearchStatus::Found) continue;
          ++paths;
          const auto v = referee::referee_path(w, 0, r.points, rp);
          REQUIRE(v.ok());
          CAPTURE(map);
          CAPTURE(q);
          CHECK_MESSAGE(v->legal, (v->legal ? std::string() : v->violations.front().message));
        }
      }
    }
    CHECK(paths > 100);
  }

}  // TEST_SUITE

TEST_SUITE("visgraph") {
  TEST_CASE("a path holds while the buildings placed miss it, a building destroyed voids it") {
    std::mt19937_64 rng(31);
    Scenario s = polygon_scenario(rng, 40, 30, 10);
    PlanningWorld world(s);
    VisGraphPlanner planner(world, 0, params(0.5));
    int kept = 0, voided = 0;
    for (int round = 0; round < 30; ++round) {
      const PathQuery q{random_free_point(rng, planner), random_free_point(rng, planner)};
      if (find_path(planner, q).status != SearchStatus::Found) continue;
      const std::vector<Vec2> before = planner.result().points;
      const std::unique_ptr<ResultDependency> dependency = planner.result_dependency();
      REQUIRE(dependency != nullptr);
      Feature f;
      f.id = 1000 + std::uint32_t(round);
      f.terrain = *s.find_terrain("wall");
      f.shape.kind = ShapeKind::Rect;
      f.shape.min = {double(rng() % 36), double(rng() % 26)};
      f.shape.max = f.shape.min + Vec2{2, 2};
      s.features.push_back(f);
      const WorldChange placed = world.update(s).value();
      if (dependency->still_valid(placed)) {
        ++kept;
        // Re-planning gives the same path (when the query is still answerable).
        if (find_path(planner, q).status == SearchStatus::Found) CHECK(planner.result().points == before);
      } else {
        ++voided;
      }
      s.features.pop_back();
      const WorldChange destroyed = world.update(s).value();
      CHECK_FALSE(dependency->still_valid(destroyed));
    }
    CHECK(kept > 3);
    CHECK(voided > 0);
  }

}  // TEST_SUITE

TEST_SUITE("visgraph link limits") {
  // The limited links by their definition, pair by pair: (i, j) is kept when it is a link no
  // longer than max_length and j is among i's k shortest such links or i among j's (ties by
  // node id).
  bool reference_kept(const visgraph::VisibilityGraph& g, const visgraph::LinkLimits& limits, std::uint32_t i,
                      std::uint32_t j) {
    const auto length = [&](std::uint32_t a, std::uint32_t b) {
      const Vec2 d = g.position(b) - g.position(a);
      return std::sqrt(d.x * d.x + d.y * d.y);
    };
    const double max_length =
        limits.max_length > 0 ? limits.max_length : std::numeric_limits<double>::infinity();
    if (length(i, j) > max_length) return false;
    const auto among_k = [&](std::uint32_t a, std::uint32_t b) {
      if (limits.k_nearest == 0) return true;
      std::uint32_t before = 0;  // links of a that rank before (a, b)
      for (const std::uint32_t c : g.links(a)) {
        if (length(a, c) > max_length) continue;
        before += length(a, c) < length(a, b) || (length(a, c) == length(a, b) && c < b);
      }
      return before < limits.k_nearest;
    };
    return among_k(i, j) || among_k(j, i);
  }

  TEST_CASE("limited links are the links chosen by the definition, symmetric and sorted") {
    std::mt19937_64 rng(33);
    for (int map = 0; map < 4; ++map) {
      const PlanningWorld world(polygon_scenario(rng, 40, 30, 14));
      VisGraphPlanner planner(world, 0, params(0.5));
      const visgraph::VisibilityGraph& g = planner.map().graph();
      for (const visgraph::LinkLimits limits :
           {visgraph::LinkLimits{3, 0}, visgraph::LinkLimits{0, 8.0}, visgraph::LinkLimits{5, 12.0}}) {
        const visgraph::LimitedLinks l(g, limits);
        std::size_t kept = 0;
        for (std::uint32_t i = 0; i < g.node_count(); ++i) {
          const auto mine = l.links(i);
          CHECK(std::is_sorted(mine.begin(), mine.end()));
          for (const std::uint32_t j : g.links(i)) {
            const bool expect = reference_kept(g, limits, i, j);
            CAPTURE(i);
            CAPTURE(j);
            CHECK(std::binary_search(mine.begin(), mine.end(), j) == expect);
            kept += expect;
          }
          for (const std::uint32_t j : mine) {
            const auto theirs = l.links(j);
            CHECK(std::binary_search(theirs.begin(), theirs.end(), i));  // symmetric, and a subset (above)
          }
        }
        CHECK(l.link_count() * 2 == kept);
        CHECK(l.link_count() < g.link_count());
      }
    }
  }

  TEST_CASE(
      "with link limits paths stay in sight and are never shorter, the structure shows the links kept") {
    std::mt19937_64 rng(35);
    int found = 0, longer = 0, lost = 0;
    for (int map = 0; map < 4; ++map) {
      const PlanningWorld world(polygon_scenario(rng, 40, 30, 14));
      VisGraphParams limited_params = params(0.5);
      limited_params.limits = visgraph::LinkLimits{2, 0};
      VisGraphPlanner exact(world, 0, params(0.5));
      VisGraphPlanner limited(world, 0, limited_params);
      const visgraph::SegmentIndex& index = exact.map().graph().index();
      for (int k = 0; k < 12; ++k) {
        const PathQuery q{random_free_point(rng, exact), random_free_point(rng, exact)};
        const PathResult e = find_path(exact, q);
        const PathResult l = find_path(limited, q);
        if (e.status != SearchStatus::Found) {
          CHECK(l.status != SearchStatus::Found);
          continue;
        }
        if (l.status != SearchStatus::Found) {
          ++lost;  // the kept links may not join the start's corners with the goal's
          continue;
        }
        ++found;
        CHECK(l.length >= e.length - 1e-9);
        longer += l.length > e.length + 1e-9;
        for (std::size_t i = 0; i + 1 < l.points.size(); ++i)
          CHECK(index.visible(l.points[i], l.points[i + 1]));
      }
      struct Count final : StructureVisitor {
        std::size_t links = 0;
        void edge(const StructureEdge& e) override { links += e.kind == "link"; }
      } all, kept;
      const Box2 everything{{-1, -1}, {100, 100}};
      exact.visit_structure(everything, all);
      limited.visit_structure(everything, kept);
      CHECK(all.links == exact.map().graph().link_count());
      CHECK(kept.links == visgraph::LimitedLinks(exact.map().graph(), limited_params.limits).link_count());
      CHECK(kept.links < all.links);
    }
    CHECK(found > 30);
    CHECK(longer > 0);
    CHECK(lost < found);
  }

  TEST_CASE("registry parameters k_nearest and max_link reach the planner") {
    const PlannerInfo* info = find_planner("visgraph");
    REQUIRE(info != nullptr);
    std::mt19937_64 rng(37);
    const PlanningWorld world(polygon_scenario(rng, 40, 30, 14));
    const auto values = resolve_params(*info, std::vector<PlannerParam>{{"k_nearest", 3}, {"max_link", 10}});
    REQUIRE(values);
    auto p = info->create(QueryContext{world, 0, std::nullopt, *values});
    VisGraphPlanner plain(world, 0, params(-1));
    const PathQuery q{random_free_point(rng, plain), random_free_point(rng, plain)};
    const PathResult& r = find_path(*p, q);
    double links = -1, unlimited = -1;
    for (const auto& [k, v] : r.stats.extra) {
      if (k == "links") links = v;
      if (k == "links_unlimited") unlimited = v;
    }
    CHECK(unlimited == double(plain.map().graph().link_count()));
    CHECK(links ==
          double(visgraph::LimitedLinks(plain.map().graph(), visgraph::LinkLimits{3, 10}).link_count()));
    CHECK(links < unlimited);
  }

}  // TEST_SUITE

TEST_SUITE("visgraph openings") {
  // A river of deep water across a 40 x 20 m world, a bridge over it, and optionally a ford
  // of ground painted over the river after it.
  Scenario river(bool intact, bool ford) {
    Scenario s = make_empty_scenario(40, 20, 1.0);
    Feature water;
    water.id = 1;
    water.terrain = *s.find_terrain("deep water");
    water.shape.kind = ShapeKind::Rect;
    water.shape.min = {18, 0};
    water.shape.max = {22, 20};
    s.features.push_back(water);
    if (ford) {
      Feature f;
      f.id = 2;
      f.terrain = *s.find_terrain("ground");
      f.shape.kind = ShapeKind::Rect;
      f.shape.min = {17, 2};
      f.shape.max = {23, 6};
      s.features.push_back(f);
    }
    Bridge b;
    b.id = 1;
    b.a = {15, 14};
    b.b = {25, 14};
    b.width = 4;
    b.intact = intact;
    s.bridges.push_back(b);
    return s;
  }

  TEST_CASE(
      "an intact bridge and a passable feature painted over a river open it, a broken bridge does not") {
    const PathQuery across{{5, 14}, {35, 14}};
    const PathQuery low{{5, 4}, {35, 4}};
    {
      const PlanningWorld world(river(true, false));
      VisGraphPlanner p(world, 0, params(-1));
      const PathResult r = find_path(p, across);
      REQUIRE(r.status == SearchStatus::Found);
      CHECK(r.length == doctest::Approx(30.0));  // straight over the deck
      // From below, up to the deck (y 12.4 with the radius) and back down: at least
      // 2 hypot(13, 8.4) + 4, and it agrees with the grid on reachability.
      const PathResult d = find_path(p, low);
      REQUIRE(d.status == SearchStatus::Found);
      CHECK(d.length >= 2 * std::hypot(13.0, 8.4) + 4 - 1e-6);
      CHECK(d.length < 2 * std::hypot(13.0, 8.4) + 4 + 0.2);
      auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
      CHECK(find_path(*astar, low).status == SearchStatus::Found);
    }
    {
      const PlanningWorld world(river(false, false));
      VisGraphPlanner p(world, 0, params(-1));
      CHECK(find_path(p, across).status == SearchStatus::NoPath);
      auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
      CHECK(find_path(*astar, across).status == SearchStatus::NoPath);
    }
    {
      const PlanningWorld world(river(false, true));
      VisGraphPlanner p(world, 0, params(-1));
      const PathResult r = find_path(p, low);
      REQUIRE(r.status == SearchStatus::Found);
      CHECK(r.length == doctest::Approx(30.0));  // straight through the ford
      const PathResult a = find_path(p, across);
      REQUIRE(a.status == SearchStatus::Found);
      // Down to the ford (y 5.6 with the radius) and back up.
      CHECK(a.length >= 2 * std::hypot(13.0, 8.4) + 4 - 1e-6);
      CHECK(a.length < 2 * std::hypot(13.0, 8.4) + 4 + 0.2);
    }
  }

  TEST_CASE("a bridge destroyed, or a clearing painted, voids a path, a building far away keeps it") {
    Scenario s = river(true, false);
    PlanningWorld world(s);
    VisGraphPlanner p(world, 0, params(-1));
    const PathQuery across{{5, 14}, {35, 14}};
    const auto plan = [&] {
      REQUIRE(find_path(p, across).status == SearchStatus::Found);
      return p.result_dependency();
    };
    std::unique_ptr<ResultDependency> d = plan();
    Feature hut;
    hut.id = 10;
    hut.terrain = *s.find_terrain("wall");
    hut.shape.kind = ShapeKind::Rect;
    hut.shape.min = {2, 1};
    hut.shape.max = {4, 3};
    s.features.push_back(hut);
    CHECK(d->still_valid(world.update(s).value()));  // an obstacle placed away from the path
    d = plan();
    Feature clearing = hut;
    clearing.id = 11;
    clearing.terrain = *s.find_terrain("ground");
    clearing.shape.min = {17, 2};
    clearing.shape.max = {23, 4};
    s.features.push_back(clearing);
    CHECK_FALSE(d->still_valid(world.update(s).value()));  // ground over the river may open a way
    d = plan();
    s.bridges[0].intact = false;
    CHECK_FALSE(d->still_valid(world.update(s).value()));
  }

  TEST_CASE("a deck is as wide as the bridge less the unit's radius on each side") {
    const PlanningWorld world(river(true, false));
    for (const double radius : {0.5, 1.9, 2.1}) {
      VisGraphPlanner p(world, 0, params(radius));
      CAPTURE(radius);
      // The deck is 4 m wide: a unit of radius up to 2 m (less max_error) still fits.
      CHECK((find_path(p, {{5, 14}, {35, 14}}).status == SearchStatus::Found) == (radius < 2.0));
    }
  }

}  // TEST_SUITE
