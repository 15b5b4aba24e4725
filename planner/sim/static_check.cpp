// The move line's walk is Amanatides and Woo's grid traversal ("A Fast Voxel Traversal
// Algorithm", 1987): step to whichever cell border the line meets first; on a tie (the
// line through a cell corner) both side cells are tested before the diagonal step.

#include "planner/sim/static_check.hpp"

#include <cmath>
#include <limits>

#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

std::uint16_t move_key_at(const CostGrid& grid, Vec2 p) {
  const auto cell = grid.cell_at(p);
  return cell ? grid.move_key(*cell) : std::uint16_t{0};
}

namespace {

// floor(v) as an int (v within int's range): a truncation where v >= 0, as in the world,
// which is far cheaper than std::floor without SSE4.1's rounding instruction.
int floor_int(double v) { return v >= 0 ? static_cast<int>(v) : static_cast<int>(std::floor(v)); }

bool closed(const CostGrid& grid, std::uint16_t key, int x, int y) {
  if (!grid.in_bounds(x, y)) return true;
  return grid.move_key(grid.index(x, y)) != key;
}

}  // namespace

bool point_blocked(const CostGrid& grid, std::uint16_t key, Vec2 p) {
  const std::uint16_t k = move_key_at(grid, p);
  return k == 0 || k != key;
}

bool segment_blocked(const CostGrid& grid, std::uint16_t key, Vec2 a, Vec2 b) {
  const double s = grid.cell_size();
  const Vec2 ca = a / s, cb = b / s;
  int x = floor_int(ca.x), y = floor_int(ca.y);
  const int ex = floor_int(cb.x), ey = floor_int(cb.y);
  if (x == ex && y == ey) return false;  // within one cell: no border crossed (most moves)
  const Vec2 d = cb - ca;
  const int sx = d.x > 0 ? 1 : (d.x < 0 ? -1 : 0);
  const int sy = d.y > 0 ? 1 : (d.y < 0 ? -1 : 0);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double dtx = sx != 0 ? std::abs(1.0 / d.x) : kInf;
  const double dty = sy != 0 ? std::abs(1.0 / d.y) : kInf;
  double tx = sx > 0 ? (double(x) + 1 - ca.x) * dtx : (sx < 0 ? (ca.x - double(x)) * dtx : kInf);
  double ty = sy > 0 ? (double(y) + 1 - ca.y) * dty : (sy < 0 ? (ca.y - double(y)) * dty : kInf);
  // At most |dx| + |dy| + 1 cells; the bound also guards against rounding.
  const long long limit = std::llabs(ex - x) + std::llabs(ey - y) + 2;
  for (long long i = 0; i < limit && (x != ex || y != ey); ++i) {
    if (tx < ty) {
      if (tx > 1) break;
      x += sx;
      tx += dtx;
    } else if (ty < tx) {
      if (ty > 1) break;
      y += sy;
      ty += dty;
    } else {
      if (tx > 1) break;
      // Through a corner: both cells beside it count.
      if (closed(grid, key, x + sx, y) || closed(grid, key, x, y + sy)) return true;
      x += sx;
      y += sy;
      tx += dtx;
      ty += dty;
    }
    if (closed(grid, key, x, y)) return true;
  }
  return false;
}

}  // namespace pathscope::sim
