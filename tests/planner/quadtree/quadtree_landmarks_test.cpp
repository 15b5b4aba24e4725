// The quadtree planner's landmarks: their costs are those of real paths from the
// landmark (never below the straight distance times the smallest multiplier), finite
// exactly in the landmark's region; the farthest-first choice; the estimate they give.
// (Searches with landmarks: quadtree_planner_test.cpp; on updated maps:
// quadtree_update_test.cpp.)

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "planner/quadtree/quadtree_landmarks.hpp"
#include "planner/quadtree/quadtree_map.hpp"
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

}  // TEST_SUITE
