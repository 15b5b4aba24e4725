#pragma once

// Maps for the quadtree tests (random rectangles of terrain, so leaves of many sizes
// appear), an exact segment-against-open-cell test, and a referee for path costs that
// integrates a polyline over the scenario's tiles exactly.

#include <algorithm>
#include <cmath>
#include <limits>
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

/// A path's cost by the referee: each leg cut where it crosses the grid's lines, each
/// piece's length times the multiplier of the tile it lies in, read from the scenario's
/// tiles (class 0), not from any planner. A piece along a line between two tiles may
/// count either's multiplier: `low` takes the smaller passable one (the world's model,
/// as planner/referee), `high` the larger one of the way's terrain group.
struct RefereeCost {
  double low = 0;
  double high = 0;
  bool legal = true;  ///< No piece inside a wall, off the map or in another terrain group.
};

/// Integrates `points` over the tiles of `s` (see RefereeCost).
inline RefereeCost referee_cost(const Scenario& s, const std::vector<Vec2>& points) {
  const TileGrid& t = *s.tiles;
  const double cs = s.world.cell_size;
  const auto tile = [&](int x, int y) -> const TerrainType* {
    if (x < 0 || y < 0 || x >= t.width || y >= t.height) return nullptr;
    return &s.terrains[t.terrain[std::size_t(y * t.width + x)]];
  };
  const auto mult = [&](const TerrainType* k) { return k && k->cost[0] ? *k->cost[0] : 0.0; };
  RefereeCost out;
  const std::string* group = nullptr;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Vec2 a = points[i - 1], b = points[i];
    const Vec2 d = b - a;
    const double len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len == 0) continue;
    // Where the leg crosses the grid's lines, as parameters along it.
    std::vector<double> cuts = {0.0, 1.0};
    const double av[2] = {a.x, a.y}, bv[2] = {b.x, b.y}, dv[2] = {d.x, d.y};
    for (int k = 0; k < 2; ++k) {
      if (dv[k] == 0) continue;
      const double lo = std::min(av[k], bv[k]) / cs, hi = std::max(av[k], bv[k]) / cs;
      for (double line = std::ceil(lo); line <= hi; line += 1) cuts.push_back((line * cs - av[k]) / dv[k]);
    }
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t j = 1; j < cuts.size(); ++j) {
      const double t0 = std::clamp(cuts[j - 1], 0.0, 1.0), t1 = std::clamp(cuts[j], 0.0, 1.0);
      if (t1 <= t0) continue;
      const Vec2 m = a + d * (0.5 * (t0 + t1));
      const int x = int(std::floor(m.x / cs)), y = int(std::floor(m.y / cs));
      // A leg along a grid line lies between two tiles.
      std::vector<const TerrainType*> sides = {tile(x, y)};
      if (d.x == 0 && std::floor(a.x / cs) * cs == a.x) sides.push_back(tile(x - 1, y));
      if (d.y == 0 && std::floor(a.y / cs) * cs == a.y) sides.push_back(tile(x, y - 1));
      double lo = std::numeric_limits<double>::infinity(), hi = 0;
      for (const TerrainType* k : sides) {
        const double mk = mult(k);
        if (mk == 0) continue;
        // The world's model: a piece along a tile line costs the cheaper passable side,
        // whatever its terrain group (legality keeps to the group of the way so far).
        lo = std::min(lo, mk);
        if (group && k->group != *group) continue;
        if (!group) group = &k->group;
        hi = std::max(hi, mk);
      }
      if (hi == 0) {
        out.legal = false;
        continue;
      }
      out.low += (t1 - t0) * len * lo;
      out.high += (t1 - t0) * len * hi;
    }
  }
  return out;
}

}  // namespace pathscope::test
