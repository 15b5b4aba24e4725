// A leg open to a unit of no radius (open_leg.hpp). It is walked as the world's
// cost model walks it (planner/world/path_cost.cpp), by the same cuts
// (planner/world/leg_cuts.hpp): at the cell lines x = k s and y = k s, each piece in the
// cell holding its midpoint, or between the two cells either side when the leg runs along
// a cell line. The test is stricter than the world's legality (a piece along a cell line
// is legal beside one passable cell; a diagonal may touch one blocked cell's corner), so
// that a leg it accepts is legal whatever rounding does at the corners it passes; a
// shortcut it refuses leaves the path as it was.

#include "planner/quadtree/open_leg.hpp"

#include <algorithm>
#include <cmath>

#include "planner/world/leg_cuts.hpp"

namespace pathscope {
namespace {

// Whole to 1e-9 of a cell: a cell line, whatever the rounding of the cut.
bool on_line(double v) { return std::abs(v - std::round(v)) < 1e-9; }

}  // namespace

bool open_leg(const CostGrid& grid, Vec2 a, Vec2 b) {
  const double s = grid.cell_size();
  const Vec2 d = b - a;
  if (d.x == 0 && d.y == 0) return false;
  std::uint16_t key = 0;  // the move key of the first cell, which every other must share
  const auto open = [&](int x, int y) {
    if (!grid.in_bounds(x, y)) return false;
    const std::uint16_t k = grid.move_key(grid.index(x, y));
    if (k == 0) return false;
    if (key == 0) key = k;
    return k == key;
  };
  LegCuts cuts;
  cut_leg(a, b, s, cuts);
  const bool on_x = cuts.on_x, on_y = cuts.on_y;
  for (std::size_t k = 0; k < cuts.t.size(); ++k) {
    const double t = std::clamp(cuts.t[k], 0.0, 1.0);
    if (k > 0) {
      const double t0 = std::clamp(cuts.t[k - 1], 0.0, 1.0);
      if (t > t0) {
        const Vec2 m = a + d * (0.5 * (t0 + t));
        const int cx = int(std::floor(m.x / s)), cy = int(std::floor(m.y / s));
        if (!open(cx, cy)) return false;
        if (on_x && !open(cx - 1, cy)) return false;
        if (on_y && !open(cx, cy - 1)) return false;
      }
    }
    // A diagonal leg through a cell corner between its ends: the four cells round it.
    if (on_x || on_y || t <= 0 || t >= 1) continue;
    const Vec2 p = a + d * t;
    if (!on_line(p.x / s) || !on_line(p.y / s)) continue;
    const int kx = int(std::round(p.x / s)), ky = int(std::round(p.y / s));
    if (!open(kx - 1, ky - 1) || !open(kx, ky - 1) || !open(kx - 1, ky) || !open(kx, ky)) return false;
  }
  return true;
}

}  // namespace pathscope
