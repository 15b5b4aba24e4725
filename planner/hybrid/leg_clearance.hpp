#pragma once

// The cells and moves of one class's grid a unit of some radius may use: those that keep
// it the radius away from every blocked cell and from the world's edge. The hybrid's
// legs search only these, so that they keep the clearance its route keeps.

#include <cstdint>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// Clearance of a unit of radius `radius` metres on a CostGrid: a cell is clear when its
/// centre lies at least the radius from every blocked cell's closed square and from the
/// world's edge; a move is kept when both its cells are clear and the segment between
/// their centres keeps the radius all along (exact segment-to-square distances). Built
/// whole, for one version of the grid.
class LegClearance {
 public:
  /// `grid` is read while building only (the clearance keeps what it needs);
  /// `world_size` is the world's extent in metres; `radius` > 0.
  LegClearance(const CostGrid& grid, double radius, Vec2 world_size);

  double radius() const { return radius_; }
  /// One mask of legal moves per cell (bit d: direction d, as CostGrid::moves), a subset
  /// of the grid's: the moves that keep the clearance.
  const std::uint8_t* moves() const { return moves_.data(); }
  /// Whether a cell's centre keeps the clearance (and the cell is passable).
  bool clear(std::uint32_t cell) const { return clear_[cell] != 0; }
  /// Whether the segment from `a` to `b` (metres) keeps the clearance all along.
  bool clear_segment(Vec2 a, Vec2 b) const;
  /// Cells from a changed cell within which the cells and moves it may change lie.
  int reach() const { return reach_; }

 private:
  // Smallest distance from segment ab to a blocked cell's square or the world's edge;
  // squares farther than the radius beyond the segment's bounds are not looked at.
  double nearest(Vec2 a, Vec2 b) const;

  int width_ = 0, height_ = 0;  // cells
  double cell_size_ = 1;        // metres
  double radius_;
  Vec2 world_size_;
  int reach_ = 1;
  std::vector<std::uint8_t> blocked_;  // per cell: the class cannot enter it
  std::vector<std::uint8_t> clear_;    // per cell
  std::vector<std::uint8_t> moves_;    // per cell
};

}  // namespace pathscope
