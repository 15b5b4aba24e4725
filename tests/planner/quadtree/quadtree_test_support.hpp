#pragma once

// Maps for the quadtree tests (random rectangles of terrain, so leaves of many sizes
// appear) and an exact segment-against-open-cell test.

#include <random>
#include <string>
#include <vector>

#include "planner/core/types.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::test {

/// A w x h map of ground with `blocks` random rectangles of walls (and, when `terrain`,
/// of rough, swamp and water too), up to `max_side` cells wide.
inline std::vector<std::string> block_rows(std::mt19937_64& rng, int w, int h, int blocks, int max_side,
                                           bool terrain) {
  std::vector<std::string> rows(std::size_t(h), std::string(std::size_t(w), '.'));
  const char kinds[] = {'#', '#', '#', 'r', 's', 'w'};
  for (int b = 0; b < blocks; ++b) {
    const int bw = 1 + int(rng() % unsigned(max_side)), bh = 1 + int(rng() % unsigned(max_side));
    const int x0 = int(rng() % unsigned(w)), y0 = int(rng() % unsigned(h));
    const char c = terrain ? kinds[rng() % 6] : '#';
    for (int y = y0; y < std::min(h, y0 + bh); ++y) {
      for (int x = x0; x < std::min(w, x0 + bw); ++x) rows[std::size_t(y)][std::size_t(x)] = c;
    }
  }
  return rows;
}

/// p / q < r / s for q, s > 0, exactly for the small dyadic numbers of these tests.
inline bool fraction_less(double p, double q, double r, double s) { return p * s < r * q; }

/// True if the segment [a, b] meets the open box (lo, hi), decided without division:
/// each axis bounds t in an open interval (lo - a) / d < t < (hi - a) / d, compared as
/// fractions; touching the box's boundary does not count.
inline bool segment_enters_open_box(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
  // Lower and upper bounds on t as fractions num / den (den > 0); t in [0, 1] first.
  double lo_num = 0, lo_den = 1, hi_num = 1, hi_den = 1;
  const double av[2] = {a.x, a.y}, dv[2] = {b.x - a.x, b.y - a.y};
  const double lov[2] = {lo.x, lo.y}, hiv[2] = {hi.x, hi.y};
  for (int k = 0; k < 2; ++k) {
    if (dv[k] == 0) {
      if (!(av[k] > lov[k] && av[k] < hiv[k])) return false;
      continue;
    }
    double n0 = lov[k] - av[k], n1 = hiv[k] - av[k], den = dv[k];
    if (den < 0) {
      n0 = -n0;
      n1 = -n1;
      den = -den;
      std::swap(n0, n1);
    }
    if (fraction_less(lo_num, lo_den, n0, den)) lo_num = n0, lo_den = den;
    if (fraction_less(n1, den, hi_num, hi_den)) hi_num = n1, hi_den = den;
  }
  return fraction_less(lo_num, lo_den, hi_num, hi_den);
}

}  // namespace pathscope::test
