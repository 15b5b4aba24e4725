#include "planner/grid/grid_dependency.hpp"

#include <utility>

namespace pathscope {

ExpandedCellsDependency::ExpandedCellsDependency(const PlanningWorld& world, std::size_t movement_class,
                                                 std::vector<std::uint64_t> bits)
    : world_(world),
      movement_class_(movement_class),
      min_multiplier_(world.grid(movement_class).min_multiplier()),
      bits_(std::move(bits)) {}

bool ExpandedCellsDependency::still_valid(const WorldChange& change) const {
  if (change.rebuilt || movement_class_ >= world_.class_count()) return false;
  if (change.cells.empty()) return true;  // threats, units and the like: no cell changed
  const CostGrid& grid = world_.grid(movement_class_);
  if (grid.min_multiplier() != min_multiplier_) return false;  // every heuristic value changed
  if (bits_.size() != (grid.cell_count() + 63) / 64) return false;
  // change.cells already holds the ring of cells whose moves changed around the edit.
  for (int y = change.cells.y0; y < change.cells.y1; ++y) {
    for (int x = change.cells.x0; x < change.cells.x1; ++x) {
      const std::uint32_t c = grid.index(x, y);
      if (bits_[c >> 6] >> (c & 63) & 1) return false;
    }
  }
  return true;
}

}  // namespace pathscope
