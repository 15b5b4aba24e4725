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

#include <optional>
#include <vector>

#include "planner/core/cell_rect.hpp"
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

/// Rasterises the scenario at world.cell_size. The scenario must be valid.
TerrainRaster rasterize(const Scenario& scenario);

/// Recomputes the cells of `rect` (clipped to the raster) from scratch; the raster must
/// have the scenario's grid size, cell size and terrain count. rasterize() is this over
/// every cell. May renumber surface ids (TerrainRaster::compact), never cell values.
void rasterize_cells(const Scenario& scenario, CellRect rect, TerrainRaster& raster);

/// The cells whose raster can differ between two versions of a scenario: the bounding
/// box of the changed tiles and of every feature, road and bridge that was added,
/// removed or changed (empty when nothing that rasterises changed). nullopt when the
/// grid size, the cell size or the terrain table differ: everything must be rebuilt.
std::optional<CellRect> raster_changes(const Scenario& before, const Scenario& after);

}  // namespace pathscope
