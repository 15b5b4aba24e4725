#pragma once

// What a finished hybrid search depends on: its route's, each leg's, and the cells its
// corners were snapped from.

#include <memory>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/core/search.hpp"

namespace pathscope {

/// The ResultDependency of the hybrid planner. Its answer is the route's visibility-graph
/// search (the corners), each corner snapped to the nearest passable cell within
/// `snap_cells` (reading the square of cells around the corner), and one grid A* per leg
/// (reading the cells it expanded). It holds while all of those would read the same: the
/// route's own dependency (obstacles near the route), every leg's (their expanded cells;
/// with a radius, grown by the clearance's reach, as a cell changes the clearance of the
/// cells that far round it) and no changed cell in a corner's square.
class HybridDependency final : public ResultDependency {
 public:
  /// Shares the parts with the planner, which hands out one of these per call.
  HybridDependency(std::shared_ptr<const ResultDependency> route,
                   std::vector<std::shared_ptr<const ResultDependency>> legs,
                   std::vector<CellRect> corner_squares, int clearance_reach = 0, CellRect grid_cells = {});

  bool still_valid(const WorldChange& change) const override;

 private:
  std::shared_ptr<const ResultDependency> route_;
  std::vector<std::shared_ptr<const ResultDependency>> legs_;
  std::vector<CellRect> corner_squares_;
  int clearance_reach_ = 0;  // legs keeping a radius read cells this far round those they expanded
  CellRect grid_cells_;      // the grid's cells, which a grown change is clipped to
};

}  // namespace pathscope
