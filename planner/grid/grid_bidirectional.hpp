#pragma once

// Bidirectional A* on an 8-connected cost grid (seed 001, section 3), with a stopping
// rule that returns an optimal path, so there is no bump where the two searches meet
// (the artefact seed 001, section 5 complains of).

#include <cstdint>
#include <string>

#include "planner/core/open_list.hpp"
#include "planner/grid/grid_search_base.hpp"

namespace pathscope {

/// Bidirectional A*: a forward search from the start and a backward search from the
/// goal, each with its own open list; side 0 is forward, side 1 backward in traces and
/// views. Search memory: 24 bytes per cell for both directions (above 512 x 512 cells, in
/// pages allocated as searches first reach them), reused across queries
/// (grid_search_state.hpp).
class GridBidirectional final : public GridSearchBase<2> {
 public:
  /// `world` must outlive the planner.
  GridBidirectional(const PlanningWorld& world, std::size_t movement_class, std::string name);

  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;

 private:
  bool top_is_stale(int side) const;
  void drop_stale(int side);
  void expand(int side);
  void finish(SearchStatus status);

  OpenList open_[2];
  double best_ = 0;  // mu: cost of the best meeting found so far (cells)
  NodeId meet_ = kNoNode;
  std::uint64_t side_expansions_[2] = {0, 0};
};

}  // namespace pathscope
