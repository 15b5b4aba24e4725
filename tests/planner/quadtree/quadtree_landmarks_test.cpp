// The quadtree planner's landmarks: their costs are those of real paths from the
// landmark (never below the straight distance times the smallest multiplier), finite
// exactly in the landmark's region, the same on an updated map as on a fresh one; the
// estimate they give; and what they change in searches.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "planner/quadtree/quadtree_landmarks.hpp"
#include "planner/quadtree/quadtree_map.hpp"
#include "planner/quadtree/quadtree_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/quadtree/quadtree_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

double box_distance(Vec2 p, const Box2& b) {
  const double dx = std::max({0.0, b.lo.x - p.x, p.x - b.hi.x});
  const double dy = std::max({0.0, b.lo.y - p.y, p.y - b.hi.y});
  return std::sqrt(dx * dx + dy * dy);
}

// Rooms of 15 x 15 cells behind walls, with a door 2 cells wide at a random place in
// each wall between two rooms: the straight line says little about the way round.
std::vector<std::string> rooms(std::mt19937_64& rng, int across, int down) {
  const int w = 16 * across + 1, h = 16 * down + 1;
  std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (x % 16 == 0 || y % 16 == 0) rows[y][x] = '#';
    }
  }
  for (int ry = 0; ry < down; ++ry) {
    for (int rx = 0; rx < across; ++rx) {
      if (rx + 1 < across) {  // the wall to the right
        const int d = 1 + int(rng() % 13);
        rows[16 * ry + d][16 * (rx + 1)] = rows[16 * ry + d + 1][16 * (rx + 1)] = '.';
      }
      if (ry + 1 < down) {  // the wall below
        const int d = 1 + int(rng() % 13);
        rows[16 * (ry + 1)][16 * rx + d] = rows[16 * (ry + 1)][16 * rx + d + 1] = '.';
      }
    }
  }
  return rows;
}

}  // namespace

TEST_SUITE("quadtree landmarks") {

TEST_CASE("costs: zero at each landmark, never below the straight distance, finite exactly in its region") {
  std::mt19937_64 rng(88);
  int checked = 0;
  for (int round = 0; round < 40; ++round) {
    const int w = 8 + int(rng() % 40), h = 8 + int(rng() % 40);
    const auto rows = round % 2 ? test::random_rows(rng, w, h, 0.25, true)
                                : test::block_rows(rng, w, h, 2 + int(rng() % 12), 1 + int(rng() % 6), true);
    const PlanningWorld world(test::ascii_scenario(rows));
    const QuadtreeMap& map = QuadtreeMap::of(world, 0);
    const Quadtree& tree = map.tree();
    const QuadLandmarks& marks = QuadLandmarks::of(world, 0, 6);
    CAPTURE(round);
    REQUIRE(marks.count() <= 6);
    const double least = world.grid(0).min_multiplier();
    for (int k = 0; k < marks.count(); ++k) {
      const std::uint32_t at = marks.landmarks()[k];
      REQUIRE(tree.leaf(at).passable());
      CHECK(marks.cost(k, at) == 0.0f);
      for (int j = 0; j < k; ++j) CHECK(marks.landmarks()[j] != at);
      const Vec2 from = tree.leaf_center(at);
      for (std::uint32_t id = 0; id < tree.leaf_slots(); ++id) {
        if (!tree.has_leaf(id)) continue;
        const float c = marks.cost(k, id);
        const bool same = tree.leaf(id).passable() && map.links().region(id) == map.links().region(at);
        CHECK((c < std::numeric_limits<float>::infinity()) == same);
        if (!same) continue;
        // A real path from the landmark's centre to the leaf's entry point.
        CHECK(double(c) >= least * box_distance(from, tree.leaf_box(id)) * (1 - 1e-6) - 1e-4);
        ++checked;
      }
    }
  }
  CHECK(checked > 5000);
}

TEST_CASE("farthest first: the second landmark is the leaf farthest from the first") {
  // A U-shaped corridor: the two ends are far apart by way of the bend.
  const PlanningWorld world(test::ascii_scenario({
      "..........",
      ".########.",
      ".########.",
      ".########.",
      ".########.",
  }));
  const QuadLandmarks& marks = QuadLandmarks::of(world, 0, 2);
  REQUIRE(marks.count() == 2);
  for (int k = 0; k < 2; ++k) {
    float far = 0;
    std::uint32_t at = 0;
    const Quadtree& tree = QuadtreeMap::of(world, 0).tree();
    for (std::uint32_t id = 0; id < tree.leaf_slots(); ++id) {
      const float c = marks.cost(1 - k, id);
      if (tree.has_leaf(id) && c < std::numeric_limits<float>::infinity() && c > far) far = c, at = id;
    }
    // Each is the other's farthest leaf: the two bottom ends of the U.
    CHECK(marks.landmarks()[k] == at);
    CHECK(tree.leaf(at).y == 4);
  }
}

TEST_CASE("the estimate: the largest difference less slack and margin, none from unreached landmarks") {
  const float inf = std::numeric_limits<float>::infinity();
  const float a[3] = {10, 50, inf}, b[3] = {30, 5, 7};
  // |10 - 30| - 1 - 0.1 * 30 = 16; |50 - 5| - 1 - 0.1 * 50 = 39; the third reaches one only.
  CHECK(QuadLandmarks::bound(a, b, 1.0, 0.1) == doctest::Approx(39));
  CHECK(QuadLandmarks::bound(a, b, 100.0, 0.0) == 0.0);
  CHECK(QuadLandmarks::bound({}, {}, 0.0, 0.0) == 0.0);
}

TEST_CASE("searches with landmarks: the same answers found, paths near the plain search's, fewer expansions") {
  std::mt19937_64 rng(61);
  std::uint64_t plain[2] = {0, 0}, marked[2] = {0, 0};  // blocks, rooms
  int found = 0;
  double worst = 0;
  for (int round = 0; round < 20; ++round) {
    const auto rows = round % 2 ? rooms(rng, 3 + int(rng() % 4), 2 + int(rng() % 4))
                                : test::block_rows(rng, 64, 48, 10 + int(rng() % 20), 2 + int(rng() % 10), true);
    const int w = int(rows[0].size()), h = int(rows.size());
    const Scenario s = test::ascii_scenario(rows);
    const PlanningWorld world(s);
    QuadtreePlanner a(world, 0), b(world, 0, "quadtree", QuadtreeParams{.landmarks = 8});
    for (int q = 0; q < 10; ++q) {
      const PathQuery query{test::cell_center(s, int(rng() % unsigned(w)), int(rng() % unsigned(h))),
                            test::cell_center(s, int(rng() % unsigned(w)), int(rng() % unsigned(h)))};
      const PathResult ra = find_path(a, query);
      const PathResult& rb = find_path(b, query);
      CAPTURE(round);
      CAPTURE(q);
      REQUIRE(rb.status == ra.status);
      if (ra.status != SearchStatus::Found) continue;
      ++found;
      plain[round % 2] += ra.stats.expansions;
      marked[round % 2] += rb.stats.expansions;
      worst = std::max(worst, rb.cost / std::max(ra.cost, 1e-9));
    }
  }
  MESSAGE("landmarks: " << marked[0] << " and " << marked[1] << " expansions against " << plain[0] << " and "
                         << plain[1] << ", worst cost ratio " << worst);
  CHECK(found > 150);
  CHECK(marked[0] < plain[0]);
  CHECK(double(marked[1]) < 0.85 * double(plain[1]));
  CHECK(worst < 1.25);
}

}  // TEST_SUITE
