#pragma once

// The raster layers of the map (terrain, cost heat map, connected regions) as images,
// kept up to date across world updates: an edit repaints only the pixels of the cells it
// changed, and each image says which pixels changed since its previous version
// (ImagePrim::base_version, ImagePrim::changed), so the window uploads only those.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/world/planning_world.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// Images of one world's rasters, one pixel per cell. Versions count up from 1 per
/// object, so one adapter should see the images of one MapImages per key.
class MapImages {
 public:
  /// Cells of the world changed (PlanningWorld::update()'s WorldChange::cells); they are
  /// repainted at the next paint().
  void invalidate(CellRect cells);
  /// Every cell changed (another world object).
  void invalidate_all();

  /// Appends the images of the raster layers in `layers` (Tiles, CostHeat, Regions) of
  /// `movement_class` (< world.class_count()), brought up to date first.
  void paint(const PlanningWorld& world, std::size_t movement_class, const LayerSet& layers, DrawList& out);

  /// Pixels repainted so far, all images together (for tests and the benchmark).
  std::uint64_t pixels_painted() const { return pixels_painted_; }

 private:
  struct Slot {
    ImagePrim image;
    CellRect dirty;  // cells to repaint; the union since the last paint
    bool valid = false;
    std::size_t movement_class = 0;
  };

  void refresh_tiles(const PlanningWorld& world);
  void refresh_heat(const PlanningWorld& world, std::size_t movement_class);
  void refresh_regions(const PlanningWorld& world, std::size_t movement_class);
  // Makes `slot` a fresh image of the grid when it has none of that size or class;
  // returns the cells to repaint (all of them then).
  CellRect prepare(Slot& slot, const char* key, int width, int height, double cell_size,
                   std::size_t movement_class);
  void commit(Slot& slot, CellRect painted);

  Slot tiles_, heat_, regions_;
  double heat_lo_ = 0, heat_hi_ = 0;   // the multipliers the heat map's colours span
  std::vector<std::uint32_t> labels_;  // the region labels the regions image shows
  std::uint64_t next_version_ = 1;
  std::uint64_t pixels_painted_ = 0;
};

}  // namespace pathscope::render
