// The quadtree planner on weighted ground, against grid A* on the same cells: the cost of
// the returned path, integrated over the tiles by the test's own referee
// (test::referee_cost), is compared with grid A*'s optimum (test::reference_cost, an
// independent Dijkstra); the cost the planner reports is that of the path it returns,
// and string pulling never makes step 1 (or the shortest path in the corridor) dearer.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "planner/quadtree/quadtree_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/quadtree/quadtree_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;
using pathscope::test::cell_center;

namespace {

// The bound the quadtree's paths keep against grid A* on the same cells, and the worst
// any path reaches (1.126 on the random worlds below): the corridor of leaves the search
// picks is not always the cheapest (the search's entry points misjudge some corridors),
// which smoothing and the shortcuts over the cells beside it do not always repair.
constexpr double kBound = 1.05;
constexpr double kWorst = 1.15;

// A scenario over `rows` with tiles of several costs:
//   '.' 1   'r' 1.5   'b' 2   's' 3   'f' 5   'm' 10   '#' wall
Scenario weighted_scenario(const std::vector<std::string>& rows, double cell_size) {
  Scenario s = test::ascii_scenario({"."}, cell_size);
  const int h = int(rows.size()), w = int(rows.front().size());
  s.world = WorldInfo{w * cell_size, h * cell_size, cell_size};
  s.terrains = {
      TerrainType{"ground", '.', Color{120, 160, 90, 255}, {1.0}, ""},
      TerrainType{"wall", '#', Color{60, 60, 60, 255}, {std::nullopt}, ""},
      TerrainType{"rough", 'r', Color{150, 130, 90, 255}, {1.5}, ""},
      TerrainType{"brush", 'b', Color{130, 140, 80, 255}, {2.0}, ""},
      TerrainType{"swamp", 's', Color{90, 110, 70, 255}, {3.0}, ""},
      TerrainType{"forest", 'f', Color{40, 100, 40, 255}, {5.0}, ""},
      TerrainType{"mud", 'm', Color{100, 80, 50, 255}, {10.0}, ""},
  };
  TileGrid t;
  t.width = w;
  t.height = h;
  for (const std::string& row : rows) {
    for (char c : row) {
      std::uint8_t k = 0;
      while (s.terrains[k].symbol != c) ++k;
      t.terrain.push_back(k);
    }
  }
  s.tiles = std::move(t);
  return s;
}

// Fills cells [x0, x1) x [y0, y1) of `rows` with `c`.
void paint(std::vector<std::string>& rows, int x0, int y0, int x1, int y1, char c) {
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) rows[std::size_t(y)][std::size_t(x)] = c;
  }
}

// The map: 640 m (64 x 64 cells of 10 m), open on the left, a wall at the top
// right and ground ten times as slow at the bottom right.
std::vector<std::string> wall_and_mud_rows() {
  std::vector<std::string> rows(64, std::string(64, '.'));
  paint(rows, 32, 0, 64, 26, '#');
  paint(rows, 32, 26, 64, 64, 'm');
  return rows;
}

// A random weighted world: rectangles of five costs over ground, then a few walls.
std::vector<std::string> weighted_rows(std::mt19937_64& rng, int w, int h) {
  std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
  const char costs[] = {'r', 'b', 's', 'f', 'm'};
  const auto rect = [&](int max_side, char c) {
    const int bw = 1 + int(rng() % unsigned(max_side)), bh = 1 + int(rng() % unsigned(max_side));
    const int x0 = int(rng() % unsigned(w)), y0 = int(rng() % unsigned(h));
    paint(rows, x0, y0, std::min(w, x0 + bw), std::min(h, y0 + bh), c);
  };
  const int patches = 4 + int(rng() % 12), walls = int(rng() % 5);
  for (int i = 0; i < patches; ++i) rect(std::max(w, h) / 2, costs[rng() % 5]);
  for (int i = 0; i < walls; ++i) rect(std::max(w, h) / 4, '#');
  return rows;
}

struct Compared {
  double quadtree = 0;  // the referee's cost of the returned path
  double grid = 0;      // grid A*'s optimum on the same cells
};

