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

/// Everything planners need about one scenario. The raster is built at once; a class's
/// cost grid and regions are built on first use (an editor that re-plans one query after
/// each edit pays for that class only). Not thread-safe; planners keep const references,
/// so it must outlive them, and references stay valid for its lifetime.
class PlanningWorld {
 public:
  /// Rasterises the scenario. The scenario must be valid.
  explicit PlanningWorld(Scenario scenario);

  const Scenario& scenario() const { return scenario_; }
  const TerrainRaster& raster() const { return raster_; }
  std::size_t class_count() const { return classes_.size(); }
  /// The cost grid of a class (index into Scenario::classes; asserted in range).
  const CostGrid& grid(std::size_t movement_class) const { return data(movement_class).grid; }
  /// The connected regions of a class.
  const RegionMap& regions(std::size_t movement_class) const { return data(movement_class).regions; }

 private:
  struct ClassData {
    CostGrid grid;
    RegionMap regions;
  };
  const ClassData& data(std::size_t movement_class) const;

  Scenario scenario_;
  TerrainRaster raster_;
  mutable std::vector<std::unique_ptr<ClassData>> classes_;  // built on first use
};

}  // namespace pathscope
