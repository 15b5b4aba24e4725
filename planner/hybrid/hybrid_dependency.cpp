#include "planner/hybrid/hybrid_dependency.hpp"

#include <utility>

namespace pathscope {

HybridDependency::HybridDependency(std::shared_ptr<const ResultDependency> route,
                                   std::vector<std::shared_ptr<const ResultDependency>> legs,
                                   std::vector<CellRect> corner_squares, int clearance_reach,
                                   CellRect grid_cells)
    : route_(std::move(route)),
      legs_(std::move(legs)),
      corner_squares_(std::move(corner_squares)),
      clearance_reach_(clearance_reach),
      grid_cells_(grid_cells) {}

bool HybridDependency::still_valid(const WorldChange& change) const {
  if (change.rebuilt) return false;
  for (const CellRect& square : corner_squares_) {
    if (!square.intersected(change.cells).empty()) return false;
  }
  if (!route_->still_valid(change)) return false;
  // A changed cell changes which moves keep the radius up to the reach round it: the legs
  // are asked about that larger change.
  WorldChange grown = change;
  if (clearance_reach_ > 0) grown.cells = change.cells.expanded(clearance_reach_).intersected(grid_cells_);
  for (const std::shared_ptr<const ResultDependency>& leg : legs_) {
    if (!leg->still_valid(grown)) return false;
  }
  return true;
}

}  // namespace pathscope
