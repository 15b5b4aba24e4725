#pragma once

// Rasterisation: a scenario's tile grid and vector features become one terrain index
// per cell at the scenario's cell size, then a CostGrid per movement class.
//
// Coverage rule (exact; documented in the README):
// 1. Every cell starts with terrain 0, or the tile grid's terrain where it has a tile.
// 2. Features are painted in file order, later over earlier. A feature whose terrain is
//    impassable for EVERY class (an obstacle) takes every cell whose open square
//    overlaps the shape's interior with positive area, so nothing slips between a wall
//    and a cell centre. Any other feature (a nebula, a swamp) takes the cells whose
//    centre lies inside it (polygons: half-open crossing rule; circles: distance < r;
//    rects: min <= c < max).
// 3. Roads: cells whose centre is within width/2 of the polyline get the road's speed
//    factor (the largest one where roads overlap); multipliers there are divided by it.
// 4. Intact bridges: cells whose centre is within width/2 of the bridge segment become
//    passable with multiplier 1 for every class, in the default ground group.
//    Destroyed bridges change nothing.

#include <cstdint>
#include <optional>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/world/cost_grid.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// Terrain per cell plus the road and bridge overlays, at the scenario's cell size.
struct TerrainRaster {
  int width = 0;                        ///< Cells.
  int height = 0;                       ///< Cells.
  double cell_size = 1;                 ///< Metres.
  std::vector<std::uint8_t> terrain;    ///< Index into Scenario::terrains, row-major.
  std::vector<float> road_factor;       ///< 1 off roads; >= 1 on roads.
  std::vector<std::uint8_t> bridge;     ///< 1 under an intact bridge deck.
};

/// Rasterises the scenario at world.cell_size. The scenario must be valid.
TerrainRaster rasterize(const Scenario& scenario);

/// Recomputes the cells of `rect` (clipped to the raster) from scratch; the raster must
/// have the scenario's grid size and cell size. rasterize() is this over every cell.
void rasterize_cells(const Scenario& scenario, CellRect rect, TerrainRaster& raster);

/// The cells whose raster can differ between two versions of a scenario: the bounding
/// box of the changed tiles and of every feature, road and bridge that was added,
/// removed or changed (empty when nothing that rasterises changed). nullopt when the
/// grid size, the cell size or the terrain table differ: everything must be rebuilt.
std::optional<CellRect> raster_changes(const Scenario& before, const Scenario& after);

/// The cost grid of one movement class (index into Scenario::classes).
CostGrid build_cost_grid(const Scenario& scenario, const TerrainRaster& raster, std::size_t movement_class);

/// Brings the cells of `rect` of a class's cost grid up to date with the raster (after
/// rasterize_cells() over the same rect). The grid must have the raster's size.
void update_cost_grid(const Scenario& scenario, const TerrainRaster& raster, std::size_t movement_class,
                      CellRect rect, CostGrid& grid);

}  // namespace pathscope
