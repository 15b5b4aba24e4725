#pragma once

// Rasterisation: a scenario's tile grid and vector features become one surface (terrain,
// road factor, bridge) per cell at the scenario's cell size; each movement class then
// reads it through its CostGrid.
//
// Coverage rule (exact; documented in the README):
// 1. Every cell starts with terrain 0, or the tile grid's terrain where it has a tile.
// 2. Features are painted in file order, later over earlier. A feature whose terrain is
//    impassable for EVERY class (an obstacle) takes every cell whose open square
//    overlaps the shape's interior with positive area, so nothing slips between a wall
//    and a cell centre. Any other feature (a nebula, a swamp) takes the cells whose
//    centre lies inside it (polygons: half-open crossing rule; circles: distance < r;
//    rects: min <= c < max).
//    Containers (seed 004) come first, after the tiles: when the scenario has features
//    marked `container`, every cell outside all of them takes their terrain. The rule is
//    that terrain's: for an obstacle terrain a cell is outside unless its closed square
//    lies inside the union of the (closed) containers, so containers that touch or
//    overlap leave the cells across their seams walkable, as the visibility graph's
//    union does (box_coverage.hpp; circles are exact discs here, the graph rounds them
//    inwards by at most its max_error plus 1/1024 m); otherwise, unless its centre lies
//    inside one (as above, which is the same as inside their union).
// 3. Roads: cells whose centre is within width/2 of the polyline get the road's speed
//    factor (the largest one where roads overlap); multipliers there are divided by it.
// 4. Intact bridges: cells whose centre is within width/2 of the bridge segment become
//    passable with multiplier 1 for every class, in the default ground group.
//    Destroyed bridges change nothing.
//
// Limit: a raster holds at most TerrainRaster::kMaxSurfaces distinct surfaces (terrain,
// road factor, bridge, cost factor). A valid scenario needs at most 64 terrains x 256
// road factors (255 and none) x 2 (deck or not) = 32,768 of them (the validator's limits,
// checked at compile time in rasterize.cpp), so a scenario alone always fits; a cost
// overlay multiplies them by its distinct factors, and an overlay that would need more
// surfaces is a Limit error ("cost overlay") that leaves the raster as it was.

#include <optional>
#include <span>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/box_coverage.hpp"
#include "planner/world/terrain_raster.hpp"

namespace pathscope {

/// The containers of a scenario and the predicate the rasteriser paints them with.
class Containers {
 public:
  explicit Containers(const Scenario& scenario);
  bool empty() const { return shapes_.empty(); }
  /// The terrain outside them.
  std::size_t terrain() const { return terrain_; }
  /// True when cell [lo, hi] (its closed square, centre c) lies outside the containers:
  /// for an obstacle terrain, the square is not inside their union; else c is in none.
  bool outside(Vec2 lo, Vec2 hi, Vec2 c) const;
  const std::vector<const Shape*>& shapes() const { return shapes_; }
  /// That terrain blocks every class: the obstacle rule applies.
  bool obstacle() const { return obstacle_; }

 private:
  std::vector<const Shape*> shapes_;
  ShapeUnion union_;  // the shapes, for the obstacle rule
  std::size_t terrain_ = 0;
  bool obstacle_ = false;
};

/// Rasterises the scenario at world.cell_size. The scenario must be valid (it then fits
/// the surface table: see the header comment).
TerrainRaster rasterize(const Scenario& scenario);

/// Recomputes the cells of `rect` (clipped to the raster) from scratch; the raster must
/// have the scenario's grid size, cell size and terrain count. `cost_factors` is the cost
/// overlay the raster carries, put on the cells as in apply_cost_overlay() (or empty:
/// none, factor 1). rasterize()
/// is this over every cell with no overlay. May renumber surface ids
/// (TerrainRaster::compact), never cell values. The Limit error ("cost overlay") only
/// with an overlay; then no cell value has changed.
Status rasterize_cells(const Scenario& scenario, CellRect rect, TerrainRaster& raster,
                       std::span<const float> cost_factors = {});

/// Sets the cost factor of the cells of `rect` (inside the raster) to `cost_factors`
/// (per cell, row-major over the raster, each >= 1; empty: all 1). May renumber surface
/// ids; on a Limit error ("cost overlay") no cell value has changed.
Status apply_cost_overlay(TerrainRaster& raster, CellRect rect, std::span<const float> cost_factors);

/// The cells whose raster can differ between two versions of a scenario: the bounding
/// box of the changed tiles and of every feature, road and bridge that was added,
/// removed or changed (empty when nothing that rasterises changed). nullopt when the
/// grid size, the cell size or the terrain table differ: everything must be rebuilt.
std::optional<CellRect> raster_changes(const Scenario& before, const Scenario& after);

}  // namespace pathscope
