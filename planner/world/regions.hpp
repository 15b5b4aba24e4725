#pragma once

// Connected regions of one movement class (seed 000, footnote 1: one region map per
// movement modality). Two cells are connected when a sequence of legal moves joins
// them; a query between different regions has no path and needs no search.

#include <cstdint>
#include <vector>

#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// Region label per cell of a CostGrid.
class RegionMap {
 public:
  /// Label of blocked cells.
  static constexpr std::uint32_t kBlocked = 0xFFFFFFFFu;

  RegionMap() = default;
  /// Labels every passable cell; labels are 0.. in row-major order of first cell.
  explicit RegionMap(const CostGrid& grid);

  std::uint32_t region(std::uint32_t cell) const { return label_[cell]; }
  std::uint32_t region_count() const { return count_; }
  /// Cells in each region, indexed by label.
  const std::vector<std::uint32_t>& sizes() const { return sizes_; }
  bool connected(std::uint32_t a, std::uint32_t b) const {
    return label_[a] != kBlocked && label_[a] == label_[b];
  }

 private:
  std::vector<std::uint32_t> label_;
  std::vector<std::uint32_t> sizes_;
  std::uint32_t count_ = 0;
};

}  // namespace pathscope
