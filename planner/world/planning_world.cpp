#include "planner/world/planning_world.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

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

Result<WorldChange> PlanningWorld::update(Scenario next) {
  WorldChange change;
  const std::optional<CellRect> cells =
      scenario_.classes == next.classes ? raster_changes(scenario_, next) : std::nullopt;
  if (!cells) {
    // A different grid, terrain table or class list: build everything again. The new
    // raster is made aside, so that an overlay over the surface limit changes nothing.
    TerrainRaster raster = rasterize(next);
    const bool keep_overlay = overlay_.size() == raster.cell_count();
    if (keep_overlay) {
      const Status s = apply_cost_overlay(raster, CellRect{0, 0, raster.width, raster.height}, overlay_);
      if (!s) return s.error();
    }
    scenario_ = std::move(next);
    raster_ = std::move(raster);
    classes_.clear();
    classes_.resize(scenario_.classes.size());
    derived_.clear();
    if (!keep_overlay) overlay_.clear();
    change.rebuilt = true;
    change.cells = CellRect{0, 0, raster_.width, raster_.height};
    change.area = Box2{{0, 0}, {scenario_.world.width, scenario_.world.height}};
    ++revision_;
    return change;
  }
  // Cells first: on a Limit error neither the raster nor the scenario has changed.
  if (!cells->empty()) {
    if (const Status s = rasterize_cells(next, *cells, raster_, overlay_); !s) return s.error();
  }
  change.items = diff_items(scenario_, next, change.area);
  scenario_ = std::move(next);
  if (!cells->empty()) {
    for (std::size_t c = 0; c < classes_.size(); ++c) {
      if (!classes_[c]) continue;
      classes_[c]->grid.update_cells(*cells);
      classes_[c]->regions_stale = true;
    }
    // Moves also change one cell around the re-rasterised ones.
    change.cells = cells->expanded(1).intersected(CellRect{0, 0, raster_.width, raster_.height});
    const double s = raster_.cell_size;
    change.area = change.area.united(
        Box2{{change.cells.x0 * s, change.cells.y0 * s}, {change.cells.x1 * s, change.cells.y1 * s}});
  }
  if (change.none()) return change;
  changed(change);
  return change;
}

void PlanningWorld::changed(WorldChange& change) {
  ++revision_;  // first: a structure updating reads the revision it is now current at
  for (auto it = derived_.begin(); it != derived_.end();) {
    it = it->second->update(*this, change) ? std::next(it) : derived_.erase(it);
  }
}

Result<WorldChange> PlanningWorld::set_cost_overlay(std::vector<float> factors) {
  assert(factors.empty() || factors.size() == raster_.cell_count());
  WorldChange change;
  // The cells whose factor changes (a missing overlay is all 1s).
  CellRect rect;
  const int w = raster_.width;
  for (int y = 0; y < raster_.height; ++y) {
    const std::size_t row = std::size_t(y) * std::size_t(w);
    int x0 = w;
    int x1 = -1;
    for (int x = 0; x < w; ++x) {
      const float before = overlay_.empty() ? 1.0f : overlay_[row + std::size_t(x)];
      const float after = factors.empty() ? 1.0f : factors[row + std::size_t(x)];
      assert(after >= 1.0f && std::isfinite(after));
      if (before == after) continue;
      x0 = std::min(x0, x);
      x1 = x;
    }
    if (x1 >= 0) rect = rect.united(CellRect{x0, y, x1 + 1, y + 1});
  }
  // All 1s: no overlay at all.
  if (std::all_of(factors.begin(), factors.end(), [](float f) { return f == 1.0f; })) factors.clear();
  if (rect.empty()) {
    overlay_ = std::move(factors);
    return change;
  }
  // Cells that lose their factor go back to 1.
  std::vector<float> next =
      factors.empty() ? std::vector<float>(raster_.cell_count(), 1.0f) : std::move(factors);
  if (const Status s = apply_cost_overlay(raster_, rect, next); !s) return s.error();
  overlay_ = std::move(next);
  if (std::all_of(overlay_.begin(), overlay_.end(), [](float f) { return f == 1.0f; })) overlay_.clear();
  // Passability and move keys do not change, so neither do moves or regions; the grids
  // read the new surface ids' multipliers.
  for (std::size_t c = 0; c < classes_.size(); ++c) {
    if (classes_[c]) classes_[c]->grid.update_cells(rect);
  }
  change.cells = rect.expanded(1).intersected(CellRect{0, 0, raster_.width, raster_.height});
  const double s = raster_.cell_size;
  change.area = Box2{{change.cells.x0 * s, change.cells.y0 * s}, {change.cells.x1 * s, change.cells.y1 * s}};
  changed(change);
  return change;
}

}  // namespace pathscope
