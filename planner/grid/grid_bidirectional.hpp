#pragma once

// Bidirectional A* on an 8-connected cost grid (seed 001, section 3), with a stopping
// rule that returns an optimal path, so there is no bump where the two searches meet
// (the artefact seed 001, section 5 complains of): the grid's instance of planner/search's
// bidirectional loop.

#include <cstdint>
#include <string>

#include "planner/grid/grid_search_base.hpp"
#include "planner/search/bidirectional_search.hpp"

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
  /// The grid as the bidirectional loop sees it (grid_bidirectional.cpp).
  class Model;
  void finish(SearchStatus status);

  BidirectionalSearch<Cell> search_;  // mu and the meeting node in cells
};

}  // namespace pathscope
