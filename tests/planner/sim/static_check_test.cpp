#include "planner/sim/static_check.hpp"

#include <random>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

TEST_CASE("the move line's walk finds a closed cell exactly when dense sampling does") {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 20; ++round) {
    const PlanningWorld world(test::ascii_scenario(test::random_rows(rng, 24, 18, 0.25, false)));
    const CostGrid& grid = world.grid(0);
    std::uniform_real_distribution<double> x(0.01, 23.99), y(0.01, 17.99);
    int blocked = 0;
    for (int k = 0; k < 300; ++k) {
      const Vec2 a{x(rng), y(rng)}, b{x(rng), y(rng)};
      const std::uint16_t key = move_key_at(grid, a);
      if (key == 0) continue;
      // Reference: points every millimetre, skipping those within 1e-6 of a cell corner
      // (a line through a corner touches both cells beside it; sampling cannot see it).
      bool sampled = false;
      const double len = glm::length(b - a);
      const int n = static_cast<int>(len / 0.001) + 1;
      for (int i = 1; i <= n && !sampled; ++i) {
        const Vec2 p = a + (b - a) * (static_cast<double>(i) / n);
        sampled = point_blocked(grid, key, p);
      }
      const bool walked = segment_blocked(grid, key, a, b);
      if (sampled) CHECK(walked);
      // The walk may only add lines that pass within a sample's gap of a closed cell.
      if (walked && !sampled) {
        bool near = false;
        for (int i = 0; i <= n && !near; ++i) {
          const Vec2 p = a + (b - a) * (static_cast<double>(i) / n);
          for (Vec2 d : {Vec2{0.002, 0}, Vec2{-0.002, 0}, Vec2{0, 0.002}, Vec2{0, -0.002}})
            near = near || point_blocked(grid, key, p + d);
        }
        CHECK(near);
      }
      blocked += walked;
    }
    CHECK(blocked > 0);
  }
}

TEST_CASE("a unit may leave a closed cell it stands in, and water is closed to land units") {
  const PlanningWorld world(test::ascii_scenario({
      ".#.w.",
      ".....",
  }));
  const CostGrid& grid = world.grid(0);
  const std::uint16_t land = move_key_at(grid, {0.5, 0.5});
  CHECK(segment_blocked(grid, land, {0.5, 0.5}, {2.5, 0.5}));        // through the wall
  CHECK_FALSE(segment_blocked(grid, land, {1.5, 0.5}, {1.5, 1.5}));  // out of it
  CHECK(segment_blocked(grid, land, {2.5, 0.5}, {4.5, 0.5}));        // through water
  CHECK(point_blocked(grid, land, {3.5, 0.5}));
  CHECK(point_blocked(grid, land, {-1, 0.5}));  // off the map
}

}  // namespace pathscope::sim
