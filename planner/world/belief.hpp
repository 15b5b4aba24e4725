#pragma once

// Fog of war (seed 003, "The solution, part 2" and "part 3"): what a faction knows of the
// world's features, bridges and tiles, and the world it plans with.
//
// Line of sight. A faction with sight > 0 sees from each of its units. Sight is decided
// on the cells of the world as it is (world.cell_size): a cell blocks sight when its
// terrain is impassable for every movement class (walls, buildings, rocks, obstacle
// features, impassable tiles) and no intact bridge deck lies over it; water, swamps,
// forests some class can cross and roads do not block. A unit sees a cell when the cell's
// centre lies within `sight` of the unit and the segment from the unit to that centre
// crosses the open square of no blocking cell other than the unit's own and the cell
// itself (a wall's face is seen, what lies behind it is not). A faction's view is the
// union of its units' seen cells.
//
// Each observation updates the memory: features meeting a seen cell (their interior
// overlaps the cell's open square) are remembered as they are now (whole, or only the
// parts in view: the feature cut by the seen cells' squares within the sight circles),
// remembered features meeting a seen cell that are gone are forgotten; out of view the
// memory stays as it was, so a destroyed building is believed until its place is seen
// again. Tiles are remembered as last seen; a tile never seen is believed terrain 0
// (plain ground: units plan optimistically through the unknown, seed 003's "plan with
// what has been seen"). Roads and containers are known to every faction.
//
// Bridges (seed 004, "Bridges": "if a faction in the game doesn't know the bridge is gone,
// the pathfinding algorithm for that faction needs to act like it was still there, and
// only react accordingly when it was discovered that it was gone"): a faction remembers
// each bridge as it last saw it, intact or destroyed. A unit sees a bridge when it sees a
// cell whose centre lies within width/2 of the deck's centre line (a cell the deck
// paints), or, for a deck narrower than a cell, the cell holding one of its ends. A
// bridge never seen is not in the faction's world; afterwards a bridge's state (or its
// removal) enters the memory only when a unit sees it.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"
#include "planner/world/terrain_raster.hpp"

namespace pathscope {

/// Where the faction's units stand (the eyes its view is seen from).
std::vector<Vec2> view_centres(const Scenario& scenario, std::size_t faction);

/// The cells of a raster (row-major) that block sight: 1 where the terrain is impassable
/// for every movement class of `scenario` and no intact bridge deck lies over the cell.
std::vector<std::uint8_t> sight_blockers(const Scenario& scenario, const TerrainRaster& raster);

/// What a faction sees in one look: one flag per cell of the world's raster (row-major,
/// world.cell_size), and the eyes and sight it was seen with.
struct FactionView {
  int width = 0;                   ///< Cells.
  int height = 0;                  ///< Cells.
  double cell_size = 1;            ///< Metres.
  double sight = 0;                ///< Metres.
  std::vector<Vec2> eyes;          ///< The units' positions (world).
  std::vector<std::uint8_t> seen;  ///< 1 where a unit sees the cell.
  /// True when the cell (x, y) is in view (false outside the grid).
  bool sees(int x, int y) const {
    return x >= 0 && y >= 0 && x < width && y < height && seen[std::size_t(y) * std::size_t(width) + x] != 0;
  }
  /// Number of cells in view.
  std::size_t count() const;
};

/// Marks in `view` the cells a unit at `eye` sees (the rule above), given the blocking
/// cells of the same grid. Visits about (sight / cell)^2 cells, each along its segment:
/// O((sight / cell)^3) per unit.
void add_line_of_sight(Vec2 eye, const std::vector<std::uint8_t>& blockers, FactionView& view);

/// The faction's view over the world as it is (blocking cells from `blockers`, see
/// sight_blockers()). Empty `seen` for a faction with sight 0.
FactionView faction_view(const Scenario& scenario, std::size_t faction,
                         const std::vector<std::uint8_t>& blockers);

/// True when the shape's interior overlaps the open square of a cell in view.
bool shape_in_view(const Shape& shape, const FactionView& view);

/// The faction's memory after one look at `scenario` through `view` (its current memory
/// is the state before). A faction with sight 0 has no fog: its memory is returned
/// unchanged. With `partial`, features are remembered as the parts seen (polygons, pieces
/// of a feature sharing its id; what was remembered of it out of view is kept): the
/// feature cut by the squares of the cells in view, within the sight circles (polygons
/// within 1/100 of the sight inside the true circles). Deterministic.
std::vector<Feature> observe(const Scenario& scenario, std::size_t faction, const FactionView& view);

/// True when a unit of the view sees the bridge (a cell its deck paints, see above).
bool bridge_in_view(const Bridge& bridge, const FactionView& view);

/// The faction's bridge memory after one look (see the rule above), in increasing id
/// order. A faction with sight 0 gets its memory back unchanged.
std::vector<Bridge> observe_bridges(const Scenario& scenario, std::size_t faction, const FactionView& view);

/// The faction's tile memory after one look: the tile grid's terrain in every cell in
/// view, the old memory elsewhere (Faction::kUnseenTile where never seen). Empty when the
/// scenario has no tile grid; a faction with sight 0 gets its memory back unchanged.
std::vector<std::uint8_t> observe_tiles(const Scenario& scenario, std::size_t faction,
                                        const FactionView& view);

/// Updates the memory of every faction with fog of war (features, bridges and tiles)
/// from one look through the world as it is (rasterised once for all factions); true
/// when one changed.
bool observe_all(Scenario& scenario);

/// The same with the raster of the world as it is (`raster` must be rasterize(scenario)
/// up to cost factors, e.g. the truth PlanningWorld's): no rasterisation here.
bool observe_all(Scenario& scenario, const TerrainRaster& raster);

/// The scenario as the faction believes it (for a faction with sight > 0): the world's
/// containers and its remembered features instead of the world's features; its
/// remembered bridges only, in increasing id order; the tile grid as remembered (terrain
/// 0 where never seen); everything else as it is.
Scenario believed_scenario(const Scenario& scenario, std::size_t faction);

/// The world a faction plans with: built from believed_scenario() on first use and kept
/// up to date with the truth's updates. Valid until the truth world is rebuilt.
const PlanningWorld& believed_world(const PlanningWorld& truth, std::size_t faction);

}  // namespace pathscope
