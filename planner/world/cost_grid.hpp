#pragma once

// A cost grid for one movement class: per cell, a terrain cost multiplier (or blocked)
// and the set of legal moves to its 8 neighbours.
//
// Movement rule (documented in the README): a straight move costs 1 cell, a diagonal
// sqrt(2) cells, times the MEAN of the multipliers of the two cells (half the move is
// spent in each). Costs are therefore symmetric. A diagonal move needs both orthogonal
// neighbours passable (no corner cutting). A move between cells of different terrain
// groups (land and water) is illegal unless the class is amphibious. Costs are reported
// in metres: cells times cell_size.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope {

/// The 8 move directions. Bits of CostGrid::moves() use these indices.
/// Orthogonal first (E, S, W, N), then diagonal (SE, SW, NW, NE); y grows downwards.
inline constexpr std::array<int, 8> kDirDx = {1, 0, -1, 0, 1, -1, -1, 1};
inline constexpr std::array<int, 8> kDirDy = {0, 1, 0, -1, 1, 1, -1, -1};
/// Base length of each direction, in cells.
inline constexpr double kSqrt2 = 1.4142135623730950488;
inline constexpr std::array<double, 8> kDirLength = {1, 1, 1, 1, kSqrt2, kSqrt2, kSqrt2, kSqrt2};
/// The opposite of each direction.
inline constexpr std::array<std::uint8_t, 8> kDirOpposite = {2, 3, 0, 1, 6, 7, 4, 5};

/// One movement class's view of the map as a grid of cells.
class CostGrid {
 public:
  CostGrid() = default;

  /// Builds a grid. `multiplier[i]` <= 0 or non-finite means blocked. `group[i]` is the
  /// terrain group of each cell (moves across groups need `amphibious`).
  CostGrid(int width, int height, double cell_size, std::vector<double> multiplier, std::vector<std::uint8_t> group,
           bool amphibious);

  /// Replaces the multipliers and groups of the cells of `rect` (row-major within the
  /// rect; rect inside the grid) and brings the legal moves around them up to date.
  /// Afterwards the grid equals one built from scratch with the same values.
  void update_cells(CellRect rect, std::span<const double> multiplier, std::span<const std::uint8_t> group);

  int width() const { return width_; }             ///< Cells.
  int height() const { return height_; }           ///< Cells.
  double cell_size() const { return cell_size_; }  ///< Metres per cell.
  std::size_t cell_count() const { return multiplier_.size(); }

  /// Row-major index of cell (x, y); asserts in range.
  std::uint32_t index(int x, int y) const;
  /// Cell coordinates of an index.
  glm::ivec2 cell(std::uint32_t index) const { return {int(index % unsigned(width_)), int(index / unsigned(width_))}; }
  bool in_bounds(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }

  /// Terrain multiplier of a cell; 0 when blocked.
  double multiplier(std::uint32_t index) const { return multiplier_[index]; }
  bool passable(std::uint32_t index) const { return multiplier_[index] > 0; }
  /// Bit d set: the move in direction d from this cell is legal.
  std::uint8_t moves(std::uint32_t index) const { return moves_[index]; }
  /// Signed index offset of each direction.
  const std::array<std::int64_t, 8>& offsets() const { return offsets_; }

  /// Cost in cells of the move from `index` in direction `dir` (must be legal).
  double move_cost(std::uint32_t index, int dir) const {
    return kDirLength[dir] * (0.5 * (multiplier_[index] + multiplier_[index + offsets_[dir]]));
  }

  /// Smallest multiplier of any passable cell (1 if none); scales admissible heuristics.
  double min_multiplier() const { return min_multiplier_; }

  /// World position of a cell's centre.
  Vec2 center(std::uint32_t index) const;
  /// The cell containing a world point, or nullopt outside the grid.
  std::optional<std::uint32_t> cell_at(Vec2 world) const;

 private:
  int width_ = 0;
  int height_ = 0;
  double cell_size_ = 1;
  double min_multiplier_ = 1;
  void compute_moves(CellRect rect);
  void compute_min_multiplier();

  bool amphibious_ = false;
  std::vector<double> multiplier_;
  std::vector<std::uint8_t> group_;
  std::vector<std::uint8_t> moves_;
  std::array<std::int64_t, 8> offsets_{};
};

}  // namespace pathscope
