// Rasterisation (the coverage rule in rasterize.hpp), per-class cost grids and regions.

#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <random>

#include <glm/common.hpp>

#include "planner/core/geometry.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/world/box_coverage.hpp"
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

std::uint8_t at(const TerrainRaster& r, int x, int y) { return r.terrain(std::size_t(y * r.width + x)); }

// A random rectangle, circle or polygon (3 to 11 vertices) at `c`, sizes from `size`;
// nullopt when the polygon drawn crosses itself.
std::optional<Shape> random_shape(std::mt19937_64& rng, Vec2 c,
                                  std::uniform_real_distribution<double>& size) {
  Shape shape;
  switch (rng() % 3) {
    case 0:
      shape.kind = ShapeKind::Rect;
      shape.min = c;
      shape.max = c + Vec2(size(rng), size(rng));
      break;
    case 1:
      shape.kind = ShapeKind::Circle;
      shape.center = c;
      shape.radius = size(rng);
      break;
    default: {
      shape.kind = ShapeKind::Polygon;
      const int n = 3 + int(rng() % 9);
      for (int v = 0; v < n; ++v) {
        const double a = 6.283185307179586 * (v + 0.5 * double(rng() % 100) / 100.0) / n;
        shape.points.push_back(c + size(rng) * Vec2(std::cos(a), std::sin(a)));
      }
      if (find_self_intersection(shape.points)) return std::nullopt;
    }
  }
  return shape;
}

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
    for (std::size_t i = 0; i < r.cell_count(); ++i) count += r.terrain(i) == swamp;
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
            for (int sx = 1; sx < 16 && !hit; ++sx)
              hit = point_in_polygon({x + sx / 16.0, y + sy / 16.0}, poly.points);
          }
          const bool got = at(r, x, y) == wall;
          if (hit) CHECK(got);  // any sampled interior point blocks the cell
          if (got && !hit) {    // else only a sliver: some edge must cross the open cell
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

  TEST_CASE("roads divide multipliers, intact bridges cross water, destroyed ones do not") {
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

  TEST_CASE("row-by-row painting equals the per-cell coverage predicates") {
    // The reference is the coverage rule written cell by cell, straight from rasterize.hpp,
    // on odd cell sizes, shapes crossing the map edge, overlapping roads and bridges.
    std::mt19937_64 rng(77);
    const double cell_sizes[] = {1.0, 0.37, 0.5, 1.3, 2.75};
    for (int trial = 0; trial < 120; ++trial) {
      const double cs = cell_sizes[trial % 5];
      const double w = 20 * cs + 0.3, h = 14 * cs + 0.1;
      Scenario s = open_field(w, h, cs);
      std::uniform_real_distribution<double> ux(-2 * cs, w + 2 * cs), uy(-2 * cs, h + 2 * cs),
          size(0.2 * cs, 7 * cs);
      const std::size_t kinds[] = {terrain(s, "wall"), terrain(s, "swamp"), terrain(s, "nebula"),
                                   terrain(s, "forest")};
      for (int k = 0; k < 6; ++k) {
        const std::optional<Shape> random = random_shape(rng, Vec2{ux(rng), uy(rng)}, size);
        if (!random) continue;
        const Shape& shape = *random;
        s.features.push_back(feature(std::uint32_t(k + 1), kinds[rng() % 4], shape));
      }
      for (int k = 0; k < 2; ++k) {
        Road road;
        road.id = std::uint32_t(k + 1);
        road.points = {{ux(rng), uy(rng)}, {ux(rng), uy(rng)}, {ux(rng), uy(rng)}};
        road.width = size(rng) * 0.5;
        road.speed_factor = 1.25 + 0.5 * k;
        s.roads.push_back(road);
      }
      s.bridges.push_back(Bridge{1, {ux(rng), uy(rng)}, {ux(rng), uy(rng)}, size(rng) * 0.4, true});

      const TerrainRaster r = rasterize(s);
      REQUIRE(r.width == s.grid_size().x);
      for (int y = 0; y < r.height; ++y) {
        for (int x = 0; x < r.width; ++x) {
          const Vec2 lo{x * cs, y * cs}, hi{(x + 1) * cs, (y + 1) * cs};
          const Vec2 centre = (lo + hi) * 0.5;
          std::uint8_t want = 0;
          for (const Feature& f : s.features) {
            const Shape& sh = f.shape;
            const bool obstacle = f.terrain == terrain(s, "wall");
            bool covered = false;
            switch (sh.kind) {
              case ShapeKind::Polygon:
                covered = obstacle ? polygon_overlaps_open_box(sh.points, lo, hi)
                                   : point_in_polygon(centre, sh.points);
                break;
              case ShapeKind::Rect:
                covered = obstacle ? sh.min.x < hi.x && lo.x < sh.max.x && sh.min.y < hi.y && lo.y < sh.max.y
                                   : sh.min.x <= centre.x && centre.x < sh.max.x && sh.min.y <= centre.y &&
                                         centre.y < sh.max.y;
                break;
              case ShapeKind::Circle: {
                const Vec2 d = centre - sh.center;
                covered = obstacle ? disc_overlaps_open_box(sh.center, sh.radius, lo, hi)
                                   : d.x * d.x + d.y * d.y < sh.radius * sh.radius;
                break;
              }
            }
            if (covered) want = std::uint8_t(f.terrain);
          }
          const Vec2 road_centre{(x + 0.5) * cs, (y + 0.5) * cs};
          const auto near = [&](const std::vector<Vec2>& pts, double half_width) {
            for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
              if (distance_sq_to_segment(road_centre, pts[k], pts[k + 1]) <= half_width * half_width)
                return true;
            }
            return false;
          };
          float factor = 1.0f;
          for (const Road& road : s.roads) {
            if (near(road.points, road.width * 0.5)) factor = std::max(factor, float(road.speed_factor));
          }
          const bool deck = near({s.bridges[0].a, s.bridges[0].b}, s.bridges[0].width * 0.5);
          CAPTURE(trial);
          CAPTURE(x);
          CAPTURE(y);
          REQUIRE(at(r, x, y) == want);
          const std::size_t i = std::size_t(y * r.width + x);
          REQUIRE(r.road_factor(i) == factor);
          REQUIRE(r.bridge(i) == deck);
        }
      }
    }
  }

  namespace {

  // Area of polygon `poly` inside the box [lo, hi] (Sutherland-Hodgman against the box's
  // four sides, then the shoelace formula): a reference for "the square lies inside".
  double area_in_box(std::vector<Vec2> poly, Vec2 lo, Vec2 hi) {
    const auto clip = [&](auto inside, auto cut) {
      std::vector<Vec2> out;
      for (std::size_t i = 0; i < poly.size(); ++i) {
        const Vec2 a = poly[i], b = poly[(i + 1) % poly.size()];
        if (inside(a)) {
          out.push_back(a);
          if (!inside(b)) out.push_back(cut(a, b));
        } else if (inside(b)) {
          out.push_back(cut(a, b));
        }
      }
      poly = std::move(out);
    };
    const auto at_x = [](double x) {
      return [x](Vec2 a, Vec2 b) { return Vec2{x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)}; };
    };
    const auto at_y = [](double y) {
      return [y](Vec2 a, Vec2 b) { return Vec2{a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y}; };
    };
    clip([&](Vec2 p) { return p.x >= lo.x; }, at_x(lo.x));
    clip([&](Vec2 p) { return p.x <= hi.x; }, at_x(hi.x));
    clip([&](Vec2 p) { return p.y >= lo.y; }, at_y(lo.y));
    clip([&](Vec2 p) { return p.y <= hi.y; }, at_y(hi.y));
    double a = 0;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const Vec2 p = poly[i], q = poly[(i + 1) % poly.size()];
      a += p.x * q.y - q.x * p.y;
    }
    return std::abs(a) * 0.5;
  }

  }  // namespace

  TEST_CASE("containers: outside every container, their terrain, equal to a cell-by-cell reference") {
    // Random containers (walls: a cell stays walkable when its closed square lies inside
    // their union; swamps: when its centre lies inside one), with ordinary features
    // painted over them and a tile grid under them (kept inside, covered outside).
    std::mt19937_64 rng(5150);
    const double cell_sizes[] = {1.0, 0.37, 0.5, 1.3, 2.75};
    int walled = 0, open = 0;
    for (int trial = 0; trial < 80; ++trial) {
      const double cs = cell_sizes[trial % 5];
      const double w = 24 * cs + 0.3, h = 16 * cs + 0.1;
      Scenario s = open_field(w, h, cs);
      const int gw = 24, gh = 16;
      TileGrid tiles;
      tiles.width = gw;
      tiles.height = gh;
      tiles.terrain.assign(std::size_t(gw * gh), 0);
      for (std::uint8_t& t : tiles.terrain)
        t = rng() % 5 == 0 ? std::uint8_t(terrain(s, "forest")) : std::uint8_t(0);
      s.tiles = tiles;
      std::uniform_real_distribution<double> ux(0, w), uy(0, h), size(2 * cs, 10 * cs);
      const std::size_t outside = trial % 2 == 0 ? terrain(s, "wall") : terrain(s, "swamp");
      const std::size_t kinds[] = {terrain(s, "wall"), terrain(s, "nebula")};
      const int containers = 1 + int(rng() % 3);
      for (int k = 0; k < containers + 3; ++k) {
        const std::optional<Shape> random = random_shape(rng, Vec2{ux(rng), uy(rng)}, size);
        if (!random) continue;
        const Shape& shape = *random;
        const bool container = k < containers;
        Feature f = feature(std::uint32_t(k + 1), container ? outside : kinds[rng() % 2], shape);
        f.container = container;
        // Containers anywhere in the list: they are painted first all the same.
        s.features.insert(s.features.begin() + std::ptrdiff_t(rng() % (s.features.size() + 1)), f);
      }

      const TerrainRaster r = rasterize(s);
      const bool wall = outside == terrain(s, "wall");
      for (int y = 0; y < r.height; ++y) {
        for (int x = 0; x < r.width; ++x) {
          const Vec2 lo{x * cs, y * cs}, hi{(x + 1) * cs, (y + 1) * cs};
          const Vec2 centre = (lo + hi) * 0.5;
          std::uint8_t want = x < gw && y < gh ? tiles.terrain[std::size_t(y * gw + x)] : 0;
          bool inside_one = false;
          std::vector<const Shape*> containers;
          int touching = 0;
          for (const Feature& f : s.features) {
            if (!f.container) continue;
            const Shape& sh = f.shape;
            bool in = false;
            switch (sh.kind) {
              case ShapeKind::Polygon:
                in = wall ? area_in_box(sh.points, lo, hi) >= (hi.x - lo.x) * (hi.y - lo.y) * (1 - 1e-12)
                          : point_in_polygon(centre, sh.points);
                break;
              case ShapeKind::Rect:
                in = wall ? sh.min.x <= lo.x && hi.x <= sh.max.x && sh.min.y <= lo.y && hi.y <= sh.max.y
                          : sh.min.x <= centre.x && centre.x < sh.max.x && sh.min.y <= centre.y &&
                                centre.y < sh.max.y;
                break;
              case ShapeKind::Circle: {
                const double r2 = sh.radius * sh.radius;
                const auto within = [&](Vec2 p) {
                  return (p.x - sh.center.x) * (p.x - sh.center.x) +
                         (p.y - sh.center.y) * (p.y - sh.center.y);
                };
                in = wall ? within(lo) <= r2 && within(hi) <= r2 && within({lo.x, hi.y}) <= r2 &&
                                within({hi.x, lo.y}) <= r2
                          : within(centre) < r2;
                break;
              }
            }
            inside_one = inside_one || in;
            containers.push_back(&sh);
            touching += shape_overlaps_open_box(sh, lo, hi) ? 1 : 0;
          }
          // Where two or more containers meet the cell, walls take the union of the
          // containers (box_coverage_test.cpp checks that predicate against an exact
          // reference); one container alone must hold the cell, as computed above.
          if (wall && !inside_one && touching >= 2) inside_one = union_covers_box(containers, lo, hi);
          if (!inside_one) want = std::uint8_t(outside);
          for (const Feature& f : s.features) {
            if (f.container) continue;
            const Shape& sh = f.shape;
            const bool obstacle = f.terrain == terrain(s, "wall");
            bool covered = false;
            switch (sh.kind) {
              case ShapeKind::Polygon:
                covered = obstacle ? polygon_overlaps_open_box(sh.points, lo, hi)
                                   : point_in_polygon(centre, sh.points);
                break;
              case ShapeKind::Rect:
                covered = obstacle ? sh.min.x < hi.x && lo.x < sh.max.x && sh.min.y < hi.y && lo.y < sh.max.y
                                   : sh.min.x <= centre.x && centre.x < sh.max.x && sh.min.y <= centre.y &&
                                         centre.y < sh.max.y;
                break;
              case ShapeKind::Circle: {
                const Vec2 d = centre - sh.center;
                covered = obstacle ? disc_overlaps_open_box(sh.center, sh.radius, lo, hi)
                                   : d.x * d.x + d.y * d.y < sh.radius * sh.radius;
                break;
              }
            }
            if (covered) want = std::uint8_t(f.terrain);
          }
          CAPTURE(trial);
          CAPTURE(x);
          CAPTURE(y);
          REQUIRE(int(at(r, x, y)) == int(want));
          (inside_one ? open : walled) += 1;
        }
      }
    }
    // Both sides of the rule were exercised.
    CHECK(walled > 1000);
    CHECK(open > 1000);
  }

  TEST_CASE(
      "containers: two walled rectangles sharing an edge through a column of cells leave the seam walkable") {
    // The seam x = 10.5 runs through the middle of column 10: each cell there lies inside
    // neither rectangle alone, but inside their union, as in the visibility graph.
    Scenario s = open_field(20, 10);
    const std::size_t wall = terrain(s, "wall");
    Shape a, b;
    a.kind = b.kind = ShapeKind::Rect;
    a.min = {2, 2};
    a.max = {10.5, 8};
    b.min = {10.5, 2};
    b.max = {18, 8};
    Feature fa = feature(1, wall, a), fb = feature(2, wall, b);
    fa.container = fb.container = true;
    s.features = {fa, fb};
    const TerrainRaster r = rasterize(s);
    for (int y = 0; y < 10; ++y) {
      for (int x = 0; x < 20; ++x) {
        CAPTURE(x);
        CAPTURE(y);
        const bool inside = x >= 2 && x < 18 && y >= 2 && y < 8;
        CHECK(int(at(r, x, y)) == int(inside ? 0 : wall));
      }
    }
    // One row of the seam recomputed alone gives the same.
    TerrainRaster part = r;
    REQUIRE(rasterize_cells(s, CellRect{9, 4, 12, 5}, part));
    CHECK(int(at(part, 10, 4)) == 0);
    // From one rectangle to the other on the grid.
    const PlanningWorld world(s);
    auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    CHECK(find_path(*astar, PathQuery{{5.5, 5.5}, {15.5, 5.5}}).status == SearchStatus::Found);
    // Moved up by half a cell, the second leaves the seam's bottom cell open below: blocked.
    s.features[1].shape.min.y = 2.5;
    const TerrainRaster moved = rasterize(s);
    CHECK(int(at(moved, 10, 2)) == int(wall));
    CHECK(int(at(moved, 10, 3)) == 0);
  }

  TEST_CASE("a cell holds a surface id: plain terrains first, combinations shared and counted") {
    Scenario s = open_field(20, 10);
    Road road;
    road.id = 1;
    road.points = {{0, 2.5}, {20, 2.5}};
    road.width = 1.0;
    road.speed_factor = 2.0;
    s.roads.push_back(road);
    s.bridges.push_back(Bridge{1, {10.5, 0}, {10.5, 10}, 1.0, true});
    const TerrainRaster r = rasterize(s);
    REQUIRE(r.terrain_count() == s.terrains.size());
    for (std::size_t t = 0; t < s.terrains.size(); ++t)
      CHECK(r.surface(SurfaceId(t)) == Surface{std::uint8_t(t), false, 1.0f});
    // Ground, ground + road, ground + bridge, ground + road + bridge.
    CHECK(r.surface_count() == s.terrains.size() + 3);
    CHECK(r.cells_with(0) == 200 - 20 - 10 + 1);
    CHECK(r.surface_at(2 * 20 + 10) == Surface{0, true, 2.0f});
    std::uint32_t total = 0;
    for (std::size_t id = 0; id < r.surface_count(); ++id) total += r.cells_with(SurfaceId(id));
    CHECK(total == 200);
  }

  TEST_CASE("compacting the surface table keeps every cell's surface") {
    std::mt19937_64 rng(5);
    Scenario s = open_field(30, 20);
    PlanningWorld world(s);
    (void)world.grid(0);
    // Roads with many speed factors come and go: ids are made and left unused.
    for (int edit = 0; edit < 30; ++edit) {
      s.roads.clear();
      for (int k = 0; k < 3; ++k) {
        const double y = double(rng() % 20) + 0.5;
        s.roads.push_back(
            Road{std::uint32_t(k + 1), {{0, y}, {30, y + 3}}, 2.0, 1.0 + double(edit * 3 + k) / 64.0});
      }
      world.update(s).value();
    }
    const TerrainRaster& before = world.raster();
    std::vector<Surface> cells;
    for (std::size_t i = 0; i < before.cell_count(); ++i) cells.push_back(before.surface_at(i));
    TerrainRaster copy = before;
    const std::size_t ids = copy.surface_count();
    REQUIRE(copy.compact(0));
    CHECK(copy.surface_count() < ids);
    for (std::size_t id = 0; id < copy.surface_count(); ++id)
      CHECK((id < copy.terrain_count() || copy.cells_with(SurfaceId(id)) > 0));
    for (std::size_t i = 0; i < copy.cell_count(); ++i) REQUIRE(copy.surface_at(i) == cells[i]);
    // A grid built over the compacted table reads the same multipliers.
    const CostGrid a(s, copy, 0);
    for (std::uint32_t i = 0; i < a.cell_count(); ++i)
      REQUIRE(a.multiplier(i) == world.grid(0).multiplier(i));
  }

  TEST_CASE("a class's grid keeps one byte per cell") {
    const Scenario s = open_field(256, 128);
    const PlanningWorld world(s);
    CHECK(world.grid(0).memory_bytes() < 256 * 128 + 4096);
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

  TEST_CASE("region labels equal a flood fill numbered in row-major order of first cell") {
    std::mt19937_64 rng(31);
    for (int trial = 0; trial < 60; ++trial) {
      const int w = 5 + int(rng() % 40), h = 3 + int(rng() % 30);
      const Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.1 + 0.05 * (trial % 8), true));
      const PlanningWorld world(s);
      const CostGrid& g = world.grid(0);
      const RegionMap& regions = world.regions(0);
      // Reference: breadth-first fills over the orthogonal moves, seeded in row-major order.
      std::vector<std::uint32_t> label(g.cell_count(), RegionMap::kBlocked);
      std::vector<std::uint32_t> sizes;
      for (std::uint32_t seed = 0; seed < g.cell_count(); ++seed) {
        if (!g.passable(seed) || label[seed] != RegionMap::kBlocked) continue;
        const auto id = std::uint32_t(sizes.size());
        sizes.push_back(0);
        std::vector<std::uint32_t> queue{seed};
        label[seed] = id;
        for (std::size_t head = 0; head < queue.size(); ++head) {
          const std::uint32_t c = queue[head];
          ++sizes[id];
          for (int d = 0; d < 4; ++d) {
            if (!((g.moves(c) >> d) & 1)) continue;
            const auto n = std::uint32_t(std::int64_t(c) + g.offsets()[d]);
            if (label[n] == RegionMap::kBlocked) {
              label[n] = id;
              queue.push_back(n);
            }
          }
        }
      }
      REQUIRE(regions.region_count() == sizes.size());
      CHECK(regions.sizes() == sizes);
      for (std::uint32_t c = 0; c < g.cell_count(); ++c) REQUIRE(regions.region(c) == label[c]);
      CHECK(regions.run_count() <= g.cell_count());
    }
  }

  TEST_CASE("an open map's regions cost bytes per row, not per cell") {
    const Scenario s = open_field(512, 256);
    const PlanningWorld world(s);
    CHECK(world.regions(0).region_count() == 1);
    CHECK(world.regions(0).run_count() == 256);
    CHECK(world.regions(0).sizes().front() == 512u * 256u);
  }

}  // TEST_SUITE
