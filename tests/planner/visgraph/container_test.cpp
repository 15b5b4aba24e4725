// Containers in the visibility graph (seed 004, "an outer boundary with holes"): the
// world outside the containers is one obstacle, inflated by the radius, so the walkable
// inside shrinks by it; buildings inside are ordinary obstacles (the holes).

#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "planner/core/geometry.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "planner/world/belief.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

VisGraphParams with_radius(double radius) {
  VisGraphParams p;
  p.radius = radius;
  return p;
}

Feature rect_feature(std::uint32_t id, std::size_t terrain, Vec2 lo, Vec2 hi, bool container = false) {
  Feature f;
  f.id = id;
  f.terrain = terrain;
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = lo;
  f.shape.max = hi;
  f.container = container;
  return f;
}

// A U-shaped compound (a container) in a 60 x 40 world, a barracks and a round well inside.
Scenario compound() {
  Scenario s = make_empty_scenario(60, 40, 1.0);
  const std::size_t wall = *s.find_terrain("wall");
  Feature c;
  c.id = 1;
  c.terrain = wall;
  c.container = true;
  c.shape.kind = ShapeKind::Polygon;
  c.shape.points = {{4, 4}, {56, 4}, {56, 36}, {34, 36}, {34, 18}, {26, 18}, {26, 36}, {4, 36}};
  s.features.push_back(c);
  s.features.push_back(rect_feature(2, wall, {8, 8}, {18, 12}));
  Feature well;
  well.id = 3;
  well.terrain = wall;
  well.shape.kind = ShapeKind::Circle;
  well.shape.center = {44, 12};
  well.shape.radius = 2.5;
  s.features.push_back(well);
  return s;
}

// Distance from p to the boundary of a shape (polygon edges, rectangle sides, circle rim).
double boundary_distance(const Shape& sh, Vec2 p) {
  std::vector<Vec2> pts;
  switch (sh.kind) {
    case ShapeKind::Circle: return std::abs(std::hypot(p.x - sh.center.x, p.y - sh.center.y) - sh.radius);
    case ShapeKind::Rect: pts = {sh.min, {sh.max.x, sh.min.y}, sh.max, {sh.min.x, sh.max.y}}; break;
    case ShapeKind::Polygon: pts = sh.points; break;
  }
  double best = 1e300;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    best = std::min(best, std::sqrt(distance_sq_to_segment(p, pts[i], pts[(i + 1) % pts.size()])));
  }
  return best;
}

bool inside_shape(const Shape& sh, Vec2 p) {
  switch (sh.kind) {
    case ShapeKind::Circle: return std::hypot(p.x - sh.center.x, p.y - sh.center.y) < sh.radius;
    case ShapeKind::Rect: return sh.min.x < p.x && p.x < sh.max.x && sh.min.y < p.y && p.y < sh.max.y;
    case ShapeKind::Polygon: return point_in_polygon(p, sh.points);
  }
  return false;
}

}  // namespace

