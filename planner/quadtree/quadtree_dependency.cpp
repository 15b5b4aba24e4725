#include "planner/quadtree/quadtree_dependency.hpp"

#include <algorithm>
#include <utility>

namespace pathscope {

QuadtreeDependency::QuadtreeDependency(const PlanningWorld& world, std::size_t movement_class,
                                       std::vector<CellRect> squares)
    : world_(world),
      movement_class_(movement_class),
      min_multiplier_(world.grid(movement_class).min_multiplier()),
      squares_(std::move(squares)) {}

bool QuadtreeDependency::still_valid(const WorldChange& change) const {
  if (change.rebuilt || movement_class_ >= world_.class_count()) return false;
  if (change.cells.empty()) return true;  // threats, units and the like: no cell changed
  if (world_.grid(movement_class_).min_multiplier() != min_multiplier_) return false;
  return std::none_of(squares_.begin(), squares_.end(),
                      [&](const CellRect& r) { return !r.intersected(change.cells).empty(); });
}

}  // namespace pathscope