// Plans from `from` to `to` with `planner` and checks the answer: legal by the referee,
// the reported cost that of the returned path, no dearer than step 1 or the shortest
// path inside the corridor. Returns the two costs compared (grid 0 when there is no
// path or start and goal share a cell).
Compared compare(const Scenario& s, QuadtreePlanner& planner, Vec2 from, Vec2 to) {
  const double cs = s.world.cell_size;
  const int sx = int(from.x / cs), sy = int(from.y / cs), gx = int(to.x / cs), gy = int(to.y / cs);
  const double grid = test::reference_cost(s, sx, sy, gx, gy);
  const PathResult& r = find_path(planner, PathQuery{from, to});
  if (!std::isfinite(grid)) {
    CHECK(r.status != SearchStatus::Found);
    return {};
  }
  REQUIRE(r.status == SearchStatus::Found);
  const test::RefereeCost ref = test::referee_cost(s, r.points);
  CHECK(ref.legal);
  // The reported cost is the world's: a leg along a line between two tiles costs the
  // cheaper one, inside the corridor or not.
  CHECK(r.cost == doctest::Approx(ref.low).epsilon(1e-9));
  const Corridor& c = planner.corridor();
  CHECK(r.cost <= corridor_cost(c, planner.portal_stage()) * (1 + 1e-9));
  CHECK(r.cost <= corridor_cost(c, pulled_path(c)) * (1 + 1e-9));
  return {ref.low, grid};
}

}  // namespace

TEST_SUITE("quadtree planner") {
  TEST_CASE("weighted ground: a wall at the top right, slow ground below it, within 5% of grid A*") {
    const Scenario s = weighted_scenario(wall_and_mud_rows(), 10.0);
    const PlanningWorld world(s);
    for (const int landmarks : {0, 8}) {
      QuadtreePlanner qt(world, 0, "quadtree", QuadtreeParams{.landmarks = landmarks});
      const Compared c = compare(s, qt, cell_center(s, 17, 13), cell_center(s, 56, 62));
      const double step1 = corridor_cost(qt.corridor(), qt.portal_stage());
      MESSAGE("landmarks " << landmarks << ": step 1 " << step1 << ", returned " << c.quadtree << ", grid A* "
                           << c.grid);
      CAPTURE(landmarks);
      CHECK(c.quadtree <= kBound * c.grid);
    }
  }

  TEST_CASE("weighted ground: random worlds of several costs against grid A*") {
    std::mt19937_64 rng(71);
    int found = 0, over = 0;
    double worst = 0, sum = 0;
    for (int round = 0; round < 60; ++round) {
      const int w = 16 + int(rng() % 49), h = 16 + int(rng() % 49);
      const double cell = round % 3 == 0 ? 2.5 : 1.0;
      const Scenario s = weighted_scenario(weighted_rows(rng, w, h), cell);
      const PlanningWorld world(s);
      QuadtreePlanner plain(world, 0), marked(world, 0, "quadtree", QuadtreeParams{.landmarks = 8});
      for (int q = 0; q < 10; ++q) {
        const Vec2 from = cell_center(s, int(rng() % unsigned(w)), int(rng() % unsigned(h)));
        const Vec2 to = cell_center(s, int(rng() % unsigned(w)), int(rng() % unsigned(h)));
        const std::uint32_t start_cell = *world.grid(0).cell_at(from);
        if (!world.grid(0).passable(start_cell)) continue;  // the quadtree may leave a wall, the grid not
        CAPTURE(round);
        CAPTURE(q);
        for (QuadtreePlanner* p : {&plain, &marked}) {
          const Compared c = compare(s, *p, from, to);
          if (c.grid == 0) continue;
          ++found;
          const double ratio = c.quadtree / c.grid;
          worst = std::max(worst, ratio);
          sum += ratio;
          over += ratio > kBound;
          CHECK(ratio <= kWorst);
        }
      }
    }
    MESSAGE("weighted worlds: " << found << " paths, cost / grid A*: mean " << sum / found << ", worst "
                                << worst << ", " << over << " above " << kBound);
    CHECK(found > 1000);
    CHECK(sum / found < 1.0);
    CHECK(double(over) < 0.01 * found);
  }

}  // TEST_SUITE
