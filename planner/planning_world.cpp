#include "planner/planning_world.hpp"

#include <cassert>

namespace pathscope {

PlanningWorld::PlanningWorld(Scenario scenario)
    : scenario_(std::move(scenario)), raster_(rasterize(scenario_)), classes_(scenario_.classes.size()) {}

const PlanningWorld::ClassData& PlanningWorld::data(std::size_t movement_class) const {
  assert(movement_class < classes_.size());
  std::unique_ptr<ClassData>& slot = classes_[movement_class];
  if (!slot) {
    slot = std::make_unique<ClassData>();
    slot->grid = build_cost_grid(scenario_, raster_, movement_class);
    slot->regions = RegionMap(slot->grid);
  }
  return *slot;
}

}  // namespace pathscope
