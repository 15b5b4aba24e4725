#pragma once

// A cost grid for one movement class: per cell, a terrain cost multiplier (or blocked)
// and the set of legal moves to its 8 neighbours. The multiplier includes the world's
// cost overlay (planning_world.hpp), which every planner reading the grid thus avoids;
// ground_multiplier() leaves it out.
//
// Storage: the grid keeps one byte per cell (the legal moves) and reads multipliers
// through the world's raster: the cell's surface id indexes this class's small table of
// multipliers per surface. One class over a 4096 x 4096 map costs 16 MB, not 170.
//
// Movement rule (documented in the README): a straight move costs 1 cell, a diagonal
// sqrt(2) cells, times the MEAN of the multipliers of the two cells (half the move is
// spent in each). Costs are therefore symmetric. A diagonal move needs both orthogonal
// neighbours passable (no corner cutting). A move between cells of different terrain
// groups (land and water) is illegal unless the class is amphibious. A class that flies
// (rotary) reads multiplier 1 for every terrain and crosses every group (terrain_cost(),
// crosses_groups()): only the world's edge and the cost overlay hold it. Costs are reported
// in metres: cells times cell_size.

#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/terrain_raster.hpp"

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

  /// Builds the grid of `movement_class` (index into Scenario::classes) over `raster`,
  /// the scenario's raster. The raster is borrowed: it must outlive the grid and keep
  /// its size; after it changes, update_cells() brings the grid up to date.
  CostGrid(const Scenario& scenario, const TerrainRaster& raster, std::size_t movement_class);

  /// After rasterize_cells() changed the cells of `rect` (clipped to the grid), brings the
  /// multipliers and the legal moves around them up to date. Afterwards the grid equals
  /// one built from scratch over the same raster.
  void update_cells(CellRect rect);

  int width() const { return width_; }             ///< Cells.
  int height() const { return height_; }           ///< Cells.
  double cell_size() const { return cell_size_; }  ///< Metres per cell.
  std::size_t cell_count() const { return moves_.size(); }

  /// Row-major index of cell (x, y); asserts in range.
  std::uint32_t index(int x, int y) const {
    assert(in_bounds(x, y));
    return std::uint32_t(y) * std::uint32_t(width_) + std::uint32_t(x);
  }
  /// Cell coordinates of an index.
  glm::ivec2 cell(std::uint32_t index) const {
    return {int(index % unsigned(width_)), int(index / unsigned(width_))};
  }
  bool in_bounds(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }

  /// Terrain multiplier of a cell; 0 when blocked.
  double multiplier(std::uint32_t index) const { return surface_multiplier_[ids_[index]]; }
  bool passable(std::uint32_t index) const { return multiplier(index) > 0; }
  /// The multiplier of a cell's ground, without the world's cost overlay (a cost for
  /// planning only): what speed on it follows from. 0 when blocked.
  double ground_multiplier(std::uint32_t index) const { return surface_ground_[ids_[index]]; }
  /// Movement key of a cell: 0 when blocked; two passable cells with the same key may be
  /// joined by a move (the same terrain group, or any two for an amphibious class).
  std::uint16_t move_key(std::uint32_t index) const { return surface_key_[ids_[index]]; }
  /// Bit d set: the move in direction d from this cell is legal.
  std::uint8_t moves(std::uint32_t index) const { return moves_[index]; }
  /// Signed index offset of each direction.
  const std::array<std::int64_t, 8>& offsets() const { return offsets_; }

  /// Cost in cells of the move from `index` in direction `dir` (must be legal).
  double move_cost(std::uint32_t index, int dir) const {
    return kDirLength[dir] * (0.5 * (multiplier(index) + multiplier(std::uint32_t(index + offsets_[dir]))));
  }

  /// Multiplier (0 = blocked) and move key this class gives any surface, whether or not a
  /// cell holds it: what multiplier() and move_key() read for cells.
  std::pair<double, std::uint16_t> cost_of(const Surface& surface) const;

  /// Smallest multiplier of any passable cell (1 if none); scales admissible heuristics.
  double min_multiplier() const { return min_multiplier_; }
  /// Largest multiplier of any passable cell (1 if none).
  double max_multiplier() const { return max_multiplier_; }
  /// Every passable cell has the same multiplier: every legal move costs its length
  /// times min_multiplier().
  bool uniform_cost() const { return min_multiplier_ == max_multiplier_; }

  /// World position of a cell's centre.
  Vec2 center(std::uint32_t index) const;
  /// The cell containing a world point, or nullopt outside the grid.
  std::optional<std::uint32_t> cell_at(Vec2 world) const {
    if (!std::isfinite(world.x) || !std::isfinite(world.y)) return std::nullopt;
    const double fx = world.x / cell_size_;
    const double fy = world.y / cell_size_;
    // In the grid both are >= 0, where truncating is flooring (and far cheaper).
    if (fx < 0 || fy < 0 || fx >= width_ || fy >= height_) return std::nullopt;
    return index(int(fx), int(fy));
  }

  /// The arrays a search loop reads, as plain pointers (so that a loop holds them in
  /// registers): valid until the world's next update.
  struct View {
    const SurfaceId* surface;             ///< Per cell.
    const double* multiplier_of_surface;  ///< Per surface id; 0 = blocked.
    const std::uint8_t* moves;            ///< Per cell.
    double multiplier(std::uint32_t index) const { return multiplier_of_surface[surface[index]]; }
  };
  View view() const { return View{ids_, surface_multiplier_.data(), moves_.data()}; }

  /// Bytes this grid holds (moves and tables; the raster is the world's).
  std::size_t memory_bytes() const;

 private:
  void refresh_surfaces();
  void compute_moves(CellRect rect);
  void compute_min_multiplier();

  int width_ = 0;
  int height_ = 0;
  double cell_size_ = 1;
  double min_multiplier_ = 1;
  double max_multiplier_ = 1;
  bool amphibious_ = false;
  const TerrainRaster* raster_ = nullptr;
  const SurfaceId* ids_ = nullptr;            // the raster's cells
  std::vector<double> terrain_multiplier_;    // per terrain; 0 = blocked
  std::vector<std::uint16_t> terrain_group_;  // per terrain: small group number
  std::vector<double> surface_multiplier_;    // per surface id; 0 = blocked
  std::vector<double> surface_ground_;        // per surface id: the multiplier less the cost overlay
  std::vector<std::uint16_t> surface_key_;    // per surface id: 0 blocked, else 1 + group (1 if amphibious)
  std::vector<std::uint8_t> moves_;           // per cell
  std::array<std::int64_t, 8> offsets_{};
};

}  // namespace pathscope
