// Cutting a leg at the cell lines (leg_cuts.hpp): hand-made legs, and random ones checked
// against the cells their sampled points fall in.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>

#include "planner/world/leg_cuts.hpp"

using namespace pathscope;

TEST_CASE("leg_cuts: a leg crossing two vertical and one horizontal line") {
  LegCuts c;
  cut_leg({0.5, 0.5}, {2.5, 1.5}, 1.0, c);
  REQUIRE(c.t.size() == 5);
  CHECK(c.t[0] == 0.0);
  CHECK(c.t[1] == doctest::Approx(0.25));
  CHECK(c.t[2] == doctest::Approx(0.5));  // x = 1.5 is no line; y = 1 is, at t 0.5
  CHECK(c.t[3] == doctest::Approx(0.75));
  CHECK(c.t[4] == 1.0);
  CHECK_FALSE(c.on_x);
  CHECK_FALSE(c.on_y);
}

TEST_CASE("leg_cuts: legs along a cell line are flagged, legs beside one are not") {
  LegCuts c;
  cut_leg({2.0, 0.5}, {2.0, 3.5}, 1.0, c);
  CHECK(c.on_x);
  CHECK_FALSE(c.on_y);
  CHECK(c.t.size() == 5);  // y = 1, 2, 3 crossed
  cut_leg({0.25, 4.0}, {3.0, 4.0}, 2.0, c);
  CHECK(c.on_y);
  CHECK_FALSE(c.on_x);
  cut_leg({2.1, 0.5}, {2.1, 3.5}, 1.0, c);
  CHECK_FALSE(c.on_x);
}

TEST_CASE("leg_cuts: random legs: each piece lies in one cell, and every cell crossed has a piece") {
  std::mt19937_64 rng(37);
  std::uniform_real_distribution<double> coord(0.0, 20.0);
  LegCuts c;
  for (int trial = 0; trial < 2000; ++trial) {
    const double s = trial % 3 == 0 ? 0.5 : (trial % 3 == 1 ? 1.0 : 2.5);
    const Vec2 a{coord(rng), coord(rng)}, b{coord(rng), coord(rng)};
    cut_leg(a, b, s, c);
    const Vec2 d = b - a;
    std::set<std::pair<int, int>> from_pieces;
    for (std::size_t k = 1; k < c.t.size(); ++k) {
      REQUIRE(c.t[k] >= c.t[k - 1]);
      const double t0 = std::clamp(c.t[k - 1], 0.0, 1.0), t1 = std::clamp(c.t[k], 0.0, 1.0);
      if (t1 - t0 < 1e-9) continue;
      const Vec2 m = a + d * (0.5 * (t0 + t1));
      const std::pair<int, int> cell{int(std::floor(m.x / s)), int(std::floor(m.y / s))};
      from_pieces.insert(cell);
      // Points inside the piece, away from its ends by rounding's margin, share its cell.
      for (int i = 1; i < 8; ++i) {
        const double t = t0 + (t1 - t0) * (0.01 + 0.98 * i / 8.0);
        const Vec2 p = a + d * t;
        CHECK(std::pair<int, int>{int(std::floor(p.x / s)), int(std::floor(p.y / s))} == cell);
      }
    }
    // The cells of fine samples along the leg: the same set (a cell crossed only within
    // 1e-6 of a corner may escape the samples, so compare sample cells against pieces).
    for (int i = 0; i <= 4000; ++i) {
      const Vec2 p = a + d * (i / 4000.0);
      const std::pair<int, int> cell{int(std::floor(p.x / s)), int(std::floor(p.y / s))};
      const double fx = p.x / s - std::round(p.x / s), fy = p.y / s - std::round(p.y / s);
      if (std::abs(fx) < 1e-7 || std::abs(fy) < 1e-7) continue;  // on a line: either side
      CHECK(from_pieces.count(cell) == 1);
    }
  }
}
