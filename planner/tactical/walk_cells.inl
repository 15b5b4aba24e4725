// walk_cells (threat_field.hpp): a grid traversal in the manner of Amanatides and Woo,
// stepping to whichever cell boundary the segment reaches first.

#include <cmath>
#include <limits>

namespace pathscope::tactical {

template <class Fn>
void walk_cells(Vec2 a, Vec2 b, double cell_size, int w, int h, Fn&& fn) {
  const Vec2 ab = b - a;
  const double len = std::sqrt(ab.x * ab.x + ab.y * ab.y);
  int x = int(std::floor(a.x / cell_size)), y = int(std::floor(a.y / cell_size));
  if (x < 0 || y < 0 || x >= w || y >= h) return;
  if (!(len > 0)) {
    fn(x, y, 0.0, 0.0);
    return;
  }
  const Vec2 u = ab / len;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const int sx = u.x > 0 ? 1 : u.x < 0 ? -1 : 0, sy = u.y > 0 ? 1 : u.y < 0 ? -1 : 0;
  double next_x = sx > 0 ? ((x + 1) * cell_size - a.x) / u.x : sx < 0 ? (x * cell_size - a.x) / u.x : kInf;
  double next_y = sy > 0 ? ((y + 1) * cell_size - a.y) / u.y : sy < 0 ? (y * cell_size - a.y) / u.y : kInf;
  const double dx = sx != 0 ? cell_size / std::abs(u.x) : kInf,
               dy = sy != 0 ? cell_size / std::abs(u.y) : kInf;
  double t = 0;
  for (;;) {
    const double tn = std::min(std::min(next_x, next_y), len);
    fn(x, y, t, tn);
    if (tn >= len) return;
    if (next_x <= next_y) {
      x += sx;
      next_x += dx;
    } else {
      y += sy;
      next_y += dy;
    }
    t = tn;
    if (x < 0 || y < 0 || x >= w || y >= h) return;
  }
}

}  // namespace pathscope::tactical
