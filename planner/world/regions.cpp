// Connected-region labelling over the legal moves of a CostGrid. Moves are symmetric
// (cost_grid.hpp), so regions are equivalence classes, and orthogonal moves suffice: a
// legal diagonal implies both orthogonal steps are legal.
//
// The classic two-pass connected-component labelling, on runs instead of cells: pass 1
// cuts every row into runs of cells joined by east moves (ids in row-major order of
// their first cell) and unites each run with the runs of the row above that a north
// move joins it to (union-find, the smaller id as root). Two vertically adjacent cells
// are joined exactly when their classes' keys match (cost_grid.cpp), so one north move
// in the overlap of two runs stands for all of them. Pass 2 numbers the roots in order
// of their smallest run, which is the row-major order of each region's first cell.
// Nothing is stored per cell.

#include "planner/world/regions.hpp"

#include <algorithm>
#include <cassert>

namespace pathscope {
namespace {

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t r) {
  std::uint32_t root = r;
  while (parent[root] != root) root = parent[root];
  while (parent[r] != root) {  // path compression
    const std::uint32_t next = parent[r];
    parent[r] = root;
    r = next;
  }
  return root;
}

}  // namespace

RegionMap::RegionMap(const CostGrid& grid) : width_(grid.width()) {
  assert(grid.width() <= 65535);
  const CostGrid::View cells = grid.view();
  const auto w = std::size_t(grid.width());
  const auto h = std::size_t(grid.height());
  constexpr std::uint8_t kEast = 1u << 0, kNorth = 1u << 3;
  std::vector<std::uint32_t> parent;  // run -> parent run
  row_runs_.reserve(h + 1);

  // Pass 1: runs, united with the runs above them.
  for (std::size_t y = 0; y < h; ++y) {
    const std::size_t row = y * w;
    row_runs_.push_back(std::uint32_t(run_x0_.size()));
    for (std::size_t x = 0; x < w;) {
      if (!(cells.multiplier(std::uint32_t(row + x)) > 0)) {
        ++x;
        continue;
      }
      const std::size_t x0 = x;
      while (x + 1 < w && (cells.moves[row + x] & kEast)) ++x;
      ++x;
      const auto run = std::uint32_t(run_x0_.size());
      run_x0_.push_back(std::uint16_t(x0));
      run_x1_.push_back(std::uint16_t(x));
      parent.push_back(run);
    }
    if (y == 0) continue;
    // Merge-walk this row's runs against the row above's.
    std::uint32_t a = row_runs_[y - 1];
    const std::uint32_t a_end = row_runs_[y];
    for (std::uint32_t b = row_runs_[y]; b < std::uint32_t(run_x0_.size()); ++b) {
      while (a < a_end && run_x1_[a] <= run_x0_[b]) ++a;
      for (std::uint32_t k = a; k < a_end && run_x0_[k] < run_x1_[b]; ++k) {
        const std::size_t x = std::max(run_x0_[k], run_x0_[b]);  // a cell of the overlap
        if (!(cells.moves[row + x] & kNorth)) continue;
        const std::uint32_t ra = find_root(parent, k), rb = find_root(parent, b);
        if (ra < rb) parent[rb] = ra;
        if (rb < ra) parent[ra] = rb;
      }
    }
  }
  row_runs_.push_back(std::uint32_t(run_x0_.size()));

  // Pass 2: final labels in order of each region's first run, and region sizes.
  run_label_.resize(parent.size());
  for (std::uint32_t r = 0; r < parent.size(); ++r) {
    const std::uint32_t root = find_root(parent, r);
    if (root == r) {
      run_label_[r] = count_++;
      sizes_.push_back(0);
    } else {
      run_label_[r] = run_label_[root];  // root < r: labelled already
    }
    sizes_[run_label_[r]] += std::uint32_t(run_x1_[r] - run_x0_[r]);
  }
}

std::uint32_t RegionMap::region(std::uint32_t cell) const {
  if (width_ == 0) return kBlocked;
  const std::uint32_t y = cell / std::uint32_t(width_);
  const auto x = std::uint16_t(cell - y * std::uint32_t(width_));
  // The last run of the row starting at or before x.
  const auto first = run_x0_.begin() + row_runs_[y], last = run_x0_.begin() + row_runs_[y + 1];
  const auto it = std::upper_bound(first, last, x);
  if (it == first) return kBlocked;
  const auto r = std::size_t(it - run_x0_.begin()) - 1;
  return x < run_x1_[r] ? run_label_[r] : kBlocked;
}

}  // namespace pathscope
