#pragma once

// Seed 000's own construction of the quadtree ("The Quadtree"): start from one cell, add
// each region of cost in turn; where a region covers a cell entirely the cell takes its
// cost, where it misses the cell nothing changes, otherwise the cell is split in four and
// the quarters are tried, down to one grid cell (the resolution), where the grid's
// coverage rule decides (rasterize.hpp). Then cells whose four quarters are equal leaves
// are merged. Coverage of squares is decided with exact geometry: the shape's own
// polygon, disc or rectangle, and for roads and bridges the distance to their segments.
//
// The result equals Quadtree(grid), built bottom-up from the rasterised grid, leaf for
// leaf (a test checks it on random scenarios). The planner uses the bottom-up build: the
// world rasterises its grid anyway, and reading it is faster than inserting regions into
// a tree; this one is the seed's algorithm, for comparison and as a check of both.

#include <cstddef>
#include <vector>

#include "planner/quadtree/quadtree.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// What a region-insertion build did, besides its leaves.
struct RegionInsertionStats {
  std::size_t regions = 0;         ///< Regions inserted (tile runs count as one: the base layer).
  std::size_t splits = 0;          ///< Cells split in four.
  std::size_t cell_decisions = 0;  ///< Grid cells decided by the coverage rule itself.
  std::size_t merges = 0;          ///< Cells whose four equal quarters were merged.
};

/// The leaves of movement class `grid`'s quadtree of `scenario` (a valid scenario whose
/// world `grid` belongs to; `grid` only supplies the class's costs), built by inserting
/// regions top-down. Leaves in tree order: NW, NE, SW, SE, depth first.
std::vector<QuadLeaf> build_by_region_insertion(const Scenario& scenario, const CostGrid& grid,
                                                RegionInsertionStats* stats = nullptr);

}  // namespace pathscope
