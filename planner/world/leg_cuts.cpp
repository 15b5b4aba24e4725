// Cutting a leg at the cell lines (leg_cuts.hpp): for each axis the leg moves along, the
// lines k s between its ends' coordinates, each at t = (k s - a) / (b - a).

#include "planner/world/leg_cuts.hpp"

#include <algorithm>
#include <cmath>

namespace pathscope {

void cut_leg(Vec2 a, Vec2 b, double cell_size, LegCuts& out) {
  const double s = cell_size;
  const Vec2 d = b - a;
  out.t.assign({0.0, 1.0});
  for (int axis = 0; axis < 2; ++axis) {
    if (d[axis] == 0) continue;
    const double lo = std::min(a[axis], b[axis]) / s, hi = std::max(a[axis], b[axis]) / s;
    for (double k = std::ceil(lo); k <= hi; k += 1) out.t.push_back((k * s - a[axis]) / d[axis]);
  }
  std::sort(out.t.begin(), out.t.end());
  // Along a cell line: exactly on it at the start, and parallel to it.
  out.on_x = d.x == 0 && std::floor(a.x / s) * s == a.x;
  out.on_y = d.y == 0 && std::floor(a.y / s) * s == a.y;
}

}  // namespace pathscope
