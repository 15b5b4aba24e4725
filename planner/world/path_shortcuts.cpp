// Shortcuts in the world's cost model (path_shortcuts.hpp). Greedy, farthest first within
// a window: each shortcut taken lowers the cost of the path from its start (the legs after
// it are the path's own), so the whole never costs more than the path given.

#include "planner/world/path_shortcuts.hpp"

#include <algorithm>
#include <cmath>

#include "planner/world/path_cost.hpp"

namespace pathscope {

Shortcuts cheaper_shortcuts(const CostGrid& grid, std::span<const Vec2> points, std::size_t window,
                            const std::function<bool(Vec2, Vec2)>& open) {
  Shortcuts out;
  const std::size_t n = points.size();
  if (n < 3 || window < 2) {
    out.points.assign(points.begin(), points.end());
    return out;
  }
  // The path's cost from its start to each point, leg by leg (what polyline_cost sums).
  std::vector<double> before(n, 0.0);
  for (std::size_t i = 1; i < n; ++i)
    before[i] = before[i - 1] + polyline_cost(grid, points.subspan(i - 1, 2));
  const double s = grid.cell_size();
  out.points.push_back(points[0]);
  std::size_t i = 0;
  while (i + 1 < n) {
    std::size_t next = i + 1;
    for (std::size_t j = std::min(n - 1, i + window); j >= i + 2; --j) {
      const Vec2 leg[2] = {points[i], points[j]};
      const double along = before[j] - before[i];
      // Gains below rounding would only trade one path for its equal.
      if (!(polyline_cost(grid, leg) < along - 1e-9 * std::max(1.0, along))) continue;
      if (!open(points[i], points[j])) continue;
      next = j;
      out.dropped += int(j - i - 1);
      const Vec2 lo{std::min(leg[0].x, leg[1].x), std::min(leg[0].y, leg[1].y)};
      const Vec2 hi{std::max(leg[0].x, leg[1].x), std::max(leg[0].y, leg[1].y)};
      out.cells.push_back(CellRect{int(std::floor(lo.x / s)), int(std::floor(lo.y / s)),
                                   int(std::floor(hi.x / s)) + 1, int(std::floor(hi.y / s)) + 1}
                              .expanded(1));
      break;
    }
    out.points.push_back(points[next]);
    i = next;
  }
  return out;
}

}  // namespace pathscope
