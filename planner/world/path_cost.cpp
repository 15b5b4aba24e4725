// The world's cost of a polyline (path_cost.hpp). Each leg a -> b is cut where it meets
// the cell lines x = k s and y = k s (parameters t = (k s - a) / (b - a) along it); the
// piece between two cuts lies in one cell, found from its midpoint, or, when the leg
// runs along a cell line, between the two cells either side of it, and then costs the
// cheaper passable one: a unit may follow the line on the cheaper side. Lengths are
// the leg's Euclidean length times the piece's share of t.

#include "planner/world/path_cost.hpp"

#include <algorithm>
#include <cmath>

#include "planner/world/leg_cuts.hpp"

namespace pathscope {

double polyline_cost(const CostGrid& grid, std::span<const Vec2> points) {
  const double s = grid.cell_size();
  const auto multiplier = [&](int x, int y) {
    return grid.in_bounds(x, y) ? grid.multiplier(grid.index(x, y)) : 0.0;
  };
  double total = 0;
  LegCuts cuts;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Vec2 a = points[i - 1], b = points[i];
    const Vec2 d = b - a;
    const double length = std::sqrt(d.x * d.x + d.y * d.y);
    if (length == 0) continue;
    cut_leg(a, b, s, cuts);
    for (std::size_t k = 1; k < cuts.t.size(); ++k) {
      const double t0 = std::clamp(cuts.t[k - 1], 0.0, 1.0), t1 = std::clamp(cuts.t[k], 0.0, 1.0);
      if (t1 <= t0) continue;
      const Vec2 m = a + d * (0.5 * (t0 + t1));
      const int cx = int(std::floor(m.x / s)), cy = int(std::floor(m.y / s));
      double mu = multiplier(cx, cy);
      if (cuts.on_x || cuts.on_y) {
        const double other = cuts.on_x ? multiplier(cx - 1, cy) : multiplier(cx, cy - 1);
        if (other > 0 && (mu == 0 || other < mu)) mu = other;
      }
      total += (t1 - t0) * length * (mu > 0 ? mu : 1.0);
    }
  }
  return total;
}

}  // namespace pathscope
