#pragma once

// Where a straight leg meets the grid's cell lines: the walk the world's cost model
// (path_cost.hpp) and the strict leg test of the quadtree's shortcuts share, so that both
// see a leg cut into the same pieces.

#include <vector>

#include "planner/core/types.hpp"

namespace pathscope {

/// A leg a -> b cut at the cell lines x = k s and y = k s.
struct LegCuts {
  /// Parameters along the leg (a + (b - a) t), sorted: 0, 1 and every crossing of a cell
  /// line. Rounding may put a crossing at an end a hair outside [0, 1]: clamp before use.
  std::vector<double> t;
  /// The leg runs along a vertical cell line (x = k s exactly at a, and dx = 0): each piece
  /// lies between the cell of its midpoint and the one to its left.
  bool on_x = false;
  /// The leg runs along a horizontal cell line: between the cell of each piece's midpoint
  /// and the one above it (y - 1).
  bool on_y = false;
};

/// Cuts the leg a -> b (world metres, a != b) at the cell lines of cells `cell_size` wide
/// into `out`, reusing its memory. Between two consecutive parameters the leg lies in one
/// cell, the one holding the piece's midpoint (or on the line between two, see on_x, on_y).
void cut_leg(Vec2 a, Vec2 b, double cell_size, LegCuts& out);

}  // namespace pathscope
