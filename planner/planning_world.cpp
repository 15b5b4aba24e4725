#include "planner/planning_world.hpp"

namespace pathscope {

PlanningWorld::PlanningWorld(Scenario scenario) : scenario_(std::move(scenario)), raster_(rasterize(scenario_)) {
  grids_.reserve(scenario_.classes.size());
  regions_.reserve(scenario_.classes.size());
  for (std::size_t c = 0; c < scenario_.classes.size(); ++c) {
    grids_.push_back(build_cost_grid(scenario_, raster_, c));
    regions_.emplace_back(grids_.back());
  }
}

}  // namespace pathscope
