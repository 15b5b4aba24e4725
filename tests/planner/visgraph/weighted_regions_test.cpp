// Seed 004's swamps on the visibility graph: legs priced piece by piece, paths round slow
// ground when that is cheaper and through it when not, A* equal to Dijkstra.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "planner/core/planner_registry.hpp"
#include "planner/referee/path_referee.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "planner/visgraph/weighted_regions.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

Feature area(std::uint32_t id, const Scenario& s, const char* terrain, Vec2 lo, Vec2 hi) {
  Feature f;
  f.id = id;
  f.terrain = *s.find_terrain(terrain);
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = lo;
  f.shape.max = hi;
  return f;
}

VisGraphParams params(bool weighted = true, bool dijkstra = false) {
  VisGraphParams p;
  p.world_cost = false;  // the search's own cost, which these tests check
  p.radius = 0.5;
  p.weighted = weighted;
  p.dijkstra = dijkstra;
  p.roads = RoadMode::Off;
  return p;
}

// The map as tiles: 640 m (64 x 64 cells of 10 m), open on the left, a wall at
// the top right and mud (x10) at the bottom right; or random rectangles of tiles of
// several costs (and a few walls) on a 40 x 30 map of 1 m cells.
Scenario tile_world(std::mt19937_64* rng) {
  const int w = rng ? 40 : 64, h = rng ? 30 : 64;
  Scenario s = make_empty_scenario(w * (rng ? 1.0 : 10.0), h * (rng ? 1.0 : 10.0), rng ? 1.0 : 10.0);
  const std::uint8_t wall = std::uint8_t(*s.find_terrain("wall"));
  std::vector<std::uint8_t> slow;
  for (const double f : {1.5, 3.0, 10.0}) {
    slow.push_back(std::uint8_t(s.terrains.size()));
    s.terrains.push_back(TerrainType{"slow" + std::to_string(slow.size()), char('a' + slow.size()),
                                     Color{100, 80, 50, 255},
                                     std::vector<std::optional<double>>(s.classes.size(), f), ""});
  }
  TileGrid t{w, h, std::vector<std::uint8_t>(std::size_t(w * h), 0)};
  const auto fill = [&](int x0, int y0, int x1, int y1, std::uint8_t k) {
    for (int y = std::max(0, y0); y < std::min(h, y1); ++y)
      for (int x = std::max(0, x0); x < std::min(w, x1); ++x) t.terrain[std::size_t(y * w + x)] = k;
  };
  if (!rng) {
    fill(32, 0, 64, 26, wall);
    fill(32, 26, 64, 64, slow[2]);
  } else {
    for (int k = 0; k < 8; ++k) {
      const int x = int((*rng)() % 36), y = int((*rng)() % 26);
      fill(x, y, x + 2 + int((*rng)() % 12), y + 2 + int((*rng)() % 8), slow[(*rng)() % 3]);
    }
    for (int k = 0; k < 3; ++k) {
      const int x = int((*rng)() % 38), y = int((*rng)() % 28);
      fill(x, y, x + 1 + int((*rng)() % 2), y + 1 + int((*rng)() % 6), wall);
    }
  }
  s.tiles = std::move(t);
  return s;
}

}  // namespace

