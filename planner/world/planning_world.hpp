#pragma once

// A scenario made ready for planning: its raster and, per movement class, the cost grid
// and the connected regions. Built once, then brought up to date edit by edit: update()
// re-rasterises only the cells an edit can change. Planners borrow from it.

#include <memory>
#include <vector>

#include "planner/world/cost_grid.hpp"
#include "planner/world/rasterize.hpp"
#include "planner/world/regions.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// What PlanningWorld::update() changed.
struct WorldChange {
  /// The grid size, the terrain table or the movement classes changed: the world was
  /// built again, and planners borrowing it must be created again.
  bool rebuilt = false;
  /// Cells whose terrain, cost or moves may differ (every cell when rebuilt).
  CellRect cells;
  /// Nothing a planner reads changed (queries, names, threats and the like may have).
  bool none() const { return !rebuilt && cells.empty(); }
};

/// Everything planners need about one scenario. The raster is built at once; a class's
/// cost grid and regions are built on first use (an editor that re-plans one query after
/// each edit pays for that class only). Not thread-safe; planners keep const references,
/// so it must outlive them, and references stay valid for its lifetime.
class PlanningWorld {
 public:
  /// Rasterises the scenario. The scenario must be valid.
  explicit PlanningWorld(Scenario scenario);

  /// Takes the next version of the scenario (valid) and updates what depends on it:
  /// the raster and the built cost grids in the changed cells only, the regions of built
  /// classes at their next use. The result equals a world built from `next` from scratch.
  /// Unless the result says `rebuilt`, references handed out before stay valid and
  /// planners may keep them (they must read grid values again at their next start()).
  WorldChange update(Scenario next);

  /// Increases with every update() that changed something a planner reads.
  std::uint64_t revision() const { return revision_; }

  const Scenario& scenario() const { return scenario_; }
  const TerrainRaster& raster() const { return raster_; }
  std::size_t class_count() const { return classes_.size(); }
  /// The cost grid of a class (index into Scenario::classes; asserted in range).
  const CostGrid& grid(std::size_t movement_class) const { return data(movement_class).grid; }
  /// The connected regions of a class.
  const RegionMap& regions(std::size_t movement_class) const;

 private:
  struct ClassData {
    CostGrid grid;
    RegionMap regions;
    bool regions_stale = false;  // labelled again at the next regions() call
  };
  const ClassData& data(std::size_t movement_class) const;

  Scenario scenario_;
  TerrainRaster raster_;
  mutable std::vector<std::unique_ptr<ClassData>> classes_;  // built on first use
  std::uint64_t revision_ = 0;
};

}  // namespace pathscope
