#pragma once

// A rectangle of grid cells: the unit of incremental updates (which cells of the raster,
// the cost grids and the terrain picture an edit touched).

#include <algorithm>

namespace pathscope {

/// Cells [x0, x1) x [y0, y1), in cell coordinates. Empty when x0 >= x1 or y0 >= y1.
struct CellRect {
  int x0 = 0;
  int y0 = 0;
  int x1 = 0;
  int y1 = 0;

  bool empty() const { return x0 >= x1 || y0 >= y1; }
  int width() const { return empty() ? 0 : x1 - x0; }
  int height() const { return empty() ? 0 : y1 - y0; }
  bool contains(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }

  /// The smallest rectangle holding both (an empty one adds nothing).
  CellRect united(const CellRect& o) const {
    if (o.empty()) return *this;
    if (empty()) return o;
    return {std::min(x0, o.x0), std::min(y0, o.y0), std::max(x1, o.x1), std::max(y1, o.y1)};
  }
  /// The cells in both (empty when they do not meet).
  CellRect intersected(const CellRect& o) const {
    const CellRect r{std::max(x0, o.x0), std::max(y0, o.y0), std::min(x1, o.x1), std::min(y1, o.y1)};
    return r.empty() ? CellRect{} : r;
  }
  /// Grown by `n` cells on every side (empty stays empty).
  CellRect expanded(int n) const { return empty() ? *this : CellRect{x0 - n, y0 - n, x1 + n, y1 + n}; }

  friend bool operator==(const CellRect&, const CellRect&) = default;
};

}  // namespace pathscope
