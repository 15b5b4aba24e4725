#pragma once

// The world's cost of a polyline: the terrain-weighted travel the cost model
// (planner/world/README.md) charges a unit of one class for following it.

#include <span>

#include "planner/core/types.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// Metres of terrain-weighted travel along `points` (world metres) over `grid`: each leg
/// is cut at the cell lines and every piece's length is multiplied by the multiplier of
/// the cell it lies in; a piece along a cell line lies between two cells and costs the
/// cheaper passable one. A piece in no passable cell (inside a wall, as a unit pushed
/// into one leaves it, or outside the grid) costs its length (multiplier 1).
double polyline_cost(const CostGrid& grid, std::span<const Vec2> points);

}  // namespace pathscope
