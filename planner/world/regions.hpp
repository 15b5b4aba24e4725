#pragma once

// Connected regions of one movement class (seed 000, footnote 1: one region map per
// movement modality). Two cells are connected when a sequence of legal moves joins
// them; a query between different regions has no path and needs no search.

#include <cstdint>
#include <vector>

#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// Region label per cell of a CostGrid, stored per run: a run is a stretch of a row
/// joined by east moves, and all its cells share a label. An open map has a few runs
/// per row, so labels cost bytes per row rather than per cell (8 bytes per run).
class RegionMap {
 public:
  /// Label of blocked cells.
  static constexpr std::uint32_t kBlocked = 0xFFFFFFFFu;

  RegionMap() = default;
  /// Labels every passable cell; labels are 0.. in row-major order of first cell.
  explicit RegionMap(const CostGrid& grid);

  /// Label of a cell (row-major index), kBlocked for blocked cells. O(log runs in its row).
  std::uint32_t region(std::uint32_t cell) const;
  std::uint32_t region_count() const { return count_; }
  /// Cells in each region, indexed by label.
  const std::vector<std::uint32_t>& sizes() const { return sizes_; }
  bool connected(std::uint32_t a, std::uint32_t b) const {
    const std::uint32_t ra = region(a);
    return ra != kBlocked && ra == region(b);
  }
  /// Runs stored (memory: 8 bytes each, plus 4 per row).
  std::size_t run_count() const { return run_label_.size(); }

 private:
  int width_ = 0;
  std::vector<std::uint32_t> row_runs_;   // per row + 1: index of the row's first run
  std::vector<std::uint16_t> run_x0_;     // per run: first cell's x (widths <= 65535)
  std::vector<std::uint16_t> run_x1_;     // per run: one past its last cell's x
  std::vector<std::uint32_t> run_label_;  // per run: region label
  std::vector<std::uint32_t> sizes_;
  std::uint32_t count_ = 0;
};

}  // namespace pathscope
