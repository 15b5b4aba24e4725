// Seed 004's road pass on the visgraph planner: roads are taken when they are cheaper,
// never make a path dearer, stop at obstacles, and the planner reports both costs.

#include <doctest/doctest.h>

#include <cmath>

#include "planner/core/planner_registry.hpp"
#include "planner/visgraph/road_graph.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "tests/planner/visgraph/visgraph_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

Road road(std::vector<Vec2> pts, double factor, double width = 4) {
  Road r;
  r.id = 1;
  r.points = std::move(pts);
  r.speed_factor = factor;
  r.width = width;
  return r;
}

VisGraphParams with_roads(bool on, double reach = 24) {
  VisGraphParams p;
  p.world_cost = false;  // the search's own cost, which these tests check
  p.radius = 0.5;
  p.roads = on ? RoadMode::Pass : RoadMode::Off;
  p.road_reach = reach;
  return p;
}

// The cost of a polyline: legs lying along `rd` (both ends on one of its segments) at
// length / factor, every other leg at its length.
double polyline_cost(const std::vector<Vec2>& pts, const Road& rd) {
  const auto on_segment = [](Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const double len = std::hypot(d.x, d.y);
    const double c = std::abs(d.x * (p.y - a.y) - d.y * (p.x - a.x)) / len;
    const double t = ((p - a).x * d.x + (p - a).y * d.y) / (len * len);
    return c < 1e-6 && t > -1e-9 && t < 1 + 1e-9;
  };
  double cost = 0;
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const double len = std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
    bool along = false;
    for (std::size_t k = 1; k < rd.points.size(); ++k) {
      along = along || (on_segment(pts[i - 1], rd.points[k - 1], rd.points[k]) &&
                        on_segment(pts[i], rd.points[k - 1], rd.points[k]));
    }
    cost += along ? len / rd.speed_factor : len;
  }
  return cost;
}

}  // namespace

