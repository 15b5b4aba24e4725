#pragma once

// What a finished grid search depends on: the cells it expanded and the scale of its
// heuristic. A grid search reads the grid only through the moves and multipliers of
// the cells it expands, their neighbours' multipliers and the grid's min_multiplier()
// (which scales the heuristic), so a change that touches none of those would replay it
// exactly and its answer holds.

#include <cstdint>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// The ResultDependency of the grid planners. Borrows the world, which must outlive it.
class ExpandedCellsDependency final : public ResultDependency {
 public:
  /// `bits`: bit c of word c / 64 set for each expanded cell of `movement_class`'s grid.
  ExpandedCellsDependency(const PlanningWorld& world, std::size_t movement_class,
                          std::vector<std::uint64_t> bits);

  /// False when the world was rebuilt, the smallest multiplier changed, or the changed
  /// cells (which include the ring whose moves changed) hold an expanded cell.
  bool still_valid(const WorldChange& change) const override;

  /// The expanded cells, one bit per cell.
  const std::vector<std::uint64_t>& bits() const { return bits_; }

 private:
  const PlanningWorld& world_;
  std::size_t movement_class_;
  double min_multiplier_;            // the grid's smallest multiplier when taken
  std::vector<std::uint64_t> bits_;  // bit c of word c / 64: cell c was expanded
};

}  // namespace pathscope
