// Rasterisation (the coverage rule in rasterize.hpp), per-class cost grids and regions.

#include <doctest/doctest.h>

#include <random>

#include <glm/common.hpp>

#include "planner/core/geometry.hpp"
#include "planner/world/planning_world.hpp"
#include "planner/world/rasterize.hpp"
#include "planner/world/regions.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

Scenario open_field(double w, double h, double cell = 1.0) {
  Scenario s = make_empty_scenario(w, h, cell);
  return s;
}

std::size_t terrain(const Scenario& s, const char* name) { return *s.find_terrain(name); }

Feature feature(std::uint32_t id, std::size_t terrain_index, Shape shape) {
  Feature f;
  f.id = id;
  f.terrain = terrain_index;
  f.shape = std::move(shape);
  return f;
}

std::uint8_t at(const TerrainRaster& r, int x, int y) { return r.terrain[std::size_t(y * r.width + x)]; }

}  // namespace

TEST_SUITE("rasterize") {

TEST_CASE("obstacles take every cell whose open square they overlap") {
  Scenario s = open_field(10, 10);
  const auto wall = terrain(s, "wall");
  Shape rect;
  rect.kind = ShapeKind::Rect;
  rect.min = {2.0, 2.0};
  rect.max = {4.2, 3.0};  // covers x in [2, 4.2): cells 2, 3 and a sliver of 4; y exactly row 2
  s.features.push_back(feature(1, wall, rect));
  const TerrainRaster r = rasterize(s);
  CHECK(at(r, 2, 2) == wall);
  CHECK(at(r, 3, 2) == wall);
  CHECK(at(r, 4, 2) == wall);  // a sliver still blocks
  CHECK(at(r, 5, 2) == 0);
  CHECK(at(r, 2, 1) == 0);  // touching the boundary y = 2 does not count
  CHECK(at(r, 2, 3) == 0);  // nor y = 3
}

TEST_CASE("terrain regions take the cells whose centre lies inside") {
  Scenario s = open_field(10, 10);
  const auto swamp = terrain(s, "swamp");
  Shape circle;
  circle.kind = ShapeKind::Circle;
  circle.center = {5.0, 5.0};
  circle.radius = 1.0;
  s.features.push_back(feature(1, swamp, circle));
  const TerrainRaster r = rasterize(s);
  int count = 0;
  for (std::uint8_t t : r.terrain) count += t == swamp;
  CHECK(count == 4);  // centres (4.5|5.5, 4.5|5.5) are 0.707 from the centre
}

TEST_CASE("polygon obstacles match a brute-force overlap reference") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0.5, 15.5);
  for (int trial = 0; trial < 60; ++trial) {
    Scenario s = open_field(16, 16);
    const auto wall = terrain(s, "wall");
    Shape poly;
    poly.kind = ShapeKind::Polygon;
    // A random star-shaped (hence simple) polygon around a centre.
    const Vec2 c{u(rng), u(rng)};
    const int n = 3 + int(rng() % 8);
    for (int k = 0; k < n; ++k) {
      const double a = 6.283185307179586 * (k + 0.5 * double(rng() % 100) / 100.0) / n;
      const double rad = 0.3 + 4.0 * double(rng() % 100) / 100.0;
      poly.points.push_back(glm::clamp(c + rad * Vec2(std::cos(a), std::sin(a)), Vec2(0.0), Vec2(16.0)));
    }
    if (find_self_intersection(poly.points)) continue;
    s.features.push_back(feature(1, wall, poly));
    const TerrainRaster r = rasterize(s);
    for (int y = 0; y < 16; ++y) {
      for (int x = 0; x < 16; ++x) {
        // Reference: dense sampling of the cell's interior plus the exact edge test.
        bool hit = false;
        for (int sy = 1; sy < 16 && !hit; ++sy) {
          for (int sx = 1; sx < 16 && !hit; ++sx) hit = point_in_polygon({x + sx / 16.0, y + sy / 16.0}, poly.points);
        }
        const bool got = at(r, x, y) == wall;
        if (hit) CHECK(got);            // any sampled interior point blocks the cell
        if (got && !hit) {              // else only a sliver: some edge must cross the open cell
          bool crosses = false;
          for (std::size_t k = 0; k < poly.points.size(); ++k) {
            crosses |= segment_crosses_open_box(poly.points[k], poly.points[(k + 1) % poly.points.size()],
                                                {double(x), double(y)}, {x + 1.0, y + 1.0});
          }
          CHECK(crosses);
        }
      }
    }
  }
}