TEST_SUITE("visgraph roads") {
  TEST_CASE("a path along a road costs its length over the road's factor, off it, the plain length") {
    Scenario s = make_empty_scenario(200, 60, 1.0);
    s.roads.push_back(road({{10, 30}, {190, 30}}, 2.0));
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_roads(true));
    const PathResult& r = find_path(p, {{10, 30}, {190, 30}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.length == doctest::Approx(180));
    CHECK(r.cost == doctest::Approx(90));
    CHECK(test::stat(r, "cost_without_roads") == doctest::Approx(180));
    VisGraphPlanner off(world, 0, with_roads(false));
    CHECK(find_path(off, {{10, 30}, {190, 30}}).cost == doctest::Approx(180));
  }

  TEST_CASE("a road beside the line is joined when the detour pays, and the cost is the path's own") {
    Scenario s = make_empty_scenario(300, 80, 1.0);
    const Road rd = road({{20, 20}, {280, 20}}, 2.0);
    s.roads.push_back(rd);
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_roads(true));
    // 10 m off a fast road for 260 m: join it.
    const PathResult near = find_path(p, {{20, 30}, {280, 30}});
    REQUIRE(near.status == SearchStatus::Found);
    // The best way joins the road at 30 degrees: 2 hypot(10, x) + (260 - 2x) / 2 at
    // x = 10 / sqrt(3); the pass, joining at points every 12 m, comes within 2% of it.
    const double x = 10 / std::sqrt(3.0);
    const double best = 2 * std::hypot(10.0, x) + (260 - 2 * x) / 2;
    CHECK(near.cost >= best - 1e-6);
    CHECK(near.cost <= best * 1.02);
    CHECK(near.cost == doctest::Approx(polyline_cost(near.points, rd)));
    CHECK(near.length > 260);
    // A short hop far from the road: the road is out of reach, the path stays straight.
    const PathResult far = find_path(p, {{100, 70}, {130, 70}});
    REQUIRE(far.status == SearchStatus::Found);
    CHECK(far.cost == doctest::Approx(30));
    CHECK(far.points.size() == 2);
  }

  TEST_CASE("the road pass never makes a path dearer, on random roads among random walls") {
    std::mt19937_64 rng(51);
    int joined = 0, found = 0;
    for (int map = 0; map < 12; ++map) {
      Scenario s = make_empty_scenario(120, 90, 1.0);
      const std::size_t wall = *s.find_terrain("wall");
      for (int k = 0; k < 6; ++k) {
        Feature f;
        f.id = std::uint32_t(k + 1);
        f.terrain = wall;
        f.shape.kind = ShapeKind::Rect;
        f.shape.min = {double(rng() % 100) + 5, double(rng() % 70) + 5};
        f.shape.max = f.shape.min + Vec2{3.0 + double(rng() % 12), 3.0 + double(rng() % 12)};
        s.features.push_back(f);
      }
      for (int k = 0; k < 3; ++k) {
        std::vector<Vec2> pts;
        for (int i = 0; i < 3; ++i) pts.push_back({double(rng() % 110) + 5, double(rng() % 80) + 5});
        Road rd = road(pts, 1.0 + double(rng() % 3) * 0.5);
        rd.id = std::uint32_t(k + 1);
        s.roads.push_back(rd);
      }
      const PlanningWorld world(s);
      VisGraphPlanner on(world, 0, with_roads(true));
      VisGraphPlanner off(world, 0, with_roads(false));
      const visgraph::SegmentIndex& index = on.map().graph().index();
      for (int q = 0; q < 10; ++q) {
        const PathQuery query{{double(rng() % 110) + 5, double(rng() % 80) + 5},
                              {double(rng() % 110) + 5, double(rng() % 80) + 5}};
        const PathResult a = find_path(on, query);
        const PathResult b = find_path(off, query);
        CAPTURE(map);
        CAPTURE(q);
        REQUIRE(a.status == b.status);
        if (a.status != SearchStatus::Found) continue;
        ++found;
        CHECK(a.cost <= b.cost + 1e-9);
        CHECK(test::stat(a, "cost_without_roads") == doctest::Approx(b.cost));
        joined += a.cost < b.cost - 1e-9;
        CHECK(a.points.front() == query.start);
        CHECK(a.points.back() == query.goal);
        for (std::size_t i = 1; i < a.points.size(); ++i) CHECK(index.visible(a.points[i - 1], a.points[i]));
        // No cheaper than the straight line at the fastest road's speed.
        CHECK(a.cost >= std::hypot(query.goal.x - query.start.x, query.goal.y - query.start.y) / 2.0 - 1e-9);
      }
    }
    CHECK(found > 60);
    CHECK(joined > 5);
  }

  TEST_CASE("road pieces inside an obstacle are left out: a road through a wall is no way through") {
    Scenario s = make_empty_scenario(100, 60, 1.0);
    Feature w;
    w.id = 1;
    w.terrain = *s.find_terrain("wall");
    w.shape.kind = ShapeKind::Rect;
    w.shape.min = {48, 0};
    w.shape.max = {52, 55};
    s.features.push_back(w);
    s.roads.push_back(road({{10, 30}, {90, 30}}, 3.0));
    const PlanningWorld world(s);
    const VisGraphPlanner probe(world, 0, with_roads(true));
    const visgraph::RoadGraph g = visgraph::build_road_graph(s.roads, probe.map().graph().index(), 12);
    for (const visgraph::RoadLink& l : g.links) {
      CHECK(probe.map().graph().index().visible(g.points[l.a], g.points[l.b]));
      CHECK_FALSE((g.points[l.a].x < 50 && g.points[l.b].x > 50));
    }
    VisGraphPlanner p(world, 0, with_roads(true));
    const PathResult& r = find_path(p, {{10, 30}, {90, 30}});
    REQUIRE(r.status == SearchStatus::Found);
    for (const Vec2& q : r.points) CHECK_FALSE((q.x > 47 && q.x < 53 && q.y < 55));
    double top = 0;
    for (const Vec2& q : r.points) top = std::max(top, q.y);
    CHECK(top >= 55);  // round the end of the wall
  }

  TEST_CASE(
      "the planner lists the road parameters, exact by default, and stepping equals one shot with roads") {
    const PlannerInfo* info = find_planner("visgraph");
    REQUIRE(info != nullptr);
    bool roads = false, reach = false;
    for (const ParamSpec& p : info->params) {
      roads = roads || (p.name == "roads" && p.default_value == 2);  // exact by default
      reach = reach || p.name == "road_reach";
    }
    CHECK(roads);
    CHECK(reach);
    Scenario s = make_empty_scenario(200, 60, 1.0);
    s.roads.push_back(road({{10, 20}, {100, 25}, {190, 20}}, 2.0));
    const PlanningWorld world(s);
    VisGraphPlanner a(world, 0, with_roads(true)), b(world, 0, with_roads(true));
    const PathQuery q{{15, 40}, {185, 45}};
    const PathResult one = find_path(a, q);
    REQUIRE(b.start(q) == SearchStatus::Running);
    while (b.step(1) == SearchStatus::Running) {
    }
    CHECK(b.result().points == one.points);
    CHECK(b.result().cost == one.cost);
    CHECK(one.cost < test::stat(one, "cost_without_roads"));
  }

}  // TEST_SUITE
