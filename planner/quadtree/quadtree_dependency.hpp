#pragma once

// What a finished quadtree search depends on: the squares of the tree it read and the
// heuristic's scale.

#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// The ResultDependency of the quadtree planner. A search reads the leaves it touched
/// (their squares, costs and links) and the grid's smallest multiplier. A change of cells
/// outside a leaf's parent square cannot merge or split the leaf (a merge needs its
/// three siblings to change), and one outside the ring of cells around that square
/// cannot change its links; so the answer holds while the changed cells miss every such
/// square. Borrows the world, which must outlive it.
class QuadtreeDependency final : public ResultDependency {
 public:
  /// `squares`: cells of each touched leaf's parent square, grown by one cell.
  QuadtreeDependency(const PlanningWorld& world, std::size_t movement_class, std::vector<CellRect> squares);

  bool still_valid(const WorldChange& change) const override;

  const std::vector<CellRect>& squares() const { return squares_; }

 private:
  const PlanningWorld& world_;
  std::size_t movement_class_;
  double min_multiplier_;
  std::vector<CellRect> squares_;
};

}  // namespace pathscope
