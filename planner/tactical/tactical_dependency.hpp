#pragma once

// What a finished tactical search depends on: every threat and ally (the cost of every
// move and every heuristic value reads them), the cells it expanded, the grid's smallest
// multiplier, and with occlusion the obstacles under each threat.

#include <cstdint>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::tactical {

/// The ResultDependency of the tactical planner. Borrows the world, which must outlive it.
class TacticalDependency final : public ResultDependency {
 public:
  /// `bits`: bit c of word c / 64 set for each expanded cell of `movement_class`'s grid.
  /// `occlusion`: the model hides threats behind obstacles.
  TacticalDependency(const PlanningWorld& world, std::size_t movement_class, std::vector<std::uint64_t> bits,
                     bool occlusion);

  /// False when the world was rebuilt, any threat or ally was added, moved, resized or
  /// removed, the smallest multiplier changed, the changed cells hold an expanded cell,
  /// or (with occlusion) they lie under a threat.
  bool still_valid(const WorldChange& change) const override;

 private:
  const PlanningWorld& world_;
  std::size_t movement_class_;
  double min_multiplier_;
  std::vector<std::uint64_t> bits_;
  bool occlusion_;
};

}  // namespace pathscope::tactical
