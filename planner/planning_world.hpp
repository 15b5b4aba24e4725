#pragma once

// A scenario made ready for planning: its raster and, per movement class, the cost grid
// and the connected regions. Built once per map edit; planners borrow from it.

#include <memory>
#include <vector>

#include "planner/cost_grid.hpp"
#include "planner/rasterize.hpp"
#include "planner/regions.hpp"
#include "planner/scenario.hpp"

namespace pathscope {

/// Everything planners need about one scenario. Immutable once built; planners keep a
/// const reference, so it must outlive them.
class PlanningWorld {
 public:
  /// Builds rasters, cost grids and regions for every class. The scenario must be valid.
  explicit PlanningWorld(Scenario scenario);

  const Scenario& scenario() const { return scenario_; }
  const TerrainRaster& raster() const { return raster_; }
  std::size_t class_count() const { return grids_.size(); }
  const CostGrid& grid(std::size_t movement_class) const { return grids_.at(movement_class); }
  const RegionMap& regions(std::size_t movement_class) const { return regions_.at(movement_class); }

 private:
  Scenario scenario_;
  TerrainRaster raster_;
  std::vector<CostGrid> grids_;
  std::vector<RegionMap> regions_;
};

}  // namespace pathscope
