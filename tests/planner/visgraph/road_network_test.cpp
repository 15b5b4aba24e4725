// Roads planned exactly in the visibility graph (roads=2): the angle rule, a road along
// the trip, a road through a wall, a dense-discretisation reference on random maps, the
// road pass and no roads never cheaper, determinism and the structure the window draws.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <set>

#include "planner/core/planner_registry.hpp"
#include "planner/visgraph/road_network.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "tests/planner/visgraph/visgraph_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

Road make_road(std::vector<Vec2> pts, double factor, std::uint32_t id = 1) {
  Road r;
  r.id = id;
  r.points = std::move(pts);
  r.speed_factor = factor;
  return r;
}

// These tests check the stat cost_without_roads, so the second search is on.
VisGraphParams with_mode(RoadMode mode) {
  VisGraphParams p;
  p.world_cost = false;  // the search's own cost, which these tests check
  p.radius = 0.5;
  p.roads = mode;
  p.compare_without_roads = true;
  return p;
}

double dist(Vec2 a, Vec2 b) { return std::hypot(b.x - a.x, b.y - a.y); }

// True when p lies on segment [a, b] (within 1e-6 m).
bool on_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double len = std::hypot(d.x, d.y);
  const double c = std::abs(d.x * (p.y - a.y) - d.y * (p.x - a.x)) / len;
  const double t = ((p - a).x * d.x + (p - a).y * d.y) / (len * len);
  return c < 1e-6 && t > -1e-9 && t < 1 + 1e-9;
}

// A polyline's cost: a leg with both ends on one segment of a road costs length over the
// largest such road's factor, every other leg its length.
double polyline_cost(const std::vector<Vec2>& pts, const std::vector<Road>& roads) {
  double cost = 0;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    double factor = 1;
    for (const Road& rd : roads) {
      for (std::size_t k = 1; k < rd.points.size(); ++k) {
        if (on_segment(pts[i - 1], rd.points[k - 1], rd.points[k]) &&
            on_segment(pts[i], rd.points[k - 1], rd.points[k])) {
          factor = std::max(factor, rd.speed_factor);
        }
      }
    }
    cost += dist(pts[i - 1], pts[i]) / factor;
  }
  return cost;
}

// Reference: Dijkstra over every corner, the start, the goal and each road sampled every
// `h` metres (samples outside the obstacles), all pairs in sight linked at their length,
// consecutive samples of a road segment in sight at length / factor.
double reference_cost(const visgraph::VisibilityGraph& g, const std::vector<Road>& roads, Vec2 s, Vec2 t,
                      double h) {
  const visgraph::SegmentIndex& index = g.index();
  std::vector<Vec2> pts = {s, t};
  for (std::uint32_t c = 0; c < g.node_count(); ++c) pts.push_back(g.position(c));
  std::vector<std::tuple<std::size_t, std::size_t, double>> along;
  for (const Road& rd : roads) {
    for (std::size_t k = 1; k < rd.points.size(); ++k) {
      const Vec2 a = rd.points[k - 1], b = rd.points[k];
      const int n = std::max(1, int(std::ceil(dist(a, b) / h)));
      std::size_t prev = SIZE_MAX;
      for (int i = 0; i <= n; ++i) {
        const Vec2 p = a + (b - a) * (double(i) / n);
        if (index.inside(p)) {
          prev = SIZE_MAX;
          continue;
        }
        pts.push_back(p);
        if (prev != SIZE_MAX && index.visible(pts[prev], p)) {
          along.push_back({prev, pts.size() - 1, dist(pts[prev], p) / rd.speed_factor});
        }
        prev = pts.size() - 1;
      }
    }
  }
  const std::size_t n = pts.size();
  std::vector<std::vector<std::pair<std::size_t, double>>> adj(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (!index.visible(pts[i], pts[j])) continue;
      adj[i].push_back({j, dist(pts[i], pts[j])});
      adj[j].push_back({i, dist(pts[i], pts[j])});
    }
  }
  for (const auto& [a, b, c] : along) {
    adj[a].push_back({b, c});
    adj[b].push_back({a, c});
  }
  std::vector<double> d(n, std::numeric_limits<double>::infinity());
  using E = std::pair<double, std::size_t>;
  std::priority_queue<E, std::vector<E>, std::greater<>> open;
  d[0] = 0;
  open.push({0, 0});
  while (!open.empty()) {
    const auto [du, u] = open.top();
    open.pop();
    if (du > d[u]) continue;
    for (const auto& [v, c] : adj[u]) {
      if (du + c < d[v]) {
        d[v] = du + c;
        open.push({d[v], v});
      }
    }
  }
  return d[1];
}

