#include "planner/hybrid/hybrid_dependency.hpp"

#include <utility>

namespace pathscope {

HybridDependency::HybridDependency(std::shared_ptr<const ResultDependency> route,
                                   std::vector<std::shared_ptr<const ResultDependency>> legs,
                                   std::vector<CellRect> corner_squares)
    : route_(std::move(route)), legs_(std::move(legs)), corner_squares_(std::move(corner_squares)) {}

bool HybridDependency::still_valid(const WorldChange& change) const {
  if (change.rebuilt) return false;
  for (const CellRect& square : corner_squares_) {
    if (!square.intersected(change.cells).empty()) return false;
  }
  if (!route_->still_valid(change)) return false;
  for (const std::shared_ptr<const ResultDependency>& leg : legs_) {
    if (!leg->still_valid(change)) return false;
  }
  return true;
}

}  // namespace pathscope
