// The world's cost of a polyline (path_cost.hpp). Each leg a -> b is cut where it meets
// the cell lines x = k s and y = k s (parameters t = (k s - a) / (b - a) along it); the
// piece between two cuts lies in one cell, found from its midpoint, or, when the leg
// runs along a cell line, between the two cells either side of it, and then costs the
// cheaper passable one: a unit may follow the line on the cheaper side. Lengths are
// the leg's Euclidean length times the piece's share of t.

#include "planner/world/path_cost.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pathscope {

double polyline_cost(const CostGrid& grid, std::span<const Vec2> points) {
  const double s = grid.cell_size();
  const auto multiplier = [&](int x, int y) {
    return grid.in_bounds(x, y) ? grid.multiplier(grid.index(x, y)) : 0.0;
  };
  double total = 0;
  std::vector<double> cuts;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const Vec2 a = points[i - 1], b = points[i];
    const Vec2 d = b - a;
    const double length = std::sqrt(d.x * d.x + d.y * d.y);
    if (length == 0) continue;
    cuts.assign({0.0, 1.0});
    for (int axis = 0; axis < 2; ++axis) {
      if (d[axis] == 0) continue;
      const double lo = std::min(a[axis], b[axis]) / s, hi = std::max(a[axis], b[axis]) / s;
      for (double k = std::ceil(lo); k <= hi; k += 1) cuts.push_back((k * s - a[axis]) / d[axis]);
    }
    std::sort(cuts.begin(), cuts.end());
    // A leg along a cell line: exactly on it at its start, and parallel to it.
    const bool on_x = d.x == 0 && std::floor(a.x / s) * s == a.x;
    const bool on_y = d.y == 0 && std::floor(a.y / s) * s == a.y;
    for (std::size_t k = 1; k < cuts.size(); ++k) {
      const double t0 = std::clamp(cuts[k - 1], 0.0, 1.0), t1 = std::clamp(cuts[k], 0.0, 1.0);
      if (t1 <= t0) continue;
      const Vec2 m = a + d * (0.5 * (t0 + t1));
      const int cx = int(std::floor(m.x / s)), cy = int(std::floor(m.y / s));
      double mu = multiplier(cx, cy);
      if (on_x || on_y) {
        const double other = on_x ? multiplier(cx - 1, cy) : multiplier(cx, cy - 1);
        if (other > 0 && (mu == 0 || other < mu)) mu = other;
      }
      total += (t1 - t0) * length * (mu > 0 ? mu : 1.0);
    }
  }
  return total;
}

}  // namespace pathscope
