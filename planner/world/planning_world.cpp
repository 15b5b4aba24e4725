#include "planner/world/planning_world.hpp"

#include <cassert>

#include "planner/world/world_diff.hpp"

namespace pathscope {

PlanningWorld::PlanningWorld(Scenario scenario)
    : scenario_(std::move(scenario)), raster_(rasterize(scenario_)), classes_(scenario_.classes.size()) {}

const PlanningWorld::ClassData& PlanningWorld::data(std::size_t movement_class) const {
  assert(movement_class < classes_.size());
  std::unique_ptr<ClassData>& slot = classes_[movement_class];
  if (!slot) {
    slot = std::make_unique<ClassData>();
    slot->grid = CostGrid(scenario_, raster_, movement_class);
    slot->regions_stale = true;  // labelled at the first regions() call
  }
  return *slot;
}

const RegionMap& PlanningWorld::regions(std::size_t movement_class) const {
  const ClassData& d = data(movement_class);
  if (d.regions_stale) {
    ClassData& m = *classes_[movement_class];
    m.regions = RegionMap();  // the old labels go first: they would double the peak
    m.regions = RegionMap(m.grid);
    m.regions_stale = false;
  }
  return d.regions;
}

WorldChange PlanningWorld::update(Scenario next) {
  WorldChange change;
  const std::optional<CellRect> cells =
      scenario_.classes == next.classes ? raster_changes(scenario_, next) : std::nullopt;
  if (!cells) {
    // A different grid, terrain table or class list: build everything again.
    scenario_ = std::move(next);
    raster_ = rasterize(scenario_);
    classes_.clear();
    classes_.resize(scenario_.classes.size());
    derived_.clear();
    change.rebuilt = true;
    change.cells = CellRect{0, 0, raster_.width, raster_.height};
    change.area = Box2{{0, 0}, {scenario_.world.width, scenario_.world.height}};
    ++revision_;
    return change;
  }
  change.items = diff_items(scenario_, next, change.area);
  scenario_ = std::move(next);
  if (!cells->empty()) {
    rasterize_cells(scenario_, *cells, raster_);
    for (std::size_t c = 0; c < classes_.size(); ++c) {
      if (!classes_[c]) continue;
      classes_[c]->grid.update_cells(*cells);
      classes_[c]->regions_stale = true;
    }
    // Moves also change one cell around the re-rasterised ones.
    change.cells = cells->expanded(1).intersected(CellRect{0, 0, raster_.width, raster_.height});
    const double s = raster_.cell_size;
    change.area = change.area.united(Box2{{change.cells.x0 * s, change.cells.y0 * s}, {change.cells.x1 * s, change.cells.y1 * s}});
  }
  if (change.none()) return change;
  for (auto it = derived_.begin(); it != derived_.end();) {
    it = it->second->update(*this, change) ? std::next(it) : derived_.erase(it);
  }
  ++revision_;
  return change;
}

}  // namespace pathscope