TEST_SUITE("visgraph swamps") {
  TEST_CASE("slow tiles are weighed: costs in grid A*'s units, against grid A* on the same cells") {
    // The registry's visgraph (radius 0, so the same cells are open to both) against
    // grid A* on the same cells: its cost is the world's cost of its path (the referee's),
    // and on the map it goes round the mud, not through it, and into it at the
    // goal's own point on its side (2,950 against grid A*'s 3,003; 2,980 turning only at
    // region corners, 4,822 with tiles not weighed).
    const PlannerInfo* vg = find_planner("visgraph");
    const PlannerInfo* astar = find_planner("astar");
    REQUIRE(vg);
    REQUIRE(astar);
    const PlannerParam radius0[] = {{"radius", 0}};
    const PlannerParam shortcut[] = {{"radius", 0}, {"shortcut", 1}};
    double worst = 0, sum = 0;
    int compared = 0;
    std::mt19937_64 rng(3232);
    for (int map = 0; map <= 12; ++map) {
      const Scenario s = tile_world(map == 0 ? nullptr : &rng);
      const PlanningWorld world(s);
      auto v = vg->create(QueryContext{world, 0, std::nullopt, resolve_params(*vg, radius0).value()});
      auto a = astar->create(QueryContext{world, 0, std::nullopt, resolve_params(*astar, {}).value()});
      const CostGrid& g = world.grid(0);
      std::vector<PathQuery> queries;
      if (map == 0) queries.push_back({g.center(g.index(17, 13)), g.center(g.index(56, 62))});
      for (int q = 0; map > 0 && q < 8; ++q) {
        const auto c0 = std::uint32_t(rng() % g.cell_count()), c1 = std::uint32_t(rng() % g.cell_count());
        if (g.passable(c0) && g.passable(c1) && world.regions(0).connected(c0, c1))
          queries.push_back({g.center(c0), g.center(c1)});
      }
      for (const PathQuery& q : queries) {
        const PathResult ra = find_path(*a, q);
        const PathResult rv = find_path(*v, q);
        REQUIRE(ra.status == SearchStatus::Found);
        REQUIRE(rv.status == SearchStatus::Found);
        const auto verdict = referee::referee_path(world, 0, rv.points);
        REQUIRE(verdict.ok());
        CHECK(verdict->legal);
        CHECK(referee::costs_agree(rv.cost, verdict->cost));
        // The search priced its path as the world does (ground 1, no roads here).
        double own = -1;
        for (const auto& [k, val] : rv.stats.extra)
          if (k == "own_cost") own = val;
        CHECK(own == doctest::Approx(rv.cost).epsilon(1e-9));
        const double ratio = rv.cost / ra.cost;
        CAPTURE(map);
        // Paths bend at region corners and at the query's own points on the sides of the
        // slow regions holding its ends, and take legs the world charges less: on these
        // worlds at most 1.000 x grid A*, 0.950 on average (1.70 and 0.98 turning only at
        // corners, when the goal lay inside a slow region near its side).
        CHECK(ratio <= (map == 0 ? 1.0 : 1.05));
        worst = std::max(worst, ratio);
        sum += ratio;
        ++compared;
        if (map == 0) {
          MESSAGE("mud map: visgraph " << rv.cost << ", grid A* " << ra.cost);
          // The shortcut mode weighs nothing in its search, but its cost is the world's too.
          auto sc = vg->create(QueryContext{world, 0, std::nullopt, resolve_params(*vg, shortcut).value()});
          const PathResult rs = find_path(*sc, q);
          REQUIRE(rs.status == SearchStatus::Found);
          const auto vs = referee::referee_path(world, 0, rs.points);
          REQUIRE(vs.ok());
          CHECK(referee::costs_agree(rs.cost, vs->cost));
          CHECK(rs.cost >= rv.cost - 1e-9);
        }
      }
    }
    MESSAGE(compared << " queries: visgraph / grid A* mean " << sum / compared << ", worst " << worst);
    CHECK(compared > 60);
    CHECK(sum / compared == doctest::Approx(0.950).epsilon(0.005));
    CHECK(worst <= 1.005);
  }

  TEST_CASE("a leg costs its length in each region times the region's factor, the last painted winning") {
    Scenario s = make_empty_scenario(100, 60, 1.0);
    s.features = {area(1, s, "swamp", {10, 10}, {20, 20}), area(2, s, "rough", {15, 0}, {30, 60})};
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, params());
    const visgraph::WeightedRegions r(world, 0, p.map().graph(), 0.05);
    REQUIRE(r.regions().size() == 2);
    CHECK(r.regions()[0].factor == 3.0);  // infantry: swamp 3, rough 1.5, ground 1
    CHECK(r.regions()[1].factor == 1.5);
    // y = 15 from x 0 to 40: 10 m ground, 5 m swamp, 15 m rough (over the swamp's second
    // half and beyond), 10 m ground.
    CHECK(r.cost({0, 15}, {40, 15}) == doctest::Approx(10 + 5 * 3 + 15 * 1.5 + 10));
    // Along the swamp's lower edge: beside it, at the ground's cost up to the rough.
    CHECK(r.cost({10, 10}, {15, 10}) == doctest::Approx(5));
    CHECK(r.min_factor() == 1.0);
    CHECK(r.cost({50, 50}, {53, 54}) == doctest::Approx(5));
  }

  TEST_CASE("the factor at a point is its region's, read from the cell or judged on the cells' sides") {
    // Against the definition, written here: the factor of the region whose inside (not its
    // sides, within 1e-9 m) holds the point, else 1; at random points and at points on and
    // beside the cells' sides, where the lookup by cell must give way to the rings.
    std::mt19937_64 rng(41);
    for (int world_round = 0; world_round < 6; ++world_round) {
      const Scenario s = tile_world(&rng);
      const PlanningWorld world(s);
      VisGraphPlanner p(world, 0, params());
      const visgraph::WeightedRegions r(world, 0, p.map().graph(), 0.05);
      REQUIRE_FALSE(r.regions().empty());
      const auto expected = [&](Vec2 q) {
        for (const visgraph::WeightedRegion& region : r.regions()) {
          const Box2& b = region.box;
          const double margin = std::min({q.x - b.lo.x, b.hi.x - q.x, q.y - b.lo.y, b.hi.y - q.y});
          if (margin > 1e-9) return region.factor;
        }
        return 1.0;
      };
      std::uniform_real_distribution<double> ux(0, 40), uy(0, 30);
      const double offsets[] = {0.0, 1e-12, -1e-12, 5e-9, -5e-9, 2e-8, -2e-8, 1e-6, -1e-6};
      for (int k = 0; k < 4000; ++k) {
        Vec2 q{ux(rng), uy(rng)};
        if (k % 2) q.x = std::round(q.x) + offsets[rng() % 9];  // on or beside a column side
        if (k % 3 == 0) q.y = std::round(q.y) + offsets[rng() % 9];
        CAPTURE(q.x);
        CAPTURE(q.y);
        CHECK(r.factor_at(q) == expected(q));
      }
    }
  }

  TEST_CASE("round the swamp when that is cheaper, through it when the way round is long") {
    Scenario s = make_empty_scenario(100, 60, 1.0);
    s.features = {area(1, s, "swamp", {40, 20}, {60, 40})};
    {
      const PlanningWorld world(s);
      VisGraphPlanner p(world, 0, params());
      const PathResult& r = find_path(p, {{20, 30}, {80, 30}});
      REQUIRE(r.status == SearchStatus::Found);
      const double round = 2 * std::hypot(20.0, 10.0) + 20;
      CHECK(r.cost == doctest::Approx(round));  // along its edge, beside it
      CHECK(r.length == doctest::Approx(round));
      VisGraphPlanner plain(world, 0, params(false));
      CHECK(find_path(plain, {{20, 30}, {80, 30}}).length == doctest::Approx(60));  // unweighted: straight
    }
    s.features = {area(1, s, "swamp", {40, 0}, {60, 60})};  // the whole height
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, params());
    const PathResult& r = find_path(p, {{20, 30}, {80, 30}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.length == doctest::Approx(60));
    CHECK(r.cost == doctest::Approx(20 + 20 * 3 + 20));
  }

  TEST_CASE(
      "the regions and roads are kept across a change to threats or units, made again after one to the "
      "ground") {
    Scenario s = make_empty_scenario(100, 60, 1.0);
    s.features = {area(1, s, "swamp", {40, 20}, {60, 40})};
    s.roads = {Road{1, {{5, 5}, {95, 5}}, 4, 1.5}};
    PlanningWorld world(s);
    visgraph::ObstacleParams op;
    op.radius = 0.5;
    const auto inputs = [&] { return visgraph::VisGraphMap::of(world, 0, op).inputs_revision(); };
    const std::uint64_t made = inputs();
    VisGraphPlanner p(world, 0, params());
    const PathQuery q{{20, 30}, {80, 30}};
    const double before = find_path(p, q).cost;

    s.threats.push_back(Influence{7, {50, 50}, 5, 1.0, ""});  // no cell changes
    REQUIRE_FALSE(world.update(s).value().none());
    CHECK(inputs() == made);
    CHECK(find_path(p, q).cost == before);

    s.roads[0].points[1] = {95, 6};  // the road moves
    world.update(s).value();
    const std::uint64_t moved_road = inputs();
    CHECK(moved_road > made);

    s.features[0].shape.min = {40, 0};  // the swamp spans the map: no way round
    s.features[0].shape.max = {60, 60};
    world.update(s).value();
    CHECK(inputs() > moved_road);
    VisGraphPlanner fresh(world, 0, params());
    const PathResult& kept = find_path(p, q);
    REQUIRE(kept.status == SearchStatus::Found);
    CHECK(kept.cost == find_path(fresh, q).cost);
    CHECK(kept.cost > before);
  }

  TEST_CASE("a container of swamp: its outside weighs its factor, a clearing inside the ground's") {
    // Swamp everywhere but a long clearing (the container) and a pond of rough ground in
    // it: the world's box at the swamp's factor, the container over it at the ground's,
    // then the other features in their order.
    Scenario s = make_empty_scenario(100, 60, 1.0);
    Feature clearing = area(1, s, "swamp", {10, 20}, {90, 30});
    clearing.container = true;
    s.features = {area(2, s, "rough", {40, 22}, {50, 28}), clearing};
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, params());
    const visgraph::WeightedRegions r(world, 0, p.map().graph(), 0.05);
    // As the raster paints it, in rectangles of cells: the swamp north and south of the
    // clearing and at its two ends, and the pond.
    REQUIRE(r.regions().size() == 5);
    int swamp = 0, rough = 0;
    for (const visgraph::WeightedRegion& region : r.regions()) {
      swamp += region.factor == 3.0;
      rough += region.factor == 1.5;
    }
    CHECK(swamp == 4);
    CHECK(rough == 1);
    CHECK(r.cost({5, 25}, {35, 25}) == doctest::Approx(5 * 3 + 25));
    CHECK(r.cost({35, 25}, {55, 25}) == doctest::Approx(5 + 10 * 1.5 + 5));
    CHECK(r.cost({50, 5}, {50, 15}) == doctest::Approx(30));
    // Two points in the swamp south of the clearing: through the clearing, not straight.
    const PathQuery q{{5, 10}, {95, 10}};
    const PathResult& path = find_path(p, q);
    REQUIRE(path.status == SearchStatus::Found);
    CHECK(path.cost < 0.6 * 90 * 3);
    double top = 0;
    for (const Vec2& v : path.points) top = std::max(top, v.y);
    CHECK(top >= 20);
    // Its cost is the sum of its legs' weighted lengths.
    double legs = 0;
    for (std::size_t i = 1; i < path.points.size(); ++i) legs += r.cost(path.points[i - 1], path.points[i]);
    CHECK(path.cost == doctest::Approx(legs));
    // Without weights: the straight line.
    VisGraphPlanner plain(world, 0, params(false));
    CHECK(find_path(plain, q).length == doctest::Approx(90));
    // A container of wall stays an obstacle, not a weighted region.
    Scenario walled = s;
    walled.features[1].terrain = *walled.find_terrain("wall");
    const PlanningWorld walled_world(walled);
    VisGraphPlanner w(walled_world, 0, params());
    const visgraph::WeightedRegions none(walled_world, 0, w.map().graph(), 0.05);
    REQUIRE(none.regions().size() == 1);
    CHECK(none.regions()[0].factor == 1.5);
  }

  TEST_CASE("with swamps among walls, A* equals Dijkstra and every cost is the sum of its legs") {
    std::mt19937_64 rng(61);
    const char* kinds[] = {"swamp", "rough", "forest", "shallow water"};
    int found = 0, weighed = 0;
    for (int map = 0; map < 10; ++map) {
      Scenario s = make_empty_scenario(90, 70, 1.0);
      for (std::uint32_t k = 0; k < 10; ++k) {
        const Vec2 lo{double(rng() % 75) + 2, double(rng() % 55) + 2};
        const Vec2 hi = lo + Vec2{2.0 + double(rng() % 14), 2.0 + double(rng() % 14)};
        s.features.push_back(area(k + 1, s, k % 3 == 0 ? "wall" : kinds[rng() % 4], lo, hi));
      }
      const PlanningWorld world(s);
      VisGraphPlanner astar(world, 0, params()), dijkstra(world, 0, params(true, true));
      const visgraph::WeightedRegions regions(world, 0, astar.map().graph(), 0.05);
      const visgraph::SegmentIndex& index = astar.map().graph().index();
      for (int q = 0; q < 12; ++q) {
        const PathQuery query{{double(rng() % 86) + 2, double(rng() % 66) + 2},
                              {double(rng() % 86) + 2, double(rng() % 66) + 2}};
        const PathResult a = find_path(astar, query);
        const PathResult d = find_path(dijkstra, query);
        CAPTURE(map);
        CAPTURE(q);
        REQUIRE(a.status == d.status);
        if (a.status != SearchStatus::Found) continue;
        ++found;
        CHECK(a.cost == doctest::Approx(d.cost).epsilon(1e-9));
        double legs = 0;
        for (std::size_t i = 1; i < a.points.size(); ++i) {
          CHECK(index.visible(a.points[i - 1], a.points[i]));
          legs += regions.cost(a.points[i - 1], a.points[i]);
        }
        CHECK(a.cost == doctest::Approx(legs).epsilon(1e-9));
        weighed += a.cost > a.length + 1e-6;
      }
    }
    CHECK(found > 80);
    CHECK(weighed > 5);
  }

  TEST_CASE("the structure view shows the regions and their corners' links, the parameter is listed") {
    Scenario s = make_empty_scenario(100, 60, 1.0);
    s.features = {area(1, s, "swamp", {40, 20}, {60, 40})};
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, params());
    REQUIRE(find_path(p, {{20, 30}, {80, 30}}).status == SearchStatus::Found);
    struct Count final : StructureVisitor {
      int regions = 0, links = 0;
      void edge(const StructureEdge& e) override { links += e.kind == "region link"; }
      void shape(const StructureShape& sh) override { regions += sh.name == "weighted region"; }
    } c;
    p.visit_structure(Box2{{0, 0}, {100, 60}}, c);
    CHECK(c.regions == 1);
    CHECK(c.links >= 4);  // the square's sides at least
    bool listed = false;
    for (const ParamSpec& spec : find_planner("visgraph")->params) listed = listed || spec.name == "weighted";
    CHECK(listed);
  }

}  // TEST_SUITE
