// Obstacles as merged, inflated polygons: inflation against a brute-force distance,
// merging, corner-touching tiles, bad geometry.

#include <doctest/doctest.h>

#include <cmath>

#include "planner/visgraph/obstacle_set.hpp"
#include "planner/visgraph/visibility_graph.hpp"
#include "tests/planner/visgraph/visgraph_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using namespace pathscope::visgraph;

namespace {

double distance_to_shape(const Shape& s, Vec2 p) {
  switch (s.kind) {
    case ShapeKind::Rect: {
      const double dx = std::max({s.min.x - p.x, 0.0, p.x - s.max.x});
      const double dy = std::max({s.min.y - p.y, 0.0, p.y - s.max.y});
      return std::hypot(dx, dy);
    }
    case ShapeKind::Circle: return std::max(0.0, std::hypot(p.x - s.center.x, p.y - s.center.y) - s.radius);
    case ShapeKind::Polygon: {
      if (point_in_polygon(p, s.points)) return 0;
      double best = 1e300;
      for (std::size_t i = 0; i < s.points.size(); ++i) {
        best = std::min(best, distance_sq_to_segment(p, s.points[i], s.points[(i + 1) % s.points.size()]));
      }
      return std::sqrt(best);
    }
  }
  return 0;
}

ObstacleInput rect(std::string name, Vec2 lo, Vec2 hi) {
  ObstacleInput in;
  in.name = std::move(name);
  in.shape.kind = ShapeKind::Rect;
  in.shape.min = lo;
  in.shape.max = hi;
  return in;
}

ObstacleInput polygon(std::string name, std::vector<Vec2> pts) {
  ObstacleInput in;
  in.name = std::move(name);
  in.shape.kind = ShapeKind::Polygon;
  in.shape.points = std::move(pts);
  return in;
}

// Rings other than the world's frame.
std::size_t obstacle_rings(const ObstacleSet& set) {
  std::size_t n = 0;
  for (const Ring& r : set.rings) n += r.hole || r.frame ? 0 : 1;
  return n;
}

}  // namespace