// Random walls (rectangles) and two roads of three points each.
Scenario random_road_map(std::mt19937_64& rng) {
  Scenario s = make_empty_scenario(60, 45, 1.0);
  const std::size_t wall = *s.find_terrain("wall");
  for (int k = 0; k < 4; ++k) {
    Feature f;
    f.id = std::uint32_t(k + 1);
    f.terrain = wall;
    f.shape.kind = ShapeKind::Rect;
    f.shape.min = {double(rng() % 50) + 3, double(rng() % 35) + 3};
    f.shape.max = f.shape.min + Vec2{2.0 + double(rng() % 8), 2.0 + double(rng() % 8)};
    s.features.push_back(f);
  }
  for (int k = 0; k < 2; ++k) {
    std::vector<Vec2> pts;
    for (int i = 0; i < 3; ++i) pts.push_back({double(rng() % 54) + 3, double(rng() % 39) + 3});
    s.roads.push_back(make_road(pts, 1.5 + double(rng() % 4) * 0.5, std::uint32_t(k + 1)));
  }
  return s;
}

}  // namespace

TEST_SUITE("visgraph exact roads") {
  TEST_CASE("joining points follow the angle rule: cosine of the approach = 1 / speed factor") {
    visgraph::RoadPiece piece;
    piece.a = {0, 0};
    piece.b = {100, 0};
    piece.length = 100;
    piece.factor = 2;
    double xs[2];
    REQUIRE(visgraph::joining_points(piece, {40, 10}, xs) == 2);
    for (int k = 0; k < 2; ++k) {
      const Vec2 x{xs[k], 0};
      const Vec2 d = x - Vec2{40, 10};
      // The approach's angle with the road: |cos| = 1/2 (60 degrees).
      CHECK(std::abs(d.x) / std::hypot(d.x, d.y) == doctest::Approx(0.5));
    }
    CHECK(xs[0] == doctest::Approx(40 - 10 / std::sqrt(3.0)));
    CHECK(xs[1] == doctest::Approx(40 + 10 / std::sqrt(3.0)));
    // Beyond the piece: clamped out (the ends are linked instead); factor 1: none.
    CHECK(visgraph::joining_points(piece, {-30, 5}, xs) == 0);
    piece.factor = 1;
    CHECK(visgraph::joining_points(piece, {40, 10}, xs) == 0);
    // On the road: the point itself, once.
    piece.factor = 3;
    REQUIRE(visgraph::joining_points(piece, {25, 0}, xs) == 1);
    CHECK(xs[0] == doctest::Approx(25));
  }

  TEST_CASE("exact roads: a straight road along the trip costs its length over the factor") {
    Scenario s = make_empty_scenario(200, 60, 1.0);
    s.roads.push_back(make_road({{10, 30}, {190, 30}}, 2.0));
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_mode(RoadMode::Exact));
    const PathResult& r = find_path(p, {{10, 30}, {190, 30}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx(90).epsilon(1e-12));
    CHECK(r.length == doctest::Approx(180).epsilon(1e-12));
    CHECK(test::stat(r, "cost_without_roads") == doctest::Approx(180));
    CHECK(test::stat(r, "road_points") > 0);
  }

  TEST_CASE(
      "exact roads: the registry's visgraph searches once, the second search only with compare_roads=1") {
    Scenario s = make_empty_scenario(200, 60, 1.0);
    s.roads.push_back(make_road({{10, 30}, {190, 30}}, 2.0));
    const PlanningWorld world(s);
    const PlannerInfo* info = find_planner("visgraph");
    REQUIRE(info);
    const PathQuery q{{10, 30}, {190, 30}};
    // By default a road path says -1 (not compared): no search without roads was run.
    auto plain = info->create(QueryContext{world, 0, std::nullopt, resolve_params(*info, {}).value()});
    const PathResult a = find_path(*plain, q);
    REQUIRE(a.status == SearchStatus::Found);
    CHECK(a.cost == doctest::Approx(90).epsilon(1e-12));
    CHECK(test::stat(a, "road_legs") > 0);
    CHECK(test::stat(a, "cost_without_roads") == -1);
    // Asked for, the stat is the cost of the same query with roads off.
    const PlannerParam compare[] = {{"compare_roads", 1}};
    auto with = info->create(QueryContext{world, 0, std::nullopt, resolve_params(*info, compare).value()});
    const PathResult b = find_path(*with, q);
    REQUIRE(b.status == SearchStatus::Found);
    CHECK(b.cost == a.cost);
    CHECK(b.points == a.points);
    const PlannerParam off[] = {{"roads", 0}};
    auto without = info->create(QueryContext{world, 0, std::nullopt, resolve_params(*info, off).value()});
    CHECK(test::stat(b, "cost_without_roads") == find_path(*without, q).cost);
    CHECK(test::stat(b, "own_cost") == doctest::Approx(90).epsilon(1e-12));
  }

  TEST_CASE("exact roads join at the angle rule's point and cost the closed-form optimum") {
    for (const double f : {1.5, 2.0, 3.0}) {
      Scenario s = make_empty_scenario(300, 80, 1.0);
      s.roads.push_back(make_road({{20, 20}, {280, 20}}, f));
      const PlanningWorld world(s);
      VisGraphPlanner p(world, 0, with_mode(RoadMode::Exact));
      const PathResult& r = find_path(p, {{20, 30}, {280, 30}});
      REQUIRE(r.status == SearchStatus::Found);
      const double x = 10 / std::sqrt(f * f - 1);
      const double best = 2 * std::hypot(10.0, x) + (260 - 2 * x) / f;
      CAPTURE(f);
      CHECK(r.cost == doctest::Approx(best).epsilon(1e-12));
      CHECK(r.cost == doctest::Approx(polyline_cost(r.points, s.roads)).epsilon(1e-12));
      REQUIRE(r.points.size() >= 4);
      // The first leg meets the road at the angle whose cosine is 1 / f.
      const Vec2 d = r.points[1] - r.points[0];
      CHECK(r.points[1].y == doctest::Approx(20));
      CHECK(d.x / std::hypot(d.x, d.y) == doctest::Approx(1 / f));
      // The road pass, joining at sampled points, is never cheaper.
      VisGraphPlanner pass(world, 0, with_mode(RoadMode::Pass));
      CHECK(r.cost <= find_path(pass, {{20, 30}, {280, 30}}).cost + 1e-9);
    }
  }

  TEST_CASE("exact roads: a road through a wall is no way through") {
    Scenario s = make_empty_scenario(100, 60, 1.0);
    Feature w;
    w.id = 1;
    w.terrain = *s.find_terrain("wall");
    w.shape.kind = ShapeKind::Rect;
    w.shape.min = {48, 0};
    w.shape.max = {52, 55};
    s.features.push_back(w);
    s.roads.push_back(make_road({{10, 30}, {90, 30}}, 4.0));
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_mode(RoadMode::Exact));
    const PathResult& r = find_path(p, {{10, 30}, {90, 30}});
    REQUIRE(r.status == SearchStatus::Found);
    const visgraph::SegmentIndex& index = p.map().graph().index();
    for (std::size_t i = 1; i < r.points.size(); ++i) CHECK(index.visible(r.points[i - 1], r.points[i]));
    double top = 0;
    for (const Vec2& q : r.points) top = std::max(top, q.y);
    CHECK(top >= 55);  // round the end of the wall
    CHECK(r.cost == doctest::Approx(polyline_cost(r.points, s.roads)).epsilon(1e-9));
    // No road point lies in the wall (inflated by 0.5 m less 1/1024 m).
    visgraph::RoadNetwork net(s.roads, p.map().graph(), {}, [](Vec2 a, Vec2 b) { return dist(a, b); });
    REQUIRE(net.pieces().size() == 2);
    const double in = 0.5 - 1.0 / 1024;
    for (const Vec2& q : net.points())
      CHECK_FALSE((q.x > 48 - in + 1e-9 && q.x < 52 + in - 1e-9 && q.y < 55 + in - 1e-9));
    // The wall's sides move out by exactly the radius less one unit of 1/1024 m.
    CHECK(net.pieces()[0].b.x == doctest::Approx(48 - in).epsilon(1e-12));
    CHECK(net.pieces()[1].a.x == doctest::Approx(52 + in).epsilon(1e-12));
  }

  TEST_CASE("exact roads equal a dense-discretisation reference on random maps, and beat the pass") {
    std::mt19937_64 rng(2026);
    const double h = 0.25;  // the reference's road sampling step, metres
    int found = 0, joined = 0;
    double worst_gap = 0;
    for (int map = 0; map < 12; ++map) {
      const Scenario s = random_road_map(rng);
      const PlanningWorld world(s);
      VisGraphPlanner exact(world, 0, with_mode(RoadMode::Exact));
      VisGraphParams dp = with_mode(RoadMode::Exact);
      dp.dijkstra = true;
      VisGraphPlanner dijkstra(world, 0, dp);
      VisGraphPlanner pass(world, 0, with_mode(RoadMode::Pass));
      VisGraphPlanner off(world, 0, with_mode(RoadMode::Off));
      for (int q = 0; q < 6; ++q) {
        const PathQuery query{{double(rng() % 54) + 3, double(rng() % 39) + 3},
                              {double(rng() % 54) + 3, double(rng() % 39) + 3}};
        const PathResult a = find_path(exact, query);
        CAPTURE(map);
        CAPTURE(q);
        if (a.status != SearchStatus::Found) {
          CHECK(find_path(off, query).status == a.status);
          continue;
        }
        ++found;
        const visgraph::VisibilityGraph& g = exact.map().graph();
        const double ref = reference_cost(g, s.roads, query.start, query.goal, h);
        // Exact is optimal: never above a feasible reference; the reference's joining points
        // lie within h / 2 of the best ones, each costing at most h / 2 (1 + 1) more.
        CHECK(a.cost <= ref + 1e-9);
        const double legs = std::max(1.0, test::stat(a, "road_legs"));
        CHECK(a.cost >= ref - 2 * h * legs);
        worst_gap = std::max(worst_gap, ref - a.cost);
        // The path is real: legs in sight, its cost recomputed from its legs.
        for (std::size_t i = 1; i < a.points.size(); ++i)
          CHECK(g.index().visible(a.points[i - 1], a.points[i]));
        CHECK(a.cost == doctest::Approx(polyline_cost(a.points, s.roads)).epsilon(1e-9));
        CHECK(a.points.front() == query.start);
        CHECK(a.points.back() == query.goal);
        // A* equals Dijkstra; the pass and no roads never cheaper.
        CHECK(find_path(dijkstra, query).cost == doctest::Approx(a.cost).epsilon(1e-12));
        const PathResult b = find_path(pass, query);
        const PathResult c = find_path(off, query);
        CHECK(a.cost <= b.cost + 1e-9);
        CHECK(a.cost <= c.cost + 1e-9);
        CHECK(test::stat(a, "cost_without_roads") == doctest::Approx(c.cost).epsilon(1e-12));
        joined += a.cost < c.cost - 1e-9;
      }
    }
    MESSAGE("exact road queries: ", found, " found, ", joined,
            " on a road; reference above exact by at most ", worst_gap);
    CHECK(found > 30);
    CHECK(joined > 10);
  }

  TEST_CASE(
      "exact roads turn from one road onto another where they cross, and a road of factor 1 adds nothing") {
    Scenario s = make_empty_scenario(200, 80, 1.0);
    s.roads.push_back(make_road({{5, 30}, {195, 30}}, 3.0, 1));
    s.roads.push_back(make_road({{100, 5}, {100, 75}}, 3.0, 2));
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_mode(RoadMode::Exact));
    const PathResult& r = find_path(p, {{10, 30}, {100, 60}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx((90 + 30) / 3.0).epsilon(1e-12));
    CHECK(std::find(r.points.begin(), r.points.end(), Vec2{100, 30}) != r.points.end());
    // Along a road of factor 1: its length, as off the roads; it has no road points.
    Scenario slow = make_empty_scenario(200, 80, 1.0);
    slow.roads.push_back(make_road({{5, 70}, {195, 70}}, 1.0, 3));
    const PlanningWorld slow_world(slow);
    VisGraphPlanner q(slow_world, 0, with_mode(RoadMode::Exact));
    const PathResult& f = find_path(q, {{20, 70}, {180, 70}});
    REQUIRE(f.status == SearchStatus::Found);
    CHECK(f.cost == doctest::Approx(160).epsilon(1e-12));
    CHECK(test::stat(f, "road_points") < 0);
  }

  TEST_CASE(
      "exact roads through a swamp: a road leg costs its weighted length over the factor, as on the grid") {
    Scenario s = make_empty_scenario(100, 60, 1.0);
    Feature swamp;
    swamp.id = 1;
    swamp.terrain = *s.find_terrain("swamp");  // infantry: 3 times the ground
    swamp.shape.kind = ShapeKind::Rect;
    swamp.shape.min = {40, 0};
    swamp.shape.max = {60, 60};
    s.features.push_back(swamp);
    s.roads.push_back(make_road({{0, 30}, {100, 30}}, 2.0));
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_mode(RoadMode::Exact));
    const PathResult& r = find_path(p, {{20, 30}, {80, 30}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.cost == doctest::Approx((20 + 20 * 3 + 20) / 2.0));
    CHECK(test::stat(r, "cost_without_roads") == doctest::Approx(20 + 20 * 3 + 20));
    // Off the road on both sides of the swamp: A* equals Dijkstra, never dearer than no roads.
    VisGraphParams dp = with_mode(RoadMode::Exact);
    dp.dijkstra = true;
    VisGraphPlanner d(world, 0, dp);
    VisGraphPlanner off(world, 0, with_mode(RoadMode::Off));
    for (const PathQuery q :
         {PathQuery{{20, 50}, {80, 45}}, PathQuery{{10, 5}, {90, 55}}, PathQuery{{45, 10}, {55, 50}}}) {
      const PathResult a = find_path(p, q);
      REQUIRE(a.status == SearchStatus::Found);
      CHECK(find_path(d, q).cost == doctest::Approx(a.cost).epsilon(1e-12));
      CHECK(a.cost <= find_path(off, q).cost + 1e-9);
    }
  }

  TEST_CASE("exact roads are deterministic, stepping equals one shot, and the structure shows road links") {
    Scenario s = make_empty_scenario(200, 60, 1.0);
    s.roads.push_back(make_road({{10, 20}, {100, 25}, {190, 20}}, 2.0, 1));
    s.roads.push_back(make_road({{100, 5}, {100, 55}}, 1.5, 2));
    const PlanningWorld world(s);
    VisGraphPlanner a(world, 0, with_mode(RoadMode::Exact)), b(world, 0, with_mode(RoadMode::Exact));
    const PathQuery q{{15, 40}, {185, 45}};
    const PathResult one = find_path(a, q);
    REQUIRE(one.status == SearchStatus::Found);
    REQUIRE(b.start(q) == SearchStatus::Running);
    while (b.step(1) == SearchStatus::Running) {
    }
    CHECK(b.result().cost == one.cost);
    CHECK(b.result().points == one.points);
    CHECK(find_path(a, q).points == one.points);

    struct Collect final : StructureVisitor {
      std::set<std::string> edges, shapes;
      void shape(const StructureShape& s) override { shapes.insert(std::string(s.name)); }
      void edge(const StructureEdge& e) override { edges.insert(std::string(e.kind)); }
      bool full() const override { return false; }
    } seen;
    a.visit_structure(Box2{{0, 0}, {200, 60}}, seen);
    CHECK(seen.edges.count("road") == 1);
    CHECK(seen.edges.count("road entry") == 1);
    CHECK(seen.shapes.count("road point") == 1);
    // The registry accepts roads=2.
    const PlannerInfo* info = find_planner("visgraph");
    REQUIRE(info != nullptr);
    bool two = false;
    for (const ParamSpec& p : info->params) two = two || (p.name == "roads" && p.max_value == 2);
    CHECK(two);
  }

}  // TEST_SUITE