TEST_SUITE("visgraph") {

TEST_CASE("containers: every path point keeps the radius from the wall, inside it, and from the buildings") {
  const Scenario s = compound();
  const PlanningWorld world(s);
  std::mt19937_64 rng(404);
  std::uniform_real_distribution<double> ux(0, 60), uy(0, 40);
  for (const double radius : {0.0, 0.5, 1.5}) {
    CAPTURE(radius);
    VisGraphPlanner p(world, 0, with_radius(radius));
    int found = 0, invalid = 0;
    for (int trial = 0; trial < 60; ++trial) {
      const PathQuery q{{ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
      const PathResult r = find_path(p, q);
      // Clear of the wall and the buildings by more than the radius (and max_error): the
      // compound is connected, so a path must be found.
      const auto clear = [&](Vec2 x) {
        if (!inside_shape(s.features[0].shape, x)) return false;
        for (std::size_t f = 0; f < 3; ++f) {
          if (f > 0 && inside_shape(s.features[f].shape, x)) return false;
          if (boundary_distance(s.features[f].shape, x) <= radius + 0.1) return false;
        }
        return true;
      };
      if (!inside_shape(s.features[0].shape, q.start) || !inside_shape(s.features[0].shape, q.goal)) {
        // Outside the container is inside the obstacle.
        CHECK(r.status == SearchStatus::Invalid);
        ++invalid;
        continue;
      }
      if (clear(q.start) && clear(q.goal)) REQUIRE(r.status == SearchStatus::Found);
      if (r.status != SearchStatus::Found) continue;
      ++found;
      for (std::size_t i = 0; i + 1 < r.points.size(); ++i) {
        const Vec2 a = r.points[i], b = r.points[i + 1];
        const int n = 1 + int(std::hypot(b.x - a.x, b.y - a.y) / 0.05);
        for (int k = 0; k <= n; ++k) {
          const Vec2 x = a + (b - a) * (double(k) / n);
          INFO("x = " << x.x << ", " << x.y << " segment " << a.x << "," << a.y << " -> " << b.x << "," << b.y);
          // Inside the container (with radius 0 the path may run along its wall).
          REQUIRE((inside_shape(s.features[0].shape, x) || boundary_distance(s.features[0].shape, x) < 1e-9));
          CHECK(boundary_distance(s.features[0].shape, x) >= radius - 1e-6);
          for (std::size_t f = 1; f < 3; ++f) {
            CHECK_FALSE(inside_shape(s.features[f].shape, x));
            CHECK(boundary_distance(s.features[f].shape, x) >= radius - 1e-6);
          }
        }
      }
    }
    CHECK(found >= 5);
    CHECK(invalid >= 5);
  }
}

TEST_CASE("containers: from one wing to the other round the wall between them, a hand-computed length") {
  const Scenario s = compound();
  const PlanningWorld world(s);
  VisGraphPlanner p(world, 0, with_radius(0));
  // West wing (10, 30) to east wing (50, 30): down to the end of the wall between the
  // wings at (26, 18), along it to (34, 18), and up again.
  const PathResult r = find_path(p, PathQuery{{10, 30}, {50, 30}});
  REQUIRE(r.status == SearchStatus::Found);
  CHECK(r.length == doctest::Approx(2 * std::hypot(16.0, 12.0) + 8).epsilon(1e-6));
  // With a radius the inside shrinks: the corner is rounded, the path longer, within max_error.
  VisGraphPlanner q(world, 0, with_radius(1.0));
  const PathResult rr = find_path(q, PathQuery{{10, 30}, {50, 30}});
  REQUIRE(rr.status == SearchStatus::Found);
  CHECK(rr.length > r.length);
  // The corners of the inflated wall's square (radius + max_error out from both sides)
  // lie outside the rounded inflation: a path through them bounds the length.
  const double d = 1.0 + 0.05;
  const Vec2 c0{26 - d, 18 - d}, c1{34 + d, 18 - d};
  CHECK(rr.length <= std::hypot(c0.x - 10, c0.y - 30) + (c1.x - c0.x) + std::hypot(50 - c1.x, 30 - c1.y) + 0.1);
}

TEST_CASE("containers: a building inside the compound is a hole, wall to wall it splits the compound") {
  Scenario s = make_empty_scenario(50, 30, 1.0);
  const std::size_t wall = *s.find_terrain("wall");
  s.features.push_back(rect_feature(1, wall, {5, 5}, {45, 25}, true));
  s.features.push_back(rect_feature(2, wall, {20, 5}, {30, 18}));
  {
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_radius(0));
    const PathResult r = find_path(p, PathQuery{{10, 10}, {40, 10}});
    REQUIRE(r.status == SearchStatus::Found);
    CHECK(r.length == doctest::Approx(2 * std::hypot(10.0, 8.0) + 10).epsilon(1e-6));
    auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    CHECK(find_path(*astar, PathQuery{{10, 10}, {40, 10}}).status == SearchStatus::Found);
    // Outside the container: inside the obstacle.
    CHECK(find_path(p, PathQuery{{2, 2}, {40, 10}}).status == SearchStatus::Invalid);
  }
  {
    // The radius closes a 1.6 m gap between the building and the wall: no way through.
    s.features[1].shape.max.y = 23.4;
    const PlanningWorld world(s);
    VisGraphPlanner p0(world, 0, with_radius(0.5));
    CHECK(find_path(p0, PathQuery{{10, 10}, {40, 10}}).status == SearchStatus::Found);
    VisGraphPlanner p1(world, 0, with_radius(0.9));
    CHECK(find_path(p1, PathQuery{{10, 10}, {40, 10}}).status == SearchStatus::NoPath);
  }
  {
    // Two containers side by side, apart: no way from one to the other.
    s.features = {rect_feature(1, wall, {2, 2}, {20, 28}, true), rect_feature(2, wall, {24, 2}, {48, 28}, true)};
    const PlanningWorld world(s);
    VisGraphPlanner p(world, 0, with_radius(0.5));
    CHECK(find_path(p, PathQuery{{10, 10}, {40, 10}}).status == SearchStatus::NoPath);
    CHECK(find_path(p, PathQuery{{10, 10}, {10, 20}}).status == SearchStatus::Found);
    auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    CHECK(find_path(*astar, PathQuery{{10, 10}, {40, 10}}).status == SearchStatus::NoPath);
  }
}

TEST_CASE("containers are terrain: a faction that has seen nothing still keeps inside the compound") {
  Scenario s = compound();
  s.factions = {Faction{"blue", Color{48, 96, 255, 255}, 10, false, {}, {}}};
  observe_all(s);  // no units: nothing seen
  const PlanningWorld world(s);
  const Scenario believed = believed_scenario(s, 0);
  REQUIRE(believed.features.size() == 1);
  CHECK(believed.features[0].container);
  auto p = find_planner("visgraph")->create(QueryContext{world, 0, std::size_t{0}, {0, 0.05, 0, 0, 0, 0, 1, 24, 1}});
  const PathResult r = find_path(*p, PathQuery{{10, 30}, {50, 30}});
  REQUIRE(r.status == SearchStatus::Found);
  // Through where the buildings are (not seen), round the wall between the wings (known).
  CHECK(r.length == doctest::Approx(2 * std::hypot(16.0, 12.0) + 8).epsilon(1e-6));
}

TEST_CASE("maps/walled_compound.json: the radius-0 path has its hand-computed length") {
  const Result<Scenario> s = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/walled_compound.json");
  REQUIRE(s.ok());
  const PlanningWorld world(*s);
  VisGraphPlanner p(world, 0, with_radius(0));
  const PathResult r = find_path(p, PathQuery{{16.5, 58.5}, {84.5, 58.5}});
  REQUIRE(r.status == SearchStatus::Found);
  // (16.5, 58.5) -> (42, 30) -> (58, 30) (the ends of the wall between the wings) ->
  // (66, 48) (the depot's corner) -> (84.5, 58.5).
  CHECK(r.length == doctest::Approx(std::sqrt(1462.5) + 16 + std::sqrt(388.0) + std::sqrt(452.5)).epsilon(1e-6));
}

}  // TEST_SUITE
