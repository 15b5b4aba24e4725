#pragma once

// Shortcuts of a finished path in the world's cost model: a point is dropped where a
// straight leg past it is open to the unit (the planner's own test) and cheaper by the
// world's cost (path_cost.hpp). For planners whose own model of cost is not the world's
// (a corridor of leaves, roads as lines): the path they return is never dearer for it.

#include <functional>
#include <span>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/core/types.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// A path after cheaper_shortcuts().
struct Shortcuts {
  std::vector<Vec2> points;     ///< The path, world metres.
  std::vector<CellRect> cells;  ///< Per shortcut taken: the cells round its leg, grown by one.
  int dropped = 0;              ///< Points dropped.
};

/// From each point in turn, the farthest of the next `window` points (at least 2 ahead)
/// that a leg `open(from, to)` accepts reaches for less than the path between them costs
/// (polyline_cost over `grid`, by more than rounding) becomes the next point; with none,
/// the next point is kept. So the result costs no more than `points`, and has its ends.
/// Deterministic; at most points x window legs costed.
Shortcuts cheaper_shortcuts(const CostGrid& grid, std::span<const Vec2> points, std::size_t window,
                            const std::function<bool(Vec2, Vec2)>& open);

}  // namespace pathscope
