#include "planner/sim/spatial_hash.hpp"

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

namespace pathscope::sim {

TEST_CASE("the spatial hash finds exactly the pairs that all-pairs finds, in either walk") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 40; ++round) {
    std::uniform_real_distribution<double> coord(-50, 150);
    std::uniform_int_distribution<int> count(0, 400);
    const double distance = std::uniform_real_distribution<double>(0.1, 6)(rng);
    std::vector<Vec2> points(static_cast<std::size_t>(count(rng)));
    for (Vec2& p : points) p = {coord(rng), coord(rng)};
    // Some points exactly on cell borders and some duplicates.
    for (std::size_t i = 0; i + 1 < points.size(); i += 9)
      points[i] = {std::round(points[i].x), std::round(points[i].y) * distance};
    for (std::size_t i = 5; i < points.size(); i += 17) points[i] = points[i - 1];
    std::vector<std::uint8_t> alive(points.size(), 1);
    for (std::size_t i = 3; i < alive.size(); i += 11) alive[i] = 0;

    SpatialHash hash;
    hash.build(points, distance, alive);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> found;
    hash.pairs_within(points, distance, [&](std::uint32_t i, std::uint32_t j) { found.emplace_back(i, j); });
    std::vector<std::pair<std::uint32_t, std::uint32_t>> expected;
    for (std::uint32_t i = 0; i < points.size(); ++i) {
      for (std::uint32_t j = i + 1; j < points.size(); ++j) {
        if (!alive[i] || !alive[j]) continue;
        const Vec2 d = points[j] - points[i];
        if (d.x * d.x + d.y * d.y < distance * distance) expected.emplace_back(i, j);
      }
    }
    std::sort(found.begin(), found.end());
    CHECK(std::adjacent_find(found.begin(), found.end()) == found.end());  // each pair once
    CHECK(found == expected);
    // The walk over half the cells: the same pairs, each once, i < j.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> any_order;
    hash.pairs_within_any_order(points, distance, [&](std::uint32_t i, std::uint32_t j) {
      CHECK(i < j);
      any_order.emplace_back(i, j);
    });
    std::sort(any_order.begin(), any_order.end());
    CHECK(std::adjacent_find(any_order.begin(), any_order.end()) == any_order.end());
    CHECK(any_order == expected);
  }
}

TEST_CASE("near() visits every point of the 3 x 3 cells once") {
  std::vector<Vec2> points;
  for (int y = 0; y < 10; ++y) {
    for (int x = 0; x < 10; ++x) points.push_back({x + 0.5, y + 0.5});
  }
  SpatialHash hash;
  hash.build(points, 1.0);
  std::vector<std::uint32_t> seen;
  hash.near(Vec2{4.2, 4.7}, [&](std::uint32_t j) { seen.push_back(j); });
  std::sort(seen.begin(), seen.end());
  const std::vector<std::uint32_t> want = {33, 34, 35, 43, 44, 45, 53, 54, 55};
  CHECK(seen == want);
}

}  // namespace pathscope::sim