TEST_SUITE("visgraph") {
  TEST_CASE(
      "inflation covers every point within the radius less 1/1024 m and nothing beyond radius + max_error") {
    std::mt19937_64 rng(7);
    const Box2 world{{0, 0}, {40, 30}};
    for (const double radius : {0.0, 0.35, 1.0}) {
      const ObstacleParams params{radius, 0.05};
      const std::vector<ObstacleInput> inputs = test::random_obstacles(rng, 40, 30, 14, true);
      const Result<ObstacleSet> set = build_obstacle_set(inputs, world, params);
      REQUIRE(set.ok());
      const SegmentIndex index(set->rings);
      int inside = 0, outside = 0;
      for (double y = radius + 0.13; y < 30 - radius; y += 0.29) {
        for (double x = radius + 0.07; x < 40 - radius; x += 0.31) {
          const Vec2 p{x, y};
          double d = 1e300;
          for (const ObstacleInput& in : inputs) d = std::min(d, distance_to_shape(in.shape, p));
          const bool in = index.inside(p);
          CAPTURE(radius);
          CAPTURE(p.x);
          CAPTURE(p.y);
          CAPTURE(d);
          CHECK(in == test::reference_inside(set->rings, p));
          if (d < radius - 1.0 / kScale - 1e-9 || d == 0) {
            CHECK((in || test::reference_on_boundary(set->rings, p)));
            ++inside;
          } else if (d > radius + params.max_error + 2.0 / kScale) {
            CHECK_FALSE(in);
            ++outside;
          }
        }
      }
      CHECK(inside > 100);
      CHECK(outside > 1000);
    }
  }

  TEST_CASE("round joins: every point just within the radius of a corner is covered, whatever the radius") {
    // The inflation circumscribes the disc of the radius less one unit (1/kScale m);
    // sampled densely on that circle round a square's corners, no point may fall outside.
    const Box2 world{{0, 0}, {60, 60}};
    ObstacleInput square;
    square.name = "square";
    square.shape.kind = ShapeKind::Rect;
    square.shape.min = {20, 20};
    square.shape.max = {32, 32};
    for (const double max_error : {0.05, 0.2}) {
      for (double radius = 0.25; radius < 9; radius *= 1.19) {
        const Result<ObstacleSet> set =
            build_obstacle_set({square}, world, ObstacleParams{radius, max_error});
        REQUIRE(set.ok());
        const SegmentIndex index(set->rings);
        for (const Vec2 corner : {Vec2{20, 20}, Vec2{32, 20}, Vec2{32, 32}, Vec2{20, 32}}) {
          for (int k = 0; k < 720; ++k) {
            const double a = 6.283185307179586 * k / 720;
            const Vec2 p = corner + (radius - 1.0 / kScale - 1e-9) * Vec2{std::cos(a), std::sin(a)};
            CAPTURE(max_error);
            CAPTURE(radius);
            CAPTURE(k);
            CHECK((index.inside(p) || test::reference_on_boundary(set->rings, p)));
          }
        }
      }
    }
  }

  TEST_CASE("overlapping obstacles merge: a chain becomes one, a building inside a forest vanishes") {
    const Box2 world{{0, 0}, {50, 50}};
    const std::vector<ObstacleInput> inputs = {
        rect("forest a", {10, 10}, {20, 20}), rect("building", {12, 12}, {14, 14}),
        rect("forest b", {18, 18}, {28, 22}), rect("forest c", {27, 15}, {30, 30}),
        rect("lone hut", {40, 40}, {42, 42}),
    };
    const Result<ObstacleSet> set = build_obstacle_set(inputs, world, ObstacleParams{0, 0.05});
    REQUIRE(set.ok());
    CHECK(obstacle_rings(*set) == 2);  // the chain and the hut
    // The building left no trace: no vertex of the merged rings lies inside the forest.
    for (const Ring& r : set->rings) {
      for (const Vec2& p : r.points) CHECK_FALSE((p.x > 10 && p.x < 20 && p.y > 10 && p.y < 18));
    }
    // With a radius of 1.5 the hut still stands apart; the chain stays one.
    const Result<ObstacleSet> wide = build_obstacle_set(inputs, world, ObstacleParams{1.5, 0.05});
    REQUIRE(wide.ok());
    CHECK(obstacle_rings(*wide) == 2);
    // Two huts 2 m apart merge once each grows by more than 1 m.
    const std::vector<ObstacleInput> huts = {rect("a", {10, 10}, {12, 12}), rect("b", {14, 10}, {16, 12})};
    CHECK(obstacle_rings(build_obstacle_set(huts, world, ObstacleParams{0.9, 0.05}).value()) == 2);
    CHECK(obstacle_rings(build_obstacle_set(huts, world, ObstacleParams{1.1, 0.05}).value()) == 1);
  }

  TEST_CASE("tiles touching only at a corner close the gap, as the grid rules do") {
    const Scenario s = test::ascii_scenario({
        "......",
        ".#....",
        "..#...",
        "......",
    });
    const PlanningWorld world(s);
    const ObstacleParams params{0, 0.05};
    const VisGraphMap& m = VisGraphMap::of(world, 0, params);
    REQUIRE(m.ok());
    const VisibilityGraph& g = m.graph();
    CHECK(obstacle_rings(g.obstacles()) == 1);
    // The diamond that joins them adds no corner: three outer corners per cell.
    CHECK(g.node_count() == 6);
    // Every line from the free cell below-left of the shared corner to the one above-right
    // through that corner is blocked (even along the cells' edges); lines along the
    // joined cells' outside are not.
    CHECK_FALSE(g.index().visible({1.5, 2.5}, {2.5, 1.5}));
    CHECK_FALSE(g.index().visible({0.5, 3.5}, {3.5, 0.5}));
    CHECK_FALSE(g.index().visible({1, 2}, {3, 2}));
    CHECK_FALSE(g.index().visible({2, 1}, {2, 3}));
    CHECK(g.index().visible({1, 1}, {3, 1}));
    CHECK(g.index().visible({2, 1}, {3, 2}));
    // Two rows of blocked cells meet along an edge: no line runs between them.
    const PlanningWorld rows(test::ascii_scenario({"......", ".####.", "..###.", "......"}));
    const VisibilityGraph& r = VisGraphMap::of(rows, 0, params).graph();
    CHECK(obstacle_rings(r.obstacles()) == 1);
    CHECK_FALSE(r.index().visible({2, 2}, {5, 2}));
    CHECK_FALSE(r.index().visible({1.5, 2}, {5, 2}));
    // Two cells meeting along an edge are one ring too, with no corner on the shared side.
    const PlanningWorld walls(test::ascii_scenario({"....", ".##.", "...."}));
    const VisibilityGraph& w = VisGraphMap::of(walls, 0, params).graph();
    CHECK(w.node_count() == 4);
  }

  TEST_CASE("bad geometry is repaired or refused with a message naming the item") {
    const Box2 world{{0, 0}, {20, 20}};
    const ObstacleParams params{0.5, 0.05};
    SUBCASE("repeated points are dropped and reported") {
      const Result<ObstacleSet> set = build_obstacle_set(
          {polygon("features[2] (id 9)", {{2, 2}, {6, 2}, {6, 2}, {6, 6}, {2, 6}, {2, 2}})}, world, params);
      REQUIRE(set.ok());
      REQUIRE(set->repairs.size() == 1);
      CHECK(set->repairs[0] == "features[2] (id 9): 2 repeated points dropped");
    }
    SUBCASE("a self-intersection is refused") {
      const Result<ObstacleSet> set =
          build_obstacle_set({rect("ok", {1, 1}, {2, 2}),
                              polygon("features[1] (id 4, \"bowtie\")", {{2, 2}, {6, 6}, {6, 2}, {2, 6}})},
                             world, params);
      REQUIRE_FALSE(set.ok());
      CHECK(set.error().where == "features[1] (id 4, \"bowtie\")");
      CHECK(set.error().message.find("self-intersecting polygon") == 0);
    }
    SUBCASE("zero area is refused") {
      const Result<ObstacleSet> line =
          build_obstacle_set({polygon("wall 3", {{2, 2}, {4, 4}, {6, 6}})}, world, params);
      REQUIRE_FALSE(line.ok());
      CHECK(line.error().to_string() == "wall 3: polygon has zero area");
      const Result<ObstacleSet> flat = build_obstacle_set({rect("hut 1", {2, 2}, {2, 5})}, world, params);
      REQUIRE_FALSE(flat.ok());
      CHECK(flat.error().to_string() == "hut 1: rectangle has zero area");
      const Result<ObstacleSet> two =
          build_obstacle_set({polygon("post", {{2, 2}, {3, 3}, {2, 2}})}, world, params);
      REQUIRE_FALSE(two.ok());
      CHECK(two.error().to_string() == "post: polygon has fewer than 3 distinct points");
    }
  }

}  // TEST_SUITE
