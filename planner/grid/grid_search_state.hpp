#pragma once

// Per-cell search state of the grid planners: 16 bytes a cell one-sided, 24 two-sided,
// the parent kept as the direction of the move into the cell. Paged and reused across
// queries by the shared PagedNodeState (planner/search/paged_node_state.hpp).

#include <cstdint>
#include <limits>

#include "planner/core/search.hpp"
#include "planner/search/paged_node_state.hpp"

namespace pathscope {

/// The state of one cell for a search with `kSides` directions (1: forward only; 2:
/// bidirectional, side 0 forward, side 1 backward).
template <int kSides>
struct GridCellState {
  static constexpr std::uint8_t kNoDir = 8;  ///< No parent (a root, or not reached on that side).
  double g[kSides];                          ///< Cost from the side's root, cells; infinity when not reached.
  std::uint32_t generation;                  ///< The search that wrote this state.
  std::uint8_t parent_dir[kSides];  ///< Per side: the move from the parent into this cell; kNoDir = none.
  std::uint8_t closed;              ///< Bit s: closed on side s.

  /// The state of a cell the search `generation` has just reached.
  static GridCellState fresh(std::uint32_t generation) {
    GridCellState s;
    for (int side = 0; side < kSides; ++side) {
      s.g[side] = std::numeric_limits<double>::infinity();
      s.parent_dir[side] = kNoDir;
    }
    s.generation = generation;
    s.closed = 0;
    return s;
  }
};
static_assert(sizeof(GridCellState<1>) == 16);
static_assert(sizeof(GridCellState<2>) == 24);

/// The per-cell states of one grid planner: kSides directions, paged, generation-stamped.
template <int kSides>
using GridSearchState = PagedNodeState<GridCellState<kSides>>;

}  // namespace pathscope
