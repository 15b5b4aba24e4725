#pragma once

// Best-first search on an 8-connected cost grid: A*, weighted A* and Dijkstra share this
// one engine (seed 001, section 3; seed 000, "The Quadtree"), the grid's instance of
// planner/search's best-first loop.

#include <cstdint>
#include <limits>
#include <string>

#include "planner/grid/grid_search_base.hpp"
#include "planner/search/best_first_search.hpp"

namespace pathscope {

/// Parameters of GridAStar.
struct GridAStarParams {
  /// f = g + weight * h. 1 = A* (optimal); > 1 = weighted A* (cost <= weight * optimum);
  /// 0 = Dijkstra (no heuristic).
  double weight = 1.0;
};

/// A*, weighted A* or Dijkstra on one movement class's CostGrid. Nodes are cells
/// (id = row-major index). Search memory (16 bytes per cell; above 512 x 512 cells, in
/// pages allocated as searches first reach them) is reused across queries
/// (grid_search_state.hpp).
class GridAStar final : public GridSearchBase<1> {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  GridAStar(const PlanningWorld& world, std::size_t movement_class, GridAStarParams params, std::string name);

  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;

  /// Restricts the searches to these moves: one mask per cell of the class's grid (bit d:
  /// direction d), each a subset of CostGrid::moves(); borrowed, must stay valid while
  /// searches run. nullptr (the default): the grid's own moves. For planners that search
  /// the grid under a rule of their own (the hybrid's legs keep a unit's clearance).
  void set_moves(const std::uint8_t* moves) { moves_ = moves; }

 private:
  /// The grid as the best-first loop sees it (grid_astar.cpp); kUniform: every passable
  /// cell has the same multiplier.
  template <bool kUniform>
  class Model;
  /// The search loop, on Model<kUniform>.
  template <bool kUniform>
  SearchStatus run(std::uint64_t max_expansions);
  void finish(SearchStatus status);

  GridAStarParams params_;
  const std::uint8_t* moves_ = nullptr;  // set_moves(); nullptr: the grid's
  BestFirstSearch<Cell> search_;
  /// The open-list key of an f (cells): f itself, or f rounded (grid_astar.cpp).
  double key(double f) const {
    if (!rounded_keys_ || !(f < std::numeric_limits<double>::infinity())) return f;
    constexpr double kShift = 4503599627370496.0;  // 2^52: adding and taking it away rounds
    return (f * key_scale_ + kShift) - kShift;
  }

  bool rounded_keys_ = false;  // this query's keys are rounded f
  double key_scale_ = 1;       // keys per cell of f when rounded
};

}  // namespace pathscope
