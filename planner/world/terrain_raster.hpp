#pragma once

// What rasterisation puts in each cell, stored compactly: every cell holds a 16-bit
// surface id, and a small table says what each id stands for (a terrain, the road speed
// factor over it, whether a bridge deck covers it, the cost overlay's factor on it). A map has a handful of
// distinct surfaces, so a cell costs 2 bytes however many terrains, roads and classes there are; each
// movement class turns the table into its own multipliers (cost_grid.hpp).

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "planner/core/cell_rect.hpp"

namespace pathscope {

/// One combination of terrain, road and bridge that some cells share.
struct Surface {
  std::uint8_t terrain = 0;  ///< Index into Scenario::terrains.
  bool bridge = false;       ///< Under an intact bridge deck.
  float road_factor = 1.0f;  ///< 1 off roads; >= 1 on roads (costs are divided by it).
  /// Extra planning cost the world's cost overlay puts on the cell (>= 1; costs are
  /// multiplied by it). Not the ground's: movement speed ignores it.
  float cost_factor = 1.0f;

  friend auto operator<=>(const Surface&, const Surface&) = default;
};

/// Id of a Surface in a TerrainRaster's table.
using SurfaceId = std::uint16_t;

/// Surface per cell plus the table of surfaces, at the scenario's cell size. Ids below
/// terrain_count() are the plain terrains (id == terrain index, no road, no bridge);
/// other ids are made as rasterisation meets new combinations, so two rasters of the same
/// scenario hold the same surfaces but not necessarily the same ids: compare cells
/// through surface_at(), terrain(), road_factor() and bridge().
class TerrainRaster {
 public:
  /// Most surfaces a raster holds at once (ids are 16 bits).
  static constexpr std::size_t kMaxSurfaces = 65536;

  TerrainRaster() = default;
  /// A raster of `width` x `height` cells of `cell_size` metres, every cell plain terrain
  /// 0, with `terrain_count` plain-terrain surfaces (1..256).
  TerrainRaster(int width, int height, double cell_size, std::size_t terrain_count);

  int width = 0;         ///< Cells.
  int height = 0;        ///< Cells.
  double cell_size = 1;  ///< Metres.

  std::size_t cell_count() const { return ids_.size(); }
  /// Surface id of a cell (row-major index).
  SurfaceId surface_id(std::size_t cell) const { return ids_[cell]; }
  /// Every cell's surface id, row-major; the span stays valid for the raster's lifetime.
  std::span<const SurfaceId> surface_ids() const { return ids_; }
  /// What an id stands for (id < surface_count()).
  const Surface& surface(SurfaceId id) const { return table_[id]; }
  /// What a cell holds.
  const Surface& surface_at(std::size_t cell) const { return table_[ids_[cell]]; }
  /// Index into Scenario::terrains of a cell's terrain.
  std::uint8_t terrain(std::size_t cell) const { return surface_at(cell).terrain; }
  /// Road speed factor of a cell (1 off roads).
  float road_factor(std::size_t cell) const { return surface_at(cell).road_factor; }
  /// True under an intact bridge deck.
  bool bridge(std::size_t cell) const { return surface_at(cell).bridge; }

  /// Ids in the table (some may be held by no cell after updates).
  std::size_t surface_count() const { return table_.size(); }
  /// Number of plain-terrain ids (the scenario's terrain count).
  std::size_t terrain_count() const { return terrain_count_; }
  /// Cells holding an id.
  std::uint32_t cells_with(SurfaceId id) const { return cells_with_[id]; }

  /// Writable surface ids of the cells of `rect` (inside the raster), for rasterisation:
  /// call begin_cells(rect), write ids of cells in `rect` only, then end_cells(rect), which
  /// counts them again; outside that bracket the counts are exact.
  void begin_cells(CellRect rect);
  void end_cells(CellRect rect);
  SurfaceId* cells() { return ids_.data(); }
  /// The ids of the cells of `rect` (inside the raster), row by row, for restore_cells().
  std::vector<SurfaceId> copy_cells(CellRect rect) const;
  /// Writes back ids that copy_cells(rect) returned, between begin_cells(rect) and
  /// end_cells(rect), with no compact() since the copy (an update that failed half-way).
  void restore_cells(CellRect rect, std::span<const SurfaceId> saved);

  /// The id of `s`, added to the table if new; nullopt when it is new and the table
  /// already holds kMaxSurfaces ids (the caller reports it: rasterize_cells()).
  std::optional<SurfaceId> intern(const Surface& s);
  /// Drops ids no cell holds and renumbers the others (plain terrains keep theirs), when
  /// the table has grown past `above` ids. Not between begin_cells() and end_cells().
  /// Returns true if ids changed.
  bool compact(std::size_t above);

 private:
  void count_cells(CellRect rect, int sign);

  std::vector<SurfaceId> ids_;             // per cell, row-major
  std::vector<Surface> table_;             // id -> surface
  std::map<Surface, SurfaceId> index_;     // surface -> id (lookup only)
  std::vector<std::uint32_t> cells_with_;  // id -> cells holding it
  std::size_t terrain_count_ = 0;
};

}  // namespace pathscope