TEST_CASE("later features paint over earlier ones") {
  Scenario s = open_field(8, 8);
  Shape big;
  big.kind = ShapeKind::Rect;
  big.min = {0, 0};
  big.max = {8, 8};
  s.features.push_back(feature(1, terrain(s, "swamp"), big));
  s.features.push_back(feature(2, terrain(s, "nebula"), big));
  const TerrainRaster r = rasterize(s);
  CHECK(at(r, 3, 3) == terrain(s, "nebula"));
}

TEST_CASE("cost grids differ per movement class") {
  Scenario s = open_field(8, 8);
  Shape band;
  band.kind = ShapeKind::Rect;
  band.min = {3, 0};
  band.max = {5, 8};
  s.features.push_back(feature(1, terrain(s, "forest"), band));
  const PlanningWorld world(s);
  const auto infantry = *s.find_class("infantry");
  const auto wheeled = *s.find_class("wheeled");
  const CostGrid& gi = world.grid(infantry);
  const CostGrid& gw = world.grid(wheeled);
  CHECK(gi.multiplier(gi.index(3, 3)) == 2.0);
  CHECK_FALSE(gw.passable(gw.index(3, 3)));
  CHECK(world.regions(infantry).region_count() == 1);
  CHECK(world.regions(wheeled).region_count() == 2);  // the forest splits the map for wheels
}

TEST_CASE("roads divide multipliers; intact bridges cross water, destroyed ones do not") {
  Scenario s = open_field(20, 10);
  Shape river;
  river.kind = ShapeKind::Rect;
  river.min = {9, 0};
  river.max = {11, 10};
  s.features.push_back(feature(1, terrain(s, "deep water"), river));
  Road road;
  road.id = 1;
  road.points = {{1, 2.5}, {8, 2.5}};
  road.width = 1.0;
  road.speed_factor = 2.0;
  s.roads.push_back(road);
  Bridge broken;
  broken.id = 1;
  broken.a = {8, 7.5};
  broken.b = {12, 7.5};
  broken.width = 1.0;
  broken.intact = false;
  s.bridges.push_back(broken);
  const auto tracked = *s.find_class("tracked");
  {
    const PlanningWorld world(s);
    const CostGrid& g = world.grid(tracked);
    CHECK(g.multiplier(g.index(4, 2)) == 0.5);
    CHECK(g.multiplier(g.index(4, 3)) == 1.0);
    CHECK(world.regions(tracked).region_count() == 2);
  }
  s.bridges[0].intact = true;
  const PlanningWorld world(s);
  CHECK(world.regions(tracked).region_count() == 1);
}

TEST_CASE("regions equal a brute-force reachability reference") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const Scenario s = test::ascii_scenario(test::random_rows(rng, 15, 11, 0.35, true));
    const PlanningWorld world(s);
    const RegionMap& regions = world.regions(0);
    for (int q = 0; q < 10; ++q) {
      const int ax = int(rng() % 15), ay = int(rng() % 11), bx = int(rng() % 15), by = int(rng() % 11);
      const bool reachable = std::isfinite(test::reference_cost(s, ax, ay, bx, by));
      const CostGrid& g = world.grid(0);
      CHECK(regions.connected(g.index(ax, ay), g.index(bx, by)) == reachable);
    }
  }
}

}  // TEST_SUITE
